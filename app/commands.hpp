// Each subcommand registers itself on the program's CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace dama::cli {

void register_variants(CLI::App& app);
void register_perft(CLI::App& app);
void register_moves(CLI::App& app);

}  // namespace dama::cli
