#include "samples.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "error.hpp"
#include "evaluate.hpp"

namespace dama::train {

namespace {

// 32-bit offsets hold 4 G terms: about 100 M positions, 24 GB of terms.
void push_offset(std::vector<std::uint32_t>& offsets, std::size_t end) {
  if (end > UINT32_MAX) throw Error("too many feature terms for one sample set (more than 2^32)");
  offsets.push_back(static_cast<std::uint32_t>(end));
}

// Appends one position's terms, merging repeated indices: sorting a copy of
// at most a few dozen terms is cheaper than the second pass it saves later.
void append_terms(SampleSet& set, const FeatureVector& features, std::size_t row) {
  std::array<FeatureTerm, FeatureVector::kCapacity> sorted;
  const auto end = std::copy(features.begin(), features.end(), sorted.begin());
  std::stable_sort(sorted.begin(), end, [](const FeatureTerm& a, const FeatureTerm& b) { return a.index < b.index; });
  for (auto it = sorted.begin(); it != end;) {
    const std::uint16_t index = it->index;
    float coefficient = 0;
    for (; it != end && it->index == index; ++it) coefficient += it->coefficient;
    if (coefficient == 0) continue;
    // A man on its crowning row has no piece-square entry (index -1): only a
    // corrupt row can hold one, and it must not index past the weights.
    if (index >= set.weight_count)
      throw Error("position row " + std::to_string(row) + " (game " + std::to_string(set.game_ids.back()) +
                  ") is not a legal position: a man on its crowning row");
    set.indices.push_back(index);
    set.coefficients.push_back(coefficient);
  }
  push_offset(set.offsets, set.indices.size());
}

template <RuleSet R>
SampleSet extract_all(const std::vector<PositionRow>& rows) {
  using Board = BoardFor<R>;
  SampleSet set;
  set.weight_count = 2 * FeatureLayout<Board>::kCount;
  set.offsets.reserve(rows.size() + 1);
  set.results.reserve(rows.size());
  set.scores.reserve(rows.size());
  set.game_ids.reserve(rows.size());
  FeatureVector features;
  for (const PositionRow& row : rows) {
    extract_features<R>(side_relative_position<Board>(row), features);
    set.game_ids.push_back(row.game_id);
    append_terms(set, features, set.size());
    set.results.push_back(row.result);
    set.scores.push_back(static_cast<float>(row.score));
  }
  return set;
}

}  // namespace

double SampleSet::bytes_per_position() const {
  if (size() == 0) return 0;
  const std::size_t terms = term_count() * (sizeof(std::uint16_t) + sizeof(float));
  const std::size_t per_position =
      size() * (sizeof(std::uint32_t) + sizeof(std::int8_t) + sizeof(float) + sizeof(std::uint64_t));
  return static_cast<double>(terms + per_position) / static_cast<double>(size());
}

SampleSet make_samples(const std::vector<PositionRow>& rows, const Variant& variant) {
  return with_rules(variant.rules, [&]<RuleSet R>() { return extract_all<R>(rows); });
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
  to.scores.insert(to.scores.end(), from.scores.begin(), from.scores.end());
  to.game_ids.insert(to.game_ids.end(), from.game_ids.begin(), from.game_ids.end());
}

}  // namespace dama::train
