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

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "variant.hpp"

namespace dama {

struct Weights {
  std::string variant;        // e.g. "russian"
  std::vector<float> values;  // 2 * feature_count(board size): [2f] opening, [2f+1] endgame
  std::string source;         // the file path, or "built-in default"
  nlohmann::json metadata;    // free-form: where the weights came from, date, loss, ...
};

// Throws dama::Error naming the file and the field at fault.
Weights load_weights(const std::string& path, const Variant& variant);

// The same checks on text already in memory; `origin` names it in errors and
// becomes Weights::source.
Weights parse_weights(std::string_view text, const std::string& origin, const Variant& variant);

// The shipped configs/weights/<variant>.json, as compiled into the program.
Weights default_weights(const Variant& variant);

// Writes w as a weights file for `variant` atomically (a temporary file in the
// same directory, fsync, rename), features in schema order; every value reads
// back bit for bit.  Throws dama::Error when w does not fit the schema or the
// file cannot be written.
void save_weights(const std::string& path, const Weights& w, const Variant& variant);

// A stable hex digest (16 digits) of the values, for dataset metadata: equal
// values give equal digests on every platform.
std::string weights_hash(const Weights& w);

}  // namespace dama
