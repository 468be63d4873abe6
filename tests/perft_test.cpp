// Start-position perft of every variant in both counting conventions, against
// the published figures in tests/data/start.tsv.  Compiled twice: the fast
// suite runs every depth of up to kFastBudget nodes, the slow suite
// (DAMA_SLOW_SUITE=1) every further depth of up to kSlowBudget nodes.
#include <gtest/gtest.h>

#include <set>

#include "fen.hpp"
#include "reference_towers.hpp"
#include "test_support.hpp"

#ifndef DAMA_SLOW_SUITE
#error "DAMA_SLOW_SUITE must be 0 or 1"
#endif

namespace dama::test {
namespace {

constexpr std::uint64_t kFastBudget = 5'000'000;
constexpr std::uint64_t kSlowBudget = 3'000'000'000;

struct StartCase {
  std::string variant;
  Counting counting = Counting::Unique;
  std::string fen;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string error;  // set when start.tsv could not be read: the test fails
};

std::vector<StartCase> start_cases() {
  std::vector<StartCase> cases;
  try {
    for (const auto& row : read_tsv("start.tsv").rows) {
      const auto counts = parse_counts(field(row, "nodes_by_depth_from_1"));
      for (std::size_t d = 0; d < counts.size(); ++d) {
        const bool fast = counts[d] <= kFastBudget;
        const bool wanted = DAMA_SLOW_SUITE ? !fast && counts[d] <= kSlowBudget : fast;
        if (wanted)
          cases.push_back({field(row, "variant"), parse_counting(field(row, "counting")), field(row, "start_fen"),
                           static_cast<int>(d + 1), counts[d], ""});
      }
    }
  } catch (const std::exception& e) {
    cases = {StartCase{"unreadable", Counting::Unique, "", 0, 0, e.what()}};
  }
  return cases;
}

class StartPerft : public ::testing::TestWithParam<StartCase> {};

TEST_P(StartPerft, MatchesPublishedCount) {
  const StartCase& c = GetParam();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const Variant& variant = find_variant(c.variant);
  EXPECT_EQ(perft_from_start(variant.rules, c.counting, c.depth), c.nodes)
      << c.variant << " " << counting_name(c.counting) << " perft(" << c.depth << ") from the start";
}

INSTANTIATE_TEST_SUITE_P(StartTsv, StartPerft, ::testing::ValuesIn(start_cases()),
                         [](const ::testing::TestParamInfo<StartCase>& param_info) {
                           const StartCase& c = param_info.param;
                           if (!c.error.empty()) return std::string("unreadable");
                           return test_name(c.variant + "_" + counting_name(c.counting) + "_d" +
                                            std::to_string(c.depth));
                         });

// The independent reference generator (reference_movegen.cpp) walks the same
// trees with a move maker of its own (reference_perft): each unique-convention
// figure of the table up to a budget of leaves (more in the slow suite), so a
// variant whose figures dama computed (russian10x8) is checked by a second
// implementation.
TEST(StartTsv, TheReferenceGeneratorAgreesWithTheUniqueFigures) {
  constexpr std::uint64_t kBudget = DAMA_SLOW_SUITE ? 30'000'000 : 300'000;
  int checked = 0;
  for (const auto& row : read_tsv("start.tsv").rows) {
    if (field(row, "counting") != "unique") continue;
    const Variant& v = find_variant(field(row, "variant"));
    const auto counts = parse_counts(field(row, "nodes_by_depth_from_1"));
    with_board_of(v.rules, [&]<class Board>() {
      const auto start = parse_fen<Board>(field(row, "start_fen"));
      for (std::size_t d = 0; d < counts.size() && counts[d] <= kBudget; ++d, ++checked) {
        // Bashni's towers have a reference generator of their own.
        if constexpr (kHoldsTowers<Board>)
          EXPECT_EQ(reference_tower_perft(to_tower_board(start), static_cast<int>(d + 1)), counts[d]) << v.name << " depth " << d + 1;
        else
          EXPECT_EQ(reference_perft(v.rules, start, static_cast<int>(d + 1)), counts[d]) << v.name << " depth " << d + 1;
      }
    });
  }
  EXPECT_GE(checked, 4 * static_cast<int>(kVariantCount));
}

#if !DAMA_SLOW_SUITE

// The table covers every variant in both conventions.
TEST(StartTsv, CoversEveryVariantInBothConventions) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& row : read_tsv("start.tsv").rows) seen.emplace(field(row, "variant"), field(row, "counting"));
  for (const Variant& v : kVariants)
    for (const char* counting : {"unique", "paths"})
      EXPECT_TRUE(seen.count({std::string(v.name), counting})) << v.name << " " << counting << " missing";
}

// The table's start FEN is the position the engine starts from (RULES.md:
// W:W21-32:B1-12, B:... in american, W:W31-50:B1-20 on 10x10).
TEST(StartTsv, FenIsTheVariantsStartPosition) {
  for (const auto& row : read_tsv("start.tsv").rows) {
    const Variant& v = find_variant(field(row, "variant"));
    with_board_of(v.rules, [&]<class Board>() {
      EXPECT_EQ(parse_fen<Board>(field(row, "start_fen")), Position<Board>::start(v.rules.first_player)) << v.name;
    });
  }
}

// The first player (RULES.md): Black in american, White everywhere else.
TEST(StartPosition, FirstPlayer) {
  for (const Variant& v : kVariants) {
    const Color expected = v.name == "american" ? Color::Black : Color::White;
    EXPECT_EQ(v.rules.first_player, expected) << v.name;
    with_board_of(v.rules,
               [&]<class Board>() { EXPECT_EQ(Position<Board>::start(v.rules.first_player).side, expected); });
  }
}

// perft_divide: one entry per legal move, and the subtrees add up to perft.
TEST(PerftDivide, SumsToPerft) {
  for (const Variant& v : kVariants) {
    for (Counting counting : {Counting::Unique, Counting::Paths}) {
      with_board_of(v.rules, [&]<class Board>() {
        // A position with captures a few plies in, from the random games.
        for (const auto& p : random_positions<Board>(v.rules, 7, 40)) {
          if (!has_capture(v.rules, p)) continue;
          const int depth = 3;
          const auto divided = perft_divide(v.rules, p, counting, depth);
          std::uint64_t sum = 0;
          for (const auto& entry : divided) sum += entry.second;
          EXPECT_EQ(sum, perft_nodes(v.rules, p, counting, depth)) << v.name << " " << to_fen(p);
          const auto moves = legal_moves(v.rules, p, counting);
          ASSERT_EQ(divided.size(), moves.size());
          for (std::size_t i = 0; i < divided.size(); ++i) EXPECT_EQ(divided[i].first.path(), moves[i].path());
        }
      });
    }
  }
}

// perft(0) is the position itself; perft(1) is the number of legal moves.
TEST(Perft, DepthZeroAndOne) {
  for (const Variant& v : kVariants) {
    with_board_of(v.rules, [&]<class Board>() {
      for (const auto& p : test_positions<Board>(v.rules, 11, 200)) {
        for (Counting counting : {Counting::Unique, Counting::Paths}) {
          EXPECT_EQ(perft_nodes(v.rules, p, counting, 0), 1u);
          EXPECT_EQ(perft_nodes(v.rules, p, counting, 1), legal_moves(v.rules, p, counting).size())
              << v.name << " " << counting_name(counting) << " " << to_fen(p);
        }
      }
    });
  }
}

#endif  // !DAMA_SLOW_SUITE

}  // namespace
}  // namespace dama::test
