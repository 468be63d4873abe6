// dama dxp: the engine as a DXP (DamExchange) program, for 10x10 matches
// against engines that speak it (docs/dxp.md).  Parses its flags and calls
// eval::run_dxp.
#include <cstdio>
#include <string>

#include "build_info.hpp"
#include "commands.hpp"
#include "dxp_player.hpp"
#include "parallel_search.hpp"
#include "stop_signal.hpp"

namespace dama::cli {

void register_dxp(CLI::App& app) {
  auto settings = std::make_shared<eval::DxpSettings>();
  auto* cmd = app.add_subcommand("dxp", "play 10x10 games over DXP (DamExchange) against another program");
  cmd->add_option("-v,--variant", settings->variant, "rules: international (DXP is a protocol of the 10x10 board)");
  auto* listen = cmd->add_option("--listen", settings->listen,
                                 "wait for the other program at [HOST:]PORT (DXP's port is 27531; 0: any free port, printed)");
  cmd->add_option("--connect", settings->connect, "call the other program at HOST:PORT")->excludes(listen);
  cmd->add_flag("--initiator,!--follower", settings->initiator,
                "choose the games (send GAMEREQ) or accept the other side's; default: the side that connects initiates");
  cmd->add_flag("--once", settings->once, "with --listen: return after the first connection ends");
  cmd->add_option("--games", settings->games, "initiator: games to play, colours alternating (dama white first)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--minutes", settings->minutes, "initiator: each side's thinking time for a game, minutes (DXP: 0-999)");
  cmd->add_option("--moves", settings->moves, "initiator: the game's number of moves for that time (0: no limit)");
  cmd->add_option("--openings", settings->openings, "initiator: file of PDN FENs, one per line, each played twice");
  cmd->add_option("--weights", settings->weights_file, "weights file (default: the built-in ones)");
  cmd->add_option("--egtb", settings->tables_dir, "endgame tables (dama egtb build)");
  cmd->add_option("--depth", settings->fixed.depth, "search this many plies a move instead of using the clock")
      ->check(CLI::Range(1, kMaxDepth));
  cmd->add_option("--movetime", settings->fixed.movetime_ms, "milliseconds a move instead of using the clock")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{86400000}));
  cmd->add_option("--threads", settings->threads, "search threads")->check(CLI::Range(1, kMaxSearchThreads));
  cmd->add_option("--tt-mb", settings->tt_megabytes, "transposition table, MB")->check(CLI::Range(1, 65536));
  cmd->add_option("--pdn-out", settings->pdn_out, "append every finished game to this PDN file");
  cmd->add_option("--name", settings->name, "dama's name in GAMEREQ / GAMEACC");
  cmd->callback([settings, cmd] {
    eval::DxpSettings s = *settings;
    if (s.name.empty()) s.name = "dama " + std::string(build_version());
    if (cmd->count("--initiator") == 0) s.initiator = !s.connect.empty();
    StopSignal stop;
    eval::DxpControl control;
    control.stop = stop.flag();
    control.on_note = [](const std::string& text) {
      std::printf("%s\n", text.c_str());
      std::fflush(stdout);
    };
    const eval::DxpOutcome out = eval::run_dxp(s, control);
    std::printf("dxp: %d games, dama won %d, lost %d, drew %d%s\n", out.games, out.wins, out.losses, out.draws,
                out.unfinished ? (", " + std::to_string(out.unfinished) + " without a result").c_str() : "");
    if (stop.requested()) throw ExitCode{130};
  });
}

}  // namespace dama::cli
