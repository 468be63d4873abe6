// Parallel search for engine play.  Every thread runs the same iterative
// deepening on the same position, sharing one transposition table
// (lock-free, core/tt.hpp); what one thread stores, the others find.
//
// By default (defer-busy-moves) the threads split the work of one tree as
// ABDADA does, after Tom Kerrigan's "Simplified ABDADA": every thread
// searches the main thread's depth, and a move that another thread is
// searching (core/busy_moves.hpp) is put off until the thread's other moves
// are done, by when its result is usually in the table.  Time to depth 21
// over eight russian positions fell from about 1.12 times faster than one
// thread (plain lazy SMP) to about 1.44 (docs/performance.md).
//
// With the switch off it is plain "lazy SMP", as before: helpers of odd
// index search one ply deeper than their iteration count, spreading the
// threads over two depths instead of letting them repeat each other's work.
//
// Only the main thread keeps the clock and reports iterations; the helpers
// stop when it is done.  The result is the main thread's, or with the
// deepest-thread switch that of the thread whose last completed iteration
// went deepest (with lazy SMP a helper one ply ahead often finishes an
// iteration the main thread had no time for).
//
// While pondering (SearchLimits::pondering) only the first ponder_threads
// threads search; the others wait for ponder-hit and then join, their first
// iterations mostly table hits.  On a machine with a core per thread of one
// engine, the opponent thinks while this engine ponders: pondering on every
// thread would take the opponent's core, pondering on one leaves it free and
// still gives the move all threads once it is this engine's turn.
//
// With one thread it is exactly a Searcher (same moves, same node counts):
// self-play and the tuner's data use one thread per game and stay
// deterministic.  With more, the result depends on how the threads meet in
// the table, as in every engine that searches this way.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "search.hpp"

namespace dama {

inline constexpr int kMaxSearchThreads = 64;

template <RuleSet R, class Evaluator>
class ParallelSearcher {
 public:
  using Thread = Searcher<R, Evaluator>;
  using Result = typename Thread::Result;
  using InfoCallback = typename Thread::InfoCallback;

  ParallelSearcher(Evaluator evaluator, std::size_t tt_megabytes, int threads = 1)
      : evaluator_(std::move(evaluator)), tt_(tt_megabytes) {
    set_threads(threads);
  }

  // 1 to kMaxSearchThreads (clamped).
  void set_threads(int count) {
    count = std::clamp(count, 1, kMaxSearchThreads);
    const SearchOptions options = threads_.empty() ? SearchOptions{} : options_of_main();
    threads_.clear();
    for (int i = 0; i < count; ++i) {
      threads_.push_back(std::make_unique<Thread>(evaluator_, tt_));
      threads_.back()->set_busy_moves(count > 1 ? &busy_ : nullptr);
      threads_.back()->set_options(options);
      threads_.back()->set_tables(tables_);
    }
  }
  int threads() const { return static_cast<int>(threads_.size()); }

  // The threads that search while pondering; 0: all of them.
  void set_ponder_threads(int count) { ponder_threads_ = std::clamp(count, 0, kMaxSearchThreads); }
  int ponder_threads() const { return ponder_threads_; }

  // The nodes the helper threads searched in the last search (0 with one thread).
  std::uint64_t helper_nodes() const { return helper_nodes_; }

  void set_options(const SearchOptions& options) {
    for (auto& t : threads_) t->set_options(options);
  }
  const SearchOptions& options() const { return options_of_main(); }

  // Endgame tables for every thread (they must outlive the searcher).
  void set_tables(const egtb::Tablebase<R>* tables) {
    tables_ = tables;
    for (auto& t : threads_) t->set_tables(tables);
  }

  void clear() {
    tt_.clear();
    for (auto& t : threads_) t->clear();
  }

  // As Searcher::search; nodes in the result are those of all threads.
  Result search(const Game<R>& game, const SearchLimits& limits, const InfoCallback& on_iteration = {}) {
    tt_.new_search();
    helper_nodes_ = 0;
    if (threads_.size() == 1) return threads_[0]->search(game, limits, on_iteration);

    busy_.clear();
    // Deferring, every thread searches the main thread's depth (ABDADA's
    // way: they share the work of one tree); without it, odd helpers go a
    // ply deeper so that they do not all repeat the same tree.
    const bool defers = options().defer_busy_moves;
    for (std::size_t i = 0; i < threads_.size(); ++i) threads_[i]->set_depth_offset(defers ? 0 : static_cast<int>(i % 2));
    std::atomic<bool> helpers_stop{false};
    SearchLimits helper_limits;
    helper_limits.depth = limits.depth;
    helper_limits.stop = &helpers_stop;
    std::vector<Result> helper_results(threads_.size());
    std::vector<std::thread> helpers;
    for (std::size_t i = 1; i < threads_.size(); ++i)
      helpers.emplace_back([&, i] {
        if (ponder_threads_ > 0 && static_cast<int>(i) >= ponder_threads_ && limits.pondering)
          wait_for_ponder_hit(*limits.pondering, helpers_stop);
        if (!helpers_stop) helper_results[i] = threads_[i]->search(game, helper_limits);
      });
    Result result = threads_[0]->search(game, limits, on_iteration);
    helpers_stop = true;
    for (auto& h : helpers) h.join();
    std::uint64_t nodes = result.nodes, table_hits = result.table_hits;
    for (std::size_t i = 1; i < threads_.size(); ++i) {
      helper_nodes_ += helper_results[i].nodes;
      table_hits += helper_results[i].table_hits;
    }
    nodes += helper_nodes_;
    if (options().deepest_thread) {
      Result& chosen = deepest(result, helper_results);
      if (&chosen != &result) {
        const double seconds = result.seconds;
        result = std::move(chosen);
        result.seconds = seconds;
      }
    }
    result.nodes = nodes;
    result.table_hits = table_hits;
    return result;
  }

 private:
  // A millisecond's sleep at a time: ponder-hit comes from the protocol's
  // thread as a plain store, and a helper a millisecond late costs nothing.
  static void wait_for_ponder_hit(const std::atomic<bool>& pondering, const std::atomic<bool>& stop) {
    while (pondering.load(std::memory_order_relaxed) && !stop.load(std::memory_order_relaxed))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  // The result whose completed iteration searched the most plies (the main
  // thread's on a tie); its depth is then the plies it searched.
  Result& deepest(Result& main, std::vector<Result>& helpers) const {
    Result* best = &main;
    int best_plies = main.depth;
    for (std::size_t i = 1; i < helpers.size(); ++i) {
      if (helpers[i].depth == 0 || !helpers[i].best_move) continue;
      const int plies = helpers[i].depth + threads_[i]->depth_offset();
      if (plies > best_plies) {
        best = &helpers[i];
        best_plies = plies;
      }
    }
    best->depth = best_plies;
    return *best;
  }

  // Every thread holds the same options; the main thread's stand for all.
  const SearchOptions& options_of_main() const { return threads_.front()->options(); }

  Evaluator evaluator_;
  TranspositionTable tt_;
  BusyMoves busy_;
  const egtb::Tablebase<R>* tables_ = nullptr;
  std::vector<std::unique_ptr<Thread>> threads_;
  int ponder_threads_ = 0;
  std::uint64_t helper_nodes_ = 0;
};

}  // namespace dama
