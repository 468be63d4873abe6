#include "match_scheduler.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace dama::eval {

namespace {

bool is_set(const std::atomic<bool>* flag) { return flag && flag->load(std::memory_order_relaxed); }

// What the workers and the committing thread share, under `mutex`.
struct Board {
  std::mutex mutex;
  std::condition_variable changed;
  std::uint64_t next_game = 0;                     // the next game to hand out
  std::uint64_t end_game = 0;                      // one past the last game of the match
  std::uint64_t committed = 0;                     // games committed so far (all below this index)
  std::uint64_t window = 0;                        // games may run at most this far ahead of the commits
  std::map<std::uint64_t, FinishedGame> finished;  // played, waiting for their turn
  int workers_running = 0;
  bool stop = false;                // no new games
  std::atomic<bool> cancel{false};  // games in flight are not wanted any more: end them now
  std::exception_ptr error;
};

void worker_loop(Board& board, const WorkerFactory& make_worker, const MatchControl& control, Pairing pairing) {
  try {
    const auto worker = make_worker(&board.cancel);
    for (;;) {
      std::uint64_t index;
      {
        std::unique_lock lock(board.mutex);
        // Far ahead of the commits, wait: finished games pile up in memory
        // only while one slow game holds the line.
        board.changed.wait(lock, [&] {
          return board.stop || board.next_game >= board.end_game || board.next_game < board.committed + board.window;
        });
        if (board.stop || board.next_game >= board.end_game || is_set(control.stop_new_games)) break;
        index = board.next_game;
        board.next_game = task_end(index, pairing);
      }
      std::optional<std::vector<FinishedGame>> games = worker->play(index);
      if (!games) break;  // aborted
      std::lock_guard lock(board.mutex);
      for (auto& game : *games) {
        const std::uint64_t played = game.record.index;
        board.finished.emplace(played, std::move(game));
      }
      board.changed.notify_all();
    }
  } catch (...) {
    std::lock_guard lock(board.mutex);
    if (!board.error) board.error = std::current_exception();
    board.stop = true;
    board.cancel = true;
  }
  std::lock_guard lock(board.mutex);
  --board.workers_running;
  board.changed.notify_all();
}

StopReason sprt_stop(SprtDecision d) {
  return d == SprtDecision::AcceptH1 ? StopReason::SprtAcceptedH1 : StopReason::SprtAcceptedH0;
}

}  // namespace

std::uint64_t task_end(std::uint64_t index, Pairing pairing) {
  return pairing == Pairing::DoubleGame ? index / 2 * 2 + 2 : index + 1;
}

MatchOutcome schedule_games(const MatchSettings& settings, const MatchControl& control, MatchJournal& journal,
                            const WorkerFactory& make_worker) {
  MatchOutcome outcome;
  outcome.games_from_journal = journal.finished().size();
  outcome.totals = totals_of(journal.finished(), settings.sprt, settings.pairing);
  if (outcome.totals.decision != SprtDecision::Continue) {
    outcome.stop = sprt_stop(outcome.totals.decision);
    return outcome;
  }

  Board board;
  board.next_game = board.committed = journal.finished().size();
  board.end_game = settings.games;
  board.window = 4 * static_cast<std::uint64_t>(settings.concurrency) + 2;
  std::uint64_t tasks = 0;  // no more threads than tasks: each one starts its engines
  for (std::uint64_t g = board.next_game; g < board.end_game; g = task_end(g, settings.pairing)) ++tasks;
  const int thread_count =
      static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(settings.concurrency), tasks));
  board.workers_running = thread_count;
  std::vector<std::thread> threads;
  for (int i = 0; i < thread_count; ++i)
    threads.emplace_back(worker_loop, std::ref(board), std::cref(make_worker), std::cref(control), settings.pairing);

  std::exception_ptr commit_error;
  std::unique_lock lock(board.mutex);
  for (;;) {
    // Signal handlers cannot notify a condition variable: look at the flags now and then.
    const auto halted = [&] { return commit_error || board.error; };
    const auto decided = [&] { return outcome.totals.decision != SprtDecision::Continue; };
    board.changed.wait_for(lock, std::chrono::milliseconds(50), [&] {
      return (!halted() && !decided() && board.finished.count(board.committed)) || board.workers_running == 0;
    });
    if (!board.stop && (is_set(control.stop_new_games) || is_set(control.abort_games))) {
      board.stop = true;
      board.changed.notify_all();
    }
    if (is_set(control.abort_games) || board.error) board.cancel = true;
    while (!halted() && !decided() && board.finished.count(board.committed)) {
      FinishedGame game = std::move(board.finished.at(board.committed));
      board.finished.erase(board.committed);
      lock.unlock();
      try {
        journal.commit(std::move(game.record), game.pdn);
        count_next_game(outcome.totals, journal.finished(), settings.sprt, settings.pairing);
        ++outcome.games_played;
        if (control.on_game) control.on_game(outcome.totals, journal.finished().back());
      } catch (...) {
        commit_error = std::current_exception();
      }
      lock.lock();
      ++board.committed;
      // Once the SPRT has decided, the games in flight cannot change the verdict.
      if (commit_error || outcome.totals.decision != SprtDecision::Continue) board.stop = board.cancel = true;
      board.changed.notify_all();
    }
    if (board.workers_running == 0 && (halted() || decided() || !board.finished.count(board.committed))) break;
  }
  const std::uint64_t handed_out = board.next_game;
  const std::exception_ptr worker_error = board.error;
  lock.unlock();
  for (auto& t : threads) t.join();
  if (commit_error) std::rethrow_exception(commit_error);
  if (worker_error) std::rethrow_exception(worker_error);

  // Games handed out but neither committed nor waiting were aborted in flight.
  outcome.games_dropped = handed_out - board.committed;
  if (outcome.totals.decision != SprtDecision::Continue)
    outcome.stop = sprt_stop(outcome.totals.decision);
  else if (board.committed < settings.games)
    outcome.stop = StopReason::Interrupted;
  else
    outcome.stop = StopReason::Completed;
  return outcome;
}

}  // namespace dama::eval
