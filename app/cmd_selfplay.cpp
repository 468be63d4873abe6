// dama selfplay: the overnight data job.  The terminal side only: options,
// signals, the progress line.  The job itself is selfplay/selfplay.cpp.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "stop_signal.hpp"
#include "mpi_ranks.hpp"
#include "selfplay.hpp"

namespace dama::cli {

namespace {

struct SelfplayOptions {
  std::string config;
  std::string variant;
  std::int64_t games = 0, threads = -1, seed = -1;
  std::string out;
  std::string weights;
  bool resume = false;
};


std::string duration(double seconds) {
  const long s = static_cast<long>(seconds);
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  return text;
}

std::string progress_line(const SelfplayProgress& p) {
  const double games_per_s = p.seconds > 0 ? p.games_this_run / p.seconds : 0;
  const double positions_per_s = p.seconds > 0 ? p.positions_this_run / p.seconds : 0;
  const std::int64_t left = p.games_total - p.games_done;
  char text[256];
  std::snprintf(text, sizeof text, "games %lld/%lld  %.2f games/s  %.0f positions/s  ETA %s  +%lld =%lld -%lld",
                static_cast<long long>(p.games_done), static_cast<long long>(p.games_total), games_per_s,
                positions_per_s, games_per_s > 0 ? duration(left / games_per_s).c_str() : "?",
                static_cast<long long>(p.first_wins), static_cast<long long>(p.draws),
                static_cast<long long>(p.second_wins));
  return text;
}

SelfplayConfig effective_config(const SelfplayOptions& o) {
  SelfplayConfig c = o.config.empty() ? SelfplayConfig{} : load_selfplay_config(o.config);
  if (!o.variant.empty()) {
    if (!o.config.empty() && o.variant != c.variant)
      throw Error("--variant " + o.variant + " disagrees with " + o.config + " (variant = \"" + c.variant + "\")");
    c.variant = o.variant;
  }
  if (o.games > 0) c.games = o.games;
  if (o.threads >= 0) c.threads = o.threads;
  if (o.seed >= 0) c.seed = o.seed;
  if (!o.out.empty()) c.out = o.out;
  if (!o.weights.empty()) c.weights = o.weights;
  validate(c);
  return c;
}

void run(const SelfplayOptions& options) {
  SelfplayConfig config = effective_config(options);
  const MpiRanks ranks = MpiRanks::from_environment();
  const std::string final_out = config.out;
  if (ranks.size > 1) config.out = shard_path(final_out, ranks.rank);
  check_can_write(config.out, "--out");  // now, not at the first checkpoint
  if (ranks.rank == 0) std::cout << "# effective config\n" << to_toml(config) << std::flush;

  // A second signal leaves at once: every file on disk is whole already.
  const StopSignal stop({SecondSignal::ExitsNow,
                         "\ndama: stopping: finishing the games in flight (again to stop at once)\n",
                         "\ndama: stopped at once; resume with --resume\n"});
  const bool terminal = ::isatty(STDERR_FILENO) && ranks.size == 1;
  auto last_plain = std::make_shared<double>(-1e9);
  SelfplayHooks hooks;
  hooks.stop = stop.counter();
  hooks.stride = ranks.size;
  hooks.offset = ranks.rank;
  hooks.log = [](const std::string& line) { std::cerr << "dama: " << line << "\n"; };
  hooks.progress = [terminal, last_plain, rank = ranks.rank](const SelfplayProgress& p) {
    if (terminal) {
      std::cerr << "\r" << progress_line(p) << "\033[K" << std::flush;
    } else if (p.seconds - *last_plain >= 30 || p.games_done == p.games_total) {
      *last_plain = p.seconds;
      std::cerr << "selfplay" << (rank > 0 || p.games_total == 0 ? " rank " + std::to_string(rank) : "") << ": "
                << progress_line(p) << "\n";
    }
  };
  const SelfplayOutcome outcome = run_selfplay(config, options.resume, hooks);
  if (terminal) std::cerr << "\n";

  if (!outcome.complete) {
    std::cerr << "dama: interrupted: " << outcome.progress.games_done << " of " << outcome.progress.games_total
              << " games saved in " << outcome.out << "\n"
              << "dama: continue with the same command and --resume\n";
    throw ExitCode{130};
  }
  if (ranks.size > 1) {
    ranks.barrier();
    if (ranks.rank == 0) join_shards(final_out, ranks.size);
  }
  if (ranks.rank == 0)
    std::cout << "wrote " << final_out << ": " << config.games << " games\n";
}

}  // namespace

void register_selfplay(CLI::App& app) {
  auto options = std::make_shared<SelfplayOptions>();
  CLI::App* cmd = app.add_subcommand("selfplay", "play engine games in parallel and write the positions to HDF5");
  cmd->add_option("-c,--config", options->config, "a config file (configs/selfplay/<variant>.toml)");
  cmd->add_option("-v,--variant", options->variant, "the variant, when no config is given (built-in defaults)");
  cmd->add_option("-g,--games", options->games, "number of games (overrides the config)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}));
  cmd->add_option("-t,--threads", options->threads, "game threads, 0 = every core (overrides the config)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1024}));
  cmd->add_option("-o,--out", options->out, "output file (overrides the config)");
  cmd->add_option("-s,--seed", options->seed, "job seed (overrides the config)")->check(CLI::NonNegativeNumber);
  cmd->add_option("-w,--weights", options->weights, "weights file to play with (overrides the config)");
  cmd->add_flag("--resume", options->resume, "continue the job in --out from its last checkpoint");
  cmd->callback([options] { run(*options); });
}

}  // namespace dama::cli
