// PDN FEN: "W:W21,22,K30:B1-12" — side to move, then each side's squares with
// K before a king; ranges are accepted on input, never written.  Bashni's
// towers: a square is followed by the pieces under its top piece, top down,
// as Lasca's notation writes a column (w, b men; W, B kings): "W:W21bW,22:B1-12"
// is a white man on 21 over a black man over a white king
// (docs/rules-russian-family.md).
#pragma once

#include <string>
#include <string_view>

#include "position.hpp"

namespace dama {

// Throws dama::Error naming what is wrong (bad syntax, square out of range, a
// square given twice, a man on its crowning row, too many pieces).
template <class Board>
Position<Board> parse_fen(std::string_view fen);

template <class Board>
std::string to_fen(const Position<Board>& p);

// Where the tower suffix of a FEN item starts ("22bB", "c3wb", "K8www"): the
// first w, b, W or B right after a digit of the square; npos when none (so
// "b4" is a square, and "abc" a bad one, not a tower).
constexpr std::size_t tower_suffix_start(std::string_view item) {
  for (std::size_t i = 1; i < item.size(); ++i)
    if (item[i - 1] >= '0' && item[i - 1] <= '9' && std::string_view("wbWB").find(item[i]) != std::string_view::npos)
      return i;
  return std::string_view::npos;
}

// The tower suffix of the square at `bit`: the pieces under its top, top
// down; empty on boards without towers and for a lone piece.
template <class Board>
std::string tower_suffix(const Position<Board>& p, int bit) {
  std::string out;
  if constexpr (kHoldsTowers<Board>) {
    const towers::Below below = p.below[bit];
    for (int i = 0; i < towers::count(below); ++i) {
      const towers::Piece piece = towers::piece(below, i);
      out += piece.colour == Color::White ? (piece.king ? 'W' : 'w') : (piece.king ? 'B' : 'b');
    }
  }
  return out;
}

}  // namespace dama
