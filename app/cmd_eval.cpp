// dama eval: the static evaluation of a position, feature by feature, so a
// weight file can be read against what it does.
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "evaluate.hpp"
#include "fen.hpp"
#include "options.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

struct EvalOptions {
  GameOptions game;
  std::string weights_file;  // empty: the built-in defaults
  bool list_features = false;
};

// Adds up each feature's values (a feature may be reported more than once).
struct FeatureValuesSink {
  std::vector<float>& values;
  void add(int feature, float value) { values[feature] += value; }
};

void print_schema(int board_size) {
  std::printf("schema %s\n", schema_hash(board_size).c_str());
  for (const auto& name : feature_names(board_size)) std::printf("%s\n", name.c_str());
}

template <RuleSet R>
void print_evaluation(const EvalOptions& o, const ResolvedGame& game) {
  const auto position = position_of<R>(o.game, game.notation);
  const Weights w = o.weights_file.empty() ? default_weights(*game.variant) : load_weights(o.weights_file, *game.variant);
  const auto& names = feature_names(R.board_size);
  std::vector<float> values(names.size(), 0.0f);
  FeatureValuesSink sink{values};
  visit_features<R>(position, sink);
  const float phase = game_phase(position);

  std::printf("position  %s\n", to_fen(position).c_str());
  std::printf("side      %s to move; every value and score is from its view\n",
              position.side == Color::White ? "White" : "Black");
  std::printf("weights   %s (values %s)\n", w.source.c_str(), weights_hash(w).c_str());
  std::printf("%-24s %7s %9s %9s %13s\n", "feature", "value", "opening", "endgame", "contribution");
  for (std::size_t f = 0; f < names.size(); ++f) {
    if (values[f] == 0) continue;
    const float opening = w.values[2 * f], endgame = w.values[2 * f + 1];
    const double blended = phase * static_cast<double>(opening) + (1 - phase) * static_cast<double>(endgame);
    const double contribution = values[f] * blended + 0.0;  // + 0.0: print 0, never -0
    std::printf("%-24s %7g %9g %9g %13.2f\n", names[f].c_str(), values[f], opening, endgame, contribution);
  }
  std::printf("phase     %.4f\n", phase);
  std::printf("total     %d\n", evaluate<R>(position, w));
}

}  // namespace

void register_eval(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "evaluate a position and show each feature's share of the score");
  static EvalOptions options;
  add_game_options(*cmd, options.game, true);
  cmd->add_option("--weights", options.weights_file, "weights file (default: the variant's built-in configs/weights/<variant>.json)");
  cmd->add_flag("--features", options.list_features, "print the schema hash and the feature names of the variant's board, then exit");
  cmd->callback([] {
    const ResolvedGame game = resolve(options.game);
    if (options.list_features) return print_schema(game.rules.board_size);
    with_rules(game.rules, [&]<RuleSet R>() { print_evaluation<R>(options, game); });
  });
}

}  // namespace dama::cli
