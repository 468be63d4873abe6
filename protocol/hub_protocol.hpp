// The Hub protocol, version 2 (as the Scan engine and the Hub GUI speak it):
// line syntax, the position string and the move format.  Pure functions; the
// conversation itself lives in hub_server.cpp.
//
// A line is `<command> <name>=<value> <flag> ...`; values may be quoted with
// double quotes.  A position is the side to move ('W' or 'B') and one
// character per square in PDN order ('w', 'b' men, 'W', 'B' kings, 'e'
// empty): 33 characters on 8x8, 51 on 10x10.  A quiet move is "32-28"; a
// capture is from, to and every captured square, in any order: "28x19x23".
// Bashni (dama's extension, docs/engine-play.md): a square holding a tower
// of two or more pieces is written as the tower in brackets, top down,
// "(wbB)"; a capture lists its captured squares in the order jumped, which
// tells apart two captures over the same towers in another order.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fen.hpp"
#include "movegen.hpp"

namespace dama::hub {

struct Line {
  std::string command;
  std::vector<std::pair<std::string, std::string>> args;  // flags have an empty value

  bool has(std::string_view name) const;
  std::optional<std::string> get(std::string_view name) const;
};

// Throws dama::Error on an unterminated quote.
Line parse_line(std::string_view text);

// Quotes a value when it is empty or holds a space, '=' or '"'.
std::string quote(std::string_view value);

namespace detail {

// The squares of a position string, one text each: "w", "e", or (bashni,
// dama's extension) a tower of two or more in brackets, top down: "(wbB)".
template <class Board>
std::vector<std::string> square_texts(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] != '(' || !kHoldsTowers<Board>) {
      out.emplace_back(1, text[i]);
      continue;
    }
    const std::size_t close = text.find(')', i);
    if (close == std::string_view::npos)
      throw Error("hub position: the tower of square " + std::to_string(out.size() + 1) + " has no ')'");
    out.emplace_back(text.substr(i + 1, close - i - 1));
    if (out.back().size() < 2)
      throw Error("hub position: the tower of square " + std::to_string(out.size()) + " holds fewer than two pieces");
    i = close;
  }
  return out;
}

}  // namespace detail

template <class Board>
Position<Board> parse_position(std::string_view text) {
  const std::vector<std::string> squares = text.empty() ? std::vector<std::string>() : detail::square_texts<Board>(text);
  if (squares.size() != static_cast<std::size_t>(Board::kSquares))
    throw Error("hub position '" + std::string(text) + "': expected the side to move and " + std::to_string(Board::kSquares) +
                " squares, got " + std::to_string(squares.size()) + " squares");
  Position<Board> p;
  if (text[0] == 'W') p.side = Color::White;
  else if (text[0] == 'B') p.side = Color::Black;
  else throw Error(std::string("hub position: side to move must be W or B, got '") + text[0] + "'");
  for (int s = 1; s <= Board::kSquares; ++s) {
    const auto bit = Board::square_bit(s);
    const std::string& square = squares[static_cast<std::size_t>(s - 1)];
    for (std::size_t i = 0; i < square.size(); ++i) {
      const char c = square[i];
      if (std::string_view(i == 0 ? "ewbWB" : "wbWB").find(c) == std::string_view::npos)
        throw Error("hub position: square " + std::to_string(s) + " has '" + std::string(1, c) + "' (expected w, b, W, B" +
                    (i == 0 ? " or e)" : " in a tower)"));
      if (c == 'e') break;
      const Color colour = c == 'w' || c == 'W' ? Color::White : Color::Black;
      const bool king = c == 'W' || c == 'B';
      if (i == 0) {
        p.pieces[index(colour)] |= bit;
        if (king) p.kings |= bit;
      } else if constexpr (kHoldsTowers<Board>) {
        if (towers::count(p.below[lowest_bit(bit)]) == Position<Board>::kMaxBelow)
          throw Error("hub position: the tower of square " + std::to_string(s) + " is taller than all the pieces of a game");
        p.below[lowest_bit(bit)] = towers::with_bottom(p.below[lowest_bit(bit)], {colour, king});
      }
    }
  }
  for (Color c : {Color::White, Color::Black})
    if (p.men(c) & Board::kCrowningRow[index(c)])
      throw Error("hub position: a " + std::string(c == Color::White ? "white" : "black") + " man on its crowning row");
  return p;
}

template <class Board>
std::string format_position(const Position<Board>& p) {
  std::string s(1, p.side == Color::White ? 'W' : 'B');
  for (int sq = 1; sq <= Board::kSquares; ++sq) {
    const auto bit = Board::square_bit(sq);
    const bool king = p.kings & bit;
    const char top = p.pieces[0] & bit ? (king ? 'W' : 'w') : p.pieces[1] & bit ? (king ? 'B' : 'b') : 'e';
    const std::string under = tower_suffix(p, lowest_bit(bit));
    s += under.empty() ? std::string(1, top) : "(" + std::string(1, top) + under + ")";
  }
  return s;
}

template <class Board>
std::string format_move(const Move<Board>& m) {
  const auto name = [](int bit) { return std::to_string(Board::kSquareOfBit[bit]); };
  if (!m.is_capture()) return name(m.from) + "-" + name(m.to);
  std::string s = name(m.from) + "x" + name(m.to);
  if constexpr (kHoldsTowers<Board>) towers::for_each_jumped(m, [&](int b) { s += "x" + name(b); });
  else for_each_bit(m.captured, [&](int b) { s += "x" + name(b); });
  return s;
}

// Finds the legal move written in Hub format; throws dama::Error otherwise.
template <RuleSet R>
Move<BoardFor<R>> parse_move(const Position<BoardFor<R>>& p, std::string_view text) {
  using Board = BoardFor<R>;
  std::vector<int> squares;
  bool capture = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '-' && text[i] != 'x') continue;
    if (i < text.size()) capture |= text[i] == 'x';
    const std::string token(text.substr(start, i - start));
    const bool digits = !token.empty() && token.size() <= 2 && std::all_of(token.begin(), token.end(), ::isdigit);
    const int square = digits ? std::stoi(token) : 0;
    if (square < 1 || square > Board::kSquares)
      throw Error("hub move '" + std::string(text) + "': '" + token + "' is not a square");
    squares.push_back(square);
    start = i + 1;
  }
  if (squares.size() < 2) throw Error("hub move '" + std::string(text) + "': expected from-to or fromxto[xcaptured...]");
  typename Board::Bitboard captured = 0;
  for (std::size_t i = 2; i < squares.size(); ++i) captured |= Board::square_bit(squares[i]);
  MoveList<Board> legal;
  MoveGenerator<R>::generate(p, legal);
  for (const auto& m : legal) {
    if (Board::kSquareOfBit[m.from] != squares[0] || Board::kSquareOfBit[m.to] != squares[1]) continue;
    if (m.is_capture() != capture) continue;
    if (squares.size() > 2 && m.captured != captured) continue;
    if constexpr (kHoldsTowers<Board>) {
      if (squares.size() > 2) {
        std::vector<int> jumped;
        towers::for_each_jumped(m, [&](int b) { jumped.push_back(Board::kSquareOfBit[b]); });
        if (!std::equal(jumped.begin(), jumped.end(), squares.begin() + 2, squares.end())) continue;
      }
    }
    return m;
  }
  throw Error("hub move '" + std::string(text) + "' is not legal in " + format_position(p));
}

}  // namespace dama::hub
