// The tuner (train/): samples match the engine's evaluation, the analytic
// gradient matches finite differences, the fit recovers a known evaluation
// and a known k, the split never cuts a game, bad configs are refused, and a
// fit stopped and resumed from a checkpoint ends where an uninterrupted one
// does, bit for bit, for any number of threads.  Streaming: the ranged reader
// reads what the whole-file reader reads and cuts blocks at chunks and parts,
// a fit on samples streamed from a master file in tiny blocks ends with the
// same weights as in memory, bit for bit, and resumes like one in memory, and
// dama tune streams when the estimate is over the budget.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "checkpoint.hpp"
#include "config.hpp"
#include "dataset.hpp"
#include "dataset_io.hpp"
#include "evaluate.hpp"
#include "model.hpp"
#include "memory_plan.hpp"
#include "optimizer.hpp"
#include "sample_source.hpp"
#include "samples.hpp"
#include "patterns/regions.hpp"
#include "split.hpp"
#include "test_support.hpp"
#include "trainer.hpp"
#include "training_log.hpp"
#include "weights.hpp"

namespace dama::train {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "dama_train_" + std::to_string(::getpid()) + "_" + name;
}

Eigen::VectorXd vector_of(const Weights& w) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(w.values.size()));
  for (std::size_t i = 0; i < w.values.size(); ++i) v[static_cast<Eigen::Index>(i)] = w.values[i];
  return v;
}

// Weights near the defaults, every one moved by up to +-spread centi-men.
Eigen::VectorXd perturbed(const Eigen::VectorXd& w, double spread, std::uint64_t seed) {
  test::Random random(seed);
  Eigen::VectorXd out = w;
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] += spread * (random.below(20001) - 10000) / 10000.0;
  return out;
}

// The eval of sample i at weights w, from its stored terms.
double sample_eval(const SampleSet& s, std::size_t i, const Eigen::VectorXd& w) {
  double e = 0;
  for (std::uint32_t j = s.offsets[i]; j < s.offsets[i + 1]; ++j) e += s.coefficients[j] * w[s.indices[j]];
  return e;
}

// Rows of positions from random play (test_support), `per_game` consecutive
// positions to a game id, labelled by `label(eval under truth)`.
struct LabelledData {
  std::vector<PositionRow> rows;
  SampleSet samples;
};

template <class Label>
LabelledData labelled_data(const Variant& variant, const Eigen::VectorXd& truth, int count, std::uint64_t seed,
                           Label&& label) {
  LabelledData data;
  with_rules(variant.rules, [&]<RuleSet R>() {
    using Board = BoardFor<R>;
    int n = 0;
    for (const auto& p : test::random_positions<Board>(R, seed, count)) {
      PositionRow row = side_relative_row(p);
      row.game_id = 1000 + static_cast<std::uint64_t>(n++ / 20);
      data.rows.push_back(row);
    }
  });
  data.samples = make_samples(data.rows, variant);
  test::Random random(seed ^ 0xABCDEF);
  for (std::size_t i = 0; i < data.rows.size(); ++i) {
    const auto [result, score] = label(sample_eval(data.samples, i, truth), random);
    data.rows[i].result = static_cast<std::int8_t>(result);
    data.rows[i].score = static_cast<std::int16_t>(score);
    data.samples.results[i] = static_cast<std::int8_t>(result);
    data.samples.scores[i] = static_cast<float>(score);
  }
  return data;
}

// Labels drawn the way games would: the result a coin toss with the win
// probability the true evaluation gives, the score the true evaluation itself.
auto true_labels(double k) {
  return [k](double eval, test::Random& random) {
    const double p = sigmoid(k * eval / 100);
    const int result = random.below(1000000) < p * 1000000 ? 1 : -1;
    const double score = std::clamp(std::round(eval), -3000.0, 3000.0);
    return std::pair<int, double>(result, score);
  };
}

std::vector<std::uint32_t> all_of(const SampleSet& s) {
  std::vector<std::uint32_t> all(s.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);
  return all;
}

// ---------------------------------------------------------------------------
// Samples

TEST(TunerSamples, AgreeWithTheEngineEvaluation) {
  for (const auto& v : kVariants) {
    SCOPED_TRACE(v.name);
    const Weights w = default_weights(v);
    const Eigen::VectorXd wv = vector_of(w);
    with_rules(v.rules, [&]<RuleSet R>() {
      using Board = BoardFor<R>;
      std::vector<PositionRow> rows;
      std::vector<Score> engine;
      for (const auto& p : test::test_positions<Board>(R, 7, 400)) {
        rows.push_back(side_relative_row(p));
        engine.push_back(evaluate<R>(p, w));
      }
      const SampleSet s = make_samples(rows, v);
      ASSERT_EQ(s.size(), rows.size());
      EXPECT_EQ(s.weight_count, static_cast<int>(w.values.size()));
      for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_NEAR(sample_eval(s, i, wv), engine[i], 0.5 + 1e-3) << "position " << i;
        std::set<int> seen;
        for (std::uint32_t j = s.offsets[i]; j < s.offsets[i + 1]; ++j) {
          EXPECT_TRUE(seen.insert(s.indices[j]).second) << "repeated index " << s.indices[j];
          EXPECT_NE(s.coefficients[j], 0.0f);
        }
      }
      EXPECT_GT(s.bytes_per_position(), 17.0);
    });
  }
}

TEST(TunerSamples, RefuseARowWithAManOnItsCrowningRow) {
  PositionRow row;
  row.own_men = 1;  // square 1: the side to move's crowning row
  row.opp_men = std::uint64_t{1} << 20;
  row.game_id = 17;
  try {
    make_samples({PositionRow{}, row}, find_variant("russian"));
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("position row 1 (game 17)"));
  }
}

TEST(TunerSamples, AppendKeepsEachPositionsTerms) {
  const Variant& v = find_variant("russian");
  const Eigen::VectorXd w = vector_of(default_weights(v));
  const auto data = labelled_data(v, w, 300, 3, true_labels(1.0));
  SampleSet joined;
  append_samples(joined, data.samples);
  append_samples(joined, data.samples);
  ASSERT_EQ(joined.size(), 2 * data.samples.size());
  for (std::size_t i = 0; i < data.samples.size(); ++i)
    EXPECT_EQ(sample_eval(joined, i + data.samples.size(), w), sample_eval(data.samples, i, w));
  EXPECT_THROW(append_samples(joined, make_samples({PositionRow{}}, find_variant("international"))), Error);
}

// ---------------------------------------------------------------------------
// Gradient

class TunerGradientCheck : public ::testing::TestWithParam<LossKind> {};

TEST_P(TunerGradientCheck, MatchesFiniteDifferences) {
  const Variant& v = find_variant("brazilian");
  const Eigen::VectorXd truth = vector_of(default_weights(v));
  auto data = labelled_data(v, truth, 600, 11, true_labels(1.0));
  for (std::size_t i = 0; i < data.samples.size(); i += 3) data.samples.results[i] = 0;  // some draws
  const Model model{0.9, 0.6, GetParam()};
  const auto targets = targets_of(data.samples, model);
  const auto which = all_of(data.samples);
  OptimizerSettings optimizer;
  optimizer.l2 = 1e-4;
  const Eigen::VectorXd start = perturbed(truth, 40, 5);
  const Eigen::VectorXd w = perturbed(truth, 60, 6);

  auto objective = [&](const Eigen::VectorXd& x) {
    Eigen::VectorXd unused = Eigen::VectorXd::Zero(x.size());
    return mean_loss(data.samples, targets, which, x, model) + add_regularisation(optimizer, x, start, unused);
  };
  Eigen::VectorXd gradient;
  mean_loss(data.samples, targets, which, w, model, &gradient);
  add_regularisation(optimizer, w, start, gradient);

  int checked = 0;
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    const double h = 1e-2;
    Eigen::VectorXd up = w, down = w;
    up[i] += h;
    down[i] -= h;
    const double numeric = (objective(up) - objective(down)) / (2 * h);
    EXPECT_NEAR(gradient[i], numeric, 1e-10 + 1e-5 * std::abs(numeric)) << "weight " << i;
    checked += gradient[i] != 0;
  }
  EXPECT_GT(checked, w.size() / 2) << "most weights take part";
}

INSTANTIATE_TEST_SUITE_P(BothLosses, TunerGradientCheck, ::testing::Values(LossKind::MeanSquaredError, LossKind::CrossEntropy),
                         [](const auto& loss) { return std::string(loss_name(loss.param)); });

TEST(TunerModel, ScalingToAManValueKeepsEveryPrediction) {
  // Weights times the factor and k divided by it: the same sigmoid for any position.
  Eigen::VectorXd w(3);
  w << 150.0, 290.0, -12.5;
  const double factor = man_value_factor(w, 100);
  EXPECT_DOUBLE_EQ(factor * w[0], 100.0);
  const double k = 0.2, terms[3] = {2, -1, 3};
  double eval = 0, scaled = 0;
  for (int i = 0; i < 3; ++i) {
    eval += terms[i] * w[i];
    scaled += terms[i] * w[i] * factor;
  }
  EXPECT_NEAR(sigmoid(k * eval / 100), sigmoid((k / factor) * scaled / 100), 1e-12);
  // A man worth nothing or less (a give-away game's fit) has no such scale.
  w[0] = -80;
  EXPECT_THROW(man_value_factor(w, 100), Error);
  w[0] = 0;
  EXPECT_THROW(man_value_factor(w, 100), Error);
}

TEST(TunerModel, TargetsBlendResultAndScore) {
  const Model model{1.0, 0.25, LossKind::MeanSquaredError};
  EXPECT_DOUBLE_EQ(target_of(model, 1, 0), 0.25 + 0.75 * 0.5);
  EXPECT_DOUBLE_EQ(target_of(model, 0, 100), 0.25 * 0.5 + 0.75 * sigmoid(1.0));
  EXPECT_NEAR(target_of(model, -1, -30000), 0.0, 1e-100) << "a lost game with a lost score";
  EXPECT_NEAR(sigmoid(-800), 0.0, 1e-300);
  EXPECT_DOUBLE_EQ(sigmoid(0), 0.5);
  // No search score (an imported game): the result alone, whatever lambda.
  const double none = std::numeric_limits<double>::quiet_NaN();
  EXPECT_DOUBLE_EQ(target_of(model, 1, none), 1.0);
  EXPECT_DOUBLE_EQ(target_of(model, 0, none), 0.5);
  EXPECT_DOUBLE_EQ(target_of(Model{1.0, 0.0, LossKind::CrossEntropy}, -1, none), 0.0);
}

TEST(TunerModel, TheLossIsTheSameForAnyNumberOfThreads) {
  const Variant& v = find_variant("international");
  const Eigen::VectorXd w = vector_of(default_weights(v));
  const auto data = labelled_data(v, w, 5000, 2, true_labels(1.2));
  const Model model{1.2, 0.5, LossKind::CrossEntropy};
  const auto targets = targets_of(data.samples, model);
  const auto which = all_of(data.samples);
  const int threads = omp_get_max_threads();
  Eigen::VectorXd g1, g3;
  omp_set_num_threads(1);
  const double l1 = mean_loss(data.samples, targets, which, w, model, &g1);
  omp_set_num_threads(3);
  const double l3 = mean_loss(data.samples, targets, which, w, model, &g3);
  omp_set_num_threads(threads);
  EXPECT_EQ(l1, l3);
  EXPECT_TRUE(g1 == g3);
}

// ---------------------------------------------------------------------------
// Fitting

TEST(TunerFit, FindsTheKThatLabelledTheResults) {
  const Variant& v = find_variant("russian");
  const Eigen::VectorXd truth = vector_of(default_weights(v));
  for (const double k : {0.5, 1.5}) {
    const auto data = labelled_data(v, truth, 20000, 21, true_labels(k));
    const double fitted = fit_k(data.samples, all_of(data.samples), truth, LossKind::CrossEntropy);
    EXPECT_NEAR(fitted, k, 0.05 * k);
  }
}

// Scores from a known evaluation, starting from weights 30 centi-men off:
// the fit must bring the evaluation back near the truth on positions it never
// saw (weights themselves are not identifiable: material and the piece-square
// tables overlap).
TEST(TunerFit, RecoversAKnownEvaluation) {
  const Variant& v = find_variant("russian");
  const Eigen::VectorXd truth = perturbed(vector_of(default_weights(v)), 20, 31);
  const auto data = labelled_data(v, truth, 12000, 32, true_labels(1.0));
  const auto unseen = labelled_data(v, truth, 2000, 33, true_labels(1.0));
  const Eigen::VectorXd start = perturbed(truth, 30, 34);

  TrainSettings settings;
  settings.model = {1.0, 0.0, LossKind::MeanSquaredError};
  settings.fit_k = false;
  settings.optimizer.learning_rate = 2.0;
  settings.optimizer.min_learning_rate = 0.02;
  settings.optimizer.batch_size = 1024;
  settings.max_epochs = 40;
  settings.patience = 40;
  const Split split = split_by_game(data.samples, 0.1, 1);
  TrainerState state = start_training(data.samples, split, settings, start);
  EXPECT_TRUE(train(data.samples, split, settings, state));

  auto rms_error = [&](const Eigen::VectorXd& w) {
    double sum = 0;
    for (std::size_t i = 0; i < unseen.samples.size(); ++i)
      sum += std::pow(sample_eval(unseen.samples, i, w) - sample_eval(unseen.samples, i, truth), 2);
    return std::sqrt(sum / static_cast<double>(unseen.samples.size()));
  };
  const double before = rms_error(start), after = rms_error(state.best_weights);
  EXPECT_GT(before, 50.0);
  EXPECT_LT(after, 0.05 * before) << "before " << before << ", after " << after;
  EXPECT_LT(state.best_loss, 1e-3);
}

// ---------------------------------------------------------------------------
// Split

TEST(TunerSplit, NeverCutsAGame) {
  SampleSet s;
  test::Random random(77);
  for (int i = 0; i < 20000; ++i) s.game_ids.push_back(random.below(700));
  s.results.resize(s.game_ids.size());
  const Split split = split_by_game(s, 0.2, 9);
  EXPECT_EQ(split.training.size() + split.validation.size(), s.size());
  std::set<std::uint64_t> training_games, validation_games;
  for (auto i : split.training) training_games.insert(s.game_ids[i]);
  for (auto i : split.validation) validation_games.insert(s.game_ids[i]);
  for (auto g : validation_games) EXPECT_EQ(training_games.count(g), 0u) << "game " << g << " on both sides";
  const double share = static_cast<double>(validation_games.size()) / (training_games.size() + validation_games.size());
  EXPECT_NEAR(share, 0.2, 0.05);
  EXPECT_TRUE(std::is_sorted(split.training.begin(), split.training.end()));
  // The same seed splits the same way; another seed another way.
  EXPECT_EQ(split_by_game(s, 0.2, 9).validation, split.validation);
  EXPECT_NE(split_by_game(s, 0.2, 10).validation, split.validation);
  EXPECT_TRUE(split_by_game(s, 0.0, 9).validation.empty());
}

TEST(TunerSplit, QuietOnlyLeavesOutPositionsWithACapturePending) {
  SampleSet s;
  test::Random random(78);
  for (int i = 0; i < 5000; ++i) {
    s.game_ids.push_back(random.below(300));
    s.capture_pending.push_back(random.below(4) == 0 ? 1 : 0);
  }
  s.results.resize(s.game_ids.size());
  const Split all = split_by_game(s, 0.2, 9), quiet = split_by_game(s, 0.2, 9, true);
  std::size_t pending = 0;
  for (const auto p : s.capture_pending) pending += p;
  ASSERT_GT(pending, 1000u);
  EXPECT_EQ(quiet.training.size() + quiet.validation.size(), s.size() - pending);
  for (const auto* side : {&quiet.training, &quiet.validation})
    for (const auto i : *side) EXPECT_EQ(s.capture_pending[i], 0) << i;
  // The games stay on the side the plain split puts them.
  for (const auto i : quiet.validation) EXPECT_TRUE(std::binary_search(all.validation.begin(), all.validation.end(), i));
}

TEST(TunerSamples, RecordWhetherTheMovePlayedCaptured) {
  const Variant& russian = find_variant("russian");
  std::vector<PositionRow> rows(2);
  for (auto& row : rows) {
    row.own_men = 0xFFF00000ULL;  // squares 21-32
    row.opp_men = 0x00000FFFULL;  // squares 1-12
  }
  rows[1].best_captured = 1ULL << 17;
  const SampleSet linear = make_samples(rows, russian), patterns = make_samples(rows, russian, EvalModel::Patterns);
  EXPECT_EQ(linear.capture_pending, (std::vector<std::uint8_t>{0, 1}));
  EXPECT_EQ(patterns.capture_pending, linear.capture_pending);
  EXPECT_EQ(patterns.weight_count, 2 * (feature_count({8, 8}) + pattern_feature_count({8, 8})));
  // The same named terms, then one pattern feature a region (both phases at the start: phase 1, endgame 0 dropped).
  EXPECT_EQ(patterns.term_count(), linear.term_count() + 2 * 9);
  for (std::uint32_t j = patterns.offsets[1] - 9; j < patterns.offsets[1]; ++j)
    EXPECT_GE(patterns.indices[j], static_cast<std::uint32_t>(2 * feature_count({8, 8})));
}

// ---------------------------------------------------------------------------
// Checkpoints and determinism

struct SmallFit {
  LabelledData data;
  Split split;
  TrainSettings settings;
  Eigen::VectorXd start;

  explicit SmallFit(OptimizerKind kind, std::uint32_t batch, std::uint64_t seed = 5) {
    const Variant& v = find_variant("czech");
    const Eigen::VectorXd truth = perturbed(vector_of(default_weights(v)), 20, 41);
    data = labelled_data(v, truth, 3000, 42, true_labels(1.0));
    settings.model = {1.0, 0.5, LossKind::CrossEntropy};
    settings.optimizer.kind = kind;
    settings.optimizer.learning_rate = kind == OptimizerKind::GradientDescent ? 3000.0 : 1.0;
    settings.optimizer.schedule = Schedule::Step;
    settings.optimizer.step_epochs = 3;
    settings.optimizer.batch_size = batch;
    settings.optimizer.l2 = 1e-6;
    settings.max_epochs = 10;
    settings.patience = 10;
    settings.seed = seed;
    split = split_by_game(data.samples, 0.2, seed);
    start = perturbed(truth, 30, 43);
  }
  TrainerState run(int stop_after = 0) const {
    TrainerState state = start_training(data.samples, split, settings, start);
    train(data.samples, split, settings, state, [&](const EpochReport& r, const TrainerState&) {
      return stop_after == 0 || r.epoch < stop_after;
    });
    return state;
  }
};

void expect_same(const TrainerState& a, const TrainerState& b) {
  EXPECT_EQ(a.epoch, b.epoch);
  EXPECT_EQ(a.k, b.k);
  EXPECT_TRUE(a.weights == b.weights) << "first difference " << std::abs((a.weights - b.weights)[0]);
  EXPECT_TRUE(a.best_weights == b.best_weights);
  EXPECT_EQ(a.best_loss, b.best_loss);
  EXPECT_EQ(a.best_epoch, b.best_epoch);
  EXPECT_EQ(a.optimizer.steps, b.optimizer.steps);
}

class TunerResume : public ::testing::TestWithParam<std::pair<OptimizerKind, std::uint32_t>> {};

TEST_P(TunerResume, FromACheckpointEndsWhereAnUninterruptedFitDoes) {
  const SmallFit fit(GetParam().first, GetParam().second);
  const TrainerState whole = fit.run();
  EXPECT_EQ(whole.epoch, 10);
  EXPECT_LT(whole.best_loss, fit.run(1).best_loss) << "the fit improves";

  const TrainerState stopped = fit.run(4);
  ASSERT_EQ(stopped.epoch, 4);
  const std::string path = temp_path("resume.checkpoint");
  const auto fingerprint = run_fingerprint(fit.settings, fit.data.samples, fit.split, fit.start);
  save_checkpoint(path, stopped, fingerprint);
  TrainerState resumed = load_checkpoint(path, fingerprint);
  expect_same(resumed, stopped);
  train(fit.data.samples, fit.split, fit.settings, resumed);
  expect_same(resumed, whole);
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(Optimisers, TunerResume,
                         ::testing::Values(std::pair{OptimizerKind::Adam, 0u}, std::pair{OptimizerKind::Adam, 256u},
                                           std::pair{OptimizerKind::GradientDescent, 0u},
                                           std::pair{OptimizerKind::GradientDescent, 512u},
                                           std::pair{OptimizerKind::LazyAdam, 256u}),
                         [](const auto& optimiser) {
                           const OptimizerKind kind = optimiser.param.first;
                           return std::string(kind == OptimizerKind::Adam              ? "Adam"
                                              : kind == OptimizerKind::GradientDescent ? "GradientDescent"
                                                                                       : "LazyAdam") +
                                  (optimiser.param.second ? "MiniBatch" : "FullBatch");
                         });

// Lazy Adam moves only the weights the step has a gradient for: a weight
// inactive in a step keeps its value and moments (dense Adam's momentum
// would move it), while an active one takes exactly dense Adam's step.
TEST(LazyAdam, TouchesOnlyTheWeightsWithAGradient) {
  OptimizerSettings settings;
  settings.l2 = 0.01;
  const Eigen::VectorXd start = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd lazy = Eigen::VectorXd::Zero(3), dense = Eigen::VectorXd::Zero(3);
  OptimizerState lazy_state, dense_state;
  const auto dense_step = [&](Eigen::VectorXd gradient) {
    add_regularisation(settings, dense, start, gradient);
    optimizer_step(settings, 0.1, gradient, dense_state, dense);
  };
  const Eigen::VectorXd first = Eigen::Vector3d(1.0, 0.0, -2.0);
  lazy_adam_step(settings, 0.1, first, start, lazy_state, lazy);
  dense_step(first);
  EXPECT_DOUBLE_EQ(lazy[0], dense[0]);
  EXPECT_DOUBLE_EQ(lazy[2], dense[2]);
  EXPECT_EQ(lazy[1], 0.0) << "never active";

  const Eigen::VectorXd second = Eigen::Vector3d(0.0, 0.5, 0.0);
  const Eigen::VectorXd before = lazy;
  const Eigen::VectorXd moment1_before = lazy_state.moment1;
  lazy_adam_step(settings, 0.1, second, start, lazy_state, lazy);
  dense_step(second);
  EXPECT_EQ(lazy[0], before[0]) << "inactive: not moved by its momentum nor pulled to the start";
  EXPECT_EQ(lazy[2], before[2]);
  EXPECT_EQ(lazy_state.moment1[0], moment1_before[0]);
  EXPECT_NE(dense[0], before[0]) << "dense Adam's momentum moves it";
  EXPECT_LT(lazy[1], 0.0) << "active: moved against its gradient";
  EXPECT_EQ(lazy_state.steps, 2);
}

TEST(LazyAdam, IsAnOptimizerKindOfTheConfig) {
  EXPECT_STREQ(optimizer_name(OptimizerKind::LazyAdam), "lazy_adam");
  EXPECT_STREQ(optimizer_name(OptimizerKind::Adam), "adam");
  EXPECT_STREQ(optimizer_name(OptimizerKind::GradientDescent), "gradient_descent");
  const TrainSettings s = parse_train_config("[optimizer]\nkind = \"lazy_adam\"\n", "lazy.toml");
  EXPECT_EQ(s.optimizer.kind, OptimizerKind::LazyAdam);
}

TEST(TunerCheckpoint, RefusesACheckpointOfAnotherRun) {
  const SmallFit fit(OptimizerKind::Adam, 256);
  const TrainerState state = fit.run(2);
  const std::string path = temp_path("other.checkpoint");
  save_checkpoint(path, state, run_fingerprint(fit.settings, fit.data.samples, fit.split, fit.start));
  TrainSettings other = fit.settings;
  other.optimizer.learning_rate = 0.5;
  try {
    load_checkpoint(path, run_fingerprint(other, fit.data.samples, fit.split, fit.start));
    ADD_FAILURE() << "resumed another run";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), StartsWith(path + ": "));
    EXPECT_THAT(e.what(), HasSubstr("learning_rate"));
  }
  std::ofstream(path) << "{\"format\": \"dama-tune-checkpoint\", \"version\": 1,";
  EXPECT_THROW(load_checkpoint(path, nlohmann::json::object()), Error);
  std::remove(path.c_str());
  EXPECT_THROW(load_checkpoint(path, nlohmann::json::object()), Error) << "a missing file";
}

TEST(TunerDeterminism, TheSameSeedGivesTheSameWeightsForAnyNumberOfThreads) {
  const SmallFit fit(OptimizerKind::Adam, 256);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const TrainerState one = fit.run();
  omp_set_num_threads(2);
  const TrainerState two = fit.run();
  omp_set_num_threads(threads);
  expect_same(one, two);
  const SmallFit other_seed(OptimizerKind::Adam, 256, 6);
  EXPECT_FALSE(other_seed.run().weights == one.weights);
}

TEST(TunerEarlyStopping, StopsAfterPatienceAndKeepsTheBest) {
  SmallFit fit(OptimizerKind::GradientDescent, 0);
  fit.settings.optimizer.learning_rate = 3e6;  // far too large: the validation loss gets worse
  fit.settings.optimizer.schedule = Schedule::Constant;
  fit.settings.max_epochs = 50;
  fit.settings.patience = 3;
  std::vector<EpochReport> reports;
  TrainerState state = start_training(fit.data.samples, fit.split, fit.settings, fit.start);
  train(fit.data.samples, fit.split, fit.settings, state, [&](const EpochReport& r, const TrainerState&) {
    reports.push_back(r);
    return true;
  });
  ASSERT_FALSE(reports.empty());
  EXPECT_TRUE(state.finished);
  EXPECT_LT(state.epoch, 50);
  EXPECT_EQ(state.epoch - state.best_epoch, 3);
  double best = std::numeric_limits<double>::infinity();
  for (const auto& r : reports) best = std::min(best, r.validation_loss);
  EXPECT_EQ(state.best_loss, best);
}

// ---------------------------------------------------------------------------
// Optimiser pieces

TEST(TunerSchedule, StepAndCosine) {
  OptimizerSettings o;
  o.learning_rate = 1.0;
  o.schedule = Schedule::Step;
  o.step_epochs = 10;
  o.step_factor = 0.5;
  EXPECT_DOUBLE_EQ(learning_rate_at(o, 9, 100), 1.0);
  EXPECT_DOUBLE_EQ(learning_rate_at(o, 10, 100), 0.5);
  EXPECT_DOUBLE_EQ(learning_rate_at(o, 25, 100), 0.25);
  o.schedule = Schedule::Cosine;
  o.min_learning_rate = 0.1;
  EXPECT_DOUBLE_EQ(learning_rate_at(o, 0, 11), 1.0);
  EXPECT_NEAR(learning_rate_at(o, 5, 11), 0.55, 1e-12);
  EXPECT_NEAR(learning_rate_at(o, 10, 11), 0.1, 1e-12);
}

// ---------------------------------------------------------------------------
// Config

TEST(TunerConfig, TheShippedFilesParseAndAreTheOnesBuiltIn) {
  for (const auto& v : kVariants) {
    SCOPED_TRACE(v.name);
    const std::string path = DAMA_SOURCE_DIR "/configs/train/" + std::string(v.name) + ".toml";
    const TrainSettings s = load_train_config(path);
    EXPECT_EQ(run_fingerprint(s, {}, {}, {}), run_fingerprint(parse_train_config(built_in_train_config(v), "x"), {}, {}, {}));
    EXPECT_GT(s.max_epochs, 0);
    EXPECT_GT(s.validation_share, 0);
  }
}

TEST(TunerConfig, ReadsEveryKey) {
  const TrainSettings s = parse_train_config(R"(
[model]
loss = "mse"
lambda = 0.25
k = 2
fit_k = false
man_value = 100
[optimizer]
kind = "gradient_descent"
learning_rate = 5000
schedule = "step"
step_epochs = 7
step_factor = 0.3
batch_size = 100
l2 = 0.5
[training]
max_epochs = 12
patience = 4
validation_share = 0.0
seed = 99
[data]
memory_mb = 2048
)", "test.toml");
  EXPECT_EQ(s.model.loss, LossKind::MeanSquaredError);
  EXPECT_EQ(s.model.lambda, 0.25);
  EXPECT_EQ(s.model.k, 2.0);
  EXPECT_FALSE(s.fit_k);
  EXPECT_EQ(s.man_value, 100.0);
  EXPECT_EQ(s.optimizer.kind, OptimizerKind::GradientDescent);
  EXPECT_EQ(s.optimizer.learning_rate, 5000);
  EXPECT_EQ(s.optimizer.schedule, Schedule::Step);
  EXPECT_EQ(s.optimizer.step_epochs, 7);
  EXPECT_EQ(s.optimizer.step_factor, 0.3);
  EXPECT_EQ(s.optimizer.batch_size, 100u);
  EXPECT_EQ(s.optimizer.l2, 0.5);
  EXPECT_EQ(s.max_epochs, 12);
  EXPECT_EQ(s.patience, 4);
  EXPECT_EQ(s.validation_share, 0.0);
  EXPECT_EQ(s.seed, 99u);
  EXPECT_EQ(s.data.memory_mb, 2048u);
  // Left out: the defaults.
  EXPECT_EQ(parse_train_config("", "empty.toml").max_epochs, TrainSettings{}.max_epochs);
}

TEST(TunerConfig, RefusesWithOneLineNamingFileAndKey) {
  const std::string origin = "configs/train/x.toml";
  auto expect_refused = [&](const std::string& text, std::initializer_list<std::string> parts) {
    try {
      parse_train_config(text, origin);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_THAT(message, StartsWith(origin + ":"));
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      for (const auto& part : parts) EXPECT_THAT(message, HasSubstr(part)) << text;
    }
  };
  expect_refused("[optimizer]\nlearnig_rate = 1.0\n", {"optimizer.learnig_rate", "unknown key"});
  expect_refused("[optimiser]\nkind = \"adam\"\n", {"optimiser", "unknown key"});
  expect_refused("seed = 3\n", {"seed", "unknown key"});
  expect_refused("model = 3\n", {"model", "expected a table"});
  expect_refused("[optimizer]\nlearning_rate = \"fast\"\n", {":2: optimizer.learning_rate", "expected a number", "string"});
  expect_refused("[training]\nmax_epochs = 10.5\n", {"training.max_epochs", "expected an integer"});
  expect_refused("[training]\nmax_epochs = 0\n", {"training.max_epochs", "between 1 and"});
  expect_refused("[model]\nlambda = 1.5\n", {"model.lambda", "between 0 and 1"});
  expect_refused("[model]\nfit_k = 1\n", {"model.fit_k", "true or false"});
  expect_refused("[model]\nman_value = -5\n", {"model.man_value", "between 0 and"});
  expect_refused("[model]\nloss = \"hinge\"\n", {"model.loss", "hinge", "mse, cross_entropy"});
  expect_refused("[optimizer]\nbatch_size = -1\n", {"optimizer.batch_size"});
  expect_refused("[model\nloss = 1\n", {"not valid TOML"});
  expect_refused("[optimizer]\nlearning_rate = 0.01\nmin_learning_rate = 0.1\n", {"optimizer.min_learning_rate"});
  expect_refused("[data]\nmemory_mb = -1\n", {":2: data.memory_mb", "between 0 and", "got -1"});
  expect_refused("[data]\nmemory_mb = 1.5\n", {":2: data.memory_mb", "expected an integer"});
  expect_refused("[data]\nmemory_mb = \"8G\"\n", {":2: data.memory_mb", "expected an integer", "string"});
  expect_refused("[data]\nmemory = 100\n", {"data.memory", "unknown key"});
  EXPECT_THROW(load_train_config(temp_path("no_such.toml")), Error);
}

// ---------------------------------------------------------------------------
// Training log

TEST(TunerTrainingLog, ResumingCutsRowsTheCheckpointDoesNotHold) {
  const std::string path = temp_path("log.csv");
  {
    TrainingLog log(path, false, 0);
    for (int e = 1; e <= 5; ++e) log.write({e, 0.5, 0.6, 0.1, 1.0, true});
  }
  {
    TrainingLog log(path, true, 3);
    log.write({4, 0.4, 0.45, 0.1, 1.0, true});
  }
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], TrainingLog::kHeader);
  EXPECT_THAT(lines[3], StartsWith("3,0.5,0.6,"));
  EXPECT_THAT(lines[4], StartsWith("4,0.4,0.45,"));
  std::remove(path.c_str());
}

// ---------------------------------------------------------------------------
// Streaming: sums in pieces, the ranged reader, streamed fits, the memory plan

TEST(TunerModel, TheLossDoesNotDependOnHowTheSamplesArrive) {
  const Variant& v = find_variant("spanish");
  const Eigen::VectorXd w = vector_of(default_weights(v));
  const auto data = labelled_data(v, w, 9000, 4, true_labels(1.1));
  const Model model{1.1, 0.5, LossKind::MeanSquaredError};
  const auto targets = targets_of(data.samples, model);
  const auto which = all_of(data.samples);
  Eigen::VectorXd whole_gradient;
  const double whole = mean_loss(data.samples, targets, which, w, model, &whole_gradient);
  // Pieces of uneven sizes, some across chunk boundaries, some within a chunk.
  LossSum pieces(model, w, LossSum::PassOutput::LossAndGradient);
  test::Random random(8);
  for (Selection rest(which); !rest.empty();) {
    const std::size_t n = std::min<std::size_t>(rest.size(), 1 + random.below(3000));
    pieces.add(data.samples, targets, rest.first(n));
    rest = rest.subspan(n);
  }
  const LossSum::Result result = pieces.finish();
  EXPECT_EQ(result.mean_losses[0], whole);
  EXPECT_TRUE(result.mean_gradient == whole_gradient);
  EXPECT_TRUE((whole_gradient.array() != 0.0).any()) << "the gradient is not all zero";
}

// A mini-batch epoch reuses one sum for every batch: restarted mid-chunk
// and mid-window, it sums the next batch exactly as a new one would, and a
// gradient-only pass gives the same gradient as one with the loss.
TEST(TunerModel, ARestartedSumStartsAfresh) {
  const Variant& v = find_variant("russian");
  const Eigen::VectorXd w = vector_of(default_weights(v));
  const auto data = labelled_data(v, w, 9000, 4, true_labels(1.1));
  const Model model{1.1, 0.5, LossKind::CrossEntropy};
  const auto targets = targets_of(data.samples, model);
  const auto indices = all_of(data.samples);
  const Selection all(indices);
  ASSERT_GT(all.size(), 2 * LossSum::kChunkSamples + 100);
  const Selection before = all.first(LossSum::kChunkSamples + 77), batch = all.subspan(before.size());
  Eigen::VectorXd fresh_gradient;
  mean_loss(data.samples, targets, batch, w, model, &fresh_gradient);

  LossSum reused(model, w, LossSum::PassOutput::Gradient);
  reused.add(data.samples, targets, before);
  reused.restart();
  EXPECT_EQ(reused.count(), 0u);
  reused.add(data.samples, targets, batch);
  const LossSum::Result result = reused.finish();
  EXPECT_TRUE(result.mean_gradient == fresh_gradient);
  EXPECT_EQ(result.mean_losses[0], 0.0) << "a gradient-only pass sums no loss";
  EXPECT_TRUE((fresh_gradient.array() != 0.0).any());
}

// Games of rows grouped by game id, in game order.
std::vector<GameRecord> games_of_rows(const std::vector<PositionRow>& rows) {
  std::map<std::uint64_t, GameRecord> games;
  for (const PositionRow& row : rows) {
    GameRecord& g = games[row.game_id];
    g.game.game_id = row.game_id;
    g.positions.push_back(row);
  }
  std::vector<GameRecord> records;
  for (auto& [id, g] : games) records.push_back(g);
  return records;
}

// `rows` written the way a self-play job leaves them while it runs: part
// files of whole games in DIR/NAME.parts/, joined by the master DIR/NAME
// (virtual datasets, relative paths).  Returns the master's path.
std::string write_master(const std::filesystem::path& dir, const std::string& variant,
                         const std::vector<PositionRow>& rows, std::size_t parts) {
  const std::vector<GameRecord> games = games_of_rows(rows);
  const std::string name = "data.h5";
  std::filesystem::create_directories(dir / (name + ".parts"));
  DatasetMeta meta;
  meta.variant = variant;
  std::vector<PartCounts> counts;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::vector<GameRecord> part(games.begin() + games.size() * p / parts,
                                       games.begin() + games.size() * (p + 1) / parts);
    const std::string relative = name + ".parts/part-" + std::to_string(p) + ".h5";
    write_dataset_file((dir / relative).string(), meta, part);
    counts.push_back(count_rows((dir / relative).string(), relative));
  }
  write_master_file((dir / name).string(), meta, counts);
  return (dir / name).string();
}

void expect_same_rows(const std::vector<PositionRow>& a, const std::vector<PositionRow>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    EXPECT_EQ(a[i].own_men, b[i].own_men);
    EXPECT_EQ(a[i].own_kings, b[i].own_kings);
    EXPECT_EQ(a[i].opp_men, b[i].opp_men);
    EXPECT_EQ(a[i].opp_kings, b[i].opp_kings);
    EXPECT_EQ(a[i].side_to_move, b[i].side_to_move);
    EXPECT_EQ(a[i].ply, b[i].ply);
    EXPECT_EQ(a[i].quiet_plies, b[i].quiet_plies);
    EXPECT_EQ(a[i].game_id, b[i].game_id);
    EXPECT_EQ(a[i].score, b[i].score);
    EXPECT_EQ(a[i].best_move, b[i].best_move);
    EXPECT_EQ(a[i].best_captured, b[i].best_captured);
    EXPECT_EQ(a[i].result, b[i].result);
  }
}

// Blocks cover [0, rows) in order, without gaps or overlaps.
void expect_cover(const std::vector<RowRange>& blocks, std::uint64_t rows) {
  std::uint64_t next = 0;
  for (const RowRange& b : blocks) {
    EXPECT_EQ(b.first, next);
    EXPECT_GT(b.count, 0u);
    next = b.first + b.count;
  }
  EXPECT_EQ(next, rows);
}

class TunerPositionReader : public ::testing::Test {
 protected:
  const Variant& variant = find_variant("russian");
  const std::filesystem::path dir = temp_path("reader");
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::vector<PositionRow> rows(int count, std::uint64_t seed) {
    auto data = labelled_data(variant, vector_of(default_weights(variant)), count, seed, true_labels(1.0));
    for (std::size_t i = 0; i < data.rows.size(); ++i) {  // every column distinct from row to row
      data.rows[i].ply = static_cast<std::uint16_t>(i);
      data.rows[i].quiet_plies = static_cast<std::uint16_t>(i % 80);
      data.rows[i].best_move = std::to_string(i % 32 + 1) + "-" + std::to_string(i % 29 + 1);
      data.rows[i].best_captured = i * 977;
    }
    return data.rows;
  }
};

TEST_F(TunerPositionReader, ReadsRangesOfAMasterFileAsTheWholeFileReaderDoes) {
  const auto written = rows(1500, 61);
  const std::string master = write_master(dir, "russian", written, 4);
  const PositionReader reader(master, variant);
  ASSERT_EQ(reader.rows(), written.size());
  const std::vector<PositionRow> whole = read_positions(master, variant);
  expect_same_rows(whole, written);
  std::vector<PositionRow> range;
  for (const auto& [first, count] : {std::pair<std::uint64_t, std::uint64_t>{0, 1500}, {0, 1}, {377, 600}, {1499, 1}, {700, 0}}) {
    reader.read(first, count, range);
    expect_same_rows(range, std::vector<PositionRow>(written.begin() + first, written.begin() + first + count));
  }
  EXPECT_THROW(reader.read(1400, 101, range), Error);
  EXPECT_THROW(PositionReader(master, find_variant("czech")), Error);
}

TEST_F(TunerPositionReader, CutsBlocksAtPartsAndWholeChunks) {
  const auto written = rows(1500, 62);
  const std::string master = write_master(dir, "russian", written, 4);
  const PositionReader reader(master, variant);
  std::vector<std::uint64_t> part_starts;
  for (std::size_t p = 0, first = 0; p < 4; ++p) {
    part_starts.push_back(first);
    first += count_rows((dir / ("data.h5.parts/part-" + std::to_string(p) + ".h5")).string(), "").positions;
  }
  // A part smaller than a chunk is one chunk: a large target gives one block a part.
  std::vector<std::uint64_t> starts;
  for (const RowRange& b : reader.blocks(100000)) starts.push_back(b.first);
  EXPECT_EQ(starts, part_starts);
  expect_cover(reader.blocks(100000), reader.rows());
  // A target below a chunk cuts it, but still never across a part.
  const auto small = reader.blocks(97);
  expect_cover(small, reader.rows());
  for (const RowRange& b : small) {
    EXPECT_LE(b.count, 97u);
    const auto part = std::upper_bound(part_starts.begin(), part_starts.end(), b.first) - 1;
    const std::uint64_t part_end = part + 1 == part_starts.end() ? reader.rows() : *(part + 1);
    EXPECT_LE(b.first + b.count, part_end) << "block at " << b.first << " crosses a part";
  }
  EXPECT_GT(small.size(), reader.rows() / 97);
}

TEST_F(TunerPositionReader, CutsAPlainFileAtWholeChunks) {
  const auto written = rows(20000, 63);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "plain.h5").string();
  DatasetMeta meta;
  meta.variant = "russian";
  write_dataset_file(path, meta, games_of_rows(written));
  const PositionReader reader(path, variant);
  // The writer's chunks are 8192 rows (8-byte columns) and 16384 (narrower
  // ones): blocks are whole multiples of 16384 rows, the target rounded.
  auto firsts = [](const std::vector<RowRange>& blocks) {
    std::vector<std::uint64_t> f;
    for (const RowRange& b : blocks) f.push_back(b.first);
    return f;
  };
  EXPECT_EQ(firsts(reader.blocks(10000)), (std::vector<std::uint64_t>{0, 16384}));
  EXPECT_EQ(firsts(reader.blocks(40000)), (std::vector<std::uint64_t>{0}));
  expect_cover(reader.blocks(10000), 20000);
  expect_cover(reader.blocks(5000), 20000);
  EXPECT_EQ(reader.blocks(5000).size(), 4u);
}

// One data set as both sources see it: the rows of a master file over parts,
// cut into tiny blocks (smaller than a chunk, so mini-batches span blocks).
struct StreamedFit {
  static constexpr std::uint64_t kBlockRows = 97;
  std::filesystem::path dir = temp_path("streamed_fit");
  SmallFit fit;
  std::vector<PositionRow> rows;
  std::string master;
  PositionBlocks blocks;
  std::shared_ptr<PositionReader> reader;

  StreamedFit(OptimizerKind kind, std::uint32_t batch) : fit(kind, batch) {
    fit.settings.fit_k = true;
    rows = fit.data.rows;
    master = write_master(dir, "czech", rows, 3);
    reader = std::make_shared<PositionReader>(master, find_variant("czech"));
    blocks.files = {master};
    for (const RowRange& r : reader->blocks(kBlockRows)) blocks.blocks.push_back({0, r.first, static_cast<std::size_t>(r.count)});
    blocks.read = [r = reader](const RowBlock& b, std::vector<PositionRow>& out) { r->read(b.first, b.count, out); };
  }
  ~StreamedFit() { std::filesystem::remove_all(dir); }

  StreamedSamples streamed() const {
    return StreamedSamples(blocks, find_variant("czech"), fit.settings.validation_share, fit.settings.seed);
  }
  TrainerState run(SampleSource& source, int stop_after = 0) const {
    TrainerState state = start_training(source, fit.settings, fit.start);
    train(source, fit.settings, state, [&](const EpochReport& r, const TrainerState&) {
      return stop_after == 0 || r.epoch < stop_after;
    });
    return state;
  }
};

class TunerStreaming : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(TunerStreaming, FitsTheSameWeightsAsInMemoryBitForBit) {
  StreamedFit s(OptimizerKind::Adam, GetParam());
  s.fit.settings.validation_share = 0.2;
  const SampleSet samples = make_samples(s.rows, find_variant("czech"));
  const Split split = split_by_game(samples, s.fit.settings.validation_share, s.fit.settings.seed);
  InMemorySamples in_memory(samples, split, s.blocks.block_sizes());
  StreamedSamples streamed = s.streamed();
  ASSERT_GT(s.blocks.blocks.size(), 30u);
  EXPECT_EQ(streamed.training_size(), split.training.size());
  EXPECT_EQ(streamed.validation_size(), split.validation.size());
  EXPECT_EQ(streamed.data_digest(), in_memory.data_digest());
  EXPECT_EQ(run_fingerprint(s.fit.settings, streamed, s.fit.start), run_fingerprint(s.fit.settings, in_memory, s.fit.start));

  const TrainerState held = s.run(in_memory);
  const TrainerState read = s.run(streamed);
  EXPECT_EQ(held.epoch, 10);
  expect_same(read, held);
  EXPECT_LT(held.best_loss, s.run(in_memory, 1).best_loss) << "the fit improves";
  if (GetParam() == 0) {
    // A full batch does not depend on the blocks: the same as the whole set as one block.
    InMemorySamples one_block(samples, split);
    expect_same(s.run(one_block), held);
  }
}

TEST_P(TunerStreaming, ResumesWhereAnUninterruptedStreamedFitEnds) {
  StreamedFit s(OptimizerKind::Adam, GetParam());
  StreamedSamples streamed = s.streamed();
  const TrainerState whole = s.run(streamed);
  const TrainerState stopped = s.run(streamed, 4);
  ASSERT_EQ(stopped.epoch, 4);
  const std::string path = temp_path("streamed.checkpoint");
  const auto fingerprint = run_fingerprint(s.fit.settings, streamed, s.fit.start);
  save_checkpoint(path, stopped, fingerprint);
  TrainerState resumed = load_checkpoint(path, fingerprint);
  train(streamed, s.fit.settings, resumed);
  expect_same(resumed, whole);
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(Batches, TunerStreaming, ::testing::Values(0u, 128u),
                         [](const auto& batch) { return batch.param ? std::string("MiniBatch") : std::string("FullBatch"); });

TEST(TunerStreamingBlocks, HoldsOneBlockAtATimeAndReadsEachOncePerPass) {
  StreamedFit s(OptimizerKind::Adam, 0);
  std::vector<std::size_t> reads;
  PositionBlocks counted = s.blocks;
  counted.read = [&, inner = s.blocks.read](const RowBlock& b, std::vector<PositionRow>& rows) {
    reads.push_back(b.first);
    inner(b, rows);
  };
  StreamedSamples streamed(counted, find_variant("czech"), 0.2, 5);
  ASSERT_EQ(reads.size(), s.blocks.blocks.size()) << "the scan reads every block once";
  reads.clear();
  std::size_t largest = 0, visits = 0;
  streamed.visit({}, Model{}, [&](const SampleBlock& block) {
    largest = std::max(largest, block.samples.size());
    ++visits;
  });
  EXPECT_EQ(visits, s.blocks.blocks.size());
  EXPECT_EQ(reads.size(), s.blocks.blocks.size());
  EXPECT_LE(largest, StreamedFit::kBlockRows);
}

TEST(TunerStreamingBlocks, NameTheFileAndRowOfABadPosition) {
  StreamedFit s(OptimizerKind::Adam, 0);
  PositionBlocks bad = s.blocks;
  bad.read = [inner = s.blocks.read](const RowBlock& b, std::vector<PositionRow>& rows) {
    inner(b, rows);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (b.first + i == 1234) rows[i].own_men |= 1;  // a man on its crowning row
  };
  try {
    StreamedSamples(bad, find_variant("czech"), 0.2, 5);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), StartsWith(s.master + ": position row 1234 (game "));
  }
}

TEST(TunerMemoryPlan, StreamsWhenTheEstimateIsOverTheBudget) {
  const Variant& v = find_variant("international");
  const auto probe = labelled_data(v, vector_of(default_weights(v)), 500, 71, true_labels(1.0)).samples;
  const double terms = static_cast<double>(probe.term_count()) / static_cast<double>(probe.size());
  const std::uint64_t positions = 3'000'000, block = 65536;
  const MemoryPlan roomy = plan_memory(positions, block, probe, std::uint64_t{64} << 30);
  EXPECT_FALSE(roomy.stream);
  EXPECT_DOUBLE_EQ(roomy.terms_per_position, terms);
  EXPECT_GT(roomy.bytes_per_position, probe.bytes_per_position()) << "the split, the targets and headroom";
  EXPECT_LT(roomy.bytes_per_position, 1.3 * probe.bytes_per_position());
  EXPECT_GE(roomy.in_memory_bytes, positions * roomy.bytes_per_position);
  EXPECT_LT(roomy.streamed_bytes, roomy.in_memory_bytes / 20);
  const MemoryPlan tight = plan_memory(positions, block, probe, roomy.in_memory_bytes - 1);
  EXPECT_TRUE(tight.stream);
  EXPECT_TRUE(plan_memory(positions, block, probe, 1 << 20).stream);
  EXPECT_FALSE(plan_memory(positions, block, probe, roomy.in_memory_bytes).stream);
}

// ---------------------------------------------------------------------------
// dama tune, end to end on a small dataset file

struct TuneRun {
  int exit_code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TuneRun run_tune(const std::string& arguments) {
  const std::string out = temp_path("tune.out"), err = temp_path("tune.err");
  const std::string command = std::string(DAMA_BINARY) + " tune " + arguments + " >" + out + " 2>" + err;
  const int status = std::system(command.c_str());
  TuneRun r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

class TuneCommand : public ::testing::Test {
 protected:
  const Variant& variant = find_variant("italian");
  const std::string data = temp_path("italian.h5");
  const std::string config = temp_path("small.toml");
  const std::string out = temp_path("tuned.json");
  const std::string log = temp_path("tuned.csv");

  void SetUp() override {
    const Eigen::VectorXd truth = perturbed(vector_of(default_weights(variant)), 20, 51);
    const auto labelled = labelled_data(variant, truth, 2000, 52, true_labels(1.0));
    std::map<std::uint64_t, GameRecord> games;
    for (const PositionRow& row : labelled.rows) {
      GameRecord& g = games[row.game_id];
      g.game.game_id = row.game_id;
      g.positions.push_back(row);
    }
    std::vector<GameRecord> records;
    for (auto& [id, g] : games) records.push_back(g);
    DatasetMeta meta;
    meta.variant = "italian";
    write_dataset_file(data, meta, records);
    std::ofstream(config) << "[optimizer]\nbatch_size = 256\n[training]\nmax_epochs = 4\nvalidation_share = 0.2\n";
  }
  void TearDown() override {
    for (const auto& path : {data, config, out, log, out + ".checkpoint"}) std::remove(path.c_str());
  }
  std::string base() const {
    return "--variant italian --data " + data + " --out " + out + " --config " + config + " --threads 2";
  }
};

TEST_F(TuneCommand, WritesWeightsWithMetadataAndALog) {
  const TuneRun r = run_tune(base() + " --log " + log);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("2000 positions"));
  EXPECT_THAT(r.out, HasSubstr("epoch    4"));
  const Weights w = load_weights(out, variant);
  EXPECT_EQ(w.metadata.at("source"), "dama tune");
  EXPECT_EQ(w.metadata.at("git_commit"), std::string(build_commit()));
  EXPECT_EQ(w.metadata.at("dama_version"), std::string(build_version()));
  EXPECT_EQ(w.metadata.at("data"), nlohmann::json::array({data}));
  EXPECT_EQ(w.metadata.at("epochs"), 4);
  EXPECT_EQ(w.metadata.at("loss"), "cross_entropy");
  EXPECT_GT(w.metadata.at("k").get<double>(), 0.0);
  EXPECT_EQ(w.metadata.at("positions").at("training").get<int>() + w.metadata.at("positions").at("validation").get<int>(), 2000);
  EXPECT_NE(w.values, default_weights(variant).values);
  std::istringstream lines(slurp(log));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, TrainingLog::kHeader);
  int rows = 0;
  while (std::getline(lines, line)) ++rows;
  EXPECT_EQ(rows, 4);

  // Resuming the finished fit changes nothing.
  const TuneRun again = run_tune(base() + " --resume");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(load_weights(out, variant).values, w.values);
}

TEST_F(TuneCommand, RefusesBadInputWithOneLine) {
  std::ofstream(config) << "[training]\nmax_epoch = 4\n";
  TuneRun r = run_tune(base());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(config + ":2: training.max_epoch: unknown key"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  r = run_tune("--variant russian --data " + data + " --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(data));
  EXPECT_THAT(r.err, HasSubstr("russian"));

  std::ofstream(config) << "[data]\nmemory_mb = -5\n";
  r = run_tune(base());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(config + ":2: data.memory_mb: must be between 0 and"));

  std::ofstream(config) << "";
  r = run_tune(base() + " --resume");
  EXPECT_EQ(r.exit_code, 2) << "no checkpoint to resume";
  EXPECT_THAT(r.err, HasSubstr(out + ".checkpoint"));
}

TEST_F(TuneCommand, StreamsOverTheBudgetAndFitsTheSameWeightsAsInMemory) {
  // Blocks of 300 rows, less than the file's chunks; the config's mini-batches span blocks.
  TuneRun r = run_tune(base() + " --block-rows 300 --memory-mb 1000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mode      in memory (within the budget)"));
  const Weights held = load_weights(out, variant);
  EXPECT_EQ(held.metadata.at("streamed"), false);
  std::remove((out + ".checkpoint").c_str());

  r = run_tune(base() + " --block-rows 300 --stream");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mode      streamed (--stream): every pass reads the files again, 7 blocks of up to 300 rows"));
  const Weights streamed = load_weights(out, variant);
  EXPECT_EQ(streamed.metadata.at("streamed"), true);
  EXPECT_EQ(streamed.values, held.values);
  EXPECT_NE(streamed.values, default_weights(variant).values);

  // A checkpoint does not depend on the mode: the streamed fit, finished, resumes in memory unchanged.
  r = run_tune(base() + " --block-rows 300 --resume");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("resumed   at epoch 4"));
  EXPECT_EQ(load_weights(out, variant).values, held.values);

  // A budget below the estimate streams.
  std::remove((out + ".checkpoint").c_str());
  r = run_tune(base() + " --memory-mb 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("budget 1 MiB (--memory-mb)"));
  EXPECT_THAT(r.out, HasSubstr("mode      streamed (over the budget)"));
}

}  // namespace
}  // namespace dama::train
