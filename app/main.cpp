// dama: one program, one subcommand per job.  This file only wires the
// subcommands and turns every failure into a one-line message and exit code 2.
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "build_info.hpp"
#include "commands.hpp"
#include "error.hpp"

namespace {

// Error messages quote user input, which may hold line breaks or other
// control characters; the message must stay one line.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '?';
    else out += c;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dama: self-play, tuning and analysis for checkers and draughts variants"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "dama " + std::string(dama::build_version()) + " (" + std::string(dama::build_commit()) + ")");
  dama::cli::register_variants(app);
  dama::cli::register_perft(app);
  dama::cli::register_moves(app);
  dama::cli::register_eval(app);
  dama::cli::register_weights(app);
  dama::cli::register_egtb(app);
  dama::cli::register_dxp(app);
  dama::cli::register_search(app);
  dama::cli::register_bench(app);
  dama::cli::register_hub(app);
  dama::cli::register_play(app);
  dama::cli::register_match(app);
  dama::cli::register_tune(app);
  dama::cli::register_selfplay(app);
  dama::cli::register_data(app);
  dama::cli::register_pipeline(app);
  dama::cli::register_compare(app);
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
  } catch (const dama::cli::ExitCode& e) {
    std::cout.flush();
    return e.code;
  } catch (const dama::Error& e) {
    std::cout.flush();
    std::cerr << "dama: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "dama: internal error: " << one_line(e.what()) << "\n";
    return 1;
  }
  return 0;
}
