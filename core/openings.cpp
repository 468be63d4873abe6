#include "openings.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "error.hpp"
#include "fen.hpp"
#include "pdn/pdn_fen.hpp"

namespace dama {

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::string text_digest(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

OpeningsFile read_openings(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("--openings: cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  OpeningsFile file{path, {}, text_digest(bytes.str())};

  std::istringstream lines(bytes.str());
  std::string raw;
  for (int number = 1; std::getline(lines, raw); ++number) {
    std::string text = trimmed(raw);
    if (text.empty() || text.front() == '#') continue;
    const bool pdn_tag = text.front() == '[';
    if (pdn_tag) {
      // [FEN "..."]: the tag form of a PDN game header.
      const std::string prefix = "[FEN \"";
      if (text.rfind(prefix, 0) != 0 || text.size() < prefix.size() + 2 || text.substr(text.size() - 2) != "\"]")
        throw Error(path + ":" + std::to_string(number) + ": expected a FEN or [FEN \"...\"], got '" + text + "'");
      text = text.substr(prefix.size(), text.size() - prefix.size() - 2);
    }
    file.openings.push_back({number, text, pdn_tag});
  }
  if (file.openings.empty()) throw Error(path + ": no openings (expected one PDN FEN per line)");
  return file;
}

template <class Board>
Position<Board> opening_position(const OpeningLine& line, const Variant& variant) {
  return line.pdn_tag ? parse_pdn_fen<Board>(line.fen, pdn_game_type_of(variant)) : parse_fen<Board>(line.fen);
}

template Position<Board8> opening_position<Board8>(const OpeningLine&, const Variant&);
template Position<Board10> opening_position<Board10>(const OpeningLine&, const Variant&);

}  // namespace dama
