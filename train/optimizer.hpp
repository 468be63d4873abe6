// One optimiser step: Adam or plain gradient descent on the regularised
// objective, with the learning rate the schedule gives for the epoch.
#pragma once

#include <cstdint>

#include <Eigen/Dense>

#include "settings.hpp"

namespace dama::train {

// What the optimiser carries from step to step (part of a checkpoint).
struct OptimizerState {
  std::int64_t steps = 0;     // steps taken, for Adam's bias correction
  Eigen::VectorXd moment1;    // Adam's running mean of the gradient
  Eigen::VectorXd moment2;    // Adam's running mean of the squared gradient
};

// The learning rate of a (0-based) epoch under the schedule.
double learning_rate_at(const OptimizerSettings& settings, int epoch, int max_epochs);

// Adds the regularisation term's gradient, 2 l2 (w - start), to gradient and
// returns the term's value.
double add_regularisation(const OptimizerSettings& settings, const Eigen::VectorXd& w, const Eigen::VectorXd& start,
                          Eigen::VectorXd& gradient);

// Moves w one step against gradient.
void optimizer_step(const OptimizerSettings& settings, double learning_rate, const Eigen::VectorXd& gradient,
                    OptimizerState& state, Eigen::VectorXd& w);

}  // namespace dama::train
