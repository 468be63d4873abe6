#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "regularized.hpp"

namespace dama::eval {

void Pentanomial::add_pair(double first_game, double second_game) {
  const long half_points = std::lround(2 * (first_game + second_game));
  if (half_points < 0 || half_points > 4) throw std::logic_error("a pair scores between 0 and 2 points");
  ++pairs[static_cast<std::size_t>(half_points)];
}

std::uint64_t Pentanomial::total_pairs() const {
  std::uint64_t n = 0;
  for (auto c : pairs) n += c;
  return n;
}

double score_of_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double elo_of_score(double score) {
  constexpr double kClamp = 1e-3;
  score = std::clamp(score, kClamp, 1 - kClamp);
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) throw std::domain_error("normal_quantile: p must lie strictly between 0 and 1");
  // Bisection on the distribution function: 200 halvings of [-40, 40] reach
  // the limit of double precision, and this is called a handful of times.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (normal_cdf(mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

EloEstimate estimate_elo(const Pentanomial& counts) {
  const PairDistribution d = regularized(counts);
  const double games = 2 * d.pairs;
  EloEstimate e;
  e.score = 0;
  for (int i = 0; i < 5; ++i) e.score += d.probability[i] * d.value[i];
  // Pair scores are 0..2 points; their spread about 2 mu, per game played.
  double pair_variance_sum = 0;
  for (int i = 0; i < 5; ++i) {
    const double deviation = i / 2.0 - 2 * e.score;
    pair_variance_sum += d.probability[i] * d.pairs * deviation * deviation;
  }
  e.variance = pair_variance_sum / games;
  const double standard_error = std::sqrt(e.variance / games);
  const double z = normal_quantile(0.975);
  e.elo = elo_of_score(e.score);
  e.elo_error95 = (elo_of_score(e.score + z * standard_error) - elo_of_score(e.score - z * standard_error)) / 2;
  e.los = normal_cdf((e.score - 0.5) / standard_error);
  return e;
}

}  // namespace dama::eval
