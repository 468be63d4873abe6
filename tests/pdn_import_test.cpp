// dama data import-pdn: published games into the dataset schema, bad games
// skipped with their reasons, nothing written when nothing can be imported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "atomic_file.hpp"
#include "dataset_io.hpp"
#include "pdn/pdn_reader.hpp"
#include "pdn_import.hpp"
#include "replay.hpp"
#include "test_support.hpp"

namespace dama {
namespace {

using ::testing::HasSubstr;

constexpr RuleSet kRussian = test::variant_rules("russian");

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "dama_import_" + std::to_string(::getpid()) + "_" + name;
}

std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

const std::string kPublished = std::string(DAMA_TEST_DATA_DIR) + "/pdn/russian.pdn";

// Three games dama must skip, each for its own reason.
const std::string kBadGames =
    "[GameType \"25\"]\n[Result \"1-0\"]\n1. c3-d4 c3-d4 1-0\n\n"          // an illegal second move
    "[GameType \"25\"]\n[Result \"*\"]\n1. c3-d4 f6-e5 *\n\n"              // no result
    "[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2-0\n";          // international

TEST(PdnImport, PublishedGamesBecomeRowsWithoutScores) {
  const std::string bad = write_text("bad.pdn", kBadGames), out = temp_path("games.h5");
  const PdnImportReport report = import_pdn({{kPublished, bad}, out, "russian"});
  EXPECT_EQ(report.games_read, 6u);
  EXPECT_EQ(report.games_imported, 3u);
  EXPECT_EQ(report.games_skipped, 3u);
  ASSERT_EQ(report.first_skip_reasons.size(), 3u);
  EXPECT_THAT(report.first_skip_reasons[0], HasSubstr("c3-d4"));
  EXPECT_THAT(report.first_skip_reasons[1], HasSubstr("no result"));
  EXPECT_THAT(report.first_skip_reasons[2], HasSubstr("a game of international"));

  const Dataset data = read_dataset(out);
  EXPECT_EQ(data.meta.variant, "russian");
  EXPECT_THAT(data.meta.config, HasSubstr("russian.pdn"));
  ASSERT_EQ(data.games.size(), 3u);
  EXPECT_EQ(data.positions.size(), report.positions);

  // The same games as the PDN reader replays them, with the same results.
  const std::string text = read_whole_file(kPublished);
  const auto published = split_pdn_games(text, kPublished);
  const auto games = games_of(data);
  ASSERT_EQ(games.size(), published.size());
  std::size_t positions = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    const auto expected = replay_pdn_game<kRussian>(published[g], find_variant("russian"), kPublished);
    const auto stored = replay<kRussian>(games[g]);
    EXPECT_EQ(stored.start, expected.start);
    ASSERT_EQ(stored.moves.size(), expected.moves.size());
    for (std::size_t i = 0; i < stored.moves.size(); ++i) EXPECT_TRUE(stored.moves[i].same_identity(expected.moves[i]));
    EXPECT_EQ(games[g].game.result_text, expected.result);
    EXPECT_THAT(games[g].game.reason, HasSubstr("imported from"));
    positions += games[g].positions.size();
    for (const PositionRow& row : games[g].positions) {
      EXPECT_EQ(row.score, kNoSearchScore);
      const int first_view = games[g].game.result;
      EXPECT_EQ(row.result, (row.side_to_move == 0 ? 1 : -1) * first_view);
      EXPECT_FALSE(row.best_move.empty());
    }
  }
  EXPECT_EQ(positions, data.positions.size());
  std::filesystem::remove(bad);
  std::filesystem::remove(out);
}

TEST(PdnImport, NothingImportableWritesNothing) {
  const std::string bad = write_text("only_bad.pdn", kBadGames), out = temp_path("none.h5");
  try {
    import_pdn({{bad}, out, "russian"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("no game could be imported (3 read"));
  }
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove(bad);
}

TEST(PdnImport, RefusesAnUnwritableOutputBeforeReading) {
  try {
    import_pdn({{"/nonexistent/games.pdn"}, "/proc/dama/out.h5", "russian"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("--out /proc/dama/out.h5"));
  }
  EXPECT_THROW(import_pdn({{"/nonexistent/games.pdn"}, temp_path("x.h5"), "russian"}), Error);
  EXPECT_THROW(import_pdn({{kPublished}, temp_path("y.h5"), "chess"}), Error);
}

}  // namespace
}  // namespace dama
