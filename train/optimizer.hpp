// One optimiser step: Adam, lazy Adam or plain gradient descent on the
// regularised objective, with the learning rate the schedule gives for the
// epoch.
//
// Lazy Adam (as TensorFlow's LazyAdamOptimizer): a mini-batch of a pattern
// model has a gradient for a few thousand of its hundreds of thousands of
// weights, yet dense Adam decays both moments and moves every weight on every
// step.  The lazy step updates the moments and the weight only where the
// batch's gradient is not zero (the bias correction still counts every step),
// and the L2 pull towards the start applies to those weights alone: a weight
// no sample of the batch uses is not touched, not even by its momentum.
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

// "adam", "gradient_descent", "lazy_adam": the config's and checkpoint's names.
const char* optimizer_name(OptimizerKind kind);

// The learning rate of a (0-based) epoch under the schedule.
double learning_rate_at(const OptimizerSettings& settings, int epoch, int max_epochs);

// Adds the regularisation term's gradient, 2 l2 (w - start), to gradient and
// returns the term's value.
double add_regularisation(const OptimizerSettings& settings, const Eigen::VectorXd& w, const Eigen::VectorXd& start,
                          Eigen::VectorXd& gradient);

// Moves w one step against gradient (Adam and gradient descent: the
// regularisation already added).
void optimizer_step(const OptimizerSettings& settings, double learning_rate, const Eigen::VectorXd& gradient,
                    OptimizerState& state, Eigen::VectorXd& w);

// The lazy Adam step: gradient is the data term alone; the weights where it
// is zero keep their values and moments, the others get the pull towards
// start and one Adam step.
void lazy_adam_step(const OptimizerSettings& settings, double learning_rate, const Eigen::VectorXd& gradient,
                    const Eigen::VectorXd& start, OptimizerState& state, Eigen::VectorXd& w);

// The step the settings' kind takes on the objective with its L2 term:
// gradient holds the data term (dense kinds add the regularisation to it).
void regularised_step(const OptimizerSettings& settings, double learning_rate, Eigen::VectorXd& gradient,
                      const Eigen::VectorXd& start, OptimizerState& state, Eigen::VectorXd& w);

}  // namespace dama::train
