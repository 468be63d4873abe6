// Match statistics for paired games (every opening played twice, colours
// swapped): counts, the score, the Elo difference with its 95% interval and
// the likelihood of superiority.
//
// The pair, not the game, is the unit of measurement.  The two games of a
// pair share an opening, so their results are correlated; treating them as
// independent games overstates the variance (and understates it when the
// opening decides the pair).  The pentanomial counts -- how many pairs scored
// 0, 0.5, 1, 1.5 and 2 for player A -- keep that information.
//
// The formulas are those of Fishtest (official-stockfish/fishtest,
// server/fishtest/stats/stat_util.py get_elo and stats, LLRcalc.py
// regularize), so figures can be compared with Fishtest's and fastchess's:
//   * every empty cell is replaced by 1e-3 before anything is computed
//     ("regularize"), which keeps the variance positive when all pairs are
//     draws and the Elo finite when A won or lost every pair;
//   * mu = per-game mean score of A, var = per-game variance estimated from
//     the pairs: sum_i n_i (i/2 - 2 mu)^2 / games, games = 2 * pairs -- the
//     pair variance normalised to one game;
//   * the 95% interval of mu is mu -+ 1.96 sqrt(var / games), mapped to Elo
//     through the logistic curve, half its width reported as "±";
//   * LOS = Phi((mu - 0.5) / sqrt(var / games)).
#pragma once

#include <array>
#include <cstdint>

namespace dama::eval {

// A's results game by game.
struct WinLossDraw {
  std::uint64_t wins = 0;
  std::uint64_t losses = 0;
  std::uint64_t draws = 0;

  std::uint64_t games() const { return wins + losses + draws; }
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws); }
};

// pairs[k]: pairs in which A scored k/2 points (0, 0.5, 1, 1.5, 2).
struct Pentanomial {
  std::array<std::uint64_t, 5> pairs{};

  // A's two scores in a pair, each 0, 0.5 or 1.
  void add_pair(double first_game, double second_game);
  std::uint64_t total_pairs() const;
};

struct EloEstimate {
  double score = 0.5;      // A's mean score per game
  double elo = 0;          // A minus B, logistic Elo
  double elo_error95 = 0;  // half the width of the 95% interval
  double los = 0.5;        // likelihood of superiority: P(A stronger than B)
  double variance = 0;     // per game, from the pairs (regularised)
};

EloEstimate estimate_elo(const Pentanomial& counts);

// The logistic curve between Elo and expected score, and its inverse (the
// score clamped to [0.001, 0.999] as Fishtest does, so it stays finite).
double score_of_elo(double elo);
double elo_of_score(double score);

// The standard normal distribution function and its inverse.
double normal_cdf(double x);
double normal_quantile(double p);

}  // namespace dama::eval
