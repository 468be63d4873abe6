// Bashni's towers (core/towers/tower_position.hpp) with the move generator
// every variant uses, against the independent generator of
// reference_towers.cpp, and one case per rule of
// docs/rules-russian-family.md ("Bashni") that towers add.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "fen.hpp"
#include "movegen.hpp"
#include "perft.hpp"
#include "reference_towers.hpp"
#include "towers/rules.hpp"

namespace dama::test {
namespace {

constexpr RuleSet kBashni = kBashniRules;
using Gen = MoveGenerator<kBashni>;
using Pos = Position<TowerBoard8>;

std::vector<std::string> dama_successors(const Pos& p) {
  Gen::List moves;
  Gen::generate(p, moves);
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(describe(to_tower_board(p.after(m))));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> reference_successors(const TowerBoard& b) {
  std::vector<std::string> out;
  for (const TowerBoard& n : reference_tower_successors(b)) out.push_back(describe(n));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> successors_of(const std::vector<std::pair<std::string, std::string>>& towers, Color side) {
  const TowerBoard b = tower_board(towers, side);
  const auto found = dama_successors(to_position(b));
  EXPECT_EQ(found, reference_successors(b)) << describe(b);
  return found;
}

int pieces_of(const TowerBoard& b, bool black) {
  int n = 0;
  for (const auto& stack : b.stacks)
    for (char c : stack) n += (c == 'b' || c == 'B') == black;
  return n;
}

TEST(TowerPosition, StartHoldsRussiansMenOnePerSquare) {
  const TowerBoard b = to_tower_board(Pos::start(Color::White));
  EXPECT_EQ(pieces_of(b, false), 12);
  EXPECT_EQ(pieces_of(b, true), 12);
  for (const auto& stack : b.stacks) EXPECT_LE(stack.size(), 1u);
  EXPECT_EQ(to_position(b), Pos::start(Color::White));
}

// From the start, dama's count against the reference's at every depth (the
// slow suite goes two plies deeper: 4 533 133 leaves, a minute).
TEST(TowerPosition, PerftFromTheStartAgreesWithTheReference) {
  const Pos start = Pos::start(Color::White);
  const TowerBoard b = to_tower_board(start);
  for (int depth = 1; depth <= (DAMA_SLOW_SUITE ? 9 : 7); ++depth)
    EXPECT_EQ((perft<kBashni, Counting::Unique>(start, depth)), reference_tower_perft(b, depth)) << "depth " << depth;
}

// Two positions of random games (docs/performance.md, "Bashni's towers"):
// dama's perft against the table published there and against the reference.
TEST(TowerPosition, PerftOfNamedPositionsAgreesWithTheTableAndTheReference) {
  struct Named {
    const char* name;
    const char* fen;
    std::vector<std::uint64_t> counts;  // depth 1, 2, ...
    int fast_depth;
  };
  const Named named[] = {
      {"towers in the middlegame", "W:W20,21b,22,23b,24,25,26,28,29,31,32:B2,4,5,6,7,8,10,11,12,15w",
       {9, 44, 192, 796, 3400, 14392, 58415, 235123, 942876, 3814269}, 7},
      {"kings in towers", "W:W14wb,K17bbb,26w,28,29bb,32:B2w,3,4,5,K8www,11",
       {10, 64, 551, 2953, 20428, 117064, 781683, 4462326, 28596066}, 5},
  };
  for (const Named& n : named) {
    const Pos p = parse_fen<TowerBoard8>(n.fen);
    const int depth = DAMA_SLOW_SUITE ? static_cast<int>(n.counts.size()) : n.fast_depth;
    for (int d = 1; d <= depth; ++d) {
      EXPECT_EQ((perft<kBashni, Counting::Unique>(p, d)), n.counts[d - 1]) << n.name << ", depth " << d;
      if (d <= n.fast_depth + 2) EXPECT_EQ(reference_tower_perft(to_tower_board(p), d), n.counts[d - 1]) << n.name << ", depth " << d;
    }
  }
}

#if !DAMA_SLOW_SUITE
// Random games, where towers grow tall and change hands: at every position
// the positions after each legal move, dama's against the reference's.
TEST(TowerPosition, RandomGamesAgreeWithTheReference) {
  std::mt19937 random(2026);
  int tall = 0;
  for (int game = 0; game < 300; ++game) {
    Pos p = Pos::start(Color::White);
    for (int ply = 0; ply < 160; ++ply) {
      const TowerBoard b = to_tower_board(p);
      ASSERT_EQ(dama_successors(p), reference_successors(b)) << "game " << game << " ply " << ply << ": " << describe(b);
      ASSERT_EQ(pieces_of(b, false), 12);
      ASSERT_EQ(pieces_of(b, true), 12);
      ASSERT_EQ(to_position(b), p);
      ASSERT_EQ(p.flipped().flipped(), p);
      ASSERT_EQ(p.hash(), to_position(b).hash());
      ASSERT_EQ(parse_fen<TowerBoard8>(to_fen(p)), p) << to_fen(p);
      for (const auto& stack : b.stacks) tall += stack.size() >= 3;
      Gen::List moves;
      Gen::generate(p, moves);
      if (moves.empty()) break;
      p = p.after(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(random)]);
    }
  }
  EXPECT_GT(tall, 1000) << "the games should have built towers of three and more";
}

// A capture takes the jumped tower's top piece only; the piece under it is
// freed and owns the tower now.
TEST(TowerRules, ACaptureTakesTheTopAndFreesThePieceUnder) {
  EXPECT_EQ(successors_of({{"c3", "w"}, {"d4", "bw"}}, Color::White), (std::vector<std::string>{"B d4:w e5:wb"}));
}

// A tower moves as its top piece: a man's tower steps forwards only, a
// king's flies; the pieces under it go along.
TEST(TowerRules, ATowerMovesAsItsTopPiece) {
  EXPECT_EQ(successors_of({{"c3", "wbb"}}, Color::White), (std::vector<std::string>{"B b4:wbb", "B d4:wbb"}));
  EXPECT_EQ(successors_of({{"c3", "Wbb"}}, Color::White).size(), 11u);
  EXPECT_EQ(successors_of({{"f6", "bWw"}}, Color::Black), (std::vector<std::string>{"W e5:bWw", "W g5:bWw"}));
}

// Reaching the last row crowns the top piece only.
TEST(TowerRules, OnlyTheTopPieceIsCrowned) {
  EXPECT_EQ(successors_of({{"g7", "wb"}}, Color::White), (std::vector<std::string>{"B f8:Wb", "B h8:Wb"}));
}

// Russian draughts' "Turkish strike": a jumped tower stays and blocks until
// the move is over, so it is jumped once a move even while an enemy piece
// is left on top of it.  Here the king comes back to c3 from e1 and stops.
TEST(TowerRules, AJumpedTowerIsJumpedOnceAMove) {
  EXPECT_EQ(successors_of({{"a1", "W"}, {"c3", "bb"}, {"f4", "b"}, {"f2", "b"}}, Color::White),
            (std::vector<std::string>{"B c3:b e1:Wbbb", "B c3:b f4:b g1:Wbb"}));
}

// The prisoners stack in the order taken: a king going round the same four
// pieces clockwise or anticlockwise makes two moves when one of them is a
// king, where Russian draughts (one identity) has one.
TEST(TowerRules, ThePrisonersOrderMakesTwoMoves) {
  const auto found = successors_of({{"c1", "W"}, {"d2", "b"}, {"e5", "B"}, {"b4", "b"}, {"b2", "b"}}, Color::White);
  EXPECT_EQ(std::count(found.begin(), found.end(), "B c1:WbBbb"), 1);
  EXPECT_EQ(std::count(found.begin(), found.end(), "B c1:WbbBb"), 1);
  const auto same_kind = successors_of({{"c1", "W"}, {"d2", "b"}, {"e5", "b"}, {"b4", "b"}, {"b2", "b"}}, Color::White);
  EXPECT_EQ(std::count(same_kind.begin(), same_kind.end(), "B c1:Wbbbb"), 1);
}

// A captured king keeps its rank under the tower and is a king again when
// the pieces above it are taken.
TEST(TowerRules, AFreedKingIsAKing) {
  EXPECT_EQ(successors_of({{"c3", "w"}, {"d4", "bW"}}, Color::White), (std::vector<std::string>{"B d4:W e5:wb"}));
}

TEST(TowerPosition, TheHashSeesTheOrderInsideATower) {
  const Pos a = to_position(tower_board({{"c3", "wbB"}}, Color::White));
  const Pos b = to_position(tower_board({{"c3", "wBb"}}, Color::White));
  EXPECT_NE(a.hash(), b.hash());
  EXPECT_NE(a, b);
  EXPECT_EQ(a.hash(), to_position(tower_board({{"c3", "wbB"}}, Color::White)).hash());
}

// FEN writes a tower as its square followed by the pieces under the top.
TEST(TowerFen, WritesAndReadsTowers) {
  const Pos p = to_position(tower_board({{"c3", "wbB"}, {"d4", "Bw"}, {"a1", "w"}}, Color::Black));
  EXPECT_EQ(to_fen(p), "B:W22bB,29:BK18w");
  EXPECT_EQ(parse_fen<TowerBoard8>("B:W29,22bB:BK18w"), p);
  EXPECT_EQ(parse_fen<TowerBoard8>("W:W21-32:B1-12"), Pos::start(Color::White));
}

TEST(TowerFen, RefusesTowersWhereTheyCannotBe) {
  const auto refused = [](auto parse, const std::string& fen, const std::string& why) {
    try {
      parse(fen);
      ADD_FAILURE() << fen << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused([](const std::string& f) { return parse_fen<Board8>(f); }, "W:W21b:B1", "exist in bashni only");
  refused([](const std::string& f) { return parse_fen<TowerBoard8>(f); }, "W:W21-22b:B1", "give its squares one by one");
  refused([](const std::string& f) { return parse_fen<TowerBoard8>(f); }, "W:W21b5:B1", "written with w, b, W and B");
  refused([](const std::string& f) { return parse_fen<TowerBoard8>(f); }, "W:W21wwwwwwwwwww,22w:B1", "too many white pieces (14");
}

#endif  // !DAMA_SLOW_SUITE

}  // namespace
}  // namespace dama::test
