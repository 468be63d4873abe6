// Zobrist hashing (Position::hash): equal positions hash equal, and the side
// to move, a man versus a king, and the colour of a piece all change it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "fen.hpp"
#include "test_support.hpp"

namespace dama::test {
namespace {

template <class Board>
class ZobristTest : public ::testing::Test {};
using Boards = ::testing::Types<Board8, Board10, Board10x8>;
struct BoardName {
  template <class Board>
  static std::string GetName(int) {
    return Board::kWidth == 8 ? "Board8" : Board::kHeight == 10 ? "Board10" : "Board10x8";
  }
};
TYPED_TEST_SUITE(ZobristTest, Boards, BoardName);

// The text for a board: 8x8, 10x10 or 10x8.
template <class Board>
const char* variant_on(const char* board8, const char* board10, const char* board10x8) {
  return Board::kWidth == 8 ? board8 : Board::kHeight == 10 ? board10 : board10x8;
}

// Every one-piece position -- each square, each colour, man or king, each
// side to move -- has its own hash.
TYPED_TEST(ZobristTest, OnePiecePositionsAreAllDistinct) {
  using B = TypeParam;
  std::set<std::uint64_t> hashes;
  int positions = 0;
  for (int s = 1; s <= B::kSquares; ++s)
    for (Color colour : {Color::White, Color::Black})
      for (bool king : {false, true})
        for (Color side : {Color::White, Color::Black}) {
          Position<B> p;
          p.pieces[index(colour)] = B::square_bit(s);
          if (king) p.kings = B::square_bit(s);
          p.side = side;
          hashes.insert(p.hash());
          ++positions;
        }
  EXPECT_EQ(static_cast<int>(hashes.size()), positions);
  EXPECT_EQ(hashes.count(Position<B>{}.hash()), 0u) << "an empty board hashes like a one-piece position";
}

// Flipping one feature of a real position changes the hash.
TYPED_TEST(ZobristTest, SideKingAndColourChangeTheHash) {
  using B = TypeParam;
  const RuleSet& rules = find_variant(variant_on<B>("russian", "international", "russian10x8")).rules;
  for (const auto& p : test_positions<B>(rules, 5, 300)) {
    SCOPED_TRACE(to_fen(p));
    auto other_side = p;
    other_side.side = ~p.side;
    EXPECT_NE(p.hash(), other_side.hash());
    for (int s = 1; s <= B::kSquares; ++s) {
      const auto bit = B::square_bit(s);
      if (!(p.occupied() & bit)) continue;
      auto crowned = p;  // a man made a king, or a king made a man
      crowned.kings ^= bit;
      EXPECT_NE(p.hash(), crowned.hash()) << "square " << s;
      auto recoloured = p;  // the piece changes colour
      recoloured.pieces[0] ^= bit;
      recoloured.pieces[1] ^= bit;
      EXPECT_NE(p.hash(), recoloured.hash()) << "square " << s;
    }
  }
}

TYPED_TEST(ZobristTest, EqualPositionsHashEqual) {
  using B = TypeParam;
  const RuleSet& rules = find_variant(variant_on<B>("spanish", "international", "russian10x8")).rules;
  for (const auto& p : test_positions<B>(rules, 6, 300)) {
    const auto copy = parse_fen<B>(to_fen(p));
    ASSERT_EQ(copy, p);
    EXPECT_EQ(copy.hash(), p.hash());
  }
  EXPECT_EQ(Position<B>::start(Color::White).hash(),
            parse_fen<B>(variant_on<B>("W:W21-32:B1-12", "W:B1-20:W31-50", "W:W26-40:B1-15")).hash());
}

// The same position reached by two move orders (a transposition).
TEST(Zobrist, TranspositionsHashEqual) {
  auto step = [](int from, int to) {
    Move<Board8> m{};
    m.from = static_cast<std::uint8_t>(Board8::kBitOfSquare[from]);
    m.to = static_cast<std::uint8_t>(Board8::kBitOfSquare[to]);
    return m;
  };
  const auto start = Position<Board8>::start(Color::White);
  // 22-18 9-13 23-19 and 23-19 9-13 22-18.
  const auto a = start.after(step(22, 18)).after(step(9, 13)).after(step(23, 19));
  const auto b = start.after(step(23, 19)).after(step(9, 13)).after(step(22, 18));
  ASSERT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(a, parse_fen<Board8>("B:W18,19,21,24-32:B1-8,10-13"));
  EXPECT_EQ(a.hash(), parse_fen<Board8>("B:W18,19,21,24-32:B1-8,10-13").hash());
  EXPECT_NE(a.hash(), start.hash());
}

}  // namespace
}  // namespace dama::test
