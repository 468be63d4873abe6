#include <iostream>

#include "commands.hpp"
#include "variant.hpp"

namespace dama::cli {

void register_variants(CLI::App& app) {
  auto* cmd = app.add_subcommand("variants", "list the variants and their rule switches");
  cmd->callback([] {
    for (const auto& v : kVariants) {
      std::cout << v.name;
      if (!v.alias.empty()) std::cout << " (alias " << v.alias << ")";
      std::cout << ": " << v.summary << "\n  PDN GameType " << v.pdn_game_type
                << ", notation " << (v.native_notation == Notation::Numeric ? "numeric" : "algebraic") << "\n  "
                << describe(v.rules) << "\n";
    }
  });
}

}  // namespace dama::cli
