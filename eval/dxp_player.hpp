// dama's engine as a DXP program (the DamExchange protocol, used by 10x10
// engines such as Kingsrow, Scan and Moby Dam for engine matches).
//
// Connection and role are independent, as in the usual engines: dama listens
// (`listen`) or connects (`connect`), and is the initiator (it sends GAMEREQ
// and chooses time, moves and colours) or the follower (it accepts the other
// side's GAMEREQ).  By default the side that connects initiates.
//
// Time: a GAMEREQ gives each player `minutes` for the game and optionally a
// number of moves; dama spreads its clock with core/time_control.hpp over the
// moves to that number (sudden death when there is none).  A fixed depth,
// node count or move time in the settings replaces the clock.
//
// Stopping: when `stop` becomes true no new game starts; the game in progress
// is played out, and dama ends the session (stop code 1 on its last GAMEEND).
// Every finished game is appended to the PDN file at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "search.hpp"

namespace dama::eval {

struct DxpSettings {
  std::string variant = "international";
  std::string listen;   // "[HOST:]PORT": wait for the other program here
  std::string connect;  // "HOST:PORT": call the other program
  bool initiator = false;
  bool once = false;  // listening: serve one connection, then return
  // The initiator's games:
  int games = 2;         // colours alternate, dama white in the first
  int minutes = 5;       // each side's thinking time per game
  int moves = 0;         // moves of a game (0: no limit)
  std::string openings;  // PDN FENs, one per line, used in turn, each twice; empty: the start position
  // Our engine:
  std::string weights_file;  // empty: the variant's built-in weights
  std::string tables_dir;    // endgame tables; empty: none
  SearchLimits fixed;        // depth / nodes / movetime_ms: instead of the clock
  int threads = 1;
  std::size_t tt_megabytes = 64;
  std::string pdn_out;  // games appended here; empty: none
  std::string name;     // our name in GAMEREQ / GAMEACC; empty: "dama <version>"
};

struct DxpControl {
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const std::string&)> on_note;  // progress (the port once listening) and the other side's chat
};

struct DxpOutcome {
  int games = 0, wins = 0, losses = 0, draws = 0, unfinished = 0;  // our results
};

// Throws dama::Error (one line) for bad settings, a connection that fails or
// a peer that breaks the protocol.
DxpOutcome run_dxp(const DxpSettings& settings, const DxpControl& control);

}  // namespace dama::eval
