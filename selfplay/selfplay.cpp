#include "selfplay.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "build_info.hpp"
#include "dataset.hpp"
#include "fen.hpp"
#include "game.hpp"
#include "game_record.hpp"
#include "notation.hpp"
#include "openings.hpp"
#include "part_store.hpp"
#include "referee.hpp"
#include "utc_time.hpp"
#include "weights.hpp"

namespace dama {

namespace {

using Clock = std::chrono::steady_clock;

// Everything a game needs, resolved once from the config.
struct JobSetup {
  SelfplayConfig config;
  const Variant* variant = nullptr;
  RuleSet rules;
  DrawRules draw_rules = DrawRules::Default;
  Weights weights;
  OpeningsFile openings;  // empty: random openings
  DatasetMeta meta;
};

// Every line of the opening file is parsed before any game, so that a bad
// line stops the job at once, naming its line.
template <RuleSet R>
void check_openings(const OpeningsFile& file, const Variant& variant) {
  for (const OpeningLine& line : file.openings) {
    try {
      const auto p = opening_start<R>(line, variant);
      if (MoveGenerator<R>::count(p) == 0) throw Error("the side to move has no legal move");
    } catch (const Error& e) {
      throw Error(file.path + ":" + std::to_string(line.line) + ": " + e.what());
    }
  }
}

JobSetup resolve(const SelfplayConfig& given) {
  JobSetup s;
  s.config = given;
  validate(s.config);
  s.variant = &find_variant(s.config.variant);
  s.rules = s.config.forced_capture ? s.variant->rules : s.variant->rules.without_forced_capture();
  s.draw_rules = parse_draw_rules(s.config.draw_rules);
  s.weights = s.config.weights.empty() ? default_weights(*s.variant) : load_weights(s.config.weights, *s.variant);
  if (!s.config.opening_file.empty()) s.openings = read_openings(s.config.opening_file);
  s.meta.variant = s.config.variant;
  s.meta.rules = describe(s.rules);
  s.meta.engine_version = build_version();
  s.meta.git_commit = build_commit();
  s.meta.weights_hash = weights_hash(s.weights);
  s.meta.weights_source = s.weights.source;
  s.meta.config = to_toml(s.config);
  s.meta.seed = s.config.seed;
  s.meta.created = utc_timestamp_now();
  return s;
}

// One game, start to finish: a pure function of (setup, game index).
template <RuleSet R>
GameRecord play_game(const JobSetup& s, Referee<R>& referee, std::uint64_t index) {
  using Board = BoardFor<R>;
  const SelfplayConfig& c = s.config;
  GameRng rng(game_seed(static_cast<std::uint64_t>(c.seed), index));
  const std::uint64_t seed = game_seed(static_cast<std::uint64_t>(c.seed), index);

  Game<R> game = s.openings.openings.empty()
                     ? random_opening<R>(static_cast<int>(c.opening_random_plies), static_cast<Score>(c.opening_max_imbalance),
                                         s.weights, s.draw_rules, rng)
                     : Game<R>(opening_start<R>(s.openings.openings[index % s.openings.openings.size()], *s.variant),
                               s.draw_rules);
  const int opening_plies = game.plies();
  const Adjudication adjudication{static_cast<Score>(c.resign_score), static_cast<int>(c.resign_plies),
                                  static_cast<Score>(c.draw_score), static_cast<int>(c.draw_plies),
                                  static_cast<int>(c.draw_min_ply)};
  const EarlyRandomness randomness{static_cast<int>(c.random_plies), static_cast<Score>(c.random_margin)};
  const PlayedGame<Board> played = referee.play(game, adjudication, randomness, rng);

  const RecordFilter filter{opening_plies, static_cast<int>(c.record_from_ply), c.record_quiet_only};
  return game_record<R>(game, played.result, index, seed, filter, std::span<const Score>(played.scores));
}

// Finished games from the players to the writer.
class GameQueue {
 public:
  void push(std::uint64_t index, GameRecord&& g) {
    {
      std::lock_guard lock(mutex_);
      ready_.emplace(index, std::move(g));
    }
    wake_.notify_one();
  }
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    wake_.notify_one();
  }
  // Waits up to `timeout` for news; moves every finished game into `into`.
  bool drain(std::map<std::uint64_t, GameRecord>& into, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, timeout, [&] { return closed_ || !ready_.empty(); });
    into.merge(ready_);
    return !closed_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::uint64_t, GameRecord> ready_;
  bool closed_ = false;
};

// The writer thread's loop: commits finished games in index order, a part
// at every checkpoint, and reports progress.
class Writer {
 public:
  Writer(PartStore& store, const SelfplayConfig& config, const SelfplayHooks& hooks, std::int64_t stride,
         std::int64_t offset)
      : store_(store), config_(config), hooks_(hooks), stride_(stride), offset_(offset) {
    progress_.games_total = games_for_this_rank(config.games);
    progress_.games_done = static_cast<std::int64_t>(store.games_committed());
    progress_.positions = static_cast<std::int64_t>(store.positions_committed());
  }

  std::int64_t games_for_this_rank(std::int64_t games) const {
    return games > offset_ ? (games - offset_ + stride_ - 1) / stride_ : 0;
  }

  // Local game number n (0, 1, 2, ...) is global game offset + n * stride.
  void run(GameQueue& queue) {
    std::map<std::uint64_t, GameRecord> finished;
    last_checkpoint_ = Clock::now();
    auto last_report = Clock::now() - std::chrono::seconds(10);
    bool open = true;
    while (open) {
      open = queue.drain(finished, std::chrono::milliseconds(200));
      take_contiguous(finished);
      progress_.games_done = static_cast<std::int64_t>(store_.games_committed() + pending_.size());
      const bool due = pending_.size() >= static_cast<std::size_t>(config_.checkpoint_games) ||
                       Clock::now() - last_checkpoint_ >= std::chrono::seconds(config_.checkpoint_seconds);
      if (!pending_.empty() && (due || !open)) checkpoint();
      if (hooks_.progress && (Clock::now() - last_report >= std::chrono::seconds(1) || !open)) {
        last_report = Clock::now();
        progress_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        hooks_.progress(progress_);
      }
    }
  }

  const SelfplayProgress& progress() const { return progress_; }

 private:
  void take_contiguous(std::map<std::uint64_t, GameRecord>& finished) {
    for (;;) {
      const std::uint64_t local = store_.games_committed() + pending_.size();
      const auto it = finished.find(static_cast<std::uint64_t>(offset_) + local * static_cast<std::uint64_t>(stride_));
      if (it == finished.end()) return;
      count(it->second);
      pending_.push_back(std::move(it->second));
      finished.erase(it);
    }
  }

  void count(const GameRecord& g) {
    ++progress_.games_this_run;
    progress_.positions_this_run += static_cast<std::int64_t>(g.positions.size());
    (g.game.result > 0 ? progress_.first_wins : g.game.result < 0 ? progress_.second_wins : progress_.draws)++;
  }

  void checkpoint() {
    store_.commit(pending_);
    pending_.clear();
    last_checkpoint_ = Clock::now();
    progress_.games_done = static_cast<std::int64_t>(store_.games_committed());
    progress_.positions = static_cast<std::int64_t>(store_.positions_committed());
  }

  PartStore& store_;
  const SelfplayConfig& config_;
  const SelfplayHooks& hooks_;
  std::int64_t stride_, offset_;
  std::vector<GameRecord> pending_;
  SelfplayProgress progress_;
  Clock::time_point start_ = Clock::now(), last_checkpoint_;
};

bool stopping(const SelfplayHooks& hooks) { return hooks.stop && hooks.stop->load() > 0; }

// The game threads: as asked (0: one per core), but no more than the games
// left to play, nor than 4 per core -- each thread holds two engines and their
// tables, so thousands of them only exhaust the memory and the scheduler.
int game_threads(std::int64_t asked, std::int64_t games_left, const SelfplayHooks& hooks) {
  const std::int64_t wanted = asked > 0 ? asked : omp_get_max_threads();
  const std::int64_t cap = std::max<std::int64_t>(1, std::min<std::int64_t>(games_left, 4 * omp_get_num_procs()));
  if (wanted <= cap) return static_cast<int>(wanted);
  if (hooks.log)
    hooks.log("threads " + std::to_string(wanted) + ": playing on " + std::to_string(cap) +
              " (at most the games left, " + std::to_string(std::max<std::int64_t>(games_left, 0)) + ", and 4 per core)");
  return static_cast<int>(cap);
}

template <RuleSet R>
SelfplayOutcome run_job(const JobSetup& s, bool resume, const SelfplayHooks& hooks) {
  check_openings<R>(s.openings, *s.variant);
  PartStore store(s.config.out, s.meta, resume);
  if (store.games_committed() > 0 && hooks.log)
    hooks.log("resuming " + s.config.out + ": " + std::to_string(store.games_committed()) + " games already done");

  Writer writer(store, s.config, hooks, hooks.stride, hooks.offset);
  const std::int64_t local_total = writer.games_for_this_rank(s.config.games);
  std::atomic<std::int64_t> next_local{static_cast<std::int64_t>(store.games_committed())};
  GameQueue queue;
  std::exception_ptr writer_error;  // read only after the join
  std::atomic<bool> writer_failed{false};
  std::thread writer_thread([&] {
    try {
      writer.run(queue);
    } catch (...) {
      writer_error = std::current_exception();
      writer_failed = true;
    }
  });

  // Loaded before any game, so a bad table stops the job at once; shared
  // read-only by every thread.
  std::optional<egtb::Tablebase<R>> tables;
  if (!s.config.tablebase.empty()) tables = egtb::Tablebase<R>::load(s.config.tablebase, "adjudication.tablebase");
  PlayerSettings player{&s.weights, {}};
  player.limits.depth = static_cast<int>(s.config.search_depth);
  player.limits.nodes = static_cast<std::uint64_t>(s.config.search_nodes);
  const int threads = game_threads(s.config.threads, local_total - next_local.load(), hooks);
  std::exception_ptr player_error;
  std::mutex error_mutex;
#pragma omp parallel num_threads(threads)
  {
    try {
      Referee<R> referee(player, player, static_cast<std::size_t>(s.config.tt_mb));
      referee.set_tables(tables ? &*tables : nullptr, true);
      for (;;) {
        if (stopping(hooks) || writer_failed) break;
        const std::int64_t local = next_local.fetch_add(1);
        if (local >= local_total) break;
        const auto index = static_cast<std::uint64_t>(hooks.offset + local * hooks.stride);
        queue.push(index, play_game<R>(s, referee, index));
      }
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!player_error) player_error = std::current_exception();
    }
  }
  queue.close();
  writer_thread.join();
  if (writer_error) std::rethrow_exception(writer_error);
  if (player_error) std::rethrow_exception(player_error);

  SelfplayOutcome outcome;
  outcome.progress = writer.progress();
  outcome.out = s.config.out;
  outcome.complete = static_cast<std::int64_t>(store.games_committed()) >= local_total;
  if (outcome.complete) store.consolidate();
  return outcome;
}

}  // namespace

SelfplayOutcome run_selfplay(const SelfplayConfig& config, bool resume, const SelfplayHooks& hooks) {
  const JobSetup setup = resolve(config);
  return with_rules(setup.rules, [&]<RuleSet R>() { return run_job<R>(setup, resume, hooks); });
}

}  // namespace dama
