#include "options.hpp"

namespace dama::cli {

void add_game_options(CLI::App& command, GameOptions& options, bool with_notation) {
  command.add_option("--variant,-v", options.variant, "rules: " + variant_names() + " (english for american)")
      ->capture_default_str();
  command.add_option("--fen", options.fen, "position in PDN FEN, e.g. W:W21-32:B1-12 (default: the start)");
  command.add_flag("--no-forced-capture", options.no_forced_capture, "house rule: capturing is not compulsory (8x8 only)");
  command.add_option("--play", options.play, "moves to make first, separated by spaces (e.g. \"c3-d4 f6-e5\")");
  if (with_notation)
    command.add_option("--notation", options.notation, "numeric or algebraic (default: the variant's own)");
}

ResolvedGame resolve(const GameOptions& options) {
  const Variant& variant = find_variant(options.variant);
  RuleSet rules = rules_of(variant, options.no_forced_capture);
  Notation notation = variant.native_notation;
  if (options.notation == "numeric") notation = Notation::Numeric;
  else if (options.notation == "algebraic") notation = Notation::Algebraic;
  else if (!options.notation.empty())
    throw Error("--notation: expected numeric or algebraic, got '" + options.notation + "'");
  return {&variant, rules, notation};
}

}  // namespace dama::cli
