// The tuner's view of the data: each position turned once into its active
// feature terms (extract_features, the engine's own code), stored compactly.
//
// Terms of all positions live in two contiguous arrays (a uint16 weight index
// and a float coefficient, 6 bytes a term); offsets[i]..offsets[i+1] are
// position i's.  Repeated indices of a position are merged (a piece-square
// entry with a piece of each side on it) and zero coefficients dropped, so a
// gradient pass touches each weight of a position once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dataset.hpp"
#include "variant.hpp"

namespace dama::train {

struct SampleSet {
  int weight_count = 0;                     // 2 * feature_count(board size)
  std::vector<std::uint32_t> offsets{0};    // size() + 1 entries
  std::vector<std::uint16_t> indices;       // weight index of each term
  std::vector<float> coefficients;          // its coefficient
  std::vector<std::int8_t> results;         // +1 win, 0 draw, -1 loss for the side to move
  std::vector<float> scores;                // search score, side to move's view, centi-men
  std::vector<std::uint64_t> game_ids;

  std::size_t size() const { return results.size(); }
  std::size_t term_count() const { return indices.size(); }
  // Memory held per position, terms and per-position fields together.
  double bytes_per_position() const;
};

// The samples of `rows`, features extracted under the variant's rules.
// Throws dama::Error when the variant's rule set is not compiled in.
SampleSet make_samples(const std::vector<PositionRow>& rows, const Variant& variant);

// The samples of several files, appended (the weight counts must match).
void append_samples(SampleSet& to, const SampleSet& from);

}  // namespace dama::train
