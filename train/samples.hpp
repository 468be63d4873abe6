// The tuner's view of the data: each position turned once into its active
// feature terms (extract_features, the engine's own code), stored compactly.
//
// Terms of all positions live in two contiguous arrays (a uint32 weight index
// and a float coefficient, 8 bytes a term); offsets[i]..offsets[i+1] are
// position i's.  Repeated indices of a position are merged (a piece-square
// entry with a piece of each side on it) and zero coefficients dropped, so a
// gradient pass touches each weight of a position once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dataset.hpp"
#include "huge_pages.hpp"
#include "variant.hpp"
#include "weights.hpp"

namespace dama::train {

// The arrays a pass reads per sample, at random in a shuffled mini-batch,
// are on huge pages (core/huge_pages.hpp).
struct SampleSet {
  int weight_count = 0;                     // 2 * model_feature_count(board size, model)
  HugePageVector<std::uint32_t> offsets{0};  // size() + 1 entries
  HugePageVector<std::uint32_t> indices;     // weight index of each term
  HugePageVector<float> coefficients;        // its coefficient
  std::vector<std::int8_t> results;         // +1 win, 0 draw, -1 loss for the side to move
  std::vector<std::uint8_t> capture_pending;  // 1: the move played captured (the position is not quiet)
  std::vector<float> scores;                // search score, side to move's view, centi-men
  std::vector<std::uint64_t> game_ids;

  std::size_t size() const { return results.size(); }
  std::size_t term_count() const { return indices.size(); }
  // Memory held per position, terms and per-position fields together.
  double bytes_per_position() const;
  // Room for `positions` positions and `terms` terms in all.
  void reserve(std::size_t positions, std::size_t terms);
  // No positions, the vectors keeping their capacity.
  void clear();
};

// The samples of `rows`, features extracted under the variant's rules.
// Throws dama::Error when the variant's rule set is not compiled in, or a row
// is not a legal position (the message numbers rows from `first_row`: the
// row's place in its file when `rows` is a block of one).
// The features are those of `model` (the linear model's, or with the patterns).
SampleSet make_samples(std::span<const PositionRow> rows, const Variant& variant, std::uint64_t first_row = 0,
                       EvalModel model = EvalModel::Linear);
SampleSet make_samples(const std::vector<PositionRow>& rows, const Variant& variant,
                       EvalModel model = EvalModel::Linear);

// The same into `out`, emptied first but keeping the capacity of its
// vectors: a reader converting block after block allocates once.
void make_samples_into(SampleSet& out, std::span<const PositionRow> rows, const Variant& variant,
                       std::uint64_t first_row = 0, EvalModel model = EvalModel::Linear);

// The same, the rows shared among the OpenMP threads: each converts its share
// into its own set of `shares` (kept between calls like `out`), and the
// shares are joined in order, so `out` holds what make_samples returns.
void make_samples_in_parallel(SampleSet& out, std::span<const PositionRow> rows, const Variant& variant,
                              EvalModel model, std::uint64_t first_row, std::vector<SampleSet>& shares);

// The samples of several files, appended (the weight counts must match).
void append_samples(SampleSet& to, const SampleSet& from);

// A digest of every sample's terms, result, score and game, position by
// position, continuing from `h`: digesting the blocks of a data set one after
// another gives the digest of the whole set, so data held in memory and data
// streamed block by block have the same digest.
std::uint64_t digest_samples(const SampleSet& samples, std::uint64_t h = 0);

}  // namespace dama::train
