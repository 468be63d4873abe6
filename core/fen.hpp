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

}  // namespace dama
