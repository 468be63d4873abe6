// Playing a match's games on several threads and committing them in order.
// Knows nothing of the rules: a GameWorker (one per thread, made on that
// thread) plays game g and hands back its journal record and PDN text.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "match.hpp"
#include "match_journal.hpp"

namespace dama::eval {

struct FinishedGame {
  GameRecord record;  // pdn_end is filled in at commit
  std::string pdn;
};

class GameWorker {
 public:
  virtual ~GameWorker() = default;
  // Plays the task that starts at game `index` (see task_end) and hands back
  // its games from `index` on, in order; nothing when it was cut short because
  // `cancel` (given to the factory, and to the worker's searches as their stop
  // flag) became true.
  virtual std::optional<std::vector<FinishedGame>> play(std::uint64_t index) = 0;
};

// One past the last game of the task that starts at game `index`: a game
// alone, or the rest of a double game (its two boards are played together,
// so a resume that starts on the second board plays both again and keeps
// the second).
std::uint64_t task_end(std::uint64_t index, Pairing pairing);

using WorkerFactory = std::function<std::unique_ptr<GameWorker>(const std::atomic<bool>* cancel)>;

// Plays games journal.finished().size() .. settings.games - 1 (unless the
// journal's games already decide the SPRT), committing each to the journal
// in index order, until all are played, the SPRT decides or control stops it.
MatchOutcome schedule_games(const MatchSettings& settings, const MatchControl& control, MatchJournal& journal,
                            const WorkerFactory& make_worker);

}  // namespace dama::eval
