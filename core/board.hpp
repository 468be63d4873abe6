// Board geometry: where each square lives in a bitboard and how a set of
// squares steps one square along a diagonal.  Two layouts:
//  * Board8: 32-bit, the "rotation" layout.  Square (x, y) lives at bit
//    (u + 7v) mod 32 with u = (x+y)/2, v = (y-x)/2, so every diagonal step is a
//    rotation by 1 or 7 for every square; a mask drops squares whose step would
//    leave the board (and wrap onto another square).
//  * Board10 and Board10x8: 64-bit with one ghost bit after every ten squares
//    (bit = i + i/10 for square index i), so every diagonal step is a shift by
//    5 or 6 and every step off the board lands on a ghost bit or outside the
//    word.  Callers always intersect a step with a set of real squares (empty,
//    enemy), which drops ghost bits for free.  The 10x8 board (Russian
//    draughts with two more columns, docs/rules-russian-family.md) is the
//    10x10 layout with two row pairs fewer: the step shifts are the same.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "bitboard.hpp"

namespace dama {

enum class Color : std::uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) { return Color(static_cast<int>(c) ^ 1); }
constexpr int index(Color c) { return static_cast<int>(c); }

// NE/NW point towards Black's side (row 8 / row 10), where White crowns.
enum Dir : int { NE = 0, NW = 1, SE = 2, SW = 3 };
constexpr Dir opposite(Dir d) { return Dir(3 - d); }
constexpr int kDirDx[4] = {+1, -1, +1, -1};
constexpr int kDirDy[4] = {+1, +1, -1, -1};

// A board's size: columns (files) by rows.  A structural type, so that a
// rule set holding one can be a template argument.
struct BoardShape {
  int width = 8;
  int height = 8;
  constexpr bool operator==(const BoardShape&) const = default;
};

// "8x8", "10x8": columns first.
inline std::string shape_name(BoardShape s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// Tables every layout derives the same way from its bit_of(x, y) mapping.
template <class Layout>
struct BoardTables {
  using Bitboard = typename Layout::Bitboard;
  static constexpr int kWidth = Layout::kWidth;    // columns
  static constexpr int kHeight = Layout::kHeight;  // rows
  static constexpr BoardShape kShape{kWidth, kHeight};
  static constexpr int kSquares = kWidth * kHeight / 2;
  static constexpr int kSquaresPerRow = kWidth / 2;
  static constexpr int kBitCount = sizeof(Bitboard) * 8;
  // Each side's men at the start: the dark squares of its nearest rows, all
  // but the two middle rows.
  static constexpr int kStartMen = kSquaresPerRow * (kHeight / 2 - 1);
  // The most squares a king can see from one square, along both diagonals.
  static constexpr int kMaxKingSteps = kWidth == kHeight ? 2 * kWidth - 3 : 2 * (std::min(kWidth, kHeight) - 1);
  // The longest diagonal, in steps.
  static constexpr int kLongestDiagonal = std::min(kWidth, kHeight) - 1;

  static constexpr bool is_dark(int x, int y) { return (x + y) % 2 == 0; }
  static constexpr bool on_board(int x, int y) { return x >= 0 && y >= 0 && x < kWidth && y < kHeight; }
  // The letter of column x in algebraic notation; 'j' is skipped on the
  // 10x8 board (its columns are a-h, i and k: docs/rules-russian-family.md).
  static constexpr char column_letter(int x) { return Layout::kColumnLetters[x]; }
  // The column of a letter, or -1.  Where the letters skip 'j', a 'j' is
  // read as the tenth column too: PDN 3.0 does not say how a board wider
  // than 8 is lettered, and programs that letter every column write j.
  static constexpr int column_of_letter(char letter) {
    for (int x = 0; x < kWidth; ++x)
      if (Layout::kColumnLetters[x] == letter) return x;
    if (letter == 'j' && kWidth == 10 && Layout::kColumnLetters[9] == 'k') return 9;
    return -1;
  }

  // PDN square number (1-based) -> coordinates; row 0 of the numbering is the top.
  static constexpr int x_of_square(int square) {
    int row = (square - 1) / kSquaresPerRow, col = (square - 1) % kSquaresPerRow;
    return 2 * col + (row % 2 == 0 ? 1 : 0);
  }
  static constexpr int y_of_square(int square) { return kHeight - 1 - (square - 1) / kSquaresPerRow; }
  static constexpr int square_of_xy(int x, int y) {
    int row = kHeight - 1 - y;
    return row * kSquaresPerRow + x / 2 + 1;
  }

  static constexpr std::array<int, kSquares + 1> make_bit_of_square() {
    std::array<int, kSquares + 1> t{};
    t[0] = -1;
    for (int s = 1; s <= kSquares; ++s) t[s] = Layout::bit_of_xy(x_of_square(s), y_of_square(s));
    return t;
  }
  static constexpr std::array<int, kBitCount> make_square_of_bit() {
    std::array<int, kBitCount> t{};
    for (auto& v : t) v = 0;
    for (int s = 1; s <= kSquares; ++s) t[Layout::bit_of_xy(x_of_square(s), y_of_square(s))] = s;
    return t;
  }
  static constexpr Bitboard make_all() {
    Bitboard b = 0;
    for (int s = 1; s <= kSquares; ++s) b |= Bitboard{1} << make_bit_of_square()[s];
    return b;
  }
  static constexpr std::array<Bitboard, 4> make_has_neighbour() {
    std::array<Bitboard, 4> t{};
    for (int d = 0; d < 4; ++d) {
      t[d] = 0;
      for (int s = 1; s <= kSquares; ++s)
        if (on_board(x_of_square(s) + kDirDx[d], y_of_square(s) + kDirDy[d]))
          t[d] |= Bitboard{1} << make_bit_of_square()[s];
    }
    return t;
  }
  static constexpr Bitboard make_row(int y) {
    Bitboard b = 0;
    for (int s = 1; s <= kSquares; ++s)
      if (y_of_square(s) == y) b |= Bitboard{1} << make_bit_of_square()[s];
    return b;
  }
  // The men of side `side` (0 White, 1 Black) at the start: every dark
  // square of its kHeight / 2 - 1 nearest rows (kStartMen of them).
  static constexpr Bitboard make_start_men(int side) {
    const int rows = kHeight / 2 - 1;
    Bitboard b = 0;
    for (int y = 0; y < kHeight; ++y)
      if (side == 0 ? y < rows : y >= kHeight - rows) b |= make_row(y);
    return b;
  }
};

struct Layout8 {
  using Bitboard = std::uint32_t;
  static constexpr int kWidth = 8, kHeight = 8;
  static constexpr const char* kColumnLetters = "abcdefgh";
  static constexpr int kMaxCaptures = 12;  // a side has 12 pieces
  static constexpr int bit_of_xy(int x, int y) {
    int u = (x + y) / 2, v = (y - x) / 2;
    return ((u + 7 * v) % 32 + 32) % 32;
  }
};

// Ten columns, `Rows` rows; square index i counts from the top left.
template <int Rows>
struct LayoutTenWide {
  using Bitboard = std::uint64_t;
  static constexpr int kWidth = 10, kHeight = Rows;
  static constexpr const char* kColumnLetters = Rows == 10 ? "abcdefghij" : "abcdefghik";
  static constexpr int kMaxCaptures = 5 * (Rows / 2 - 1);  // a side's men at the start
  static constexpr int bit_of_xy(int x, int y) {
    int i = (Rows - 1 - y) * 5 + x / 2;
    return i + i / 10;
  }
};
using Layout10 = LayoutTenWide<10>;
using Layout10x8 = LayoutTenWide<8>;

// Everything the generator needs of a layout, as constants.
template <class Layout>
struct Geometry : BoardTables<Layout> {
  using T = BoardTables<Layout>;
  using Bitboard = typename Layout::Bitboard;
  static constexpr int kMaxCaptures = Layout::kMaxCaptures;
  static constexpr auto kBitOfSquare = T::make_bit_of_square();
  static constexpr auto kSquareOfBit = T::make_square_of_bit();
  static constexpr Bitboard kAll = T::make_all();
  static constexpr auto kHasNeighbour = T::make_has_neighbour();
  // The row where a colour's men are crowned.
  static constexpr Bitboard kCrowningRow[2] = {T::make_row(Layout::kHeight - 1), T::make_row(0)};

  // Squares two steps from the edge along each direction.
  static constexpr std::array<Bitboard, 4> kHasTwoSteps = [] {
    std::array<Bitboard, 4> t{};
    for (int d = 0; d < 4; ++d) {
      t[d] = 0;
      for (int s = 1; s <= T::kSquares; ++s)
        if (T::on_board(T::x_of_square(s) + 2 * kDirDx[d], T::y_of_square(s) + 2 * kDirDy[d]))
          t[d] |= Bitboard{1} << kBitOfSquare[s];
    }
    return t;
  }();

  static constexpr Bitboard square_bit(int square) { return Bitboard{1} << kBitOfSquare[square]; }

  template <Dir D>
  static constexpr Bitboard step(Bitboard b) {
    if constexpr (Layout::kWidth == 8) {
      b &= kHasNeighbour[D];
      if constexpr (D == NE) return std::rotl(b, 1);
      if constexpr (D == NW) return std::rotl(b, 7);
      if constexpr (D == SE) return std::rotr(b, 7);
      if constexpr (D == SW) return std::rotr(b, 1);
    } else {
      if constexpr (D == NE) return b >> 5;
      if constexpr (D == NW) return b >> 6;
      if constexpr (D == SE) return b << 6;
      if constexpr (D == SW) return b << 5;
    }
  }
  // A step for squares known to have a neighbour along D (no edge mask).
  template <Dir D>
  static constexpr Bitboard step_unmasked(Bitboard b) {
    if constexpr (Layout::kWidth == 8) {
      if constexpr (D == NE) return std::rotl(b, 1);
      if constexpr (D == NW) return std::rotl(b, 7);
      if constexpr (D == SE) return std::rotr(b, 7);
      if constexpr (D == SW) return std::rotr(b, 1);
    } else {
      return step<D>(b);
    }
  }
  static constexpr Bitboard step(Bitboard b, Dir d) {
    switch (d) {
      case NE: return step<NE>(b);
      case NW: return step<NW>(b);
      case SE: return step<SE>(b);
      default: return step<SW>(b);
    }
  }
};

using Board8 = Geometry<Layout8>;
using Board10 = Geometry<Layout10>;
using Board10x8 = Geometry<Layout10x8>;

// A board whose squares hold towers (bashni): B's geometry, and a distinct
// type so that Position<Towers<B>> can keep a stack of pieces per square
// (core/towers/tower_position.hpp) while the move generator, which sees only
// the top pieces, stays the one every variant uses.
template <class B>
struct Towers : B {};

template <class Board>
inline constexpr bool kHoldsTowers = false;
template <class B>
inline constexpr bool kHoldsTowers<Towers<B>> = true;

}  // namespace dama
