// dama compare: self-play for each variant (or datasets given), then one
// report putting the variants side by side.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "compare.hpp"
#include "selfplay.hpp"

namespace dama::cli {

namespace {

struct CompareOptions {
  std::string variants = "russian,czech";
  std::string report = "report";
  std::int64_t games = 200;
  std::int64_t depth = 0;
  std::int64_t threads = 0;
  std::vector<std::string> data;     // VARIANT=FILE
  std::vector<std::string> weights;  // VARIANT=FILE
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// "russian=FILE" pairs, keyed by the variant's canonical name.
std::map<std::string, std::string> by_variant(const std::vector<std::string>& pairs, const std::string& option) {
  std::map<std::string, std::string> out;
  for (const auto& pair : pairs) {
    const auto equals = pair.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == pair.size())
      throw Error(option + " " + pair + ": expected VARIANT=FILE");
    out[std::string(find_variant(pair.substr(0, equals)).name)] = pair.substr(equals + 1);
  }
  return out;
}

std::string play_games(const std::string& variant, const CompareOptions& o) {
  const std::string shipped = "configs/selfplay/" + variant + ".toml";
  SelfplayConfig c = std::filesystem::exists(shipped) ? load_selfplay_config(shipped) : SelfplayConfig{};
  c.variant = variant;
  c.games = o.games;
  if (o.depth > 0) c.search_depth = o.depth, c.search_nodes = 0;
  c.threads = o.threads;
  c.out = (std::filesystem::path(o.report) / "data" / (variant + ".h5")).string();
  c.weights.clear();
  validate(c);
  std::filesystem::create_directories(std::filesystem::path(c.out).parent_path());
  std::cerr << "compare: " << variant << ": " << c.games << " self-play games at depth " << c.search_depth << "\n";
  const auto outcome = run_selfplay(c, true, {});
  if (!outcome.complete) throw Error(c.out + ": self-play did not finish");
  return c.out;
}

void run(const CompareOptions& o) {
  {  // the report's directory, before any game is played
    std::error_code ec;
    std::filesystem::create_directories(o.report, ec);
    if (ec) throw Error("--report " + o.report + ": cannot create the directory (" + ec.message() + ")");
    check_can_write((std::filesystem::path(o.report) / "index.html").string(), "--report");
  }
  const auto data = by_variant(o.data, "--data");
  const auto weights = by_variant(o.weights, "--weights");
  std::vector<const Variant*> variants;  // all checked before any game is played
  for (const auto& name : split(o.variants, ',')) variants.push_back(&find_variant(name));
  std::vector<VariantStats> stats;
  for (const Variant* chosen : variants) {
    const Variant& variant = *chosen;
    const std::string v(variant.name);
    const std::string file = data.count(v) ? data.at(v) : play_games(v, o);
    const Dataset dataset = read_dataset(file);
    check_dataset(dataset.meta, file, v);
    const Weights w = weights.count(v) ? load_weights(weights.at(v), variant) : default_weights(variant);
    stats.push_back(variant_stats(dataset, w));
  }
  if (stats.empty()) throw Error("--variants: no variant given");
  std::cout << "report: " << write_compare_report(o.report, stats) << "\n";
}

}  // namespace

void register_compare(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "compare variants from self-play games: an HTML report");
  cmd->add_option("--variants", o->variants, "comma-separated variants")->capture_default_str();
  cmd->add_option("--report", o->report, "report directory (index.html, plots, data/)")->capture_default_str();
  cmd->add_option("-g,--games", o->games, "self-play games per variant without --data")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("-d,--depth", o->depth, "search depth of those games (default: the variant's selfplay config)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("-t,--threads", o->threads, "game threads, 0 = every core")->check(CLI::NonNegativeNumber);
  cmd->add_option("--data", o->data, "VARIANT=FILE.h5: use this dataset instead of playing");
  cmd->add_option("--weights", o->weights, "VARIANT=FILE.json: the weights shown (default: built-in)");
  cmd->callback([o] { run(*o); });
}

}  // namespace dama::cli
