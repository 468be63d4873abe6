// The model the tuner fits: the engine's linear evaluation squashed into a
// win probability, compared with a target that blends the game's result and
// the search score.
//
//   eval      = sum of weight * coefficient over a position's terms (centi-men,
//               side to move's view; weighted_sum() of core/evaluate.hpp)
//   predicted = sigmoid(k * eval / 100): k is the logit of a one-man lead, so
//               k = 1 makes a man up worth a 73% expectation
//   target    = lambda * result01 + (1 - lambda) * sigmoid(k * score / 100),
//               result01 = (result + 1) / 2 (1 win, 0.5 draw, 0 loss)
//
// Losses are per position, averaged: the squared error (predicted - target)^2
// or the cross-entropy -t log p - (1 - t) log(1 - p).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <Eigen/Dense>

#include "samples.hpp"

namespace dama::train {

enum class LossKind { MeanSquaredError, CrossEntropy };

std::string_view loss_name(LossKind kind);  // "mse", "cross_entropy"

struct Model {
  double k = 1.0;       // logits per man (100 centi-men)
  double lambda = 1.0;  // the share of the game result in the target
  LossKind loss = LossKind::CrossEntropy;
};

double sigmoid(double x);

// The target of one position under `model`.
double target_of(const Model& model, int result, double score);

// Every sample's target, in sample order.
std::vector<float> targets_of(const SampleSet& samples, const Model& model);

// The samples a pass runs over: indices into a SampleSet.
using Selection = std::span<const std::uint32_t>;

// The mean loss over `which` at weights w and, when gradient is not null, its
// gradient with respect to w (resized to w's size).  Runs on every OpenMP
// thread; the sum is taken in fixed chunks of the selection reduced in order,
// so the result is the same to the last bit for any number of threads.
double mean_loss(const SampleSet& samples, const std::vector<float>& targets, Selection which,
                 const Eigen::VectorXd& w, const Model& model, Eigen::VectorXd* gradient = nullptr);

// The k that minimises the mean loss against the game results alone (lambda
// = 1) at weights w: a golden-section search on log k over [0.01, 20].  The
// results are what ties scores to outcomes; fitted against the scores
// themselves k would shrink towards 0, where every target and prediction is
// an even 0.5.
double fit_k(const SampleSet& samples, Selection which, const Eigen::VectorXd& w, LossKind loss);

}  // namespace dama::train
