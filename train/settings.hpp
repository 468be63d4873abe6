// Everything a fit is told: the model, the optimiser, the epochs, the split.
// configs/train/<variant>.toml sets these (config.hpp reads them); the
// defaults here are what a field left out of a config file means.
#pragma once

#include <cstdint>

#include "model.hpp"

namespace dama::train {

// LazyAdam: Adam that touches only the weights with a gradient in the step
// (optimizer.hpp): the one for models of millions of sparse weights.
enum class OptimizerKind { Adam, GradientDescent, LazyAdam };
enum class Schedule { Constant, Step, Cosine };

struct OptimizerSettings {
  OptimizerKind kind = OptimizerKind::Adam;
  // Adam: about the step of each weight, in centi-men.  Gradient descent:
  // the factor of the raw gradient, which is small (a weight moves the loss
  // by about k/100 per centi-man), hence values in the thousands.
  double learning_rate = 0.5;
  Schedule schedule = Schedule::Cosine;
  double min_learning_rate = 0.01;  // cosine: the rate it decays to at max_epochs
  int step_epochs = 50;             // step: every this many epochs ...
  double step_factor = 0.5;         // ... the rate is multiplied by this
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;  // Adam's moment decays and guard
  std::uint32_t batch_size = 0;     // samples per step; 0: the whole training set (full batch)
  double l2 = 0;                    // objective += l2 * |w - start|^2 (pulls toward the starting weights;
                                    // under lazy_adam only the weights of the step are pulled)
};

// How the data is held; not part of a run's fingerprint, since the fit is the
// same either way.
struct DataSettings {
  // The memory the samples may take, in MiB: when the estimate for holding
  // them is larger, they are streamed from the files.  0: half the
  // physical memory (dama tune asks the system).
  std::uint64_t memory_mb = 0;
};

struct TrainSettings {
  Model model;                 // model.k is the starting k; fit_k decides whether it is fitted
  bool fit_k = true;
  // > 0: the best weights are written scaled so that a man in the opening is
  // worth this many centi-men, k divided by the same factor (model.hpp,
  // man_value_factor); 0: as fitted.  Not part of the fit's identity.
  double man_value = 0;
  OptimizerSettings optimizer;
  int max_epochs = 100;
  int patience = 10;           // stop after this many epochs without a better validation loss
  double validation_share = 0.1;
  // Fit only positions where the side to move has no capture to make (the
  // move played took nothing): the engine evaluates only such positions,
  // after its quiescence search, and a position with a capture pending is
  // worth a piece more or less than its features say.
  bool quiet_only = false;
  std::uint64_t seed = 1;      // the split and the mini-batch shuffles
  int checkpoint_every = 1;    // epochs between checkpoints (dama tune)
  DataSettings data;
};

}  // namespace dama::train
