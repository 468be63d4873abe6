// Time management: how much of a game clock one move may spend.
//
// A pure function of the clock, so that it can be tested without a search
// and shared by every front end (Hub, matches, the terminal).  The clock is
// read as the Hub protocol gives it (Scan's protocol.txt, "level"): the time
// left on the engine's clock, the moves left to the next control (0: none,
// sudden death or Fischer) and the increment, which the protocol adds before
// every move, so `remaining` already holds this move's increment.
//
// The budget has two parts:
//   optimum  what the search aims at.  The search stretches it when the best
//            move changes or the score drops and starts no iteration it
//            cannot expect to finish within it (core/search.hpp);
//   maximum  a hard limit: the search is stopped there, whatever it is doing.
//
// The share of the clock.  Every move gets the time left divided by the moves
// still expected (at most the planning horizon, fewer when a control is
// nearer), with the increments those moves will bring.  A horizon shorter
// than the game front-loads the clock -- the middle game, where draughts
// games are decided, gets the most time -- while a fixed fraction of what is
// left can never run out, so sudden death is safe.
//
// Under a control of moves (100 moves in T) the clock is refilled at the
// control, so the horizon may be set apart (control_horizon, Hub
// control-horizon).  It stays 20: 12 and 15 used more of the clock (15:
// 81% of a 100-move control in russian, 84% in international, against 75%
// and 80%) but 15 lost 43.7 +- 27.5 Elo in 200 international games, and 12
// went the same way in 20 (docs/performance.md).
#pragma once

#include <cstdint>

namespace dama {

struct GameClock {
  double remaining_seconds = 0;  // on this player's clock, this move's increment included
  int moves_to_go = 0;           // to the next time control; 0: none (sudden death or increment only)
  double increment_seconds = 0;  // added before every move
};

struct TimeBudget {
  std::int64_t optimum_ms = 0;
  std::int64_t maximum_ms = 0;
};

struct TimeSettings {
  int planning_horizon = 20;           // moves the rest of the clock is spread over, at most
  int control_horizon = 20;            // the same under a control of moves, which refills the clock
  double maximum_ratio = 4.0;          // maximum = this many optimums ...
  double maximum_share = 0.35;         // ... and never more than this share of the clock
  std::int64_t move_overhead_ms = 15;  // kept back each move for the protocol and the opponent's clock
};

TimeBudget allocate_time(const GameClock& clock, const TimeSettings& settings = {});

}  // namespace dama
