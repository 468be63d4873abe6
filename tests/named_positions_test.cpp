// perft of the named positions in tests/data/named_positions.tsv, each in its
// stated counting convention.  Compiled twice: the fast suite runs every depth
// of up to kFastBudget nodes, the slow suite (DAMA_SLOW_SUITE=1) every further
// depth of up to kSlowBudget nodes.
#include <gtest/gtest.h>

#include "fen.hpp"
#include "test_support.hpp"

#ifndef DAMA_SLOW_SUITE
#error "DAMA_SLOW_SUITE must be 0 or 1"
#endif

namespace dama::test {
namespace {

constexpr std::uint64_t kFastBudget = 3'000'000;
constexpr std::uint64_t kSlowBudget = 500'000'000;

struct NamedCase {
  std::string variant;
  std::string name;  // the first word of the name column
  std::string fen;
  Counting counting = Counting::Unique;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string error;  // set when the table could not be read: the test fails
};

std::vector<NamedCase> named_cases() {
  std::vector<NamedCase> cases;
  try {
    for (const auto& row : read_tsv("named_positions.tsv").rows) {
      const auto counts = parse_counts(field(row, "perft_by_depth_from_1"));
      const auto words = split_words(field(row, "name"));
      for (std::size_t d = 0; d < counts.size(); ++d) {
        const bool fast = counts[d] <= kFastBudget;
        const bool wanted = DAMA_SLOW_SUITE ? !fast && counts[d] <= kSlowBudget : fast;
        if (wanted)
          cases.push_back({field(row, "variant"), words.empty() ? "" : words[0], field(row, "fen"),
                           parse_counting(field(row, "convention")), static_cast<int>(d + 1), counts[d], ""});
      }
    }
  } catch (const std::exception& e) {
    cases = {NamedCase{"", "", "", Counting::Unique, 0, 0, e.what()}};
  }
  return cases;
}

class NamedPerft : public ::testing::TestWithParam<NamedCase> {};

TEST_P(NamedPerft, MatchesPublishedCount) {
  const NamedCase& c = GetParam();
  ASSERT_TRUE(c.error.empty()) << c.error;
  EXPECT_EQ(perft_nodes(find_variant(c.variant).rules, c.fen, c.counting, c.depth), c.nodes)
      << c.variant << " " << c.name << " (" << c.fen << ") " << counting_name(c.counting) << " perft(" << c.depth
      << ")";
}

INSTANTIATE_TEST_SUITE_P(NamedPositionsTsv, NamedPerft, ::testing::ValuesIn(named_cases()),
                         [](const ::testing::TestParamInfo<NamedCase>& param_info) {
                           const NamedCase& c = param_info.param;
                           if (!c.error.empty()) return std::string("unreadable");
                           return test_name(c.variant + "_" + c.name + "_" + counting_name(c.counting) + "_d" + std::to_string(c.depth));
                         });

// The unique-convention figures again, by the independent reference generator
// (reference_perft), to a small budget of leaves (more in the slow suite): the
// rows whose figures dama computed itself (russian10x8) have a second
// implementation behind them.
TEST(NamedPositionsTsv, TheReferenceGeneratorAgreesWithTheUniqueFigures) {
  constexpr std::uint64_t kBudget = DAMA_SLOW_SUITE ? 30'000'000 : 200'000;
  int checked = 0;
  for (const auto& row : read_tsv("named_positions.tsv").rows) {
    if (field(row, "convention") != "unique") continue;
    const RuleSet& rules = find_variant(field(row, "variant")).rules;
    const auto counts = parse_counts(field(row, "perft_by_depth_from_1"));
    with_board_of(rules, [&]<class Board>() {
      const auto p = parse_fen<Board>(field(row, "fen"));
      if constexpr (!kHoldsTowers<Board>)  // bashni's named positions are in tower_position_test.cpp
        for (std::size_t d = 0; d < counts.size() && counts[d] <= kBudget; ++d, ++checked)
          EXPECT_EQ(reference_perft(rules, p, static_cast<int>(d + 1)), counts[d]) << field(row, "name") << " perft(" << d + 1 << ")";
    });
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace dama::test
