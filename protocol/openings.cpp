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

namespace detail {
// Defined in the embedded_openings.cpp CMake generates from configs/openings/*.pdn.
struct EmbeddedFile {
  std::string_view name;  // the variant
  std::string_view text;
};
extern const EmbeddedFile kEmbeddedOpeningFiles[];
}  // namespace detail

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// A PDN file of games rather than FEN lines: a game's tags other than FEN, or movetext.
bool is_pdn_games(const std::string& text) {
  std::istringstream lines(text);
  for (std::string raw; std::getline(lines, raw);) {
    const std::string line = trimmed(raw);
    if (line.rfind("[Event ", 0) == 0 || line.rfind("[GameType ", 0) == 0 || line.rfind("[Result ", 0) == 0 ||
        line.rfind("1.", 0) == 0)
      return true;
  }
  return false;
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

std::optional<std::string> shipped_openings(const Variant& variant) {
  for (const auto* f = detail::kEmbeddedOpeningFiles; !f->name.empty(); ++f)
    if (f->name == variant.name) return std::string(kBuiltinPrefix) + std::string(f->name);
  return std::nullopt;
}

OpeningsFile read_openings(const std::string& path) {
  std::ostringstream bytes;
  if (path.rfind(kBuiltinPrefix, 0) == 0) {
    const std::string_view name = std::string_view(path).substr(kBuiltinPrefix.size());
    const auto* f = detail::kEmbeddedOpeningFiles;
    while (!f->name.empty() && f->name != name) ++f;
    if (f->name.empty()) throw Error("--openings " + path + ": no such built-in openings (dama ships configs/openings/*.pdn)");
    bytes << f->text;
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("--openings: cannot read " + path + ": " + std::strerror(errno));
    bytes << in.rdbuf();
  }
  OpeningsFile file{path, {}, text_digest(bytes.str())};
  if (is_pdn_games(bytes.str())) {
    for (auto& game : split_pdn_games(bytes.str(), path)) {
      const int line = game.line;
      file.openings.push_back({line, "", true, std::move(game)});
    }
    if (file.openings.empty()) throw Error(path + ": no games (a PDN openings file holds one game per opening)");
    return file;
  }

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
template Position<Board10x8> opening_position<Board10x8>(const OpeningLine&, const Variant&);
template Position<Towers<Board8>> opening_position<Towers<Board8>>(const OpeningLine&, const Variant&);

}  // namespace dama
