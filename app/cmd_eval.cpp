// dama eval: the static evaluation of a position, feature by feature, so a
// weight file can be read against what it does.
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "egtb/tablebase.hpp"
#include "evaluate.hpp"
#include "fen.hpp"
#include "options.hpp"
#include "patterns/regions.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

struct EvalOptions {
  GameOptions game;
  std::string weights_file;  // empty: the built-in defaults
  std::string tables_dir;    // endgame tables; empty: none
  bool list_features = false;
};

// Adds up each feature's values (a feature may be reported more than once).
struct FeatureValuesSink {
  std::vector<float>& values;
  void add(int feature, float value) { values[feature] += value; }
};

void print_schema(FeatureSchema board) {
  std::printf("schema %s\n", schema_hash(board).c_str());
  for (const auto& name : feature_names(board)) std::printf("%s\n", name.c_str());
  std::printf("pattern schema %s: %d features pattern.r<region>.<configuration>, the configuration's digits "
              "square by square (0 empty or king, 1 own man, 2 opponent's man)\n%s",
              pattern_schema_hash(board.board).c_str(), pattern_feature_count(board.board), describe_regions(board.board).c_str());
}

template <RuleSet R>
void print_evaluation(const EvalOptions& o, const ResolvedGame& game) {
  const auto position = position_of<R>(o.game, game.notation);
  const Weights w = o.weights_file.empty() ? default_weights(*game.variant) : load_weights(o.weights_file, *game.variant);
  const int features = model_feature_count(feature_schema(R), w.model);
  std::vector<float> values(static_cast<std::size_t>(features), 0.0f);
  FeatureValuesSink sink{values};
  visit_model_features<R>(position, w.model, sink);
  const float phase = game_phase(position);

  std::printf("position  %s\n", to_fen(position).c_str());
  std::printf("side      %s to move; every value and score is from its view\n",
              position.side == Color::White ? "White" : "Black");
  std::printf("weights   %s (%s model, values %s)\n", w.source.c_str(), std::string(model_name(w.model)).c_str(),
              weights_hash(w).c_str());
  std::printf("%-24s %7s %9s %9s %13s\n", "feature", "value", "opening", "endgame", "contribution");
  for (std::size_t f = 0; f < values.size(); ++f) {
    if (values[f] == 0) continue;
    const std::string name = feature_name(feature_schema(R), static_cast<int>(f));
    const float opening = w.values[2 * f], endgame = w.values[2 * f + 1];
    const double blended = phase * static_cast<double>(opening) + (1 - phase) * static_cast<double>(endgame);
    const double contribution = values[f] * blended + 0.0;  // + 0.0: print 0, never -0
    std::printf("%-24s %7g %9g %9g %13.2f\n", name.c_str(), values[f], opening, endgame, contribution);
  }
  std::printf("phase     %.4f\n", phase);
  std::printf("total     %d\n", evaluate<R>(position, w));
  if (!o.tables_dir.empty()) {
    const auto value = egtb::Tablebase<R>::load(o.tables_dir).probe(position);
    std::printf("tables    %s\n", value ? (std::string(egtb::wdl_name(*value)) + " for the side to move (draw counters ignored)").c_str()
                                         : "not in the tables");
  }
}

}  // namespace

void register_eval(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "evaluate a position and show each feature's share of the score");
  static EvalOptions options;
  add_game_options(*cmd, options.game, true);
  cmd->add_option("--weights", options.weights_file,
                  "weights file, JSON or pattern binary, or builtin:linear / builtin:patterns "
                  "(default: the variant's built-in configs/weights/<variant>.json)");
  cmd->add_option("--egtb", options.tables_dir, "endgame tables: also print their value of the position");
  cmd->add_flag("--features", options.list_features, "print the schema hash and the feature names of the variant's board, then exit");
  cmd->callback([] {
    const ResolvedGame game = resolve(options.game);
    if (options.list_features) return print_schema(feature_schema(game.rules));
    with_rules(game.rules, [&]<RuleSet R>() { print_evaluation<R>(options, game); });
  });
}

}  // namespace dama::cli
