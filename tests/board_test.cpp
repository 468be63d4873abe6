// Board geometry (core/board.hpp): square numbering, bit layout, diagonal
// steps and crowning rows, for both boards, checked against the coordinates
// of RULES.md's numbering.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "board.hpp"
#include "notation.hpp"

namespace dama {
namespace {

template <class Board>
class BoardTest : public ::testing::Test {};
using Boards = ::testing::Types<Board8, Board10, Board10x8>;
struct BoardName {
  template <class Board>
  static std::string GetName(int) {
    return Board::kWidth == 8 ? "Board8" : Board::kHeight == 10 ? "Board10" : "Board10x8";
  }
};
TYPED_TEST_SUITE(BoardTest, Boards, BoardName);

template <class Board>
typename Board::Bitboard bit_at(int square) {
  return typename Board::Bitboard{1} << Board::kBitOfSquare[square];
}

TYPED_TEST(BoardTest, NumberingCoversTheDarkSquaresRowByRowFromTheTop) {
  using B = TypeParam;
  EXPECT_EQ(B::kSquares, B::kWidth * B::kHeight / 2);
  std::set<std::pair<int, int>> seen;
  for (int s = 1; s <= B::kSquares; ++s) {
    const int x = B::x_of_square(s), y = B::y_of_square(s);
    EXPECT_TRUE(B::on_board(x, y)) << s;
    EXPECT_TRUE(B::is_dark(x, y)) << s;
    EXPECT_EQ(B::square_of_xy(x, y), s);
    EXPECT_TRUE(seen.emplace(x, y).second) << "square " << s << " shares its coordinates";
    // Row by row from the top, left to right.
    if (s > 1) {
      const int px = B::x_of_square(s - 1), py = B::y_of_square(s - 1);
      EXPECT_TRUE(py > y || (py == y && px < x)) << s;
    }
  }
  EXPECT_TRUE(B::is_dark(0, 0)) << "a1 is dark";
}

TYPED_TEST(BoardTest, BitAndSquareTablesAreInverse) {
  using B = TypeParam;
  EXPECT_EQ(B::kBitOfSquare[0], -1);
  typename B::Bitboard all = 0;
  for (int s = 1; s <= B::kSquares; ++s) {
    const int bit = B::kBitOfSquare[s];
    ASSERT_GE(bit, 0);
    ASSERT_LT(bit, B::kBitCount);
    EXPECT_EQ(B::kSquareOfBit[bit], s);
    EXPECT_EQ(B::square_bit(s), bit_at<B>(s));
    EXPECT_FALSE(all & bit_at<B>(s)) << "two squares share bit " << bit;
    all |= bit_at<B>(s);
  }
  EXPECT_EQ(all, B::kAll);
  EXPECT_EQ(popcount(B::kAll), B::kSquares);
  for (int bit = 0; bit < B::kBitCount; ++bit) {
    const int s = B::kSquareOfBit[bit];
    const bool real = (B::kAll >> bit) & 1;
    if (real) {
      EXPECT_EQ(B::kBitOfSquare[s], bit);
    } else {
      EXPECT_EQ(s, 0) << "bit " << bit << " is no square but maps to one";
    }
  }
}

// step<D> of one square, within the board, is its diagonal neighbour or nothing.
TYPED_TEST(BoardTest, StepReachesTheDiagonalNeighbour) {
  using B = TypeParam;
  using Bitboard = typename B::Bitboard;
  for (int s = 1; s <= B::kSquares; ++s) {
    for (Dir d : {NE, NW, SE, SW}) {
      const int x = B::x_of_square(s) + kDirDx[d], y = B::y_of_square(s) + kDirDy[d];
      const Bitboard expected = B::on_board(x, y) ? bit_at<B>(B::square_of_xy(x, y)) : Bitboard{0};
      EXPECT_EQ(B::step(B::square_bit(s), d) & B::kAll, expected) << "square " << s << " dir " << d;
      Bitboard templated = 0;
      switch (d) {
        case NE: templated = B::template step<NE>(B::square_bit(s)); break;
        case NW: templated = B::template step<NW>(B::square_bit(s)); break;
        case SE: templated = B::template step<SE>(B::square_bit(s)); break;
        case SW: templated = B::template step<SW>(B::square_bit(s)); break;
      }
      EXPECT_EQ(templated & B::kAll, expected) << "square " << s << " dir " << d;
    }
  }
}

// Stepping a set is stepping each square: no square of the set leaks into
// another's neighbour (the generator steps whole bitboards).
TYPED_TEST(BoardTest, StepOfASetIsTheUnionOfSteps) {
  using B = TypeParam;
  using Bitboard = typename B::Bitboard;
  for (Dir d : {NE, NW, SE, SW}) {
    for (int first = 1; first <= B::kSquares; first += 3) {
      Bitboard set = 0, expected = 0;
      for (int s = first; s <= B::kSquares; s += 7) {
        set |= B::square_bit(s);
        expected |= B::step(B::square_bit(s), d) & B::kAll;
      }
      EXPECT_EQ(B::step(set, d) & B::kAll, expected);
    }
    Bitboard all_neighbours = 0;
    for (int s = 1; s <= B::kSquares; ++s) all_neighbours |= B::step(B::square_bit(s), d) & B::kAll;
    EXPECT_EQ(B::step(B::kAll, d) & B::kAll, all_neighbours);
  }
}

TYPED_TEST(BoardTest, OppositeDirections) {
  using B = TypeParam;
  for (Dir d : {NE, NW, SE, SW}) {
    EXPECT_EQ(kDirDx[opposite(d)], -kDirDx[d]);
    EXPECT_EQ(kDirDy[opposite(d)], -kDirDy[d]);
    for (int s = 1; s <= B::kSquares; ++s) {
      const auto there = B::step(B::square_bit(s), d) & B::kAll;
      if (there) {
        EXPECT_EQ(B::step(there, opposite(d)) & B::kAll, B::square_bit(s));
      }
    }
  }
  // NE/NW point towards Black's side: from a White man's start towards row 1 of the numbering.
  EXPECT_GT(kDirDy[NE], 0);
  EXPECT_GT(kDirDy[NW], 0);
}

// White crowns on Black's first row (squares 1-4 / 1-5, the top), Black on
// White's (29-32 / 46-50).
TYPED_TEST(BoardTest, CrowningRows) {
  using B = TypeParam;
  typename B::Bitboard white_row = 0, black_row = 0;
  for (int i = 1; i <= B::kSquaresPerRow; ++i) {
    white_row |= B::square_bit(i);
    black_row |= B::square_bit(B::kSquares + 1 - i);
  }
  EXPECT_EQ(B::kCrowningRow[index(Color::White)], white_row);
  EXPECT_EQ(B::kCrowningRow[index(Color::Black)], black_row);
}

// RULES.md, Notation: 1 = b8, 4 = h8, 29 = a1, 32 = g1; on 10x10 46 = a1, 5 = j10.
TEST(Board8, PdnNumberingFacts) {
  auto name = [](int s) { return square_name<Board8>(Board8::kBitOfSquare[s], Notation::Algebraic); };
  EXPECT_EQ(name(1), "b8");
  EXPECT_EQ(name(4), "h8");
  EXPECT_EQ(name(29), "a1");
  EXPECT_EQ(name(32), "g1");
  EXPECT_EQ(name(22), "c3");  // the russian opening c3-d4 is 22-18
  EXPECT_EQ(name(18), "d4");
  EXPECT_EQ(Board8::x_of_square(29), 0);
  EXPECT_EQ(Board8::y_of_square(29), 0);
  EXPECT_EQ(Board8::x_of_square(4), 7);
  EXPECT_EQ(Board8::y_of_square(4), 7);
}

TEST(Board10, PdnNumberingFacts) {
  auto name = [](int s) { return square_name<Board10>(Board10::kBitOfSquare[s], Notation::Algebraic); };
  EXPECT_EQ(name(46), "a1");
  EXPECT_EQ(name(5), "j10");
  EXPECT_EQ(name(1), "b10");
  EXPECT_EQ(name(50), "i1");
  EXPECT_EQ(Board10::x_of_square(46), 0);
  EXPECT_EQ(Board10::y_of_square(46), 0);
  EXPECT_EQ(Board10::x_of_square(5), 9);
  EXPECT_EQ(Board10::y_of_square(5), 9);
}

}  // namespace
}  // namespace dama
