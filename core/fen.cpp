#include "fen.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace dama {

namespace {

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

[[noreturn]] void fail(std::string_view fen, const std::string& why) {
  throw Error("bad FEN '" + std::string(fen) + "': " + why);
}

int parse_square(std::string_view fen, std::string_view token, int squares) {
  int value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size())
    fail(fen, "'" + std::string(token) + "' is not a square number");
  if (value < 1 || value > squares)
    fail(fen, "square " + std::string(token) + " is out of range 1-" + std::to_string(squares));
  return value;
}

Color parse_colour(std::string_view fen, char c, const char* what) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'W': return Color::White;
    case 'B': return Color::Black;
    default: fail(fen, std::string("expected W or B for ") + what + ", got '" + c + "'");
  }
}

// Every piece of colour c on the board, in towers too.
template <class Board>
int pieces_in_play(const Position<Board>& p, Color c) {
  int n = popcount(p.of(c));
  if constexpr (kHoldsTowers<Board>) {
    for (const towers::Below below : p.below)
      for (int i = 0; i < towers::count(below); ++i) n += towers::piece(below, i).colour == c;
  }
  return n;
}

}  // namespace

template <class Board>
Position<Board> parse_fen(std::string_view text) {
  using Bitboard = typename Board::Bitboard;
  std::string fen = trim(text);
  if (!fen.empty() && fen.back() == '.') fen.pop_back();  // PDN allows a closing full stop
  if (fen.size() >= 2 && fen.front() == '"' && fen.back() == '"') fen = fen.substr(1, fen.size() - 2);
  if (fen.empty()) fail(text, "empty");

  Position<Board> p;
  std::size_t colon = fen.find(':');
  std::string side = trim(std::string_view(fen).substr(0, colon));
  if (side.size() != 1) fail(text, "expected the side to move (W or B) before the first ':'");
  p.side = parse_colour(text, side[0], "the side to move");

  bool seen[2] = {false, false};
  while (colon != std::string::npos) {
    std::size_t next = fen.find(':', colon + 1);
    std::string section = trim(std::string_view(fen).substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1));
    colon = next;
    if (section.empty()) fail(text, "empty section between ':'");
    const Color colour = parse_colour(text, section[0], "a piece list");
    if (seen[index(colour)]) fail(text, std::string(colour == Color::White ? "white" : "black") + " pieces listed twice");
    seen[index(colour)] = true;

    const std::string_view list = std::string_view(section).substr(1);
    for (std::size_t start = 0; !list.empty() && start <= list.size();) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      std::string item = trim(list.substr(start, comma - start));
      start = comma + 1;
      if (item.empty()) fail(text, "empty entry in a square list");
      bool king = false;
      if (std::toupper(static_cast<unsigned char>(item[0])) == 'K') {
        king = true;
        item = trim(std::string_view(item).substr(1));
      }
      // Towers (bashni): the pieces under the top follow the square, top down.
      const std::size_t tower_at = tower_suffix_start(item);
      const std::string under = tower_at == std::string::npos ? "" : item.substr(tower_at);
      if (tower_at != std::string::npos) item = trim(std::string_view(item).substr(0, tower_at));
      std::size_t dash = item.find('-');
      if (!under.empty() && !kHoldsTowers<Board>)
        fail(text, "'" + item + under + "': pieces under a piece (a tower) exist in bashni only");
      if (!under.empty() && dash != std::string::npos) fail(text, "range " + item + " with a tower: give its squares one by one");
      const int first = parse_square(text, trim(std::string_view(item).substr(0, dash)), Board::kSquares);
      const int last = dash == std::string::npos ? first
                                                 : parse_square(text, trim(std::string_view(item).substr(dash + 1)), Board::kSquares);
      if (last < first) fail(text, "range " + item + " runs backwards");
      for (int s = first; s <= last; ++s) {
        const Bitboard b = Board::square_bit(s);
        if (p.occupied() & b) fail(text, "square " + std::to_string(s) + " is given twice");
        if (!king && (b & Board::kCrowningRow[index(colour)]))
          fail(text, std::string(colour == Color::White ? "white" : "black") + " man on square " + std::to_string(s) +
                         ", its crowning row (it would be a king)");
        p.pieces[index(colour)] |= b;
        if (king) p.kings |= b;
        if constexpr (kHoldsTowers<Board>) {
          for (char piece : under) {
            if (std::string_view("wbWB").find(piece) == std::string_view::npos)
              fail(text, "'" + under + "' under square " + std::to_string(s) + ": a tower is written with w, b, W and B");
            if (towers::count(p.below[lowest_bit(b)]) == Position<Board>::kMaxBelow)
              fail(text, "the tower on square " + std::to_string(s) + " is taller than all the pieces of a game");
            p.below[lowest_bit(b)] = towers::with_bottom(p.below[lowest_bit(b)], {std::tolower(piece) == 'b' ? Color::Black : Color::White,
                                                                              std::isupper(static_cast<unsigned char>(piece)) != 0});
          }
        }
      }
    }
  }
  const int limit = Board::kStartMen;
  for (Color c : {Color::White, Color::Black})
    if (pieces_in_play(p, c) > limit)
      fail(text, "too many " + std::string(c == Color::White ? "white" : "black") + " pieces (" +
                     std::to_string(pieces_in_play(p, c)) + ", at most " + std::to_string(limit) + ")");
  return p;
}

template <class Board>
std::string to_fen(const Position<Board>& p) {
  std::string out(1, p.side == Color::White ? 'W' : 'B');
  for (Color c : {Color::White, Color::Black}) {
    out += c == Color::White ? ":W" : ":B";
    bool first = true;
    for (int s = 1; s <= Board::kSquares; ++s) {
      const auto b = Board::square_bit(s);
      if (!(p.of(c) & b)) continue;
      if (!first) out += ',';
      first = false;
      if (p.kings & b) out += 'K';
      out += std::to_string(s) + tower_suffix(p, lowest_bit(b));
    }
  }
  return out;
}

template Position<Board8> parse_fen<Board8>(std::string_view);
template Position<Board10> parse_fen<Board10>(std::string_view);
template std::string to_fen<Board8>(const Position<Board8>&);
template std::string to_fen<Board10>(const Position<Board10>&);
template Position<Board10x8> parse_fen<Board10x8>(std::string_view);
template std::string to_fen<Board10x8>(const Position<Board10x8>&);
template Position<Towers<Board8>> parse_fen<Towers<Board8>>(std::string_view);
template std::string to_fen<Towers<Board8>>(const Position<Towers<Board8>>&);

}  // namespace dama
