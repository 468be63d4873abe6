// The evaluation: a linear function of named features, blended between an
// opening and an endgame weight by the material left on the board.
//
//   score = sum_f value[f] * (phase * w_open[f] + (1 - phase) * w_end[f])
//
// extract_features() is the single source of these terms: the engine's
// evaluate() and the tuner both use it, so they can never drift apart.
// Scores are from the side to move's view, in centi-men (a man is worth 100
// at the start of the game).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "position.hpp"
#include "variant.hpp"

namespace dama {

using Score = std::int32_t;
inline constexpr Score kWinScore = 30000;       // a win now; a win in n plies is kWinScore - n
inline constexpr Score kWinBound = kWinScore - 1000;  // scores beyond this are wins or losses
inline constexpr Score kInfinity = 32000;

// One active feature term: a weight index (2*f for the opening weight of
// feature f, 2*f+1 for its endgame weight) and the coefficient it multiplies.
struct FeatureTerm {
  std::uint16_t index;
  float coefficient;
};

// Capacity for every term a position can produce (both phases of every active feature).
struct FeatureVector {
  static constexpr int kCapacity = 512;
  std::array<FeatureTerm, kCapacity> terms;
  int size = 0;
  void add(int index, float coefficient) { terms[size++] = {static_cast<std::uint16_t>(index), coefficient}; }
};

}  // namespace dama
