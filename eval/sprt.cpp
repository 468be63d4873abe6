#include "sprt.hpp"

#include <cmath>
#include <string>

#include "error.hpp"
#include "regularized.hpp"

namespace dama::eval {

namespace {

// The root x of f(x) = sum_i p_i d_i / (1 + x d_i) = 0, d_i = a_i - s.  With
// d_min < 0 < d_max, f falls strictly from +inf to -inf on
// (-1/d_max, -1/d_min), so bisection finds the single root.
double secular_root(const PairDistribution& d, double s) {
  const double d_min = d.value.front() - s, d_max = d.value.back() - s;
  auto f = [&](double x) {
    double sum = 0;
    for (int i = 0; i < 5; ++i) {
      const double di = d.value[i] - s;
      sum += d.probability[i] * di / (1 + x * di);
    }
    return sum;
  };
  double lo = -1 / d_max, hi = -1 / d_min;
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;  // the interval cannot shrink further
    (f(mid) > 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

void check_sprt_settings(const SprtSettings& s) {
  if (!(s.elo0 < s.elo1))
    throw Error("--sprt: elo0 (" + std::to_string(s.elo0) + ") must be below elo1 (" + std::to_string(s.elo1) + ")");
  if (!(s.alpha > 0 && s.alpha < 1) || !(s.beta > 0 && s.beta < 1))
    throw Error("--sprt: alpha and beta must lie strictly between 0 and 1");
  if (!(s.alpha + s.beta < 1)) throw Error("--sprt: alpha + beta must be below 1");
}

SprtBounds sprt_bounds(const SprtSettings& s) {
  return {std::log(s.beta / (1 - s.alpha)), std::log((1 - s.beta) / s.alpha)};
}

double sprt_llr(const Pentanomial& counts, double elo0, double elo1) {
  const PairDistribution d = regularized(counts);
  const double s0 = score_of_elo(elo0), s1 = score_of_elo(elo1);
  const double x0 = secular_root(d, s0), x1 = secular_root(d, s1);
  double per_pair = 0;
  for (int i = 0; i < 5; ++i)
    per_pair += d.probability[i] * std::log((1 + x0 * (d.value[i] - s0)) / (1 + x1 * (d.value[i] - s1)));
  return d.pairs * per_pair;
}

SprtDecision sprt_decision(double llr, const SprtBounds& bounds) {
  if (llr >= bounds.upper) return SprtDecision::AcceptH1;
  if (llr <= bounds.lower) return SprtDecision::AcceptH0;
  return SprtDecision::Continue;
}

const char* sprt_decision_text(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::AcceptH0:
      return "H0 accepted";
    case SprtDecision::AcceptH1:
      return "H1 accepted";
    case SprtDecision::Continue:
      break;
  }
  return "continue";
}

}  // namespace dama::eval
