// Options shared by the subcommands that take a position: which rules, which
// position, which notation.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include <sstream>

#include "fen.hpp"
#include "notation.hpp"
#include "variant.hpp"

namespace dama::cli {

struct GameOptions {
  std::string variant = "russian";
  std::string fen;  // empty: the variant's start position
  bool no_forced_capture = false;
  std::string notation;  // empty: the variant's native notation
  std::string play;      // moves to make from the position before the command runs
};

void add_game_options(CLI::App& command, GameOptions& options, bool with_notation);

struct ResolvedGame {
  const Variant* variant;
  RuleSet rules;
  Notation notation;
};

// Validates the options (unknown variant, house rule on 10x10, bad notation)
// and throws dama::Error naming the offending option.
ResolvedGame resolve(const GameOptions& options);

// The position the options describe: --fen (or the start), then the --play moves.
template <RuleSet R>
Position<BoardFor<R>> position_of(const GameOptions& options, Notation notation) {
  using Board = BoardFor<R>;
  auto position = options.fen.empty() ? Position<Board>::start(R.first_player) : parse_fen<Board>(options.fen);
  std::istringstream moves(options.play);
  std::string text;
  for (int ply = 1; moves >> text; ++ply) {
    try {
      position = position.after(parse_move<R>(position, text, notation));
    } catch (const Error& e) {
      throw Error("--play, move " + std::to_string(ply) + ": " + e.what());
    }
  }
  return position;
}

}  // namespace dama::cli
