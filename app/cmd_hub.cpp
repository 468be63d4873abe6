// dama hub: the Hub protocol on standard input and output
// (protocol/hub_server.hpp serves it).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "hub_server.hpp"

namespace dama::cli {

void register_hub(CLI::App& app) {
  auto* cmd = app.add_subcommand("hub", "speak the Hub protocol (version 2, as Scan does) on stdin/stdout");
  auto params = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--param", *params, "NAME=VALUE: a parameter set before init, as set-param would (repeatable)");
  cmd->callback([params] { serve_hub(std::cin, stdout, *params); });
}

}  // namespace dama::cli
