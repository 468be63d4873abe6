// The self-play job: games in parallel (OpenMP, one game per thread at a
// time), one writer thread that owns the output, checkpoints that never
// leave a half-written file, and resumption after any interruption.
//
// Output: while the job runs, OUT is a small master file joining the part
// files in OUT.parts/ (each a run of whole games, written atomically) with
// HDF5 virtual datasets; when every game is done, the parts are consolidated
// into OUT itself (again atomically) and the directory removed.  Games are
// committed in game-index order, so the data is the same whatever the
// thread count and however often the job was interrupted.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "config_file.hpp"
#include "evaluate.hpp"

namespace dama {

struct SelfplayConfig {
  std::string variant = "russian";
  bool forced_capture = true;        // false: the house rule "capture not compulsory" (8x8)
  std::string draw_rules = "default";
  std::string weights;               // a weights file; empty: the built-in defaults
  std::int64_t games = 200;
  std::int64_t threads = 0;          // 0: every core
  std::int64_t seed = 1;
  std::string out;                   // empty: selfplay-<variant>.h5

  // Openings: random plies from the start, or the lines of a file of PDN FENs.
  std::int64_t opening_random_plies = 6;
  std::int64_t opening_max_imbalance = 80;  // centi-men of static evaluation; 0: no cap
  std::string opening_file;

  std::int64_t search_depth = 6;     // one of depth and nodes
  std::int64_t search_nodes = 0;
  std::int64_t tt_mb = 4;

  std::int64_t random_plies = 10;    // near-best random choice in the first plies ...
  std::int64_t random_margin = 20;   // ... among moves within this many centi-men of the best

  std::int64_t resign_score = 600;   // adjudication; 0 turns each test off
  std::int64_t resign_plies = 6;
  std::int64_t draw_score = 8;
  std::int64_t draw_plies = 30;
  std::int64_t draw_min_ply = 80;
  std::string tablebase;             // endgame tables (dama egtb build): probed, and a game in them ends there

  std::int64_t record_from_ply = 0;  // positions before this ply are not recorded
  bool record_quiet_only = false;    // only positions with no capture pending

  std::int64_t checkpoint_games = 100;   // a part file every this many games ...
  std::int64_t checkpoint_seconds = 60;  // ... or this many seconds, whichever comes first
};

// Reads a config file (every key checked); absent keys keep their defaults.
SelfplayConfig load_selfplay_config(const std::string& path);
SelfplayConfig parse_selfplay_config(std::string_view text, const std::string& origin);
// The config as TOML, every key written: printed at start, stored in the output.
std::string to_toml(const SelfplayConfig& config);
// Checks the values together (variant known, exactly one search limit, ...).
void validate(SelfplayConfig& config);

struct SelfplayProgress {
  std::int64_t games_done = 0, games_total = 0;
  std::int64_t positions = 0;
  std::int64_t first_wins = 0, draws = 0, second_wins = 0;  // first player's view
  double seconds = 0;
  std::int64_t games_this_run = 0, positions_this_run = 0;
};

struct SelfplayHooks {
  const std::atomic<int>* stop = nullptr;  // > 0: take no new games; the job saves and returns
  std::function<void(const SelfplayProgress&)> progress;  // from the writer thread, about once a second
  std::function<void(const std::string&)> log;            // one-line notices (resumed, checkpoint errors)
  // MPI: this process plays game indices i with i % stride == offset only.
  std::int64_t stride = 1, offset = 0;
};

struct SelfplayOutcome {
  SelfplayProgress progress;
  bool complete = false;  // every requested game is in the file
  std::string out;
};

// Runs (or, with resume, continues) the job.  Throws dama::Error on bad
// input, an output of another job, or a write failure; data already
// committed stays readable in every case.
SelfplayOutcome run_selfplay(const SelfplayConfig& config, bool resume, const SelfplayHooks& hooks);

}  // namespace dama
