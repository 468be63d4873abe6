// Each subcommand registers itself on the program's CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace dama::cli {

void register_variants(CLI::App& app);
void register_perft(CLI::App& app);
void register_moves(CLI::App& app);
void register_eval(CLI::App& app);
void register_search(CLI::App& app);
void register_bench(CLI::App& app);
void register_hub(CLI::App& app);
void register_play(CLI::App& app);
void register_match(CLI::App& app);
void register_tune(CLI::App& app);
void register_selfplay(CLI::App& app);
void register_data(CLI::App& app);
void register_pipeline(CLI::App& app);
void register_compare(CLI::App& app);
void register_weights(CLI::App& app);
void register_egtb(CLI::App& app);
void register_dxp(CLI::App& app);

// Thrown to end the program with this exit code after a message already printed
// (an interrupted job: 130).
struct ExitCode {
  int code;
};

}  // namespace dama::cli
