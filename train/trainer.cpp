#include "trainer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "error.hpp"
#include "random.hpp"

namespace dama::train {

namespace {

constexpr std::size_t kKsPerPass = 16;  // fit_k: points of the bracket compared in one pass

// Fisher-Yates with a generator seeded by (seed, salt, epoch[, block]).
template <class T>
void shuffle(std::vector<T>& values, std::uint64_t seed) {
  SplitMix64 random(seed);
  for (std::size_t i = values.size(); i > 1; --i) std::swap(values[i - 1], values[random.below(i)]);
}

std::uint64_t epoch_seed(const TrainSettings& settings, std::uint64_t salt, int epoch) {
  return mix64(settings.seed) ^ mix64(salt + static_cast<std::uint64_t>(epoch));
}

// The order in which a mini-batch epoch visits the blocks.
std::vector<std::size_t> block_order(std::size_t blocks, const TrainSettings& settings, int epoch) {
  std::vector<std::size_t> order(blocks);
  for (std::size_t b = 0; b < blocks; ++b) order[b] = b;
  shuffle(order, epoch_seed(settings, 0xb10c0000ULL, epoch));
  return order;
}

// The order in which it visits one block's training samples.
void sample_order(std::vector<std::uint32_t>& order, Selection training, const TrainSettings& settings, int epoch,
                  std::size_t block) {
  order.assign(training.begin(), training.end());
  shuffle(order, epoch_seed(settings, 0x5eed0000ULL, epoch) ^ mix64(0xb10c5eedULL + block));
}

// Both losses at some weights, and the training gradient when asked.
struct Evaluation {
  double training_loss = 0;
  double validation_loss = std::numeric_limits<double>::quiet_NaN();  // NaN without validation samples
  Eigen::VectorXd gradient;
};

// One pass over every sample.
Evaluation evaluate(SampleSource& source, const Model& model, const Eigen::VectorXd& w, bool with_gradient) {
  LossSum training(model, w, with_gradient ? LossSum::PassOutput::LossAndGradient : LossSum::PassOutput::Loss);
  LossSum validation(model, w, LossSum::PassOutput::Loss);
  source.visit({}, model, [&](const SampleBlock& block) {
    training.add(block.samples, block.targets, block.training);
    validation.add(block.samples, block.targets, block.validation);
  });
  Evaluation e;
  const bool held_out = validation.count() > 0;
  LossSum::Result t = training.finish();
  e.training_loss = t.mean_losses[0];
  e.gradient = std::move(t.mean_gradient);
  if (held_out) e.validation_loss = validation.finish().mean_losses[0];
  return e;
}

void step(const TrainSettings& settings, double learning_rate, Eigen::VectorXd& gradient, TrainerState& state) {
  regularised_step(settings.optimizer, learning_rate, gradient, state.start, state.optimizer, state.weights);
}

// The steps of one mini-batch epoch (see the top of trainer.hpp for the order).
void mini_batch_epoch(SampleSource& source, const TrainSettings& settings, const Model& model, double learning_rate,
                      TrainerState& state) {
  const std::size_t batch_size = settings.optimizer.batch_size;
  const std::vector<std::size_t> blocks = block_order(source.block_sizes().size(), settings, state.epoch);
  // Reads the weights each step changes; a step needs the batch's gradient, not its loss.
  LossSum batch(model, state.weights, LossSum::PassOutput::Gradient);
  auto finish_batch = [&] {
    Eigen::VectorXd gradient = batch.finish().mean_gradient;
    batch.restart();
    step(settings, learning_rate, gradient, state);
  };
  std::vector<std::uint32_t> order;
  source.visit(blocks, model, [&](const SampleBlock& block) {
    sample_order(order, block.training, settings, state.epoch, block.index);
    for (Selection rest(order); !rest.empty();) {
      const std::size_t taken = std::min(batch_size - batch.count(), rest.size());
      batch.add(block.samples, block.targets, rest.first(taken));
      rest = rest.subspan(taken);
      if (batch.count() == batch_size) finish_batch();
    }
  });
  if (batch.count() > 0) finish_batch();  // the last, smaller batch
}

// Keeps the best weights and counts the epochs since; throws when the fit
// diverged.  The criterion is the validation loss, or without validation
// samples the training loss.
void record_epoch(const TrainSettings& settings, bool held_out, EpochReport& report, TrainerState& state) {
  const double criterion = held_out ? report.validation_loss : report.training_loss;
  if (!std::isfinite(criterion))
    throw Error("the fit diverged at epoch " + std::to_string(state.epoch) + " (loss " + std::to_string(criterion) +
                "): lower the learning rate");
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
}

}  // namespace

Model model_of(const TrainSettings& settings, const TrainerState& state) {
  Model model = settings.model;
  model.k = state.k;
  return model;
}

double fit_k(SampleSource& source, const Eigen::VectorXd& w, LossKind loss) {
  const Model results_only{1.0, 1.0, loss};  // lambda = 1: the targets are the results, with no k in them
  double lo = std::log(0.01), hi = std::log(20.0);
  while (hi - lo > 1e-6) {
    std::array<double, kKsPerPass> log_ks, ks;
    for (std::size_t i = 0; i < kKsPerPass; ++i) {
      log_ks[i] = lo + (hi - lo) * static_cast<double>(i + 1) / (kKsPerPass + 1);
      ks[i] = std::exp(log_ks[i]);
    }
    LossSum sum(loss, ks, w);
    source.visit({}, results_only, [&](const SampleBlock& block) { sum.add(block.samples, block.targets, block.training); });
    const std::vector<double> losses = sum.finish().mean_losses;
    const std::size_t best = static_cast<std::size_t>(std::min_element(losses.begin(), losses.end()) - losses.begin());
    // The loss is taken to have one minimum: it lies between the best point's neighbours.
    const double new_lo = best == 0 ? lo : log_ks[best - 1];
    hi = best + 1 == kKsPerPass ? hi : log_ks[best + 1];
    lo = new_lo;
  }
  return std::exp((lo + hi) / 2);
}

double fit_k(const SampleSet& samples, Selection which, const Eigen::VectorXd& w, LossKind loss) {
  const Split split{std::vector<std::uint32_t>(which.begin(), which.end()), {}};
  InMemorySamples source(samples, split);
  return fit_k(source, w, loss);
}

TrainerState start_training(SampleSource& source, const TrainSettings& settings, const Eigen::VectorXd& start) {
  if (start.size() != source.weight_count())
    throw Error("the starting weights have " + std::to_string(start.size()) + " values, the samples " +
                std::to_string(source.weight_count()));
  if (source.training_size() == 0) throw Error("no training positions (all held out for validation, or no data)");
  TrainerState state;
  state.start = start;
  state.weights = start;
  state.best_weights = start;
  state.k = settings.fit_k ? fit_k(source, start, settings.model.loss) : settings.model.k;
  return state;
}

bool train(SampleSource& source, const TrainSettings& settings, TrainerState& state, const EpochCallback& on_epoch) {
  const Model model = model_of(settings, state);
  const bool full_batch = settings.optimizer.batch_size == 0;
  // Full batch: the pass that reports an epoch's losses also gives the next
  // step's gradient; the first step's comes from a pass of its own.
  Evaluation now;
  if (full_batch && !state.finished && state.epoch < settings.max_epochs)
    now = evaluate(source, model, state.weights, true);
  while (!state.finished && state.epoch < settings.max_epochs) {
    const auto started = std::chrono::steady_clock::now();
    EpochReport report;
    report.learning_rate = learning_rate_at(settings.optimizer, state.epoch, settings.max_epochs);
    if (full_batch) step(settings, report.learning_rate, now.gradient, state);
    else mini_batch_epoch(source, settings, model, report.learning_rate, state);
    ++state.epoch;
    now = evaluate(source, model, state.weights, full_batch && state.epoch < settings.max_epochs);
    report.epoch = state.epoch;
    report.training_loss = now.training_loss;
    report.validation_loss = now.validation_loss;
    record_epoch(settings, source.validation_size() > 0, report, state);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // Every position a pass of the epoch visited: the mini-batches' pass over
    // the training samples, and the pass that measures both losses.
    const double visited = static_cast<double>(source.training_size() + source.validation_size()) +
                           (full_batch ? 0.0 : static_cast<double>(source.training_size()));
    report.positions_per_second = report.seconds > 0 ? visited / report.seconds : 0.0;
    if (on_epoch && !on_epoch(report, state)) break;
  }
  return state.finished;
}

TrainerState start_training(const SampleSet& samples, const Split& split, const TrainSettings& settings,
                            const Eigen::VectorXd& start) {
  InMemorySamples source(samples, split);
  return start_training(source, settings, start);
}

bool train(const SampleSet& samples, const Split& split, const TrainSettings& settings, TrainerState& state,
           const EpochCallback& on_epoch) {
  InMemorySamples source(samples, split);
  return train(source, settings, state, on_epoch);
}

}  // namespace dama::train
