// The sequential probability ratio test on pentanomial counts: is A at
// least elo1 stronger than B (H1), or at most elo0 (H0)?
//
// The generalised SPRT of Fishtest and fastchess, logistic Elo
// (official-stockfish/fishtest, server/fishtest/stats/LLRcalc.py,
// LLR_logistic; theory in M. Van den Bergh, "A practical introduction to the
// GSPRT" and "Maximum likelihood estimation for a multinomial distribution
// with given expectation", support_MLE_multinomial.pdf, Proposition 1.1):
//
//   s_j = 1 / (1 + 10^(-elo_j / 400))                    expected score under H_j
//   p_i = regularised frequency of pair score a_i in {0, 1/4, 1/2, 3/4, 1}
//   the maximum-likelihood distribution with mean s_j is
//       p_i / (1 + x_j (a_i - s_j)), x_j the root of
//       sum_i p_i (a_i - s_j) / (1 + x_j (a_i - s_j)) = 0
//   LLR = N * sum_i p_i * log((1 + x_0 (a_i - s_0)) / (1 + x_1 (a_i - s_1)))
//
// with N the (regularised) number of pairs.  The test stops when the LLR
// leaves (log(beta / (1 - alpha)), log((1 - beta) / alpha)) -- Wald's bounds.
#pragma once

#include "statistics.hpp"

namespace dama::eval {

struct SprtSettings {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;  // the chance of accepting H1 when H0 holds
  double beta = 0.05;   // the chance of accepting H0 when H1 holds
};

// Throws dama::Error when elo0 >= elo1, alpha or beta outside (0, 1), or
// alpha + beta >= 1 (the bounds would not enclose 0).
void check_sprt_settings(const SprtSettings& settings);

struct SprtBounds {
  double lower;  // log(beta / (1 - alpha)): at or below, H0 is accepted
  double upper;  // log((1 - beta) / alpha): at or above, H1 is accepted
};
SprtBounds sprt_bounds(const SprtSettings& settings);

double sprt_llr(const Pentanomial& counts, double elo0, double elo1);

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };

SprtDecision sprt_decision(double llr, const SprtBounds& bounds);
const char* sprt_decision_text(SprtDecision decision);  // "continue", "H0 accepted", "H1 accepted"

}  // namespace dama::eval
