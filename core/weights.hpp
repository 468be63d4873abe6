// Evaluation weights: one file per variant, keyed by feature name.
//
//   {"format": "dama-weights", "version": 1, "variant": "russian",
//    "schema": "<schema_hash of the board size>",
//    "weights": {"material.man": {"opening": 100, "endgame": 100}, ...},
//    "metadata": {"source": "hand-set defaults", ...}}
//
// A file must name every feature of the schema and nothing else; the loader
// refuses anything else with a one-line dama::Error, so nothing ever runs on
// half-read weights.  The shipped configs/weights/<variant>.json are compiled
// into the program (default_weights), parsed by the same loader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "features.hpp"
#include "variant.hpp"

namespace dama {

// Which features a set of weights is for: the named features and
// piece-square tables only (about 150 weights, a JSON file), or those and the
// board patterns of patterns/regions.hpp (hundreds of thousands, a binary
// file, patterns/pattern_file.hpp).
enum class EvalModel : std::uint8_t { Linear, Patterns };

std::string_view model_name(EvalModel model);  // "linear", "patterns"

// Features of the model on a board size (8 or 10).
int model_feature_count(FeatureSchema schema, EvalModel model);

struct Weights {
  std::string variant;        // e.g. "russian"
  EvalModel model = EvalModel::Linear;
  std::vector<float> values;  // 2 * model_feature_count(board size, model): [2f] opening, [2f+1] endgame
  std::string source;         // the file path, or "built-in default"
  nlohmann::json metadata;    // free-form: where the weights came from, date, loss, ...
};

// The names that select the built-in weights of a model instead of a file.
inline constexpr std::string_view kBuiltinLinear = "builtin:linear";
inline constexpr std::string_view kBuiltinPatterns = "builtin:patterns";

// A JSON file (the linear model) or a binary pattern file
// (patterns/pattern_file.hpp), told apart by the first bytes; or the
// built-in weights of a model named builtin:linear or builtin:patterns.
// Throws dama::Error naming the file and the field at fault.
Weights load_weights(const std::string& path, const Variant& variant);

// The same checks on text already in memory; `origin` names it in errors and
// becomes Weights::source.
Weights parse_weights(std::string_view text, const std::string& origin, const Variant& variant);

// The shipped configs/weights/<variant>.json, as compiled into the program.
Weights default_weights(const Variant& variant);
// The shipped weights of a model: <variant>.json, or <variant>.patterns for
// the pattern model (an error naming the file when none is shipped).
Weights default_weights(const Variant& variant, EvalModel model);

// w as weights of `model`: the named weights kept, pattern weights added as
// zeros (linear to patterns) or dropped (patterns to linear).
Weights with_model(const Weights& w, const Variant& variant, EvalModel model);

// Writes w as a weights file for `variant` atomically; a pattern model in
// the binary format (its pattern weights quantised, see pattern_file.hpp),
// a linear model as JSON (a temporary file in the
// same directory, fsync, rename), features in schema order; every value reads
// back bit for bit.  Throws dama::Error when w does not fit the schema or the
// file cannot be written.
void save_weights(const std::string& path, const Weights& w, const Variant& variant);

// What `dama weights info` prints: the model, the variant, the sizes, the
// digest of the values, how many pattern weights are set, and the metadata.
std::string describe_weights(const Weights& w, const Variant& variant);

// What `dama weights dump` prints: one line "name opening endgame" a
// feature, the pattern features only where a weight is not zero.
std::string list_weights(const Weights& w, const Variant& variant);

// The variant a weights file names (its "variant" field, JSON or binary), so
// that `dama weights info FILE` needs no --variant.  Throws dama::Error.
std::string variant_of_weights_file(const std::string& path);

// A stable hex digest (16 digits) of the values, for dataset metadata: equal
// values give equal digests on every platform.
std::string weights_hash(const Weights& w);

}  // namespace dama
