// The evaluation (core/features.hpp, core/evaluate.hpp) and `dama eval`:
// evaluate() and the recorded features agree to the last bit, the evaluation
// is colour-symmetric, the phase follows the material, each feature means what
// its comment says, and the command prints what evaluate() returns.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "evaluate.hpp"
#include "fen.hpp"
#include "test_support.hpp"
#include "weights.hpp"

#ifndef DAMA_BINARY
#error "DAMA_BINARY must name the dama program"
#endif

namespace dama {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int kPositionsPerVariant = 3000;

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : kVariants) names.emplace_back(v.name);
  return names;
}

// Runs f.template operator()<R>() for the named variant's rule set.
template <class F>
void with_variant(const std::string& name, F&& f) {
  with_rules(find_variant(name).rules, std::forward<F>(f));
}

// Weights with every value non-zero and fractional, so that every feature and
// both phases weigh in (and a rounding or ordering slip would show).
Weights random_weights(const Variant& variant, std::uint64_t seed, EvalModel model = EvalModel::Linear) {
  test::Random random(seed);
  Weights w;
  w.variant = std::string(variant.name);
  w.model = model;
  w.source = "random " + std::string(model_name(model));
  w.values.resize(2 * static_cast<std::size_t>(model_feature_count(feature_schema(variant.rules), model)));
  for (float& v : w.values) v = static_cast<float>(random.below(20001) - 10000) / 97.0f;
  return w;
}

// Each feature's value (summed over its reports) by feature index.
struct DenseSink {
  std::vector<float> values;
  void add(int feature, float value) { values.at(static_cast<std::size_t>(feature)) += value; }
};

template <RuleSet R>
std::vector<float> feature_values(const Position<BoardFor<R>>& p) {
  DenseSink sink{std::vector<float>(static_cast<std::size_t>(feature_count(feature_schema(R))))};
  visit_features<R>(p, sink);
  return sink.values;
}

// The non-zero features of a position given as FEN, by name.
std::map<std::string, float> features_of(const std::string& variant, const std::string& fen) {
  std::map<std::string, float> named;
  with_variant(variant, [&]<RuleSet R>() {
    const auto values = feature_values<R>(parse_fen<BoardFor<R>>(fen));
    const auto& names = feature_names(feature_schema(R));
    for (std::size_t f = 0; f < values.size(); ++f)
      if (values[f] != 0) named[names[f]] = values[f];
  });
  return named;
}

float feature(const std::string& variant, const std::string& fen, const std::string& name) {
  const auto features = features_of(variant, fen);
  const auto it = features.find(name);
  return it == features.end() ? 0.0f : it->second;
}

class EvaluateTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Variant& variant() const { return find_variant(GetParam()); }

  // Random-playout positions of this variant (with the start), the same every run.
  template <RuleSet R>
  std::vector<Position<BoardFor<R>>> positions() const {
    return test::random_positions<BoardFor<R>>(R, 0xE7A1 + variant().pdn_game_type, kPositionsPerVariant);
  }
};

TEST_P(EvaluateTest, EqualsTheRoundedDotProductOfTheExtractedFeatures) {
  with_variant(GetParam(), [&]<RuleSet R>() {
    for (const Weights& w : {default_weights(variant()), random_weights(variant(), 7),
                             random_weights(variant(), 9, EvalModel::Patterns)}) {
      int checked = 0, mismatches = 0;
      FeatureVector features;
      for (const auto& p : positions<R>()) {
        extract_features<R>(p, w.model, features);
        double dot = 0;
        for (int i = 0; i < features.size; ++i)
          dot += static_cast<double>(features.terms[i].coefficient) * static_cast<double>(w.values[features.terms[i].index]);
        EXPECT_EQ(dot, weighted_sum(features, w));
        const Score score = evaluate<R>(p, w);
        if (score != std::lround(dot) && ++mismatches <= 5)
          ADD_FAILURE() << to_fen(p) << ": evaluate " << score << ", dot product " << dot;
        ++checked;
      }
      EXPECT_EQ(mismatches, 0) << "of " << checked << " positions, weights " << w.source;
      EXPECT_GE(checked, kPositionsPerVariant);
    }
  });
}

TEST_P(EvaluateTest, ExtractedTermsLieInTheSchema) {
  with_variant(GetParam(), [&]<RuleSet R>() {
    for (const EvalModel model : {EvalModel::Linear, EvalModel::Patterns}) {
    const auto weights = static_cast<std::uint32_t>(2 * model_feature_count(feature_schema(R), model));
    FeatureVector features;
    for (const auto& p : positions<R>()) {
      extract_features<R>(p, model, features);
      ASSERT_GT(features.size, 0) << to_fen(p);
      ASSERT_LE(features.size, FeatureVector::kCapacity);
      int pattern_terms = 0;
      for (const FeatureTerm& t : features) {
        pattern_terms += t.index >= static_cast<std::uint32_t>(2 * feature_count(feature_schema(R)));
        ASSERT_LT(t.index, weights) << to_fen(p);
        ASSERT_NE(t.coefficient, 0.0f) << to_fen(p);
        ASSERT_TRUE(std::isfinite(t.coefficient)) << to_fen(p);
      }
      // Both phases of one configuration a region, unless the phase blend zeroes one.
      if (model == EvalModel::Patterns) EXPECT_LE(pattern_terms, 2 * PatternTables<BoardFor<R>>::kRegions);
      if (model == EvalModel::Patterns) EXPECT_GE(pattern_terms, PatternTables<BoardFor<R>>::kRegions);
    }
    }
  });
}

TEST_P(EvaluateTest, IsTheSameForTheOtherSideOfTheBoard) {
  with_variant(GetParam(), [&]<RuleSet R>() {
    const Weights w = random_weights(variant(), 11);
    const Weights patterns = random_weights(variant(), 13, EvalModel::Patterns);
    int asymmetric = 0;
    for (const auto& p : positions<R>()) {
      const auto flipped = p.flipped();
      ASSERT_EQ(flipped.flipped(), p) << to_fen(p);
      ASSERT_EQ(popcount(flipped.occupied()), popcount(p.occupied()));
      if (feature_values<R>(flipped) != feature_values<R>(p) || evaluate<R>(flipped, w) != evaluate<R>(p, w) ||
          evaluate<R>(flipped, patterns) != evaluate<R>(p, patterns))
        if (++asymmetric <= 5) ADD_FAILURE() << to_fen(p) << " and " << to_fen(flipped) << " evaluate differently";
    }
    EXPECT_EQ(asymmetric, 0);
  });
}

// The configuration of each region computed square by square from the FEN's
// view (not through the masks, bit extraction and digit tables the engine
// uses), and each region a 4x4 window of 8 squares.
TEST_P(EvaluateTest, PatternConfigurationsAreTheRegionsSquaresAsTheSideToMoveSeesThem) {
  with_variant(GetParam(), [&]<RuleSet R>() {
    using Board = BoardFor<R>;
    using T = PatternTables<Board>;
    std::set<int> covered;
    for (int r = 0; r < T::kRegions; ++r) {
      std::set<int> xs, ys;
      for (const int s : T::kRegionSquares[r]) {
        ASSERT_GE(s, 1);
        xs.insert(Board::x_of_square(s));
        ys.insert(Board::y_of_square(s));
        covered.insert(s);
      }
      EXPECT_EQ(*xs.rbegin() - *xs.begin(), 3) << "region " << r;
      EXPECT_EQ(*ys.rbegin() - *ys.begin(), 3) << "region " << r;
    }
    EXPECT_EQ(static_cast<int>(covered.size()), Board::kSquares);
    const int regions = R.board == BoardShape{8, 8} ? 9 : R.board == BoardShape{10, 10} ? 16 : 12;
    EXPECT_EQ(T::kRegions, regions);
    int wrong = 0;
    for (const auto& p : positions<R>()) {
      const bool white = p.side == Color::White;
      for (int r = 0; r < T::kRegions; ++r) {
        int expected = 0, power = 1;
        for (const int relative : T::kRegionSquares[r]) {
          const auto bit = Board::square_bit(white ? relative : Board::kSquares + 1 - relative);
          const int state = (p.men(p.side) & bit) ? 1 : (p.men(~p.side) & bit) ? 2 : 0;
          expected += state * power;
          power *= 3;
        }
        if (pattern_configuration(p, r) != expected && ++wrong <= 5)
          ADD_FAILURE() << to_fen(p) << " region " << r << ": " << pattern_configuration(p, r) << ", expected " << expected;
      }
    }
    EXPECT_EQ(wrong, 0);
  });
}

TEST_P(EvaluateTest, PhaseIsOneAtTheStartAndFallsWithTheMaterial) {
  with_variant(GetParam(), [&]<RuleSet R>() {
    using Board = BoardFor<R>;
    auto p = Position<Board>::start(R.first_player);
    EXPECT_EQ(game_phase(p), 1.0f);
    // Take the pieces off one by one: the phase falls every time, whether
    // what is left are men or kings.
    float previous = game_phase(p);
    for (int i = 0; p.occupied(); ++i) {
      const auto taken = lowest_bit_only(p.occupied());
      p.pieces[0] &= ~taken;
      p.pieces[1] &= ~taken;
      p.kings &= ~taken;
      if (i % 3 == 0) p.kings |= lowest_bit_only(p.occupied());
      const float phase = game_phase(p);
      EXPECT_LT(phase, previous) << to_fen(p);
      previous = phase;
    }
    EXPECT_EQ(previous, 0.0f);
    for (const auto& q : positions<R>()) {
      EXPECT_GE(game_phase(q), 0.0f);
      EXPECT_LE(game_phase(q), 1.0f);
    }
  });
}

TEST_P(EvaluateTest, TheStartIsBalancedButForTheMove) {
  with_variant(GetParam(), [&]<RuleSet R>() {
    const auto start = Position<BoardFor<R>>::start(R.first_player);
    const std::string fen = to_fen(start);
    EXPECT_THAT(features_of(GetParam(), fen), ::testing::ElementsAre(::testing::Pair("side_to_move", 1.0f)));
  });
}

INSTANTIATE_TEST_SUITE_P(AllVariants, EvaluateTest, ::testing::ValuesIn(variant_names()),
                         [](const ::testing::TestParamInfo<std::string>& variant) { return variant.param; });

// ---------------------------------------------------------------------------
// The schema

TEST(FeatureSchema, NamesAreUniqueAndCountedPerBoardShape) {
  for (const BoardShape size : kBoardShapes) {
    const auto& names = feature_names(size);
    EXPECT_EQ(static_cast<int>(names.size()), feature_count(size));
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
    const int squares = size.width * size.height / 2, per_row = size.width / 2;
    EXPECT_EQ(feature_count(size), kNamedFeatureCount + (squares - per_row) + squares);
    const std::regex well_formed("[a-z_]+(\\.[a-z_0-9]+)*");
    for (const auto& name : names) EXPECT_TRUE(std::regex_match(name, well_formed)) << name;
    EXPECT_EQ(names.front(), "material.man");
    EXPECT_EQ(names[kNamedFeatureCount], "pst.man." + std::to_string(per_row + 1));
    EXPECT_EQ(names.back(), "pst.king." + std::to_string(squares));
    EXPECT_TRUE(std::regex_match(schema_hash(size), std::regex("[0-9a-f]{16}"))) << schema_hash(size);
  }
  EXPECT_EQ(feature_count({8, 8}), 77);
  EXPECT_EQ(feature_count({10, 10}), 112);
  EXPECT_EQ(feature_count({10, 8}), 92);
  EXPECT_NE(schema_hash({8, 8}), schema_hash({10, 10}));
  EXPECT_NE(schema_hash({10, 8}), schema_hash({10, 10}));
  EXPECT_THROW(feature_count({12, 12}), Error);
}

// ---------------------------------------------------------------------------
// What single features measure, on hand-made positions (White to move unless
// the FEN says otherwise; values are the side to move's minus the opponent's).

TEST(Features, MaterialTempoAndBalance) {
  // White men on 21 (a3) and 22 (c3), a Black man on 1 (b8).
  const std::string fen = "W:W21,22:B1";
  EXPECT_EQ(feature("russian", fen, "material.man"), 1);
  EXPECT_EQ(feature("russian", fen, "tempo.man"), 4) << "each White man is two rows up, Black's is home";
  EXPECT_EQ(feature("russian", fen, "balance.man"), 2 - 1);
  EXPECT_EQ(feature("russian", fen, "back_row.guard"), -1);
  EXPECT_EQ(feature("russian", fen, "pst.man.21"), 1);
  EXPECT_EQ(feature("russian", fen, "pst.man.32"), -1) << "Black's man on 1 is on its own square 32";
  EXPECT_EQ(feature("russian", "B:W21,22:B1", "material.man"), -1) << "Black to move sees it the other way";
  EXPECT_EQ(feature("international", "W:W31,32:B45,K1", "material.king"), -1);
}

TEST(Features, MobilityCountsPlainStepsAndKingSlides) {
  EXPECT_EQ(feature("russian", "W:W21:B1", "mobility.man"), 1 - 2);
  // A king on a1 with the long diagonal open to g7; a Black man on h8.
  EXPECT_EQ(feature("russian", "W:WK29:B4", "mobility.king"), 6) << "a flying king slides";
  EXPECT_EQ(feature("american", "W:WK29:B4", "mobility.king"), 1) << "a short king steps";
  EXPECT_EQ(feature("russian", "W:WK29:B4", "king.long_diagonal"), 1);
  EXPECT_EQ(feature("russian", "W:WK29:B4", "mobility.man"), -1);
}

TEST(Features, TrappedKingsHaveNoStep) {
  EXPECT_EQ(feature("american", "W:WK29,25:B1", "king.trapped"), 1) << "the king on a1 is walled in by its own man";
  EXPECT_EQ(feature("american", "W:WK29:B1", "king.trapped"), 0);
  EXPECT_EQ(feature("russian", "B:WK29,25:B1", "king.trapped"), -1);
}

TEST(Features, RunawayMenAreThoseNothingCanStop) {
  // White man on 10 (d6); White's king on 29 keeps Black's man from counting.
  EXPECT_EQ(feature("russian", "W:W10,K29:B12", "runaway.man"), 1) << "the man on h6 is out of reach";
  EXPECT_EQ(feature("russian", "B:W10,K29:B12", "runaway.man"), -1);
  EXPECT_EQ(feature("russian", "W:W10,K29:B1", "runaway.man"), 0) << "b8 stands in the path";
  EXPECT_EQ(feature("russian", "W:W10,K29:B12,K32", "runaway.man"), 0) << "an enemy king can catch anything";
  // A Black man beside it on f6: where men capture backwards it jumps d6 from
  // behind once it has stepped to e7; where they do not, it is harmless.
  EXPECT_EQ(feature("russian", "W:W10,K29:B11", "runaway.man"), 0);
  EXPECT_EQ(feature("czech", "W:W10,K29:B11", "runaway.man"), 1);
}

TEST(Features, TempoParityOnlyInKinglessEndgames) {
  // 21 (a3) has 5 steps to go, 1 (b8) has 7: 12 in all, even.
  EXPECT_EQ(feature("american", "W:W21:B1", "endgame.tempo_parity"), 1);
  EXPECT_EQ(feature("american", "W:W17:B1", "endgame.tempo_parity"), -1);
  EXPECT_EQ(feature("american", "W:W21,K32:B1", "endgame.tempo_parity"), 0);
  EXPECT_EQ(feature("american", "W:W21-32:B1-12", "endgame.tempo_parity"), 0);
}

TEST(Features, StructureOfTheMen) {
  // 22 (c3) is backed by 25 (b2) and 26 (d2); those two are not (a1 and c1, e1 are empty).
  EXPECT_EQ(feature("czech", "W:W22,25,26:B1", "structure.backed_man"), 1);
  EXPECT_EQ(feature("czech", "W:W22,25,26:B1", "structure.isolated_man"), -1) << "only Black's man stands alone";
}

TEST(Features, TheDefaultWeightsPreferMaterial) {
  for (const auto& v : kVariants) {
    with_rules(v.rules, [&]<RuleSet R>() {
      using Board = BoardFor<R>;
      const Weights w = default_weights(v);
      if constexpr (no_move_wins(R)) {
        // poddavki: a man fewer than the opponent at the start is good, for
        // either side to move (the tuned weights' endgames are their own
        // business: kings and the moves they force count there).
        const auto white_gave = parse_fen<Board>("W:W22-32:B1-12"), black_gave = parse_fen<Board>("B:W21-32:B2-12");
        EXPECT_GT(evaluate<R>(white_gave, w), evaluate<R>(Position<Board>::start(R.first_player), w) + 50) << v.name;
        EXPECT_GT(evaluate<R>(black_gave, w), 50) << v.name;
        return;
      }
      // A man up, and a king against a man: good for White, bad for Black to
      // move.  How good and how bad, the fit decides (the tuned weights value
      // a man in a bare endgame at about half a man of the opening, and a
      // lone man's run to the crown offsets part of a king).
      const auto man_up = parse_fen<Board>("W:W21,22:B1"), king_up = parse_fen<Board>("B:WK22:B1");
      EXPECT_GT(evaluate<R>(man_up, w), 0) << v.name;
      EXPECT_LT(evaluate<R>(king_up, w), 0) << v.name;
    });
  }
}

// ---------------------------------------------------------------------------
// dama eval

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

std::ostream& operator<<(std::ostream& os, const Outcome& r) {
  return os << "exit " << r.exit_code << "\n--- stdout:\n" << r.out << "\n--- stderr:\n" << r.err;
}

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Outcome run_dama(const std::vector<std::string>& args) {
  const std::string err_path = ::testing::TempDir() + "dama_eval_err_" + std::to_string(::getpid());
  std::string command = shell_quoted(DAMA_BINARY);
  for (const auto& a : args) command += " " + shell_quoted(a);
  command += " </dev/null 2>" + shell_quoted(err_path);
  Outcome r;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "cannot run " << command;
    return r;
  }
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream err(err_path);
  std::ostringstream text;
  text << err.rdbuf();
  r.err = text.str();
  std::remove(err_path.c_str());
  return r;
}

// The "total" line's score, and the contributions of the feature rows summed.
struct PrintedEvaluation {
  int total = 0;
  double contributions = 0;
  int rows = 0;
};

PrintedEvaluation read_evaluation(const Outcome& r) {
  PrintedEvaluation printed;
  bool in_table = false, has_total = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "feature") {
      in_table = true;
    } else if (first == "phase") {
      in_table = false;
    } else if (first == "total") {
      has_total = static_cast<bool>(words >> printed.total);
    } else if (in_table) {
      double value, opening, endgame, contribution;
      EXPECT_TRUE(words >> value >> opening >> endgame >> contribution) << line;
      EXPECT_NE(value, 0) << line;
      printed.contributions += contribution;
      ++printed.rows;
    }
  }
  EXPECT_TRUE(has_total) << r;
  return printed;
}

template <RuleSet R>
Score expected_score(const std::string& fen, const Weights& w) {
  return evaluate<R>(parse_fen<BoardFor<R>>(fen), w);
}

TEST(EvalCommand, PrintsTheTotalThatEvaluateReturns) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"russian", "W:W10,K29:B12"},       {"russian", "B:W18,21,22,K30:B1,2,3,K12"},
      {"czech", "W:W21-32:B1-12"},        {"american", "W:W21,22,K5:B1,K32"},
      {"italian", "B:W21,K22:B9,K10"},    {"international", "W:W31-50:B1-20"},
      {"international", "B:W28,K46:B3,K23"}};
  for (const auto& [variant, fen] : cases) {
    SCOPED_TRACE(variant + " " + fen);
    const Outcome r = run_dama({"eval", "--variant", variant, "--fen", fen});
    ASSERT_EQ(r.exit_code, 0) << r;
    EXPECT_EQ(r.err, "");
    const PrintedEvaluation printed = read_evaluation(r);
    with_variant(variant, [&]<RuleSet R>() {
      EXPECT_EQ(printed.total, expected_score<R>(fen, default_weights(find_variant(variant))));
    });
    EXPECT_NEAR(printed.contributions, printed.total, 0.5 + 0.005 * printed.rows) << r;
    EXPECT_GT(printed.rows, 0);
  }
}

TEST(EvalCommand, AppliesPlayedMovesAndReadsAWeightsFile) {
  const Variant& russian = find_variant("russian");
  const std::string path = ::testing::TempDir() + "dama_eval_weights_" + std::to_string(::getpid()) + ".json";
  const Weights w = random_weights(russian, 3);
  save_weights(path, w, russian);
  const Outcome r = run_dama({"eval", "--play", "c3-d4 f6-e5", "--weights", path});
  std::remove(path.c_str());
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out, HasSubstr(path));
  // c3-d4 is 22-18, f6-e5 is 11-15.
  constexpr RuleSet R = test::variant_rules("russian");
  EXPECT_EQ(read_evaluation(r).total, expected_score<R>("W:W18,21,23-32:B1-10,12,15", w));
}

TEST(EvalCommand, ListsTheSchema) {
  const Outcome r = run_dama({"eval", "--variant", "international", "--features"});
  ASSERT_EQ(r.exit_code, 0) << r;
  std::vector<std::string> expected = {"schema", schema_hash({10, 10})};
  for (const auto& name : feature_names({10, 10})) expected.push_back(name);
  std::istringstream words(r.out);
  std::vector<std::string> printed;
  for (std::string word; words >> word && word != "pattern";) printed.push_back(word);
  EXPECT_EQ(printed, expected);
  // Then the pattern schema: its hash, its size and each region's squares (r15: the top-right
  // 4x4 window, files g-j of rows 7-10).
  EXPECT_THAT(r.out, HasSubstr("pattern schema " + pattern_schema_hash({10, 10}) + ": 104976 features"));
  EXPECT_THAT(r.out, HasSubstr("\nr15 = squares 4 5 9 10 14 15 19 20\n")) << r.out;
}

TEST(EvalCommand, RefusesABadWeightsFile) {
  const std::string path = ::testing::TempDir() + "dama_eval_bad_weights_" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream out(path);
    out << R"({"format": "dama-weights", "version": 1, "variant": "russian", "weights": )";
  }
  for (const auto& file : {path, path + ".missing"}) {
    const Outcome r = run_dama({"eval", "--variant", "russian", "--weights", file});
    EXPECT_EQ(r.exit_code, 2) << r;
    EXPECT_THAT(r.err, StartsWith("dama: error: ")) << r;
    EXPECT_THAT(r.err, HasSubstr(file)) << r;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r;
    EXPECT_EQ(r.out, "") << "nothing is evaluated with weights that did not load";
  }
  std::remove(path.c_str());
  // The right file for the wrong variant.
  const Outcome r = run_dama({"eval", "--variant", "czech", "--weights", DAMA_TEST_DATA_DIR "/../../configs/weights/russian.json"});
  EXPECT_EQ(r.exit_code, 2) << r;
  EXPECT_THAT(r.err, HasSubstr("\"variant\"")) << r;
}

}  // namespace
}  // namespace dama
