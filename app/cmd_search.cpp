// dama search: the engine's analysis of one position.  One line per
// completed iteration,
//   info depth D score S nodes N nps X pv m1 m2 ...
// (S in centi-men from the side to move's view, or "win N" / "loss N" plies,
// or "table win (S)" / "table loss (S)" where endgame tables decided; with
// --egtb the line also counts the nodes they decided, "tbhits H"),
// then "bestmove <move>", or "bestmove none" when the side to move has no
// legal move (it has lost).
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "egtb/tablebase.hpp"
#include "game.hpp"
#include "notation.hpp"
#include "options.hpp"
#include "parallel_search.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

struct SearchCommandOptions {
  GameOptions game;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::int64_t movetime_ms = 0;
  std::string weights_file;  // empty: the variant's built-in weights
  std::size_t tt_megabytes = kDefaultTTMegabytes;
  std::string draw_rules = "default";
  int threads = 1;
  std::string tables_dir;  // empty: no endgame tables
  SearchOptions search;
};

// The game the options describe: --fen (or the start), then the --play moves
// played through the game record, so the draw counters and the repetition
// history are those of the real game.
template <RuleSet R>
Game<R> game_of(const GameOptions& options, Notation notation, DrawRules draw_rules) {
  GameOptions start = options;
  start.play.clear();
  Game<R> game(position_of<R>(start, notation), draw_rules);
  std::istringstream moves(options.play);
  std::string text;
  for (int ply = 1; moves >> text; ++ply) {
    try {
      game.play(parse_move<R>(game.position(), text, notation));
    } catch (const Error& e) {
      throw Error("--play, move " + std::to_string(ply) + ": " + e.what());
    }
  }
  return game;
}

// The moves of a line from `from`, each in the notation of its own position.
template <RuleSet R>
std::string format_line(Position<BoardFor<R>> from, const std::vector<Move<BoardFor<R>>>& line, Notation notation) {
  std::string text;
  MoveList<BoardFor<R>> legal;
  for (const auto& m : line) {
    MoveGenerator<R>::generate(from, legal);
    text += (text.empty() ? "" : " ") + format_move(m, legal, notation);
    from = from.after(m);
  }
  return text;
}

template <RuleSet R>
void run_search(const SearchCommandOptions& o, const ResolvedGame& setup) {
  using Board = BoardFor<R>;
  const DrawRules draw_rules = parse_draw_rules(o.draw_rules);
  check_draw_rules(draw_rules, R);
  const Game<R> game = game_of<R>(o.game, setup.notation, draw_rules);
  const Weights weights =
      o.weights_file.empty() ? default_weights(*setup.variant) : load_weights(o.weights_file, *setup.variant);

  // A drawn game is still searched (the rules have spoken, the position may
  // still be of interest); a lost one has nothing to search.
  if (game.result().outcome == Outcome::Draw)
    std::cout << "info string the game is already drawn: " << game.result().reason << "\n";
  SearchLimits limits;
  limits.depth = o.depth;
  limits.nodes = o.nodes;
  limits.movetime_ms = o.movetime_ms;
  ParallelSearcher<R, WeightsEvaluator<R>> searcher(WeightsEvaluator<R>{&weights}, o.tt_megabytes, o.threads);
  searcher.set_options(o.search);
  std::optional<egtb::Tablebase<R>> tables;
  if (!o.tables_dir.empty()) {
    tables = egtb::Tablebase<R>::load(o.tables_dir);
    searcher.set_tables(&*tables);
    if (const auto value = tables->probe(game.position()))
      std::cout << "info string endgame tables: " << egtb::wdl_name(*value) << " for the side to move (draw counters ignored)\n";
  }
  const auto result = searcher.search(game, limits, [&](const SearchInfo<Board>& info) {
    std::cout << "info depth " << info.depth << " score " << format_score(info.score) << " nodes " << info.nodes
              << " nps " << info.nps << (tables ? " tbhits " + std::to_string(info.table_hits) : "") << " pv " << format_line<R>(game.position(), info.pv, setup.notation) << "\n"
              << std::flush;
  });
  if (!result.best_move) {
    std::cout << "info string no legal move: the side to move has lost (" << game.result().text() << ")\n"
              << "bestmove none\n";
    return;
  }
  MoveList<Board> legal;
  MoveGenerator<R>::generate(game.position(), legal);
  std::cout << "bestmove " << format_move(*result.best_move, legal, setup.notation) << "\n";
}

}  // namespace

void register_search(CLI::App& app) {
  auto* cmd = app.add_subcommand("search", "search a position and print the best move");
  static SearchCommandOptions options;
  add_game_options(*cmd, options.game, true);
  auto* limit = cmd->add_option_group("limit", "exactly one of --depth, --nodes, --movetime");
  limit->add_option("--depth,-d", options.depth, "search depth in plies")->check(CLI::Range(1, kMaxDepth));
  limit->add_option("--nodes", options.nodes, "stop after this many nodes")->check(CLI::PositiveNumber);
  limit->add_option("--movetime", options.movetime_ms, "stop after this many milliseconds")->check(CLI::PositiveNumber);
  limit->require_option(1);
  cmd->add_option("--weights", options.weights_file, "weights file (default: the variant's built-in weights)");
  cmd->add_option("--tt-mb", options.tt_megabytes, "transposition table size in MB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--egtb", options.tables_dir, "endgame tables to probe (a directory made by dama egtb build)");
  cmd->add_option("--draw-rules", options.draw_rules, "default, or tournament (russian only)")
      ->check(CLI::IsMember({"default", "tournament"}))
      ->capture_default_str();
  cmd->add_option("--threads", options.threads,
                  "search threads (lazy SMP; more than 1 is not reproducible, and nodes count every thread)")
      ->check(CLI::Range(1, kMaxSearchThreads))
      ->capture_default_str();
  for (const auto& sw : kSearchSwitches)
    cmd->add_flag(std::string("--") + sw.name + ",!--no-" + sw.name, options.search.*sw.member,
                  std::string(sw.description) + (SearchOptions{}.*sw.member ? " (default on)" : " (default off)"));
  for (const auto& n : kSearchNumbers)
    cmd->add_option(std::string("--") + n.name, options.search.*n.member, n.description)
        ->check(CLI::Range(n.min, n.max))
        ->capture_default_str();
  cmd->callback([] {
    const ResolvedGame setup = resolve(options.game);
    with_rules(setup.rules, [&]<RuleSet R>() { run_search<R>(options, setup); });
  });
}

}  // namespace dama::cli
