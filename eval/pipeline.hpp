// The overnight pipeline: generations of self-play -> tune -> match against
// the current best -> promote the new weights when the match says they are
// better.  Every step is a dama subcommand run as a child process with
// --resume where it has one, and the pipeline records in a state file
// which steps of which generation are done, so after a crash (or Ctrl-C)
// the same command continues where it stopped.
//
// Run directory:
//   state.json              generations and steps done, promotions (written atomically)
//   best.json               the current best weights (initially the variant's built-in ones)
//   start.json              the weights the run started from, for the baseline matches
//   summary.csv, summary.png  Elo by generation: each match, and the best against the start
//   gen-001/ data.h5 weights.json training.csv match.pdn baseline.pdn *.log
// (.patterns instead of .json with tune.model = "patterns").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dama {

struct PipelineConfig {
  std::string variant = "russian";
  std::string run_dir;              // empty: runs/<variant>
  std::int64_t generations = 3;
  double deadline_hours = 0;        // 0: none; otherwise no step starts after it
  std::int64_t threads = 0;         // 0: every core

  std::string selfplay_config;      // empty: configs/selfplay/<variant>.toml when it exists, else built-in defaults
  std::int64_t selfplay_games = 2000;
  std::string tune_config;          // empty: the tuner's built-in config for the variant
  std::int64_t tune_generations = 2;  // the data of this many latest generations is tuned on
  std::string tune_model = "linear";  // "patterns": tune the pattern model (its files are <name>.patterns)

  std::int64_t match_games = 400;
  std::string match_limit = "depth=4";  // a search limit of the match players
  std::int64_t match_random_plies = 6;
  std::string match_openings;  // an openings file (or builtin:NAME) instead of random openings
  std::string promote = "elo";      // "elo": promote when the 95% interval lies above 0; "sprt": when SPRT accepts
  std::string sprt = "0,10,0.05,0.05";
};

PipelineConfig load_pipeline_config(const std::string& path);
void validate(PipelineConfig& config);
// Reads the self-play and tuner configs the steps will be given, so that a
// missing or bad file is refused before the first self-play rather than
// after it (hours into a run): throws naming the pipeline's field and the file.
void check_step_configs(const PipelineConfig& config);

// What the match of a generation reported.
struct MatchSummary {
  double elo = 0, elo_error95 = 0, los = 0;
  std::int64_t games = 0;
  bool sprt_accepted_h1 = false;
};
// Reads the final table that `dama match` prints; nothing when it is not there.
std::optional<MatchSummary> parse_match_table(const std::string& text);

// Runs `dama <args>` with stdout and stderr to `log`; returns its exit code.
using StepRunner = std::function<int(const std::vector<std::string>& args, const std::string& log)>;

struct PipelineHooks {
  StepRunner run;
  std::function<void(const std::string&)> say;  // progress lines for the terminal
  std::function<bool()> stop_requested;
};

struct PipelineOutcome {
  bool finished = false;  // every generation done
  std::string reason;     // when not: why it stopped
  std::string summary;    // path of summary.csv
};

PipelineOutcome run_pipeline(const PipelineConfig& config, const PipelineHooks& hooks);

}  // namespace dama
