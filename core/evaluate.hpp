// The evaluation: a linear function of features, blended between an opening
// and an endgame weight by the material left on the board.
//
//   score = sum_f value[f] * (phase * w_open[f] + (1 - phase) * w_end[f])
//
// The features are the named ones and piece-square tables (features.hpp),
// and for the pattern model also one configuration a board region
// (patterns/regions.hpp).  visit_model_features() is the single source of
// these terms: the engine's evaluate() sums them on the fly, the tuner's
// extract_features() records them, so the two can never drift apart.
// Scores are from the side to move's view, in centi-men (a man is worth 100
// at the start of the game).
#pragma once

#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "features.hpp"
#include "patterns/regions.hpp"
#include "position.hpp"
#include "variant.hpp"
#include "weights.hpp"

namespace dama {

using Score = std::int32_t;
inline constexpr Score kWinScore = 30000;       // a win now; a win in n plies is kWinScore - n
inline constexpr Score kWinBound = kWinScore - 1000;  // scores beyond this are wins or losses
inline constexpr Score kInfinity = 32000;

// One active feature term: a weight index (2*f for the opening weight of
// feature f, 2*f+1 for its endgame weight) and the coefficient it multiplies.
struct FeatureTerm {
  std::uint32_t index;
  float coefficient;
};

// Capacity for every term a position can produce (both phases of every active feature).
struct FeatureVector {
  static constexpr int kCapacity = 512;
  std::array<FeatureTerm, kCapacity> terms;
  int size = 0;
  void add(int index, float coefficient) {
    assert(size < kCapacity);
    terms[size++] = {static_cast<std::uint32_t>(index), coefficient};
  }
  void clear() { size = 0; }
  const FeatureTerm* begin() const { return terms.data(); }
  const FeatureTerm* end() const { return terms.data() + size; }
};

// The two blend factors of a position: phase for the opening weights,
// 1 - phase for the endgame weights.
struct PhaseBlend {
  float opening;
  float endgame;
  explicit PhaseBlend(float phase) : opening(phase), endgame(1.0f - phase) {}

  // Calls term(weight index, coefficient) for the two terms of feature f with
  // value v, opening first.  Both sinks below go through here, so the
  // coefficients they use are the same floats, in the same order.
  template <class F>
  [[gnu::always_inline]] void terms(int f, float v, F&& term) const {
    term(2 * f, v * opening);
    term(2 * f + 1, v * endgame);
  }
};

// A feature term's share of the score.  A float times a float is exact in a
// double, so the sum is the same whether or not the compiler fuses the
// multiply-add: evaluate() and weighted_sum() agree to the last bit.
[[gnu::always_inline]] inline double term_value(float coefficient, float weight) {
  return static_cast<double>(coefficient) * static_cast<double>(weight);
}

// The sum of the terms times the weights, in the terms' order.
inline double weighted_sum(const FeatureVector& features, const Weights& w) {
  double sum = 0;
  for (const FeatureTerm& t : features) sum += term_value(t.coefficient, w.values[t.index]);
  return sum;
}

// The score of a weighted sum: rounded to the nearest integer, and kept
// inside the window of ordinary scores so it can never pass for a win.
inline Score to_score(double sum) {
  const double bound = kWinBound - 1;
  return static_cast<Score>(std::lround(sum < -bound ? -bound : sum > bound ? bound : sum));
}

namespace evaluate_detail {

// Records the non-zero terms (the tuner's view).
struct RecordingSink {
  PhaseBlend blend;
  FeatureVector& out;
  void add(int f, float v) {
    blend.terms(f, v, [&](int index, float coefficient) {
      if (coefficient != 0) out.add(index, coefficient);
    });
  }
};

// Sums the weighted terms on the fly (the engine's view).  It also adds the
// zero terms the recording sink drops, to save a branch: with finite weights
// (load_weights and save_weights see to that) such a term is an exact 0 and
// leaves the sum unchanged, so the two views still agree to the last bit.
struct SummingSink {
  PhaseBlend blend;
  const float* weights;
  double sum = 0;
  [[gnu::always_inline]] void add(int f, float v) {
    blend.terms(f, v, [&](int index, float coefficient) { sum += term_value(coefficient, weights[index]); });
  }
};

}  // namespace evaluate_detail

// The features of `model`: the named ones, then (pattern model) the patterns.
template <RuleSet R, class Sink>
[[gnu::always_inline]] inline void visit_model_features(const Position<BoardFor<R>>& p, EvalModel model, Sink& sink) {
  visit_features<R>(p, sink);
  if (model == EvalModel::Patterns) visit_patterns<R>(p, sink);
}

// The active feature terms of p under `model`, in visit order (an index may repeat).
template <RuleSet R>
void extract_features(const Position<BoardFor<R>>& p, EvalModel model, FeatureVector& out) {
  out.clear();
  evaluate_detail::RecordingSink sink{PhaseBlend(game_phase(p)), out};
  visit_model_features<R>(p, model, sink);
}

// The score of p for the side to move: to_score(weighted_sum(features, w)),
// computed without listing the features.  w must be for R's board size.
template <RuleSet R>
Score evaluate(const Position<BoardFor<R>>& p, const Weights& w) {
  assert(w.values.size() == 2 * static_cast<std::size_t>(model_feature_count(feature_schema(R), w.model)));
  evaluate_detail::SummingSink sink{PhaseBlend(game_phase(p)), w.values.data()};
  visit_model_features<R>(p, w.model, sink);
  return to_score(sink.sum);
}

}  // namespace dama
