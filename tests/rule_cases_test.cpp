// Every row of tests/data/rule_cases.tsv: the exact legal moves (identities,
// crowning), the exact capture paths, and perft 1-3 in both conventions.
#include <gtest/gtest.h>

#include <set>

#include "fen.hpp"
#include "test_support.hpp"

namespace dama::test {
namespace {

struct RuleCase {
  std::map<std::string, std::string> row;
  std::string error;  // set when the table could not be read: the test fails

  const std::string& operator[](const std::string& column) const { return field(row, column); }
};

std::vector<RuleCase> rule_cases() {
  std::vector<RuleCase> cases;
  try {
    for (auto& row : read_tsv("rule_cases.tsv").rows) cases.push_back({std::move(row), ""});
  } catch (const std::exception& e) {
    cases = {RuleCase{{}, e.what()}};
  }
  return cases;
}

class RuleCaseTest : public ::testing::TestWithParam<RuleCase> {
 protected:
  void SetUp() override { ASSERT_TRUE(GetParam().error.empty()) << GetParam().error; }
  const RuleCase& c() const { return GetParam(); }
  const RuleSet& rules() const { return find_variant(c()["variant"]).rules; }
  std::string context() const { return c()["id"] + " " + c()["variant"] + " " + c()["fen"] + ": " + c()["description"]; }
};

// (a) The legal moves as (from, to, captured set), each with " (king)" exactly
// when it promotes; no identity twice.
TEST_P(RuleCaseTest, LegalMoves) {
  const auto moves = legal_moves(rules(), c()["fen"], Counting::Unique);
  EXPECT_EQ(identities(moves), parse_legal_moves_column(c()["legal_moves"])) << context();
}

// (b) Every capture sequence once (Counting::Paths), as a multiset of full paths.
TEST_P(RuleCaseTest, Paths) {
  const auto moves = legal_moves(rules(), c()["fen"], Counting::Paths);
  auto expected = split_words(c()["paths"]);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(paths(moves), expected) << context();
}

// The paths are the same moves as the unique list, only not merged.
TEST_P(RuleCaseTest, PathsHaveTheUniqueIdentities) {
  std::set<std::string> from_paths, from_unique;
  for (const auto& m : legal_moves(rules(), c()["fen"], Counting::Paths)) from_paths.insert(m.identity_and_crowning());
  for (const auto& m : legal_moves(rules(), c()["fen"], Counting::Unique))
    from_unique.insert(m.identity_and_crowning());
  EXPECT_EQ(from_paths, from_unique) << context();
}

// (c) perft 1-3 in both conventions.
TEST_P(RuleCaseTest, Perft1To3) {
  for (Counting counting : {Counting::Unique, Counting::Paths}) {
    const auto expected = parse_counts(c()[std::string("perft1-3_") + counting_name(counting)]);
    ASSERT_EQ(expected.size(), 3u);
    for (int depth = 1; depth <= 3; ++depth)
      EXPECT_EQ(perft_nodes(rules(), c()["fen"], counting, depth), expected[depth - 1])
          << counting_name(counting) << " perft(" << depth << "), " << context();
  }
}

// (d) The independent reference generator (reference_movegen.cpp) lists the
// same moves, so a row whose figures were worked out by hand or by dama has a
// second implementation behind it.
TEST_P(RuleCaseTest, TheReferenceGeneratorListsTheSameMoves) {
  with_board_of(rules(), [&]<class Board>() {
    const auto p = parse_fen<Board>(c()["fen"]);
    if constexpr (!kHoldsTowers<Board>)  // bashni's rule cases are in tower_position_test.cpp
      EXPECT_EQ(identities(reference_moves(rules(), p)), parse_legal_moves_column(c()["legal_moves"])) << context();
  });
}

INSTANTIATE_TEST_SUITE_P(RuleCasesTsv, RuleCaseTest, ::testing::ValuesIn(rule_cases()),
                         [](const ::testing::TestParamInfo<RuleCase>& param_info) {
                           if (!param_info.param.error.empty()) return std::string("unreadable");
                           return test_name(param_info.param["id"] + "_" + param_info.param["variant"]);
                         });

}  // namespace
}  // namespace dama::test
