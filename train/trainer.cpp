#include "trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "error.hpp"
#include "random.hpp"

namespace dama::train {

namespace {

// The training samples in the order epoch `epoch` visits them: as they are
// for full batches, else a Fisher-Yates shuffle seeded by (seed, epoch).
std::vector<std::uint32_t> epoch_order(const std::vector<std::uint32_t>& training, const TrainSettings& settings,
                                       int epoch) {
  std::vector<std::uint32_t> order = training;
  if (settings.optimizer.batch_size == 0) return order;
  SplitMix64 random(mix64(settings.seed) ^ mix64(0x5eed0000ULL + static_cast<std::uint64_t>(epoch)));
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random.below(i)]);
  return order;
}

}  // namespace

Model model_of(const TrainSettings& settings, const TrainerState& state) {
  Model model = settings.model;
  model.k = state.k;
  return model;
}

TrainerState start_training(const SampleSet& samples, const Split& split, const TrainSettings& settings,
                            const Eigen::VectorXd& start) {
  if (start.size() != samples.weight_count)
    throw Error("the starting weights have " + std::to_string(start.size()) + " values, the samples " +
                std::to_string(samples.weight_count));
  if (split.training.empty()) throw Error("no training positions (all held out for validation, or no data)");
  TrainerState state;
  state.start = start;
  state.weights = start;
  state.best_weights = start;
  state.k = settings.fit_k ? fit_k(samples, split.training, start, settings.model.loss) : settings.model.k;
  return state;
}

bool train(const SampleSet& samples, const Split& split, const TrainSettings& settings, TrainerState& state,
           const std::function<bool(const EpochReport&, const TrainerState&)>& on_epoch) {
  const Model model = model_of(settings, state);
  const std::vector<float> targets = targets_of(samples, model);
  const std::size_t batch = settings.optimizer.batch_size == 0 ? split.training.size() : settings.optimizer.batch_size;
  Eigen::VectorXd gradient;
  while (!state.finished && state.epoch < settings.max_epochs) {
    const auto started = std::chrono::steady_clock::now();
    EpochReport report;
    report.learning_rate = learning_rate_at(settings.optimizer, state.epoch, settings.max_epochs);
    const std::vector<std::uint32_t> order = epoch_order(split.training, settings, state.epoch);
    for (std::size_t first = 0; first < order.size(); first += batch) {
      const Selection batch_samples(order.data() + first, std::min(batch, order.size() - first));
      mean_loss(samples, targets, batch_samples, state.weights, model, &gradient);
      add_regularisation(settings.optimizer, state.weights, state.start, gradient);
      optimizer_step(settings.optimizer, report.learning_rate, gradient, state.optimizer, state.weights);
    }
    ++state.epoch;
    report.epoch = state.epoch;
    report.training_loss = mean_loss(samples, targets, split.training, state.weights, model);
    report.validation_loss = split.validation.empty()
                                 ? std::numeric_limits<double>::quiet_NaN()
                                 : mean_loss(samples, targets, split.validation, state.weights, model);
    const double criterion = split.validation.empty() ? report.training_loss : report.validation_loss;
    if (!std::isfinite(criterion)) throw Error("the fit diverged at epoch " + std::to_string(state.epoch) +
                                               " (loss " + std::to_string(criterion) + "): lower the learning rate");
    report.improved = criterion < state.best_loss;
    if (report.improved) {
      state.best_loss = criterion;
      state.best_training_loss = report.training_loss;
      state.best_weights = state.weights;
      state.best_epoch = state.epoch;
      state.epochs_since_best = 0;
    } else {
      ++state.epochs_since_best;
    }
    state.finished = state.epoch >= settings.max_epochs || state.epochs_since_best >= settings.patience;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (on_epoch && !on_epoch(report, state)) break;
  }
  return state.finished;
}

}  // namespace dama::train
