#include "samples.hpp"

#include <limits>

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <exception>
#include <utility>

#include "error.hpp"
#include "evaluate.hpp"
#include "random.hpp"

namespace dama::train {

namespace {

// 32-bit offsets hold 4 G terms: about 100 M positions, 24 GB of terms.
void push_offset(HugePageVector<std::uint32_t>& offsets, std::size_t end) {
  if (end > UINT32_MAX) throw Error("too many feature terms for one sample set (more than 2^32)");
  offsets.push_back(static_cast<std::uint32_t>(end));
}

// Merges a position's terms by weight index: each index's coefficients
// summed in the extractor's order, the indices in ascending order, zero sums
// dropped.  A sum per weight and a bit per weight present make it linear in
// the terms; sorting them was the largest cost of a conversion (a feature's
// opening and endgame terms come interleaved, far apart in index).
class TermMerger {
 public:
  // Terms of index `merged_below` and up are the patterns' (one a region,
  // in ascending order, never repeated): they are appended as they come,
  // after the merged ones, so the bitmap stays the size of the linear model.
  TermMerger(int weight_count, int merged_below)
      : weight_count_(static_cast<std::uint32_t>(weight_count)),
        merged_below_(static_cast<std::uint32_t>(merged_below)),
        sums_(static_cast<std::size_t>(merged_below), 0.0f),
        present_((merged_below + 63) / 64, 0) {}

  void append(SampleSet& set, const FeatureVector& features, std::uint64_t row) {
    const FeatureTerm* first_pattern = features.end();
    for (const FeatureTerm* t = features.begin(); t != features.end(); ++t) {
      const FeatureTerm& term = *t;
      if (term.index >= merged_below_ && term.index < weight_count_) {
        first_pattern = t;
        break;
      }
      // A man on its crowning row has no piece-square entry (index -1): only
      // a corrupt row can hold one, and it must not index past the weights.
      if (term.index >= merged_below_) {
        if (term.coefficient == 0) continue;
        throw Error("position row " + std::to_string(row) + " (game " + std::to_string(set.game_ids.back()) +
                    ") is not a legal position: a man on its crowning row");
      }
      sums_[term.index] += term.coefficient;
      present_[term.index / 64] |= std::uint64_t{1} << (term.index % 64);
    }
    for (std::size_t word = 0; word < present_.size(); ++word) {
      for (std::uint64_t bits = std::exchange(present_[word], 0); bits != 0; bits &= bits - 1) {
        const auto index = static_cast<std::uint32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
        const float coefficient = std::exchange(sums_[index], 0.0f);
        if (coefficient == 0) continue;
        set.indices.push_back(index);
        set.coefficients.push_back(coefficient);
      }
    }
    for (const FeatureTerm* t = first_pattern; t != features.end(); ++t) {
      if (t->coefficient == 0) continue;
      set.indices.push_back(t->index);
      set.coefficients.push_back(t->coefficient);
    }
    push_offset(set.offsets, set.indices.size());
  }

 private:
  std::uint32_t weight_count_;
  std::uint32_t merged_below_;
  std::vector<float> sums_;              // by weight index; all zero between positions
  std::vector<std::uint64_t> present_;   // a bit per weight index; all zero between positions
};

template <RuleSet R>
void extract_all(SampleSet& set, std::span<const PositionRow> rows, std::uint64_t first_row, EvalModel model) {
  using Board = BoardFor<R>;
  set.clear();
  set.weight_count = 2 * model_feature_count(feature_schema(R), model);
  set.offsets.reserve(rows.size() + 1);
  set.results.reserve(rows.size());
  set.scores.reserve(rows.size());
  set.game_ids.reserve(rows.size());
  FeatureVector features;
  TermMerger merger(set.weight_count, 2 * FeatureLayout<Board>::kCount);
  for (const PositionRow& row : rows) {
    extract_features<R>(side_relative_position<Board>(row), model, features);
    set.game_ids.push_back(row.game_id);
    merger.append(set, features, first_row + set.size());
    set.results.push_back(row.result);
    set.capture_pending.push_back(row.best_captured != 0 ? 1 : 0);
    set.scores.push_back(row.score == kNoSearchScore ? std::numeric_limits<float>::quiet_NaN()
                                                     : static_cast<float>(row.score));
  }
}

}  // namespace

void SampleSet::reserve(std::size_t positions, std::size_t terms) {
  offsets.reserve(positions + 1);
  results.reserve(positions);
  capture_pending.reserve(positions);
  scores.reserve(positions);
  game_ids.reserve(positions);
  indices.reserve(terms);
  coefficients.reserve(terms);
}

void SampleSet::clear() {
  offsets.assign(1, 0);
  indices.clear();
  coefficients.clear();
  results.clear();
  capture_pending.clear();
  scores.clear();
  game_ids.clear();
}

double SampleSet::bytes_per_position() const {
  if (size() == 0) return 0;
  const std::size_t terms = term_count() * (sizeof(std::uint32_t) + sizeof(float));
  const std::size_t per_position =
      size() * (sizeof(std::uint32_t) + 2 * sizeof(std::int8_t) + sizeof(float) + sizeof(std::uint64_t));
  return static_cast<double>(terms + per_position) / static_cast<double>(size());
}

void make_samples_into(SampleSet& out, std::span<const PositionRow> rows, const Variant& variant,
                       std::uint64_t first_row, EvalModel model) {
  with_rules(variant.rules, [&]<RuleSet R>() { extract_all<R>(out, rows, first_row, model); });
}

SampleSet make_samples(std::span<const PositionRow> rows, const Variant& variant, std::uint64_t first_row,
                       EvalModel model) {
  SampleSet set;
  make_samples_into(set, rows, variant, first_row, model);
  return set;
}

SampleSet make_samples(const std::vector<PositionRow>& rows, const Variant& variant, EvalModel model) {
  return make_samples(std::span<const PositionRow>(rows), variant, 0, model);
}

void make_samples_in_parallel(SampleSet& out, std::span<const PositionRow> rows, const Variant& variant,
                              EvalModel model, std::uint64_t first_row, std::vector<SampleSet>& shares) {
  constexpr std::size_t kMinRowsPerShare = 1024;  // below this a thread costs more than it saves
  const std::size_t count =
      std::clamp<std::size_t>(rows.size() / kMinRowsPerShare, 1, static_cast<std::size_t>(omp_get_max_threads()));
  if (count == 1) return make_samples_into(out, rows, variant, first_row, model);
  if (shares.size() < count) shares.resize(count);
  // An exception must not leave an OpenMP region: each share keeps its own,
  // and the first share's in row order is the one make_samples would throw.
  std::vector<std::exception_ptr> errors(count);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t begin = rows.size() * i / count, end = rows.size() * (i + 1) / count;
    try {
      make_samples_into(shares[i], rows.subspan(begin, end - begin), variant, first_row + begin, model);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  }
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  out.clear();
  out.weight_count = shares[0].weight_count;
  std::size_t terms = 0;
  for (std::size_t i = 0; i < count; ++i) terms += shares[i].term_count();
  out.reserve(rows.size(), terms);
  for (std::size_t i = 0; i < count; ++i) append_samples(out, shares[i]);
}

void append_samples(SampleSet& to, const SampleSet& from) {
  if (to.size() == 0 && to.weight_count == 0) to.weight_count = from.weight_count;
  if (to.weight_count != from.weight_count)
    throw Error("samples of boards of different sizes cannot be mixed (" + std::to_string(to.weight_count) + " and " +
                std::to_string(from.weight_count) + " weights)");
  const std::size_t base = to.indices.size();
  for (std::size_t i = 1; i < from.offsets.size(); ++i) push_offset(to.offsets, base + from.offsets[i]);
  to.indices.insert(to.indices.end(), from.indices.begin(), from.indices.end());
  to.coefficients.insert(to.coefficients.end(), from.coefficients.begin(), from.coefficients.end());
  to.results.insert(to.results.end(), from.results.begin(), from.results.end());
  to.capture_pending.insert(to.capture_pending.end(), from.capture_pending.begin(), from.capture_pending.end());
  to.scores.insert(to.scores.end(), from.scores.begin(), from.scores.end());
  to.game_ids.insert(to.game_ids.end(), from.game_ids.begin(), from.game_ids.end());
}

std::uint64_t digest_samples(const SampleSet& samples, std::uint64_t h) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    h = mix64(h ^ samples.game_ids[i]);
    const auto result = static_cast<std::uint8_t>(samples.results[i]);
    h = mix64(h ^ (std::uint64_t{std::bit_cast<std::uint32_t>(samples.scores[i])} << 8 | result));
    for (std::uint32_t j = samples.offsets[i]; j < samples.offsets[i + 1]; ++j)
      // XOR, not OR: pattern indices pass 16 bits (for the linear model's the two are equal).
      h = mix64(h ^ ((std::uint64_t{std::bit_cast<std::uint32_t>(samples.coefficients[j])} << 16) ^ samples.indices[j]));
    h = mix64(h ^ (samples.offsets[i + 1] - samples.offsets[i]));  // where one position's terms end
  }
  return h;
}

}  // namespace dama::train
