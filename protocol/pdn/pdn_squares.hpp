// Squares as a PDN GameType names them: numbers in the GameType's own
// numbering, or algebraic names on its own board.
//
// dama keeps one orientation for every variant (RULES.md "Notation": a1 dark,
// square 1 at the top left as White sees the board).  Italian and Spanish are
// officially played on the mirror image of that board (a1 light), so a square
// at column x of dama's board stands at column size-1-x of theirs; Italian
// numbers its squares from the top left, row by row left to right (PDN 3.0
// "N2"), Spanish from White's bottom right, row by row right to left ("N1";
// White's men on 1-12).  Every rule is mirror-symmetric, so only the names
// change.
#pragma once

#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "notation.hpp"
#include "pdn_game_type.hpp"

namespace dama {

namespace detail {

// The GameType's number of dama's square `square` (1..N) on a board of `size`.
template <class Board>
constexpr int native_number(int square, SquareNumbering numbering) {
  const int x = Board::x_of_square(square), y = Board::y_of_square(square);
  const int last_column = Board::kWidth - 1, last_row = Board::kHeight - 1;
  switch (numbering) {
    case SquareNumbering::Standard: return square;
    case SquareNumbering::Italian: return (last_row - y) * Board::kSquaresPerRow + (last_column - x) / 2 + 1;
    case SquareNumbering::Spanish: return y * Board::kSquaresPerRow + x / 2 + 1;
  }
  return square;
}

// dama's square of each native number (index 0 unused).
template <class Board>
constexpr std::array<int, Board::kSquares + 1> dama_square_table(SquareNumbering numbering) {
  std::array<int, Board::kSquares + 1> table{};
  for (int s = 1; s <= Board::kSquares; ++s) table[native_number<Board>(s, numbering)] = s;
  return table;
}

}  // namespace detail

template <class Board>
constexpr int native_square_number(int dama_square, SquareNumbering numbering) {
  return detail::native_number<Board>(dama_square, numbering);
}

template <class Board>
constexpr int dama_square_number(int native_square, SquareNumbering numbering) {
  return detail::dama_square_table<Board>(numbering)[native_square];
}

// The name of the square at `bit_index` in the GameType's notation.
template <class Board>
std::string pdn_square_name(int bit_index, const PdnGameType& type) {
  const int square = Board::kSquareOfBit[bit_index];
  if (type.notation == Notation::Numeric) return std::to_string(native_square_number<Board>(square, type.numbering));
  const bool mirrored = type.numbering != SquareNumbering::Standard;
  const int x = Board::x_of_square(square), y = Board::y_of_square(square);
  std::string name(1, Board::column_letter(mirrored ? Board::kWidth - 1 - x : x));
  return name + std::to_string(y + 1);
}

// A square token in either form, numbers in the GameType's numbering (a
// leading zero allowed), letters on the GameType's board; its bit index, or
// nothing when the token is not a playing square.
template <class Board>
std::optional<int> read_pdn_square(std::string_view token, const PdnGameType& type) {
  if (token.size() > 3) return std::nullopt;
  const auto parts = split_square_token(token);
  if (!parts) return std::nullopt;
  if (parts->numeric) {
    if (parts->number < 1 || parts->number > Board::kSquares) return std::nullopt;
    return Board::kBitOfSquare[dama_square_number<Board>(parts->number, type.numbering)];
  }
  const bool mirrored = type.numbering != SquareNumbering::Standard;
  const int column = Board::column_of_letter(parts->column);
  const int x = mirrored ? Board::kWidth - 1 - column : column, y = parts->number - 1;
  if (column < 0 || !Board::on_board(x, y) || !Board::is_dark(x, y)) return std::nullopt;
  return Board::kBitOfSquare[Board::square_of_xy(x, y)];
}

}  // namespace dama
