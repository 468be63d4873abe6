// The fit: epochs of optimiser steps over the training samples, the
// validation loss after each, early stopping, and the best weights kept.
//
// Everything an epoch depends on is in TrainerState (weights, optimiser
// moments, best so far, epoch number) and the epoch's shuffle is derived from
// (seed, epoch), so a fit stopped after any epoch and resumed from its state
// ends exactly where an uninterrupted one does.  No I/O here: the caller
// logs, checkpoints and decides to stop through the on_epoch callback.
#pragma once

#include <functional>
#include <limits>

#include <Eigen/Dense>

#include "model.hpp"
#include "optimizer.hpp"
#include "samples.hpp"
#include "settings.hpp"
#include "split.hpp"

namespace dama::train {

struct TrainerState {
  int epoch = 0;  // epochs completed
  double k = 1.0;
  Eigen::VectorXd start;    // the starting weights (the regularisation's anchor)
  Eigen::VectorXd weights;  // the current weights
  OptimizerState optimizer;
  Eigen::VectorXd best_weights;
  // The best validation loss (the training loss when nothing is held out).
  double best_loss = std::numeric_limits<double>::infinity();
  double best_training_loss = std::numeric_limits<double>::infinity();
  int best_epoch = 0;
  int epochs_since_best = 0;
  bool finished = false;  // max_epochs reached or patience run out
};

struct EpochReport {
  int epoch = 0;  // 1-based: the epoch just completed
  double training_loss = 0;    // mean data loss over the training samples after the epoch
  double validation_loss = 0;  // the same over the validation samples (NaN without any)
  double learning_rate = 0;
  double seconds = 0;          // wall time of the epoch
  bool improved = false;
};

// The state before the first epoch: weights = start, and k fitted on the
// training samples when settings.fit_k (else settings.model.k).
TrainerState start_training(const SampleSet& samples, const Split& split, const TrainSettings& settings,
                            const Eigen::VectorXd& start);

// Runs epochs until the fit finishes or on_epoch (called after each epoch,
// with the state after it) returns false.  Returns true when it finished.
bool train(const SampleSet& samples, const Split& split, const TrainSettings& settings, TrainerState& state,
           const std::function<bool(const EpochReport&, const TrainerState&)>& on_epoch = {});

// The model of a state: settings.model with the state's k.
Model model_of(const TrainSettings& settings, const TrainerState& state);

}  // namespace dama::train
