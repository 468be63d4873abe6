#include <iostream>

#include "commands.hpp"
#include "fen.hpp"
#include "notation.hpp"
#include "options.hpp"

namespace dama::cli {

void register_moves(CLI::App& app) {
  auto* cmd = app.add_subcommand("moves", "list the legal moves of a position, one per line");
  static GameOptions options;
  add_game_options(*cmd, options, true);
  cmd->callback([] {
    const ResolvedGame game = resolve(options);
    with_rules(game.rules, [&]<RuleSet R>() {
      using Board = BoardFor<R>;
      const auto position = position_of<R>(options, game.notation);
      MoveList<Board> moves;
      MoveGenerator<R>::generate(position, moves);
      for (const auto& m : moves) std::cout << format_move(m, moves, game.notation) << "\n";
    });
  });
}

}  // namespace dama::cli
