// The pentanomial counts as Fishtest feeds them to its formulas: every empty
// cell replaced by 1e-3 (LLRcalc.regularize), so that no probability is zero.
// Shared by the Elo estimate and the SPRT so both see the same distribution.
#pragma once

#include <array>

#include "statistics.hpp"

namespace dama::eval {

inline constexpr double kEmptyCellPrior = 1e-3;

// Frequencies of the pair scores 0, 1/4, 1/2, 3/4, 1 (per game), and their sum.
struct PairDistribution {
  std::array<double, 5> value{0.0, 0.25, 0.5, 0.75, 1.0};
  std::array<double, 5> probability{};
  double pairs = 0;  // the regularised total
};

inline PairDistribution regularized(const Pentanomial& counts) {
  PairDistribution d;
  std::array<double, 5> n{};
  for (int i = 0; i < 5; ++i) {
    n[i] = counts.pairs[i] == 0 ? kEmptyCellPrior : static_cast<double>(counts.pairs[i]);
    d.pairs += n[i];
  }
  for (int i = 0; i < 5; ++i) d.probability[i] = n[i] / d.pairs;
  return d;
}

}  // namespace dama::eval
