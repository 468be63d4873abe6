// Options shared by the subcommands that take a position: which rules, which
// position, which notation.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "variant.hpp"

namespace dama::cli {

struct GameOptions {
  std::string variant = "russian";
  std::string fen;  // empty: the variant's start position
  bool no_forced_capture = false;
  std::string notation;  // empty: the variant's native notation
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

}  // namespace dama::cli
