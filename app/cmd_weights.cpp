// dama weights info|dump FILE: what a weights file holds, JSON (linear
// model) or binary (pattern model), after every check the loader makes.
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "variant.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

struct WeightsOptions {
  std::string file;
  std::string variant;  // empty: the one the file names
};

Weights load_checked(const WeightsOptions& o, const Variant*& variant) {
  variant = &find_variant(o.variant.empty() ? variant_of_weights_file(o.file) : o.variant);
  return load_weights(o.file, *variant);
}

void add_file_options(CLI::App& cmd, WeightsOptions& o) {
  cmd.add_option("file", o.file, "weights file, or builtin:linear / builtin:patterns (then give --variant)")->required();
  cmd.add_option("--variant,-v", o.variant, "variant the file must be for (default: the one it names)");
}

// A subcommand that loads the file, checked, and prints what `show` makes of it.
void add_view(CLI::App& weights, const char* name, const char* description, WeightsOptions& o,
              std::string (*show)(const Weights&, const Variant&)) {
  auto* cmd = weights.add_subcommand(name, description);
  add_file_options(*cmd, o);
  cmd->callback([&o, show] {
    const Variant* variant = nullptr;
    const Weights w = load_checked(o, variant);
    std::fputs(show(w, *variant).c_str(), stdout);
  });
}

}  // namespace

void register_weights(CLI::App& app) {
  auto* cmd = app.add_subcommand("weights", "look into an evaluation weights file");
  cmd->require_subcommand(1);
  static WeightsOptions info_options, dump_options;
  add_view(*cmd, "info", "model, variant, schema, sizes, digest and metadata of a weights file", info_options,
           describe_weights);
  add_view(*cmd, "dump", "every weight: name, opening, endgame (pattern weights where not zero)", dump_options,
           list_weights);
}

}  // namespace dama::cli
