// A match player written on the command line: comma-separated key=value
// fields,
//   depth=4                                  built-in weights, 4 plies
//   weights=configs/weights/russian.json,depth=4
//   weights=default,nodes=20000              "default": the built-in weights
//   movetime=100                             milliseconds per move
//   tc=10+0.1                                a game clock: 10 s for the game, 0.1 s added before every move
//   tc=40/60+0.5                             60 s for every 40 moves (added again after each 40), 0.5 s a move
//   tc=10+0.1,threads=2                      two search threads (lazy SMP); a Hub engine takes
//                                            its threads as its own parameter (dama hub --param threads=2)
//   hub:/usr/bin/scan hub,movetime=100      an external Hub engine (program
//                                            and arguments up to the first comma)
//   hub:/usr/bin/scan hub,tc=10+0.1,ponder=true
//                                            ... that ponders on the opponent's time
//                                            (`go ponder` on the reply it expects)
//   dxp:127.0.0.1:27531,tc=300              a DXP engine listening there (10x10); DXP
//                                            gives it whole minutes for the game, so tc= only
// At least one limit (depth, nodes, movetime, tc) is required -- a search
// with none would never end -- and depth, nodes and movetime may be combined
// (the first reached ends the search); tc stands alone.  A weights path
// cannot contain a comma.  A Hub engine takes depth, movetime or tc and its
// own weights.  Under tc the player's clock runs on the match's wall clock and
// a player whose clock runs out loses the game ("lost on time").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "search.hpp"

namespace dama::eval {

// A game clock as written in tc=: base seconds (every `moves` moves, or once
// for the game when moves is 0) and an increment added before every move.
struct TimeControl {
  double base_seconds = 0;
  double increment_seconds = 0;
  int moves = 0;
};

struct PlayerSpec {
  std::string text;          // as written, for names and messages
  std::string weights_file;  // empty: the variant's built-in weights
  SearchLimits limits;       // stop left null
  std::optional<TimeControl> clock;
  int threads = 1;           // search threads of our engine
  std::string hub_command;   // not empty: an external Hub engine, run with this command
  std::string dxp_address;   // not empty: a DXP engine listening at HOST:PORT (10x10 only)
  bool ponder = false;       // a Hub engine under a clock searches the reply it expects while the opponent thinks
};

// Throws dama::Error naming `option` (e.g. "--a"), the spec and the field at fault.
PlayerSpec parse_player_spec(std::string_view text, std::string_view option);

// "10+0.1", "40/60+0.5", "60"; throws dama::Error naming `where`.
TimeControl parse_time_control(std::string_view text, const std::string& where);
// The Hub `level` line's arguments for a clock with `remaining` seconds left,
// `moves_made` moves into the game: "time=9.87 inc=0.1", "moves=12 time=30.5".
std::string hub_level_for(const TimeControl& tc, double remaining_seconds, int moves_made);
// Moves to the next control after `moves_made` moves (0: no control ahead).
int moves_to_go(const TimeControl& tc, int moves_made);

}  // namespace dama::eval
