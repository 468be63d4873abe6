// Board geometry: where each square lives in a bitboard and how a set of
// squares steps one square along a diagonal.  Two layouts:
//  * Board8: 32-bit, the "rotation" layout.  Square (x, y) lives at bit
//    (u + 7v) mod 32 with u = (x+y)/2, v = (y-x)/2, so every diagonal step is a
//    rotation by 1 or 7 for every square; a mask drops squares whose step would
//    leave the board (and wrap onto another square).
//  * Board10: 64-bit with one ghost bit after every ten squares (bit = i + i/10
//    for square index i), so every diagonal step is a shift by 5 or 6 and every
//    step off the board lands on a ghost bit or outside the word.  Callers always
//    intersect a step with a set of real squares (empty, enemy), which drops
//    ghost bits for free.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

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

// Tables every layout derives the same way from its bit_of(x, y) mapping.
template <class Layout>
struct BoardTables {
  using Bitboard = typename Layout::Bitboard;
  static constexpr int kSize = Layout::kSize;
  static constexpr int kSquares = kSize * kSize / 2;
  static constexpr int kSquaresPerRow = kSize / 2;
  static constexpr int kBitCount = sizeof(Bitboard) * 8;

  static constexpr bool is_dark(int x, int y) { return (x + y) % 2 == 0; }
  static constexpr bool on_board(int x, int y) { return x >= 0 && y >= 0 && x < kSize && y < kSize; }

  // PDN square number (1-based) -> coordinates; row 0 of the numbering is the top.
  static constexpr int x_of_square(int square) {
    int row = (square - 1) / kSquaresPerRow, col = (square - 1) % kSquaresPerRow;
    return 2 * col + (row % 2 == 0 ? 1 : 0);
  }
  static constexpr int y_of_square(int square) { return kSize - 1 - (square - 1) / kSquaresPerRow; }
  static constexpr int square_of_xy(int x, int y) {
    int row = kSize - 1 - y;
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
};

struct Layout8 {
  using Bitboard = std::uint32_t;
  static constexpr int kSize = 8;
  static constexpr int kMaxCaptures = 12;  // a side has 12 pieces
  static constexpr int bit_of_xy(int x, int y) {
    int u = (x + y) / 2, v = (y - x) / 2;
    return ((u + 7 * v) % 32 + 32) % 32;
  }
};

struct Layout10 {
  using Bitboard = std::uint64_t;
  static constexpr int kSize = 10;
  static constexpr int kMaxCaptures = 20;
  static constexpr int bit_of_xy(int x, int y) {
    int i = (9 - y) * 5 + x / 2;
    return i + i / 10;
  }
};

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
  static constexpr Bitboard kCrowningRow[2] = {T::make_row(Layout::kSize - 1), T::make_row(0)};

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
    if constexpr (Layout::kSize == 8) {
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
    if constexpr (Layout::kSize == 8) {
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

}  // namespace dama
