// dama: one program, one subcommand per job.  This file only wires the
// subcommands and turns every failure into a one-line message and exit code 2.
#include <cstdio>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dama: self-play, tuning and analysis for checkers and draughts variants"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("dama ") + DAMA_VERSION + " (" + DAMA_GIT_COMMIT + ")");
  dama::cli::register_variants(app);
  dama::cli::register_perft(app);
  dama::cli::register_moves(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "dama: error: " << e.what() << " (see dama --help)\n";
    return 2;
  } catch (const dama::Error& e) {
    std::cout.flush();
    std::cerr << "dama: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "dama: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
