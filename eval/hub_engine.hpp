// An external engine speaking the Hub protocol, version 2 (Scan's protocol;
// `dama hub` is one), run as a child process for a match.  Only the
// conversation: positions and moves travel as Hub text (protocol/hub_protocol.hpp
// turns them into dama's types).
//
//   -> hub                       <- id ..., param ..., wait
//   -> set-param name=variant value=russian   (and forced-capture, draw-rules, tt-size)
//   -> init                      <- ready
//   -> new-game                  (before every game)
//   -> pos pos=... moves="..."   -> level depth=N | level move-time=S   -> go think
//   <- info ...                  <- done move=32-28 ponder=17-22
//   pondering (a player with ponder=true), after its move, while the opponent thinks:
//   -> pos ... moves="... 32-28 17-22"   -> level time=...   -> go ponder
//   the opponent played 17-22:  -> ponder-hit      <- done move=...
//   it played another move:     -> stop            <- done (dropped), then go think as above
//   -> quit
//
// The engine talks over a socket pair rather than pipes, so that writing to
// an engine that died is an error (EPIPE without SIGPIPE), not the end of dama.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <string>
#include <vector>

namespace dama::eval {

struct HubEngineSettings {
  std::string command;  // the program and its arguments, separated by blanks ("/usr/bin/scan hub")
  std::string variant;  // dama's variant name, sent as the variant parameter
  bool forced_capture = true;
  std::string draw_rules = "default";
  std::size_t tt_megabytes = 16;
};

// A move as the engine gave it, and the reply it expects (the done line's
// ponder=; empty when it named none).
struct HubReply {
  std::string move;
  std::string expected_reply;
  bool pondered = false;  // the ponder search of this position gave it (ponder-hit)
};

class HubEngine {
 public:
  // Starts the engine and completes the handshake; throws dama::Error
  // (naming the command) when it cannot start or does not answer in time.
  explicit HubEngine(const HubEngineSettings& settings);
  ~HubEngine();
  HubEngine(const HubEngine&) = delete;
  HubEngine& operator=(const HubEngine&) = delete;

  void new_game();  // stops a ponder search first

  // The engine's move (Hub text, e.g. "32x23x19") for the position `start`
  // (Hub text) after `moves`, thinking under `level` (e.g. "depth=4").  When
  // it is pondering that very position under that level, the ponder search
  // becomes the move's (ponder-hit); any other ponder search is stopped
  // first.  The move is empty when `cancel` became true meanwhile (the
  // search is stopped).  Throws dama::Error when the engine dies, errs or
  // takes longer than `timeout_ms`.
  HubReply best_move(const std::string& start, const std::vector<std::string>& moves, const std::string& level,
                     std::int64_t timeout_ms, const std::atomic<bool>* cancel);

  // Starts a ponder search of `start` after `moves` (the last of them the
  // reply the engine expects) under `level`, the clock it will have there;
  // it runs until the next best_move(), new_game() or stop_pondering().
  void ponder(const std::string& start, const std::vector<std::string>& moves, const std::string& level);
  // True when the ponder search running is of `start` after `moves` under
  // `level`: best_move() with them is a ponder hit.
  bool pondering(const std::string& start, const std::vector<std::string>& moves, const std::string& level) const;
  // Ends the ponder search, if one runs, and drops its answer.  It waits for
  // the engine's done, so a caller under a clock should send the level it
  // searches next with the time this took taken off (see Side::ask_hub).
  void stop_pondering();

 private:
  // Waits for the search's done line: its move, or an empty one when cancelled (the search is stopped).
  HubReply await_done(std::int64_t timeout_ms, const std::atomic<bool>* cancel);
  // True when a done line has already arrived (reads what is waiting, without blocking).
  bool done_arrived();
  void send(const std::string& line);
  // The next line, or empty with `cancelled` set when `cancel` became true first.
  std::string receive(std::int64_t timeout_ms, const std::atomic<bool>* cancel = nullptr, bool* cancelled = nullptr);
  std::string receive_command(const std::string& command, std::int64_t timeout_ms);
  [[noreturn]] void fail(const std::string& what) const;
  void shut_down();  // "quit", then the process is waited for (killed after a second)

  std::string command_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
  // The ponder search running, as its pos and level lines; empty: none.
  std::string pondering_;
};

}  // namespace dama::eval
