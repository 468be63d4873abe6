#include <chrono>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "fen.hpp"
#include "notation.hpp"
#include "options.hpp"
#include "perft.hpp"

namespace dama::cli {

namespace {

struct PerftOptions {
  GameOptions game;
  int depth = 0;
  bool divide = false;
  std::string counting = "unique";
};

template <RuleSet R, Counting K>
void run_perft(const PerftOptions& o, Notation notation) {
  using Board = BoardFor<R>;
  const auto position = position_of<R>(o.game, notation);
  for (int d = 1; d <= o.depth; ++d) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t nodes = perft<R, K>(position, d);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("perft %d %llu %.3f s %.1f Mnps\n", d, static_cast<unsigned long long>(nodes), seconds,
                seconds > 0 ? nodes / seconds / 1e6 : 0.0);
    std::fflush(stdout);
  }
  if (o.divide) {
    MoveList<Board> moves;
    for (const auto& [move, nodes] : perft_divide<R, K>(position, o.depth, moves))
      std::printf("%s %llu\n", format_move(move, moves, notation).c_str(), static_cast<unsigned long long>(nodes));
  }
}

}  // namespace

void register_perft(CLI::App& app) {
  auto* cmd = app.add_subcommand("perft", "count the leaf nodes of the legal move tree, depth by depth");
  static PerftOptions options;
  add_game_options(*cmd, options.game, true);
  cmd->add_option("--depth,-d", options.depth, "depth in plies")->required()->check(CLI::Range(1, 40));
  cmd->add_flag("--divide", options.divide, "also print each move's node count at the last depth");
  cmd->add_option("--counting", options.counting,
                  "unique: a move is (from, to, captured set); paths: every capture sequence once")
      ->check(CLI::IsMember({"unique", "paths"}))
      ->capture_default_str();
  cmd->callback([] {
    const ResolvedGame game = resolve(options.game);
    with_rules(game.rules, [&]<RuleSet R>() {
      if (options.counting == "paths") run_perft<R, Counting::Paths>(options, game.notation);
      else run_perft<R, Counting::Unique>(options, game.notation);
    });
  });
}

}  // namespace dama::cli
