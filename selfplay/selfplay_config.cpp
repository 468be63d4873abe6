// The self-play config: TOML in, TOML out, every key checked.
#include <sstream>

#include "error.hpp"
#include "game.hpp"
#include "selfplay.hpp"
#include "variant.hpp"

namespace dama {

namespace {

constexpr std::int64_t kMaxGames = 1'000'000'000;
constexpr std::int64_t kMaxPly = 10'000;

SelfplayConfig read_config(ConfigFile file) {
  SelfplayConfig c;
  c.variant = file.text("variant", c.variant);
  c.forced_capture = file.boolean("forced_capture", c.forced_capture);
  c.draw_rules = file.text("draw_rules", c.draw_rules);
  c.weights = file.text("weights", c.weights);
  c.games = file.integer("games", c.games, 1, kMaxGames);
  c.threads = file.integer("threads", c.threads, 0, 1024);
  c.seed = file.integer("seed", c.seed, 0, INT64_MAX);
  c.out = file.text("out", c.out);
  c.opening_random_plies = file.integer("opening.random_plies", c.opening_random_plies, 0, 200);
  c.opening_max_imbalance = file.integer("opening.max_imbalance", c.opening_max_imbalance, 0, kWinBound);
  c.opening_file = file.text("opening.file", c.opening_file);
  c.search_depth = file.integer("search.depth", c.search_depth, 0, 64);
  c.search_nodes = file.integer("search.nodes", c.search_nodes, 0, INT64_MAX);
  c.tt_mb = file.integer("search.tt_mb", c.tt_mb, 1, 65536);
  c.random_plies = file.integer("randomness.plies", c.random_plies, 0, kMaxPly);
  c.random_margin = file.integer("randomness.margin", c.random_margin, 0, kWinBound);
  c.resign_score = file.integer("adjudication.resign_score", c.resign_score, 0, kWinBound);
  c.resign_plies = file.integer("adjudication.resign_plies", c.resign_plies, 0, kMaxPly);
  c.draw_score = file.integer("adjudication.draw_score", c.draw_score, 0, kWinBound);
  c.draw_plies = file.integer("adjudication.draw_plies", c.draw_plies, 0, kMaxPly);
  c.draw_min_ply = file.integer("adjudication.draw_min_ply", c.draw_min_ply, 0, kMaxPly);
  c.tablebase = file.text("adjudication.tablebase", c.tablebase);
  c.record_from_ply = file.integer("record.from_ply", c.record_from_ply, 0, kMaxPly);
  c.record_quiet_only = file.boolean("record.quiet_only", c.record_quiet_only);
  c.checkpoint_games = file.integer("checkpoint.games", c.checkpoint_games, 1, kMaxGames);
  c.checkpoint_seconds = file.integer("checkpoint.seconds", c.checkpoint_seconds, 1, 86400);
  file.refuse_unknown_keys();
  return c;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

}  // namespace

SelfplayConfig load_selfplay_config(const std::string& path) { return read_config(ConfigFile::read(path)); }

SelfplayConfig parse_selfplay_config(std::string_view text, const std::string& origin) {
  return read_config(ConfigFile::parse(text, origin));
}

std::string to_toml(const SelfplayConfig& c) {
  std::ostringstream s;
  const auto flag = [](bool b) { return b ? "true" : "false"; };
  s << "variant = " << quoted(c.variant) << "\n"
    << "forced_capture = " << flag(c.forced_capture) << "\n"
    << "draw_rules = " << quoted(c.draw_rules) << "\n"
    << "weights = " << quoted(c.weights) << "\n"
    << "games = " << c.games << "\n"
    << "threads = " << c.threads << "\n"
    << "seed = " << c.seed << "\n"
    << "out = " << quoted(c.out) << "\n\n"
    << "[opening]\nrandom_plies = " << c.opening_random_plies << "\nmax_imbalance = " << c.opening_max_imbalance
    << "\nfile = " << quoted(c.opening_file) << "\n\n"
    << "[search]\ndepth = " << c.search_depth << "\nnodes = " << c.search_nodes << "\ntt_mb = " << c.tt_mb << "\n\n"
    << "[randomness]\nplies = " << c.random_plies << "\nmargin = " << c.random_margin << "\n\n"
    << "[adjudication]\nresign_score = " << c.resign_score << "\nresign_plies = " << c.resign_plies
    << "\ndraw_score = " << c.draw_score << "\ndraw_plies = " << c.draw_plies << "\ndraw_min_ply = " << c.draw_min_ply
    << "\ntablebase = " << quoted(c.tablebase) << "\n\n"
    << "[record]\nfrom_ply = " << c.record_from_ply << "\nquiet_only = " << flag(c.record_quiet_only) << "\n\n"
    << "[checkpoint]\ngames = " << c.checkpoint_games << "\nseconds = " << c.checkpoint_seconds << "\n";
  return s.str();
}

void validate(SelfplayConfig& c) {
  const Variant& variant = find_variant(c.variant);  // throws for an unknown name
  c.variant = std::string(variant.name);
  if (!c.forced_capture && !(variant.rules.board == BoardShape{8, 8}))
    throw Error("forced_capture = false (the house rule) exists for the 8x8 variants only");
  const DrawRules draw_rules = parse_draw_rules(c.draw_rules);
  check_draw_rules(draw_rules, variant.rules);
  if ((c.search_depth > 0) == (c.search_nodes > 0))
    throw Error("search: give exactly one of depth and nodes (the other 0)");
  if (c.out.empty()) c.out = "selfplay-" + c.variant + ".h5";
}

}  // namespace dama
