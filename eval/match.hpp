// A match between two players, A and B: paired games, each opening played
// twice with the colours swapped (A moves first in games 0, 2, 4, ..., B in
// games 1, 3, 5, ...); or, with Pairing::DoubleGame, Vigman's double games
// (match_journal.hpp says how those pair).
//
// Determinism.  Game g depends only on the settings and g: its opening comes
// from the openings file (pair g/2, cycling through the file) or from
// random_opening seeded by game_seed(seed, g/2), and the Referee clears both
// engines before every game.  Games are committed -- counted, written to the
// PDN file and the journal -- in index order, whichever worker finished them
// first, and an SPRT stop is decided after each committed pair.  So with
// depth or node limits the totals, the journal and the PDN moves are the
// same for any concurrency and across interruptions.  (Move time limits
// depend on the clock, so games under them do not repeat.)
//
// Interruption.  When control.stop_new_games becomes true no new game
// starts; games in flight finish and are committed, then run_match returns.
// When control.abort_games becomes true the searches in flight stop at once
// and their games are dropped.  Either way the journal holds every committed
// game, and the same settings with resume = true continue from there.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "evaluate.hpp"
#include "game.hpp"
#include "match_journal.hpp"
#include "player_spec.hpp"
#include "sprt.hpp"
#include "statistics.hpp"

namespace dama::eval {

struct OpeningSettings {
  std::string file;           // PDN FENs, one per line; empty: random openings
  int random_plies = 6;       // random openings: uniformly random legal moves from the start ...
  Score max_imbalance = 100;  // ... retried until the static evaluation is within this (0: any)
  bool variant_default = false;  // `file` is the variant's shipped set, taken because none was asked for (a note says so)
};

struct MatchSettings {
  std::string variant = "russian";
  bool no_forced_capture = false;
  DrawRules draw_rules = DrawRules::Default;
  PlayerSpec a, b;
  std::uint64_t games = 100;  // even: whole pairs
  Pairing pairing = Pairing::ColoursSwapped;
  int concurrency = 1;        // games played at once
  std::uint64_t seed = 1;
  OpeningSettings openings;
  std::optional<SprtSettings> sprt;
  std::string pdn_out;  // empty: no PDN file
  std::string journal;  // empty: no journal (the match cannot be resumed)
  bool resume = false;
  std::size_t tt_megabytes = 16;  // per engine; each worker holds four
};

// Throws dama::Error naming the option at fault.  run_match calls it first.
void check_match_settings(const MatchSettings& settings);

enum class StopReason { Completed, SprtAcceptedH0, SprtAcceptedH1, Interrupted };
const char* stop_reason_text(StopReason reason);

// One player's clock over the games played under one.
struct ClockTotals {
  std::uint64_t games = 0;
  double used_seconds = 0, budget_seconds = 0;
  std::uint64_t time_losses = 0;
  std::uint64_t ponder_hits = 0, ponder_searches = 0;  // a pondering player's
  double used_share() const { return budget_seconds > 0 ? used_seconds / budget_seconds : 0; }
};

struct MatchTotals {
  std::uint64_t games = 0;    // committed
  WinLossDraw a;              // A's results
  ClockTotals clock_a, clock_b;
  Pentanomial pairs;          // complete pairs only
  std::optional<double> llr;  // with an SPRT, after the last complete pair
  SprtDecision decision = SprtDecision::Continue;
};

struct MatchControl {
  const std::atomic<bool>* stop_new_games = nullptr;
  const std::atomic<bool>* abort_games = nullptr;
  // Called on the calling thread after every committed game.
  std::function<void(const MatchTotals&, const GameRecord&)> on_game;
  // Informational messages ("resuming after game 36", ...).
  std::function<void(const std::string&)> on_note;
};

struct MatchOutcome {
  MatchTotals totals;
  StopReason stop = StopReason::Completed;
  std::uint64_t games_from_journal = 0;  // finished by earlier runs
  std::uint64_t games_played = 0;        // committed by this run
  std::uint64_t games_dropped = 0;       // played or in flight, not committed (interruption)
};

MatchOutcome run_match(const MatchSettings& settings, const MatchControl& control = {});

// The totals of finished games (games[i].index == i), with the SPRT if any.
MatchTotals totals_of(const std::vector<GameRecord>& games, const std::optional<SprtSettings>& sprt,
                      Pairing pairing = Pairing::ColoursSwapped);
// Adds games[t.games], the next game, to t; the SPRT is updated when it completes a pair.
void count_next_game(MatchTotals& t, const std::vector<GameRecord>& games, const std::optional<SprtSettings>& sprt,
                     Pairing pairing = Pairing::ColoursSwapped);

}  // namespace dama::eval
