#include "material.hpp"

#include <algorithm>
#include <cctype>

namespace dama::egtb {

namespace {

std::string count_of(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string side_text(int men, int kings) {
  std::string s;
  if (men > 0) s += count_of(men, "man", "men");
  if (kings > 0) s += (s.empty() ? "" : " ") + count_of(kings, "king", "kings");
  return s;
}

}  // namespace

std::string Material::describe() const {
  return side_text(own_men, own_kings) + " v " + side_text(other_men, other_kings);
}

std::vector<Material> materials_in_build_order(int max_pieces) {
  std::vector<Material> all;
  for (int n = 2; n <= max_pieces; ++n)
    for (int men = 0; men <= n; ++men)
      for (int own = 1; own < n; ++own)
        for (int own_men = 0; own_men <= std::min(own, men); ++own_men) {
          const int other_men = men - own_men;
          if (other_men > n - own) continue;
          const Material m{own_men, own - own_men, other_men, n - own - other_men};
          if (std::find(all.begin(), all.end(), m) != all.end()) continue;
          all.push_back(m);
          if (!(m.swapped() == m)) all.push_back(m.swapped());
        }
  return all;
}

bool parse_material(const std::string& code, Material& out) {
  if (code.size() != 4 || !std::all_of(code.begin(), code.end(), [](unsigned char c) { return std::isdigit(c); }))
    return false;
  out = {code[0] - '0', code[1] - '0', code[2] - '0', code[3] - '0'};
  return out.own() > 0 && out.other() > 0;
}

}  // namespace dama::egtb
