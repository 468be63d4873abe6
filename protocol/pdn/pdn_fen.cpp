#include "pdn_fen.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "fen.hpp"
#include "pdn_squares.hpp"

namespace dama {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(separator, start);
    parts.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

[[noreturn]] void fail(std::string_view fen, const std::string& why) {
  throw Error("bad FEN '" + std::string(fen) + "': " + why);
}

// dama's square numbers of one list item: "K12", "21-32", "c3".
template <class Board>
std::vector<int> dama_squares(std::string_view fen, std::string_view item, const PdnGameType& type) {
  auto square = [&](std::string_view token) {
    const auto bit = read_pdn_square<Board>(trimmed(token), type);
    if (!bit) fail(fen, "'" + std::string(token) + "' is not a square of the board");
    return Board::kSquareOfBit[*bit];
  };
  const std::size_t dash = item.find('-');
  if (dash == std::string_view::npos) return {square(item)};
  // A range runs over the GameType's own numbers.
  const auto number = [&](std::string_view token) {
    token = trimmed(token);
    if (token.empty() || !std::all_of(token.begin(), token.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      fail(fen, "range '" + std::string(item) + "' is not of square numbers");
    return native_square_number<Board>(square(token), type.numbering);
  };
  const int first = number(item.substr(0, dash)), last = number(item.substr(dash + 1));
  if (last < first) fail(fen, "range " + std::string(item) + " runs backwards");
  std::vector<int> out;
  for (int n = first; n <= last; ++n) out.push_back(dama_square_number<Board>(n, type.numbering));
  return out;
}

}  // namespace

template <class Board>
std::string to_pdn_fen(const Position<Board>& p, const PdnGameType& type) {
  std::string out(1, p.side == Color::White ? 'W' : 'B');
  for (Color c : {Color::White, Color::Black}) {
    out += c == Color::White ? ":W" : ":B";
    std::vector<std::pair<int, std::string>> pieces;  // in the GameType's order of numbers
    for (int s = 1; s <= Board::kSquares; ++s) {
      const auto b = Board::square_bit(s);
      if (!(p.of(c) & b)) continue;
      const std::string name = pdn_square_name<Board>(Board::kBitOfSquare[s], type);
      pieces.emplace_back(native_square_number<Board>(s, type.numbering),
                          ((p.kings & b) ? "K" : "") + name + tower_suffix(p, Board::kBitOfSquare[s]));
    }
    std::sort(pieces.begin(), pieces.end());
    for (std::size_t i = 0; i < pieces.size(); ++i) out += (i ? "," : "") + pieces[i].second;
  }
  return out;
}

template <class Board>
Position<Board> parse_pdn_fen(std::string_view text, const PdnGameType& type) {
  std::string_view fen = trimmed(text);
  if (fen.size() >= 2 && fen.front() == '"' && fen.back() == '"') fen = trimmed(fen.substr(1, fen.size() - 2));
  if (!fen.empty() && fen.back() == '.') fen.remove_suffix(1);  // PDN 2.0 files end it with a full stop
  const auto sections = split(fen, ':');
  std::string dama_fen(trimmed(sections.front()));
  for (std::size_t i = 1; i < sections.size(); ++i) {
    const std::string_view section = trimmed(sections[i]);
    if (section.empty()) fail(text, "empty section between ':'");
    dama_fen += ":" + std::string(1, section.front());
    const std::string_view list = trimmed(section.substr(1));
    if (list.empty()) continue;  // a side with no pieces
    bool first = true;
    for (std::string_view item : split(list, ',')) {
      item = trimmed(item);
      if (item.empty()) fail(text, "empty entry in a square list");
      const bool king = item.front() == 'K' || item.front() == 'k';
      if (king) item.remove_prefix(1);
      // Bashni's towers: the suffix after the square is dama's FEN's too.
      const std::size_t tower_at = tower_suffix_start(item);
      const std::string_view under = tower_at == std::string_view::npos ? std::string_view() : item.substr(tower_at);
      if (!under.empty() && item.substr(0, tower_at).find('-') != std::string_view::npos)
        fail(text, "range " + std::string(item) + " with a tower: give its squares one by one");
      for (int s : dama_squares<Board>(text, item.substr(0, tower_at), type)) {
        dama_fen += (first ? "" : ",") + std::string(king ? "K" : "") + std::to_string(s) + std::string(under);
        first = false;
      }
    }
  }
  try {
    return parse_fen<Board>(dama_fen);
  } catch (const Error& e) {
    // parse_fen names dama's rewritten FEN; name the tag as written instead.
    const std::string what = e.what();
    const std::size_t reason = what.find("': ");
    const bool renumbered = type.numbering != SquareNumbering::Standard;
    fail(text, (reason == std::string::npos ? what : what.substr(reason + 3)) +
                   (renumbered ? " (in dama's numbering of the squares)" : ""));
  }
}

template std::string to_pdn_fen<Board8>(const Position<Board8>&, const PdnGameType&);
template std::string to_pdn_fen<Board10>(const Position<Board10>&, const PdnGameType&);
template Position<Board8> parse_pdn_fen<Board8>(std::string_view, const PdnGameType&);
template Position<Board10> parse_pdn_fen<Board10>(std::string_view, const PdnGameType&);
template std::string to_pdn_fen<Board10x8>(const Position<Board10x8>&, const PdnGameType&);
template Position<Board10x8> parse_pdn_fen<Board10x8>(std::string_view, const PdnGameType&);
template std::string to_pdn_fen<Towers<Board8>>(const Position<Towers<Board8>>&, const PdnGameType&);
template Position<Towers<Board8>> parse_pdn_fen<Towers<Board8>>(std::string_view, const PdnGameType&);

}  // namespace dama
