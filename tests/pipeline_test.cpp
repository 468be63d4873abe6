// The overnight pipeline: the order of its steps, promotion, resumption
// after a failed step, and a real short run through the program.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "atomic_file.hpp"
#include "error.hpp"
#include "pipeline.hpp"
#include "run_dama.hpp"
#include "variant.hpp"
#include "weights.hpp"

namespace dama {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dama-pipeline-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    config_.run_dir = dir_.string();
    config_.generations = 2;
    config_.selfplay_config = "none";  // the fake runner ignores it
    validate(config_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A stand-in for the dama subcommands: records each call, writes what the
  // next step reads, and reports the Elo given for the generation's match.
  StepRunner fake(std::map<std::string, double> elo_by_match_log, std::string fail_on = "") {
    return [this, elo_by_match_log, fail_on](const std::vector<std::string>& args, const std::string& log) {
      calls_.push_back(args.front() + " " + fs::path(log).parent_path().filename().string());
      arguments_[args.front()] = args;
      if (calls_.back() == fail_on) return 1;
      const auto value_of = [&](const std::string& flag) {
        for (std::size_t i = 0; i + 1 < args.size(); ++i)
          if (args[i] == flag) return args[i + 1];
        return std::string();
      };
      if (args.front() == "tune") {
        const Variant& v = find_variant("russian");
        Weights w = default_weights(v);
        const auto& a = args;
        if (std::find(a.begin(), a.end(), "patterns") != a.end()) w = with_model(w, v, EvalModel::Patterns);
        w.values[0] += 1.0f;  // a recognisably different file
        save_weights(value_of("--out"), w, v);
      }
      if (args.front() == "match") {
        const double elo = elo_by_match_log.at(fs::path(log).parent_path().filename().string());
        std::ofstream(log) << "match        russian\ngames        100 of 100 (50 pairs)\nElo A-B      " << std::showpos
                           << elo << std::noshowpos << " ± 10.0 (95%)\nLOS          97.0%\n";
      }
      return 0;
    };
  }

  fs::path dir_;
  PipelineConfig config_;
  std::vector<std::string> calls_;
  std::map<std::string, std::vector<std::string>> arguments_;  // the last call of each subcommand
};

TEST(PipelineMatchTable, ReadsEloIntervalLosAndSprt) {
  const auto s = parse_match_table(
      "games        400 of 400 (200 pairs)\nElo A-B      -12.5 ± 7.25 (95%)\nLOS          3.1%\n"
      "SPRT         LLR 2.99 in (-2.94, 2.94) for elo0 0, elo1 10 (alpha 0.05, beta 0.05): H1 accepted\n");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->elo, -12.5);
  EXPECT_DOUBLE_EQ(s->elo_error95, 7.25);
  EXPECT_NEAR(s->los, 0.031, 1e-12);
  EXPECT_EQ(s->games, 400);
  EXPECT_TRUE(s->sprt_accepted_h1);
  EXPECT_FALSE(parse_match_table("no table here"));
}

TEST_F(PipelineTest, RunsTheStepsInOrderAndPromotesOnlyClearWins) {
  PipelineHooks hooks;
  hooks.run = fake({{"gen-001", 25.0}, {"gen-002", 5.0}});  // 25 +- 10: better; 5 +- 10: not shown
  const PipelineOutcome out = run_pipeline(config_, hooks);
  EXPECT_TRUE(out.finished);
  // Generation 1 promoted: its best plays the start weights (a second match);
  // generation 2 kept the best, whose result against the start stands.
  EXPECT_EQ(calls_, (std::vector<std::string>{"selfplay gen-001", "tune gen-001", "match gen-001", "match gen-001",
                                              "selfplay gen-002", "tune gen-002", "match gen-002"}));

  // best.json is generation 1's tuned weights, not generation 2's.
  std::ifstream best(dir_ / "best.json"), gen1(dir_ / "gen-001" / "weights.json");
  std::string a((std::istreambuf_iterator<char>(best)), {}), b((std::istreambuf_iterator<char>(gen1)), {});
  EXPECT_EQ(a, b);
  std::ifstream summary(out.summary);
  std::string header, row1, row2;
  std::getline(summary, header);
  std::getline(summary, row1);
  std::getline(summary, row2);
  EXPECT_EQ(header, "generation,elo,elo_error95,los,games,promoted,total_elo,vs_start_elo,vs_start_error95");
  EXPECT_EQ(row1, "1,25,10,0.97,100,1,25,25,10");
  EXPECT_EQ(row2, "2,5,10,0.97,100,0,25,25,10");  // measured once, in generation 1
  EXPECT_TRUE(fs::exists(dir_ / "gen-001" / "baseline.log"));
  EXPECT_FALSE(fs::exists(dir_ / "gen-002" / "baseline.log"));
  EXPECT_TRUE(fs::exists(dir_ / "start.json"));
}

TEST_F(PipelineTest, MatchesPlayTheOpeningsOfTheConfig) {
  PipelineHooks hooks;
  hooks.run = fake({{"gen-001", 25.0}, {"gen-002", 5.0}});
  EXPECT_TRUE(run_pipeline(config_, hooks).finished);
  const auto random = arguments_.at("match");
  EXPECT_NE(std::find(random.begin(), random.end(), "--random-plies"), random.end());
  EXPECT_EQ(std::find(random.begin(), random.end(), "--openings"), random.end());

  PipelineConfig c = config_;
  c.variant = "american";
  c.match_openings = "builtin:american";
  c.run_dir = (dir_ / "american").string();
  validate(c);
  arguments_.clear();
  EXPECT_TRUE(run_pipeline(c, hooks).finished);
  for (const char* step : {"match", "baseline"}) {
    if (!arguments_.count(step)) continue;
    const auto& args = arguments_.at(step);
    const auto at = std::find(args.begin(), args.end(), "--openings");
    ASSERT_NE(at, args.end()) << step;
    ASSERT_NE(at + 1, args.end());
    EXPECT_EQ(*(at + 1), "builtin:american");
    EXPECT_EQ(std::find(args.begin(), args.end(), "--random-plies"), args.end()) << step;
  }
  PipelineConfig missing = config_;
  missing.match_openings = (dir_ / "no-such-openings.pdn").string();
  try {
    validate(missing);
    ADD_FAILURE() << "a missing openings file was accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("match.openings: "));
  }
}

TEST_F(PipelineTest, ThePatternModelIsTunedAndKeptInPatternFiles) {
  config_.tune_model = "patterns";
  PipelineHooks hooks;
  hooks.run = fake({{"gen-001", 25.0}, {"gen-002", 5.0}});
  EXPECT_TRUE(run_pipeline(config_, hooks).finished);
  const auto& tune = arguments_.at("tune");
  const auto model = std::find(tune.begin(), tune.end(), "--model");
  ASSERT_NE(model, tune.end());
  ASSERT_NE(model + 1, tune.end());
  EXPECT_EQ(*(model + 1), "patterns");
  const std::string gen2 = (dir_ / "gen-002" / "weights.patterns").string();
  EXPECT_NE(std::find(tune.begin(), tune.end(), gen2), tune.end());
  const auto& match = arguments_.at("match");
  EXPECT_NE(std::find(match.begin(), match.end(), "weights=" + gen2 + ",depth=4"), match.end());
  // The best is generation 1's pattern file; generation 2 played with it.
  const Variant& v = find_variant("russian");
  EXPECT_EQ(load_weights((dir_ / "best.patterns").string(), v).model, EvalModel::Patterns);
  EXPECT_EQ(read_whole_file((dir_ / "best.patterns").string()), read_whole_file((dir_ / "gen-001" / "weights.patterns").string()));
  EXPECT_EQ(read_whole_file((dir_ / "gen-002" / "played-with.patterns").string()),
            read_whole_file((dir_ / "gen-001" / "weights.patterns").string()));

  PipelineConfig bad;
  bad.tune_model = "neural";
  try {
    validate(bad);
    FAIL() << "tune.model = neural was accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "tune.model: expected \"linear\" or \"patterns\", got \"neural\"");
  }
}

TEST_F(PipelineTest, AFailedStepStopsAndTheNextRunContinuesThere) {
  PipelineHooks hooks;
  hooks.run = fake({{"gen-001", -30.0}, {"gen-002", 40.0}}, "match gen-002");
  try {
    run_pipeline(config_, hooks);
    FAIL() << "a failed step must stop the pipeline";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("match failed"));
  }
  calls_.clear();
  hooks.run = fake({{"gen-001", -30.0}, {"gen-002", 40.0}});
  EXPECT_TRUE(run_pipeline(config_, hooks).finished);
  // Nothing done twice: the failed match, then (40 Elo, promoted) the baseline match.
  EXPECT_EQ(calls_, (std::vector<std::string>{"match gen-002", "match gen-002"}));
}

TEST_F(PipelineTest, StopsWhenAskedAndRefusesAnotherVariantsRun) {
  PipelineHooks hooks;
  hooks.run = fake({{"gen-001", 0.0}, {"gen-002", 0.0}});
  hooks.stop_requested = [this] { return calls_.size() >= 2; };
  const PipelineOutcome out = run_pipeline(config_, hooks);
  EXPECT_FALSE(out.finished);
  EXPECT_EQ(out.reason, "interrupted");
  EXPECT_EQ(calls_.size(), 2u);
  PipelineConfig czech = config_;
  czech.variant = "czech";
  EXPECT_THROW(run_pipeline(czech, hooks), Error);
}

TEST(PipelineConfigFile, BadValuesAreRefused) {
  PipelineConfig c;
  c.match_games = 7;
  EXPECT_THROW(validate(c), Error);
  c.match_games = 8;
  c.match_limit = "deep=3";
  EXPECT_THROW(validate(c), Error);
  c.match_limit = "depth=3";
  c.promote = "vibes";
  EXPECT_THROW(validate(c), Error);
}

// Every shipped pipeline config, and the self-play and tuner configs it
// names (paths relative to the repository's top, where users run them).
TEST(PipelineConfigFile, EveryShippedConfigAndTheStepConfigsItNamesAreAccepted) {
  const fs::path top = DAMA_SOURCE_DIR;
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(top / "configs" / "pipeline")) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    ++seen;
    PipelineConfig shipped = load_pipeline_config(entry.path().string());
    ASSERT_NO_THROW(validate(shipped));
    for (std::string* step : {&shipped.selfplay_config, &shipped.tune_config})
      if (!step->empty() && fs::path(*step).is_relative()) *step = (top / *step).string();
    EXPECT_NO_THROW(check_step_configs(shipped));
  }
  EXPECT_GE(seen, 8);
}

TEST(PipelineConfigFile, AMissingOrBadStepConfigIsRefusedBeforeAnyStep) {
  const fs::path dir = fs::temp_directory_path() / ("dama-pipeline-steps-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  PipelineConfig c;
  c.tune_config = (dir / "no-such-tune.toml").string();
  validate(c);  // the values are fine; the file is what is missing
  try {
    check_step_configs(c);
    ADD_FAILURE() << "a missing tuner config was accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("tune.config: " + c.tune_config));
  }
  c.tune_config.clear();
  c.selfplay_config = (dir / "bad-selfplay.toml").string();
  std::ofstream(c.selfplay_config) << "[search]\ndepht = 6\n";
  try {
    check_step_configs(c);
    ADD_FAILURE() << "a self-play config with an unknown key was accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("selfplay.config: " + c.selfplay_config));
  }
  c.selfplay_config.clear();
  EXPECT_NO_THROW(check_step_configs(c));  // none named: the built-in settings
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dama

namespace dama {
namespace {

// The real program, end to end: one small generation of every step.
TEST(PipelineCommand, ARealShortRunEndsWithASummary) {
  const fs::path dir = fs::temp_directory_path() / ("dama-pipeline-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string config = (dir / "p.toml").string();
  std::ofstream(config) << "variant = \"czech\"\nrun_dir = \"" << (dir / "run").string()
                        << "\"\ngenerations = 1\nthreads = 2\n[selfplay]\nconfig = \"" << DAMA_SOURCE_DIR
                        << "/configs/selfplay/czech.toml\"\ngames = 16\n[match]\ngames = 8\nlimit = \"depth=1\"\n";
  const auto run = test::run_dama_process({"pipeline", "--config", config}, std::chrono::seconds(240));
  ASSERT_EQ(run.exit_code, 0) << run;
  EXPECT_THAT(run.out, HasSubstr("summary: " + (dir / "run" / "summary.csv").string()));
  std::ifstream summary(dir / "run" / "summary.csv");
  std::string header, row;
  std::getline(summary, header);
  ASSERT_TRUE(std::getline(summary, row));
  EXPECT_THAT(row, ::testing::StartsWith("1,"));
  EXPECT_TRUE(fs::exists(dir / "run" / "gen-001" / "data.h5"));
  EXPECT_TRUE(fs::exists(dir / "run" / "gen-001" / "weights.json"));
  // Run again: everything is done, nothing is played twice.
  const auto again = test::run_dama_process({"pipeline", "--config", config}, std::chrono::seconds(60));
  ASSERT_EQ(again.exit_code, 0) << again;
  EXPECT_THAT(again.out, ::testing::Not(HasSubstr("generation 1: selfplay")));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dama
