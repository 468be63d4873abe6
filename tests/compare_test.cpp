// Comparing variants: the statistics of known data, and the report opened
// in a real browser.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "compare.hpp"
#include "run_dama.hpp"
#include "selfplay.hpp"
#include "test_support.hpp"

namespace dama {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dama-compare-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Dataset play(const std::string& variant, const fs::path& dir, int games) {
  SelfplayConfig c;
  c.variant = variant;
  c.games = games;
  c.threads = 1;
  c.search_depth = 2;
  c.tt_mb = 1;
  c.out = (dir / (variant + ".h5")).string();
  run_selfplay(c, false, {});
  return read_dataset(c.out);
}

TEST(CompareStats, AddUpToTheGamesAndFollowTheWeights) {
  const fs::path dir = temp_dir("stats");
  const Dataset data = play("international", dir, 6);
  Weights w = default_weights(find_variant("international"));
  w.values[2] = 3 * w.values[0];  // material.king (opening) = 3 men
  const VariantStats s = variant_stats(data, w);
  std::int64_t plies = 0, first = 0, draws = 0;
  for (const auto& g : data.games) plies += g.length, first += g.result > 0, draws += g.result == 0;
  EXPECT_EQ(s.games, 6);
  EXPECT_EQ(s.positions, plies);  // one position before every move
  EXPECT_EQ(std::accumulate(s.phase_positions.begin(), s.phase_positions.end(), std::int64_t{0}), plies);
  EXPECT_DOUBLE_EQ(s.first_player_score, (first + 0.5 * draws) / 6.0);
  EXPECT_DOUBLE_EQ(s.mean_length, plies / 6.0);
  EXPECT_NEAR(s.king_value_opening, 3.0, 1e-6);
  EXPECT_LE(s.constrained, s.capture_positions);
  EXPECT_GT(s.branching[0], 1.0);
  EXPECT_EQ(s.choice_rule, "most pieces");
  fs::remove_all(dir);
}

TEST(CompareStats, AFreeChoiceIsNeverConstrained) {
  const fs::path dir = temp_dir("free");
  const VariantStats s = variant_stats(play("russian", dir, 4), default_weights(find_variant("russian")));
  EXPECT_GT(s.capture_positions, 0);
  EXPECT_EQ(s.constrained, 0);
  fs::remove_all(dir);
}

// The report opened by headless Chromium: every plot must load.
TEST(CompareReport, EveryPlotLoadsInABrowser) {
  const char* browser = fs::exists("/usr/bin/chromium") ? "/usr/bin/chromium" : nullptr;
  if (!browser) GTEST_SKIP() << "chromium not installed (scripts/setup.sh installs it)";
  const fs::path dir = temp_dir("report");
  const auto run = test::run_dama_process({"compare", "--variants", "russian,czech", "--games", "4", "--depth", "2",
                                           "--threads", "1", "--report", (dir / "report").string()},
                                          std::chrono::seconds(120));
  ASSERT_EQ(run.exit_code, 0) << run;
  const fs::path index = dir / "report" / "index.html";
  EXPECT_THAT(run.out, ::testing::HasSubstr("report: " + index.string()));
  const std::string command = std::string(browser) +
                              " --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --dump-dom 'file://" +
                              index.string() + "' 2>/dev/null";
  std::string dom = test::command_output(command);
  EXPECT_THAT(dom, ::testing::HasSubstr("data-plots-loaded=\"6\" data-plots-total=\"6\"")) << dom.substr(0, 400);
  // A broken plot must show: remove one and look again.
  fs::remove(dir / "report" / "king.svg");
  dom = test::command_output(command);
  EXPECT_THAT(dom, ::testing::HasSubstr("data-plots-loaded=\"5\" data-plots-total=\"6\""));
  fs::remove_all(dir);
}

TEST(CompareCommand, BadInputIsRefused) {
  const auto bad_variant = test::run_dama_process({"compare", "--variants", "russian,chess", "--report", "/tmp/x"});
  EXPECT_EQ(bad_variant.exit_code, 2) << bad_variant;
  const auto bad_data = test::run_dama_process({"compare", "--variants", "russian", "--data", "russian"});
  EXPECT_EQ(bad_data.exit_code, 2) << bad_data;
  EXPECT_THAT(bad_data.err, ::testing::HasSubstr("expected VARIANT=FILE"));
  // A report directory that cannot be made: one line, before any game is played.
  const auto bad_report = test::run_dama_process({"compare", "--variants", "russian", "--games", "100000", "--report",
                                                  "/proc/dama-report"},
                                                 std::chrono::seconds(20));
  EXPECT_EQ(bad_report.exit_code, 2) << bad_report;
  EXPECT_THAT(bad_report.err, ::testing::HasSubstr("--report /proc/dama-report: cannot create the directory"));
  EXPECT_THAT(bad_report.err, ::testing::Not(::testing::HasSubstr("internal error")));
}

}  // namespace
}  // namespace dama
