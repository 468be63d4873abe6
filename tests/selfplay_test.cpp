// Self-play: config checking, the dataset round trip, determinism across
// thread counts, and nothing lost when a job is killed and resumed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <tuple>
#include <utility>

#include "dataset_io.hpp"
#include "fen.hpp"
#include "pdn/pdn_reader.hpp"
#include "run_dama.hpp"
#include "selfplay.hpp"
#include "test_support.hpp"

namespace dama {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("dama-selfplay-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// A small, fast job: depth 2, short games.
SelfplayConfig small_job(const std::string& out, std::int64_t games) {
  SelfplayConfig c;
  c.variant = "russian";
  c.games = games;
  c.threads = 1;
  c.seed = 7;
  c.out = out;
  c.search_depth = 2;
  c.tt_mb = 1;
  c.checkpoint_games = 3;
  return c;
}

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// ---------------------------------------------------------------------------
// Config

TEST(SelfplayConfig, TheShippedConfigsLoadAndValidate) {
  for (const char* v : {"russian", "czech", "brazilian", "spanish", "italian", "american", "international"}) {
    SelfplayConfig c = load_selfplay_config(std::string(DAMA_SOURCE_DIR) + "/configs/selfplay/" + v + ".toml");
    validate(c);
    EXPECT_EQ(c.variant, v);
  }
}

TEST(SelfplayConfig, RoundTripsThroughToml) {
  SelfplayConfig c = small_job("x.h5", 12);
  c.record_quiet_only = true;
  c.opening_file = "a \"quoted\" name";
  const SelfplayConfig back = parse_selfplay_config(to_toml(c), "text");
  EXPECT_EQ(to_toml(back), to_toml(c));
}

TEST(SelfplayConfig, UnknownKeyNamesFileLineAndKey) {
  TempDir dir;
  const auto path = write_text(dir / "c.toml", "variant = \"russian\"\n[search]\ndepht = 4\n");
  try {
    load_selfplay_config(path);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(path + ":3: search.depht: unknown key"));
  }
}

TEST(SelfplayConfig, WrongTypeAndRangeAreRefused) {
  EXPECT_THROW(parse_selfplay_config("games = \"many\"\n", "t"), Error);
  EXPECT_THROW(parse_selfplay_config("games = 0\n", "t"), Error);
  EXPECT_THROW(parse_selfplay_config("[search]\ndepth = 99\n", "t"), Error);
  EXPECT_THROW(parse_selfplay_config("games = 3\ngames = 4\n", "t"), Error);  // TOML: a key twice
  SelfplayConfig both = parse_selfplay_config("[search]\ndepth = 3\nnodes = 100\n", "t");
  EXPECT_THROW(validate(both), Error);
  SelfplayConfig unknown = parse_selfplay_config("variant = \"chess\"\n", "t");
  EXPECT_THROW(validate(unknown), Error);
  SelfplayConfig house = parse_selfplay_config("variant = \"international\"\nforced_capture = false\n", "t");
  EXPECT_THROW(validate(house), Error);
}

// ---------------------------------------------------------------------------
// The dataset file

TEST(Dataset, WritesAndReadsBackEveryColumn) {
  TempDir dir;
  GameRecord g;
  g.game = {5, "W:W21-32:B1-12", 2, "B:W17,21-24,26-32:B1-12", -1, "0-1", "no legal moves", 40, 99};
  PositionRow p;
  p.own_men = 0xFFF00000ull;
  p.opp_kings = 1;
  p.side_to_move = 1;
  p.ply = 3;
  p.quiet_plies = 2;
  p.game_id = 5;
  p.score = -29990;
  p.best_move = "22x13";
  p.best_captured = 1ull << 17;
  p.result = -1;
  g.positions = {p, p};
  g.moves = {{5, 0, "22-18", 0}, {5, 1, "11x22", 1ull << 17}};
  DatasetMeta meta;
  meta.variant = "russian";
  meta.config = "games = 1\n";
  meta.seed = 3;
  const auto path = dir / "d.h5";
  write_dataset_file(path, meta, {g});
  const Dataset d = read_dataset(path);
  ASSERT_EQ(d.games.size(), 1u);
  ASSERT_EQ(d.positions.size(), 2u);
  ASSERT_EQ(d.moves.size(), 2u);
  const GameRow& r = d.games[0];
  EXPECT_EQ(r.game_id, 5u);
  EXPECT_EQ(r.opening, g.game.opening);
  EXPECT_EQ(r.result, -1);
  EXPECT_EQ(r.reason, "no legal moves");
  EXPECT_EQ(r.seed, 99u);
  const PositionRow& q = d.positions[1];
  EXPECT_EQ(q.own_men, p.own_men);
  EXPECT_EQ(q.opp_kings, 1u);
  EXPECT_EQ(q.score, -29990);
  EXPECT_EQ(q.best_move, "22x13");
  EXPECT_EQ(q.best_captured, p.best_captured);
  EXPECT_EQ(d.moves[1].move, "11x22");
  EXPECT_EQ(d.meta.seed, 3);
  EXPECT_EQ(d.meta.config, "games = 1\n");
}

TEST(Dataset, AnotherVariantOrACorruptFileIsAClearError) {
  TempDir dir;
  DatasetMeta meta;
  meta.variant = "czech";
  write_dataset_file(dir / "czech.h5", meta, {});
  try {
    read_positions(dir / "czech.h5", find_variant("russian"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("a czech dataset, not russian"));
  }
  write_text(dir / "bad.h5", "this is not HDF5");
  try {
    read_dataset(dir / "bad.h5");
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.h5: not a readable HDF5 file"));
  }
}

TEST(Dataset, ASideRelativeRowRebuildsThePositionAsTheMoverSeesIt) {
  using Board = Board8;
  const auto start = Position<Board>::start(Color::White);
  const auto black_to_move = start.flipped();  // the same men, Black to move
  const PositionRow row = side_relative_row(black_to_move);
  EXPECT_EQ(row.side_to_move, 1);
  EXPECT_EQ(side_relative_position<Board>(row), start);
  EXPECT_EQ(row.own_men, 0xFFF00000ull);  // squares 21-32
  EXPECT_EQ(row.opp_men, 0x00000FFFull);  // squares 1-12
}

// ---------------------------------------------------------------------------
// The job

void expect_same_games(const Dataset& a, const Dataset& b) {
  ASSERT_EQ(a.games.size(), b.games.size());
  ASSERT_EQ(a.positions.size(), b.positions.size());
  ASSERT_EQ(a.moves.size(), b.moves.size());
  for (std::size_t i = 0; i < a.games.size(); ++i) {
    EXPECT_EQ(a.games[i].game_id, i);
    EXPECT_EQ(a.games[i].game_id, b.games[i].game_id);
    EXPECT_EQ(a.games[i].opening, b.games[i].opening);
    EXPECT_EQ(a.games[i].result_text, b.games[i].result_text);
    EXPECT_EQ(a.games[i].length, b.games[i].length);
  }
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    EXPECT_EQ(a.positions[i].own_men, b.positions[i].own_men) << i;
    EXPECT_EQ(a.positions[i].score, b.positions[i].score) << i;
    EXPECT_EQ(a.positions[i].best_move, b.positions[i].best_move) << i;
  }
  for (std::size_t i = 0; i < a.moves.size(); ++i) EXPECT_EQ(a.moves[i].move, b.moves[i].move) << i;
}

// The end of a job: its parts joined into one plain file part by part
// (write_joined_file) hold the rows the master's virtual datasets show, in
// order, every column, and a part that no longer matches its count is refused.
TEST(Dataset, PartsJoinedOneAtATimeHoldWhatTheMasterShows) {
  TempDir dir;
  SelfplayConfig job = small_job(dir / "src.h5", 7);
  run_selfplay(job, false, {});
  const Dataset source = read_dataset(job.out);
  const std::vector<GameRecord> games = games_of(source);
  std::vector<PartCounts> counts;
  for (const auto& [first, end] : {std::pair<std::size_t, std::size_t>{0, 3}, {3, 4}, {4, 7}}) {
    const std::string name = "part-" + std::to_string(first) + ".h5";
    write_dataset_file(dir / name, source.meta, std::vector<GameRecord>(games.begin() + first, games.begin() + end));
    counts.push_back(count_rows(dir / name, name));
  }
  write_master_file(dir / "master.h5", source.meta, counts);
  std::vector<PartCounts> files = counts;
  for (PartCounts& p : files) p.path = dir / p.path;
  write_joined_file(dir / "joined.h5", source.meta, files);

  const Dataset master = read_dataset(dir / "master.h5"), joined = read_dataset(dir / "joined.h5");
  expect_same_games(master, joined);
  ASSERT_EQ(joined.positions.size(), source.positions.size());
  for (std::size_t i = 0; i < joined.positions.size(); ++i) {
    const PositionRow &a = joined.positions[i], &b = source.positions[i];
    EXPECT_EQ(std::tie(a.own_men, a.own_kings, a.opp_men, a.opp_kings, a.side_to_move, a.ply, a.quiet_plies,
                       a.game_id, a.score, a.best_move, a.best_captured, a.result),
              std::tie(b.own_men, b.own_kings, b.opp_men, b.opp_kings, b.side_to_move, b.ply, b.quiet_plies,
                       b.game_id, b.score, b.best_move, b.best_captured, b.result))
        << i;
  }
  for (std::size_t i = 0; i < joined.games.size(); ++i) {
    EXPECT_EQ(joined.games[i].start_fen, source.games[i].start_fen);
    EXPECT_EQ(joined.games[i].reason, source.games[i].reason);
    EXPECT_EQ(joined.games[i].seed, source.games[i].seed);
  }
  for (std::size_t i = 0; i < joined.moves.size(); ++i) {
    EXPECT_EQ(joined.moves[i].game_id, source.moves[i].game_id);
    EXPECT_EQ(joined.moves[i].captured, source.moves[i].captured);
  }
  EXPECT_EQ(joined.meta.config, source.meta.config);
  EXPECT_EQ(joined.meta.seed, source.meta.seed);

  files[1].positions += 1;  // the part changed under the job
  try {
    write_joined_file(dir / "bad.h5", source.meta, files);
    FAIL() << "a part of another size was joined";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(files[1].path));
  }
  EXPECT_FALSE(fs::exists(dir / "bad.h5"));
  EXPECT_FALSE(fs::exists(dir / "bad.h5.tmp"));
}

TEST(SelfplayJob, TheSameGamesWhateverTheThreadCount) {
  TempDir dir;
  SelfplayConfig one = small_job(dir / "one.h5", 8);
  SelfplayConfig two = small_job(dir / "two.h5", 8);
  two.threads = 2;
  const auto a = run_selfplay(one, false, {});
  const auto b = run_selfplay(two, false, {});
  ASSERT_TRUE(a.complete && b.complete);
  expect_same_games(read_dataset(one.out), read_dataset(two.out));
  EXPECT_FALSE(fs::exists(one.out + ".parts"));  // consolidated
  const Dataset d = read_dataset(one.out);
  for (const GameRow& g : d.games) EXPECT_THAT(g.result_text, ::testing::AnyOf("1-0", "0-1", "1/2-1/2"));
  for (const PositionRow& p : d.positions) EXPECT_EQ(p.result, d.games[p.game_id].result * (p.side_to_move == 0 ? 1 : -1));
}

TEST(SelfplayJob, RefusesToOverwriteAndToResumeAnotherJob) {
  TempDir dir;
  SelfplayConfig c = small_job(dir / "a.h5", 2);
  run_selfplay(c, false, {});
  EXPECT_THROW(run_selfplay(c, false, {}), Error);  // exists, no --resume
  SelfplayConfig other_seed = c;
  other_seed.seed = 8;
  other_seed.games = 4;
  try {
    run_selfplay(other_seed, true, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("other settings"));
  }
  SelfplayConfig other_variant = c;
  other_variant.variant = "czech";
  EXPECT_THROW(run_selfplay(other_variant, true, {}), Error);
  // A finished job resumed with more games grows to exactly that many.
  SelfplayConfig more = c;
  more.games = 5;
  ASSERT_TRUE(run_selfplay(more, true, {}).complete);
  SelfplayConfig fresh = small_job(dir / "fresh.h5", 5);
  run_selfplay(fresh, false, {});
  expect_same_games(read_dataset(more.out), read_dataset(fresh.out));
}

TEST(SelfplayJob, ABadOpeningFileNamesItsLine) {
  TempDir dir;
  SelfplayConfig c = small_job(dir / "o.h5", 2);
  c.opening_file = write_text(dir / "openings.txt", "W:W21-32:B1-12\nW:W99:B1\n");
  try {
    run_selfplay(c, false, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("openings.txt:2:"));
  }
}

// Kills a real run with SIGKILL several times, resumes it, and checks the
// final file against an uninterrupted run: every game once, none cut short.
TEST(SelfplayJob, SurvivesKillNineAndResumesToTheSameGames) {
  TempDir dir;
  const std::string config = write_text(dir / "job.toml",
                                        "variant = \"russian\"\nseed = 11\n[search]\ndepth = 3\ntt_mb = 1\n"
                                        "[checkpoint]\ngames = 2\n");
  const std::vector<std::string> base = {"selfplay", "--config", config, "--games", "24", "--threads", "2"};
  auto with_out = [&](const std::string& out, bool resume) {
    auto args = base;
    args.insert(args.end(), {"--out", out});
    if (resume) args.push_back("--resume");
    return args;
  };
  const std::string killed = dir / "killed.h5";
  const fs::path parts = killed + ".parts";
  int kills = 0;
  for (int round = 0; round < 3; ++round) {
    std::size_t parts_before = fs::exists(parts) ? std::distance(fs::directory_iterator(parts), {}) : 0;
    const auto run = test::run_dama_process(
        with_out(killed, round > 0), std::chrono::seconds(60),
        [&] { return fs::exists(parts) && static_cast<std::size_t>(std::distance(fs::directory_iterator(parts), {})) >
                                              parts_before; },
        SIGKILL);
    if (run.interrupted) ++kills;
    if (!run.interrupted) break;  // finished before a new checkpoint: nothing to kill
    ASSERT_EQ(run.exit_code, 128 + SIGKILL) << run;
    // Between runs the data so far is readable, and whole (the master may
    // not exist yet when the kill came right after the first part).
    if (fs::exists(killed)) {
      const Dataset partial = read_dataset(killed);
      for (const GameRecord& g : games_of(partial)) {
        EXPECT_EQ(g.moves.size(), g.game.length);  // no game cut short
        EXPECT_THAT(g.game.result_text, ::testing::AnyOf("1-0", "0-1", "1/2-1/2"));
      }
      for (std::size_t i = 0; i < partial.games.size(); ++i) EXPECT_EQ(partial.games[i].game_id, i);
    }
  }
  EXPECT_GE(kills, 1);
  const auto finish = test::run_dama_process(with_out(killed, true), std::chrono::seconds(120));
  ASSERT_EQ(finish.exit_code, 0) << finish;

  const std::string clean = dir / "clean.h5";
  const auto uninterrupted = test::run_dama_process(with_out(clean, false), std::chrono::seconds(120));
  ASSERT_EQ(uninterrupted.exit_code, 0) << uninterrupted;
  const Dataset a = read_dataset(killed), b = read_dataset(clean);
  EXPECT_EQ(a.games.size(), 24u);
  expect_same_games(a, b);
}

TEST(SelfplayJob, SigtermSavesAndSaysHowToResume) {
  TempDir dir;
  const std::string out = dir / "t.h5";
  const std::string config =
      write_text(dir / "job.toml", "variant = \"czech\"\n[search]\ndepth = 3\ntt_mb = 1\n[checkpoint]\ngames = 1\n");
  const auto run = test::run_dama_process({"selfplay", "--config", config, "--games", "400", "--threads", "1", "--out", out},
                                          std::chrono::seconds(60), [&] { return fs::exists(out + ".parts"); }, SIGTERM);
  ASSERT_TRUE(run.interrupted) << run;
  EXPECT_EQ(run.exit_code, 130) << run;
  EXPECT_THAT(run.err, HasSubstr("--resume")) << run;
  const Dataset d = read_dataset(out);
  EXPECT_GE(d.games.size(), 1u);
  EXPECT_LT(d.games.size(), 400u);
}

TEST(SelfplayJob, UnwritablePathIsAClearError) {
  const auto run = test::run_dama_process(
      {"selfplay", "--variant", "russian", "--games", "1", "--out", "/dev/null/x.h5"}, std::chrono::seconds(60));
  EXPECT_EQ(run.exit_code, 2) << run;
  EXPECT_THAT(run.err, HasSubstr("/dev/null/x.h5")) << run;
}

// Outputs that cannot be written are refused at the start, not at the first
// checkpoint (a job of many games would otherwise run first); thread counts
// are capped to the games and the cores, with a message; out-of-range
// numbers name their limits.
TEST(SelfplayJob, RoughInputIsAClearLineAtTheStart) {
  const auto no_dir = test::run_dama_process(
      {"selfplay", "--variant", "russian", "--games", "100000", "--out", "/proc/dama.h5"}, std::chrono::seconds(20));
  EXPECT_EQ(no_dir.exit_code, 2) << no_dir;
  EXPECT_THAT(no_dir.err, HasSubstr("--out /proc/dama.h5: cannot write in /proc")) << no_dir;

  for (const char* threads : {"100000", "-1"}) {
    const auto run = test::run_dama_process({"selfplay", "--variant", "russian", "--games", "2", "--threads", threads});
    EXPECT_EQ(run.exit_code, 2) << run;
    EXPECT_THAT(run.err, HasSubstr("1024")) << run;
    EXPECT_LT(run.err.size(), 300u) << run;
  }
  const auto no_games = test::run_dama_process({"selfplay", "--variant", "russian", "--games", "0"});
  EXPECT_EQ(no_games.exit_code, 2) << no_games;
  EXPECT_THAT(no_games.err, HasSubstr("1000000000")) << no_games;
  EXPECT_LT(no_games.err.size(), 300u) << no_games;

  TempDir dir;
  const auto capped = test::run_dama_process({"selfplay", "--variant", "russian", "--games", "2", "--threads", "1000",
                                              "--out", dir / "capped.h5"},
                                             std::chrono::seconds(60));
  EXPECT_EQ(capped.exit_code, 0) << capped;
  EXPECT_THAT(capped.err, HasSubstr("threads 1000: playing on 2")) << capped;

  // The tuner too: --out and --log are checked before the data is read.
  const auto tune = test::run_dama_process(
      {"tune", "--variant", "russian", "--data", dir / "capped.h5", "--out", "/proc/dama-weights.json"});
  EXPECT_EQ(tune.exit_code, 2) << tune;
  EXPECT_THAT(tune.err, HasSubstr("--out /proc/dama-weights.json: cannot write in /proc")) << tune;
  const auto tune_log = test::run_dama_process({"tune", "--variant", "russian", "--data", dir / "capped.h5", "--out",
                                                dir / "w.json", "--log", dir / "missing/log.csv"});
  EXPECT_EQ(tune_log.exit_code, 2) << tune_log;
  EXPECT_THAT(tune_log.err, HasSubstr("--log " + dir / "missing/log.csv" + ": no directory")) << tune_log;
}

// A full disk, simulated with a file-size limit (EFBIG instead of ENOSPC):
// a clear error, the games already saved stay readable, and the job resumes.
// The limit is per file: which write meets it first -- a part file, or the
// consolidated file at the end -- depends on how many games each part holds,
// which depends on how fast games finish (a sanitized build is slower), so
// the test accepts either.
TEST(SelfplayJob, AFullDiskIsAClearErrorAndLosesNothingSaved) {
  TempDir dir;
  const std::string out = dir / "full.h5";
  const std::string config =
      write_text(dir / "job.toml", "variant = \"russian\"\n[search]\ndepth = 2\ntt_mb = 1\n[checkpoint]\ngames = 2\n");
  const std::string command = "bash -c \"ulimit -f 88; trap '' XFSZ; exec '" + std::string(DAMA_BINARY) +
                              "' selfplay --config '" + config + "' --games 40 --threads 1 --out '" + out +
                              "'\" >'" + (dir / "log") + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log_file(dir / "log");
  const std::string log((std::istreambuf_iterator<char>(log_file)), {});
  ASSERT_TRUE(WIFEXITED(status)) << log;
  EXPECT_EQ(WEXITSTATUS(status), 2) << log;
  EXPECT_THAT(log, HasSubstr("dama: error: " + out)) << log;
  EXPECT_THAT(log, HasSubstr("disk full?")) << log;
  const Dataset saved = read_dataset(out);
  EXPECT_GE(saved.games.size(), 2u) << log;
  EXPECT_LE(saved.games.size(), 40u) << log;
  SelfplayConfig resume = load_selfplay_config(config);
  resume.games = 40;
  resume.threads = 1;
  resume.out = out;
  ASSERT_TRUE(run_selfplay(resume, true, {}).complete);
  EXPECT_EQ(read_dataset(out).games.size(), 40u);
}

// ---------------------------------------------------------------------------
// dama data

TEST(DataCommands, InfoMergeAndExportPdn) {
  TempDir dir;
  SelfplayConfig a = small_job(dir / "a.h5", 3), b = small_job(dir / "b.h5", 2);
  b.seed = 99;
  run_selfplay(a, false, {});
  run_selfplay(b, false, {});
  const auto merged = test::run_dama_process({"data", "merge", "-o", dir / "m.h5", a.out, b.out});
  ASSERT_EQ(merged.exit_code, 0) << merged;
  const Dataset m = read_dataset(dir / "m.h5");
  ASSERT_EQ(m.games.size(), 5u);
  for (std::size_t i = 0; i < m.games.size(); ++i) EXPECT_EQ(m.games[i].game_id, i);
  // b's games follow a's, and their positions and moves moved with them.
  const Dataset da = read_dataset(a.out), db = read_dataset(b.out);
  ASSERT_EQ(m.positions.size(), da.positions.size() + db.positions.size());
  ASSERT_EQ(m.moves.size(), da.moves.size() + db.moves.size());
  for (std::size_t i = 0; i < db.positions.size(); ++i) {
    const PositionRow &merged = m.positions[da.positions.size() + i], &original = db.positions[i];
    EXPECT_EQ(merged.game_id, original.game_id + 3) << i;
    EXPECT_EQ(merged.own_men, original.own_men) << i;
  }
  for (std::size_t i = 0; i < db.moves.size(); ++i)
    EXPECT_EQ(m.moves[da.moves.size() + i].game_id, db.moves[i].game_id + 3) << i;
  for (std::size_t i = 0; i < db.games.size(); ++i) EXPECT_EQ(m.games[3 + i].opening, db.games[i].opening);

  const auto info = test::run_dama_process({"data", "info", dir / "m.h5"});
  ASSERT_EQ(info.exit_code, 0) << info;
  EXPECT_THAT(info.out, HasSubstr("games        5"));
  EXPECT_THAT(info.out, HasSubstr("positions    " + std::to_string(m.positions.size())));

  const auto pdn = test::run_dama_process({"data", "export-pdn", dir / "m.h5", "-o", dir / "m.pdn"});
  ASSERT_EQ(pdn.exit_code, 0) << pdn;
  std::ifstream in(dir / "m.pdn");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::size_t events = 0;
  for (std::size_t at = 0; (at = text.find("[GameType \"25\"]", at)) != std::string::npos; ++at) ++events;
  EXPECT_EQ(events, 5u);
  // The PDN reader replays the exported games to the dataset's games.
  const auto games = split_pdn_games(text, "m.pdn");
  ASSERT_EQ(games.size(), m.games.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    constexpr RuleSet kRussian = test::variant_rules("russian");
    const auto read = replay_pdn_game<kRussian>(games[i], pdn_game_variant(games[i], nullptr, "m.pdn"), "m.pdn");
    EXPECT_EQ(to_fen(read.start), m.games[i].start_fen) << i;
    EXPECT_EQ(read.moves.size(), m.games[i].length) << i;
    EXPECT_EQ(read.result, m.games[i].result_text) << i;
  }

  const auto wrong = test::run_dama_process({"data", "merge", "-o", dir / "x.h5", a.out, dir / "missing.h5"});
  EXPECT_EQ(wrong.exit_code, 2) << wrong;
  EXPECT_THAT(wrong.err, HasSubstr("missing.h5")) << wrong;
}

// Two MPI ranks on one machine: disjoint game slices, one master file.
TEST(SelfplayMpi, TwoRanksWriteShardsJoinedByAMasterFile) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "mpirun not installed";
  TempDir dir;
  const std::string out = dir / "mpi.h5";
  // Open MPI's own start-up leaks (about 120 KB under ompi_mpi_init, which
  // LeakSanitizer's fast unwinder cannot attribute): leak checking is off for
  // this run of a sanitized build; every other ASan check stays on.
  const std::string command =
      "ASAN_OPTIONS=detect_leaks=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -n 2 '" +
                              std::string(DAMA_BINARY) +
                              "' selfplay --variant russian --games 6 --threads 1 --seed 7 --out '" + out +
                              "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Dataset joined = read_dataset(out);
  ASSERT_EQ(joined.games.size(), 6u);
  std::vector<std::uint64_t> ids;
  for (const auto& g : joined.games) ids.push_back(g.game_id);
  std::sort(ids.begin(), ids.end());
  for (std::uint64_t i = 0; i < 6; ++i) EXPECT_EQ(ids[i], i);
  // Rank 1 played the odd games.
  const Dataset shard = read_dataset(dir / "mpi.rank1.h5");
  for (const auto& g : shard.games) EXPECT_EQ(g.game_id % 2, 1u);
}

}  // namespace
}  // namespace dama

namespace dama {
namespace {

// The pattern model from self-play to play: dama selfplay, dama tune --model
// patterns (quiet positions only), a binary file that dama weights info,
// dama eval and dama match all read.
TEST(PatternModel, IsTunedFromSelfPlayAndPlayed) {
  TempDir dir;
  const auto play = test::run_dama_process(
      {"selfplay", "--variant", "russian", "--games", "40", "--threads", "2", "--out", dir / "p.h5"},
      std::chrono::seconds(120));
  ASSERT_EQ(play.exit_code, 0) << play;
  {
    std::ofstream config(dir / "tune.toml");
    config << "[training]\nmax_epochs = 3\nquiet_only = true\n[optimizer]\nbatch_size = 0\nlearning_rate = 2.0\n";
  }
  const std::string out = dir / "w.patterns";
  const auto tune = test::run_dama_process({"tune", "--variant", "russian", "--data", dir / "p.h5", "--model", "patterns",
                                            "--config", dir / "tune.toml", "--out", out},
                                           std::chrono::seconds(120));
  ASSERT_EQ(tune.exit_code, 0) << tune;
  EXPECT_THAT(tune.out, HasSubstr("model     patterns, 118252 weights")) << tune;
  const auto info = test::run_dama_process({"weights", "info", out});
  ASSERT_EQ(info.exit_code, 0) << info;
  EXPECT_THAT(info.out, HasSubstr("model      patterns")) << info;
  EXPECT_THAT(info.out, Not(HasSubstr(" 0 not zero"))) << info;  // the patterns were fitted
  EXPECT_THAT(info.out, HasSubstr("\"model\": \"patterns\"")) << info;
  const auto dump = test::run_dama_process({"weights", "dump", out});
  ASSERT_EQ(dump.exit_code, 0);
  EXPECT_THAT(dump.out, HasSubstr("\npattern.r")) << dump.out.substr(0, 400);
  const auto eval = test::run_dama_process({"eval", "--variant", "russian", "--weights", out});
  ASSERT_EQ(eval.exit_code, 0) << eval;
  EXPECT_THAT(eval.out, HasSubstr("pattern.r0.")) << eval;
  const auto wrong = test::run_dama_process({"eval", "--variant", "czech", "--weights", out});
  EXPECT_EQ(wrong.exit_code, 2) << wrong;
  EXPECT_THAT(wrong.err, HasSubstr(out + ": \"variant\": the file is for \"russian\", not \"czech\"")) << wrong;
  const auto match = test::run_dama_process({"match", "--variant", "russian", "--a", "weights=" + out + ",depth=2", "--b",
                                             "weights=builtin:linear,depth=2", "--games", "2"},
                                            std::chrono::seconds(60));
  EXPECT_EQ(match.exit_code, 0) << match;
}

}  // namespace
}  // namespace dama
