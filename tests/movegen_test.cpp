// Properties of the move generator that hold in every position, checked on
// positions from random games and random set-ups, for every compiled rule set
// (the variants and their house-rule versions): the moves are those of an
// independent implementation of RULES.md, generate() and count() agree, the
// conventions agree on what the moves are, and Position::after() moves
// exactly the pieces a move says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "fen.hpp"
#include "reference_towers.hpp"
#include "test_support.hpp"

namespace dama::test {
namespace {

class EveryRuleSet : public ::testing::TestWithParam<RuleSet> {
 protected:
  // Runs check(position) on `count` positions: from random games and random set-ups.
  template <class F>
  void for_random_positions(F&& check, int count = 4000) {
    const RuleSet& rules = GetParam();
    with_board_of(rules, [&]<class Board>() {
      for (const auto& p : test_positions<Board>(rules, 90 + static_cast<int>(rules.choice), count)) {
        SCOPED_TRACE(to_fen(p));
        check(p);
      }
    });
  }
};

std::string rule_set_name(const RuleSet& rules) {
  for (const Variant& v : kVariants) {
    if (v.rules == rules) return std::string(v.name);
    if (v.rules.without_forced_capture() == rules) return std::string(v.name) + "_no_forced_capture";
  }
  return "unknown";
}

TEST_P(EveryRuleSet, CountAgreesWithGenerate) {
  for_random_positions([&](const auto& p) {
    for (Counting k : {Counting::Unique, Counting::Paths})
      EXPECT_EQ(count_moves(GetParam(), p, k), static_cast<int>(legal_moves(GetParam(), p, k).size()))
          << counting_name(k);
  });
}

// Counting::Unique lists each (from, to, captured) once; Counting::Paths lists
// the same moves, each path once, and paths of one move agree on crowning.
TEST_P(EveryRuleSet, ConventionsListTheSameMoves) {
  for_random_positions([&](const auto& p) {
    const auto unique = legal_moves(GetParam(), p, Counting::Unique);
    const auto all_paths = legal_moves(GetParam(), p, Counting::Paths);
    std::set<std::string> unique_ids, path_ids, path_strings;
    // Towers: two captures of the same squares differ by the order kings go under.
    constexpr bool towers = requires { p.below; };
    for (const auto& m : unique) EXPECT_TRUE(unique_ids.insert(m.identity()).second || towers) << m.identity() << " twice";
    for (const auto& m : all_paths) {
      path_ids.insert(m.identity());
      EXPECT_TRUE(path_strings.insert(m.path()).second) << m.path() << " twice";
    }
    EXPECT_EQ(unique_ids, path_ids);
    std::set<std::string> unique_crowning, path_crowning;
    for (const auto& m : unique) unique_crowning.insert(m.identity_and_crowning());
    for (const auto& m : all_paths) path_crowning.insert(m.identity_and_crowning());
    EXPECT_EQ(unique_crowning, path_crowning) << "paths of one move disagree on whether it crowns";
  });
}

// The same moves as the independent implementation of RULES.md in
// reference_movegen.cpp: identities and crowning.
TEST_P(EveryRuleSet, AgreesWithTheReferenceGenerator) {
  for_random_positions(
      [&](const auto& p) {
        if constexpr (requires { p.below; }) {
          // Towers: the tower generator of reference_towers.cpp, position by position.
          std::vector<std::string> found, expected;
          for (const auto& s : successors(GetParam(), p, Counting::Unique)) found.push_back(describe(to_tower_board(s.next)));
          for (const TowerBoard& b : reference_tower_successors(to_tower_board(p))) expected.push_back(describe(b));
          std::sort(found.begin(), found.end());
          std::sort(expected.begin(), expected.end());
          EXPECT_EQ(found, expected);
        } else {
          EXPECT_EQ(identities(legal_moves(GetParam(), p, Counting::Unique)), identities(reference_moves(GetParam(), p)));
        }
      },
      10000);
}

// Captures are compulsory: with a capture on the board only captures are
// legal (house rule: captures and steps).  has_capture() says which.
TEST_P(EveryRuleSet, ForcedCapture) {
  for_random_positions([&](const auto& p) {
    const auto moves = legal_moves(GetParam(), p, Counting::Unique);
    const auto captures = std::count_if(moves.begin(), moves.end(), [](const auto& m) { return m.is_capture(); });
    EXPECT_EQ(has_capture(GetParam(), p), captures > 0);
    if (GetParam().forced_capture && captures > 0) {
      EXPECT_EQ(captures, static_cast<long>(moves.size()));
    }
  });
}

// Position::after moves the piece, removes exactly the captured pieces and
// crowns exactly when the move says so; each move is well formed.
TEST_P(EveryRuleSet, MovesAreWellFormed) {
  const RuleSet& rules = GetParam();
  for_random_positions([&]<class Board>(const Position<Board>& p) {
    const Color us = p.side, them = ~p.side;
    const auto crowning_row = Board::kCrowningRow[index(us)];
    for (const auto& [m, next] : successors(rules, p, Counting::Paths)) {
      SCOPED_TRACE(m.path());
      const auto from = Board::square_bit(m.from), to = Board::square_bit(m.to);
      typename Board::Bitboard captured = 0;
      for (int s : m.captured) captured |= Board::square_bit(s);
      const bool king = p.kings & from;

      ASSERT_TRUE(p.of(us) & from) << "moves a piece it does not have";
      EXPECT_TRUE(m.from == m.to || !(p.occupied() & to)) << "lands on an occupied square";
      EXPECT_EQ(captured & p.of(them), captured) << "takes something that is not an enemy piece";
      EXPECT_EQ(static_cast<int>(m.captured.size()), m.is_capture() ? static_cast<int>(m.landings.size()) + 1 : 0);
      if (!rules.men_capture_kings && !king) {
        EXPECT_FALSE(captured & p.kings) << "a man takes a king";
      }

      // Crowning: only men; a man ending on its last row always; elsewhere
      // only where a man crowned mid-capture goes on as a king (russian).
      if (king) {
        EXPECT_FALSE(m.promotes);
      }
      if (!king && (to & crowning_row)) {
        EXPECT_TRUE(m.promotes);
      }
      if (m.promotes && !(to & crowning_row)) {
        EXPECT_EQ(rules.crowning, CrowningInCapture::ContinueAsKing);
        EXPECT_TRUE(std::any_of(m.landings.begin(), m.landings.end(),
                                [&](int s) { return (Board::square_bit(s) & crowning_row) != 0; }));
      }
      // Steps: one square diagonally (men forwards), or along an empty diagonal (flying kings).
      if (!m.is_capture()) {
        const int dx = Board::x_of_square(m.to) - Board::x_of_square(m.from);
        const int dy = Board::y_of_square(m.to) - Board::y_of_square(m.from);
        EXPECT_EQ(std::abs(dx), std::abs(dy));
        if (!king) {
          EXPECT_EQ(dy, us == Color::White ? 1 : -1);
        }
        if (king && !rules.flying_kings) {
          EXPECT_EQ(std::abs(dy), 1);
        }
      }

      EXPECT_EQ(next.side, them);
      // Towers free the piece under a captured top: tower_position_test.cpp checks those.
      if constexpr (!requires { p.below; }) {
        EXPECT_EQ(next.of(us), (p.of(us) & ~from) | to);
        EXPECT_EQ(next.of(them), p.of(them) & ~captured);
        EXPECT_EQ(next.kings, (p.kings & ~captured & ~from) | ((king || m.promotes) ? to : 0));
      }
      EXPECT_FALSE(next.of(us) & next.of(them));
      EXPECT_EQ(next.occupied() & Board::kAll, next.occupied());
    }
  });
}

INSTANTIATE_TEST_SUITE_P(CompiledRuleSets, EveryRuleSet, ::testing::ValuesIn(kCompiledRuleSets),
                         [](const ::testing::TestParamInfo<RuleSet>& param_info) {
                           return rule_set_name(param_info.param);
                         });

}  // namespace
}  // namespace dama::test
