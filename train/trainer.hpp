// The fit: epochs of optimiser steps over the training samples, the
// validation loss after each, early stopping, and the best weights kept.
//
// Everything an epoch depends on is in TrainerState (weights, optimiser
// moments, best so far, epoch number) and the epoch's shuffle is derived from
// (seed, epoch), so a fit stopped after any epoch and resumed from its state
// ends exactly where an uninterrupted one does.  No I/O here: the data comes
// through a SampleSource, and the caller logs, checkpoints and decides to stop
// through the on_epoch callback.
//
// Passes over the data (each a visit of the source: a read of the files when
// streamed):
//   - fit_k: a handful, each comparing 16 values of k at once;
//   - full batch: one per epoch, at the weights after the epoch's step: it
//     gives the epoch's training and validation losses and the gradient of
//     the next step (a fit that starts or resumes makes one more, for its
//     first step);
//   - mini-batch: the steps, then one for the losses.  Epoch e visits the
//     blocks in an order shuffled by (seed, e) and each block's training
//     samples in an order shuffled by (seed, e, block); the batches are
//     consecutive runs of that sequence (one may span two blocks; the last
//     of the epoch may be smaller).  With the whole data as one block, as
//     the in-memory overloads below have it, that is a shuffle of all of it.
#pragma once

#include <functional>
#include <limits>

#include <Eigen/Dense>

#include "model.hpp"
#include "optimizer.hpp"
#include "sample_source.hpp"
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
  double positions_per_second = 0;  // positions its passes visited, over `seconds`
  bool improved = false;
};

using EpochCallback = std::function<bool(const EpochReport&, const TrainerState&)>;

// The state before the first epoch: weights = start, and k fitted on the
// training samples when settings.fit_k (else settings.model.k).
TrainerState start_training(SampleSource& source, const TrainSettings& settings, const Eigen::VectorXd& start);

// Runs epochs until the fit finishes or on_epoch (called after each epoch,
// with the state after it) returns false.  Returns true when it finished.
bool train(SampleSource& source, const TrainSettings& settings, TrainerState& state,
           const EpochCallback& on_epoch = {});

// The same on samples in memory, as one block.
TrainerState start_training(const SampleSet& samples, const Split& split, const TrainSettings& settings,
                            const Eigen::VectorXd& start);
bool train(const SampleSet& samples, const Split& split, const TrainSettings& settings, TrainerState& state,
           const EpochCallback& on_epoch = {});

// The k that minimises the mean loss against the game results alone (lambda
// = 1) over the training samples at weights w, searched on log k over
// [0.01, 20]: each pass evaluates 16 evenly spaced points of the bracket and
// keeps the two intervals around the best, until the bracket is 1e-6 wide
// (8 passes).  The results are what ties scores to outcomes; fitted against
// the scores themselves k would shrink towards 0, where every target and
// prediction is an even 0.5.
double fit_k(SampleSource& source, const Eigen::VectorXd& w, LossKind loss);
double fit_k(const SampleSet& samples, Selection which, const Eigen::VectorXd& w, LossKind loss);

// The model of a state: settings.model with the state's k.
Model model_of(const TrainSettings& settings, const TrainerState& state);

}  // namespace dama::train
