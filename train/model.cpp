#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "error.hpp"

namespace dama::train {

namespace {

constexpr double kPerMan = 1.0 / 100.0;  // eval and score are in centi-men

// log(1 + e^x) without overflow.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// A sample's loss and its derivative with respect to eval.
struct LossSlope {
  double loss;
  double slope;
};

[[gnu::always_inline]] inline LossSlope loss_and_slope(LossKind kind, double scale, double eval, double target) {
  const double z = scale * eval;
  const double p = sigmoid(z);
  if (kind == LossKind::CrossEntropy) {
    // -t log p - (1 - t) log(1 - p) = softplus(z) - t z, stable for any z.
    return {softplus(z) - target * z, (p - target) * scale};
  }
  const double error = p - target;
  return {error * error, 2 * error * p * (1 - p) * scale};
}

// Chunks summed in parallel at most at once: bounds the gradient vectors
// held (one per chunk) while giving every thread of a large machine work.
constexpr std::size_t kWindowChunks = 64;

// The weighted sum of terms [first, last): a sample's evaluation in centi-men.
[[gnu::always_inline]] inline double eval_of(std::uint32_t first, std::uint32_t last, const std::uint32_t* indices,
                                             const float* coefficients, const double* weights) {
  double eval = 0;
  for (std::uint32_t j = first; j < last; ++j) eval += static_cast<double>(coefficients[j]) * weights[indices[j]];
  return eval;
}

// A mini-batch visits its samples in shuffled order, from anywhere in data
// that fills hundreds of megabytes: each sample's offsets, terms and target
// are cache misses, and waiting for them, not the arithmetic, set the speed.
// So a pass asks for them ahead of use, in two stages (a sample's terms can
// only be found once its offset has arrived).  Prefetching changes nothing
// in what is summed or in which order: the sums stay bit for bit the same.
// A selection in ascending order (a full-batch or validation pass) is read
// front to back, which the hardware prefetches on its own; asking as well
// only costs there, so the prefetcher is idle for it.
constexpr std::size_t kOffsetsAhead = 16;  // samples ahead whose offset and target are fetched
constexpr std::size_t kTermsAhead = 8;     // samples ahead whose terms are fetched
constexpr std::uint32_t kTermsPerLine = 64 / sizeof(std::uint32_t);

class SamplePrefetcher {
 public:
  SamplePrefetcher(Selection which, const std::uint32_t* offsets, const std::uint32_t* indices,
                   const float* coefficients, const float* targets)
      : which_(which),
        scattered_(!std::is_sorted(which.begin(), which.end())),
        offsets_(offsets),
        indices_(indices),
        coefficients_(coefficients),
        targets_(targets) {}

  // Call before summing which[t].
  [[gnu::always_inline]] void before(std::size_t t) const {
    if (!scattered_) return;
    if (t + kOffsetsAhead < which_.size()) {
      const std::uint32_t i = which_[t + kOffsetsAhead];
      __builtin_prefetch(offsets_ + i);
      __builtin_prefetch(targets_ + i);
    }
    if (t + kTermsAhead < which_.size()) {
      const std::uint32_t i = which_[t + kTermsAhead];
      const std::uint32_t first = offsets_[i], last = offsets_[i + 1];
      for (std::uint32_t j = first; j < last; j += kTermsPerLine) {
        __builtin_prefetch(indices_ + j);
        __builtin_prefetch(coefficients_ + j);
      }
      if (last > first) {  // the last line, when the terms do not start on one
        __builtin_prefetch(indices_ + last - 1);
        __builtin_prefetch(coefficients_ + last - 1);
      }
    }
  }

 private:
  Selection which_;
  bool scattered_;  // not in ascending order: a mini-batch's shuffle
  const std::uint32_t* offsets_;
  const std::uint32_t* indices_;
  const float* coefficients_;
  const float* targets_;
};

}  // namespace

std::size_t LossSum::chunk_samples_for(Eigen::Index weights) {
  return static_cast<std::size_t>(weights) > kLargeModelWeights ? kLargeModelChunkSamples : kChunkSamples;
}

std::string_view loss_name(LossKind kind) { return kind == LossKind::CrossEntropy ? "cross_entropy" : "mse"; }

double sigmoid(double x) {
  if (x >= 0) return 1 / (1 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1 + e);
}

double man_value_factor(const Eigen::VectorXd& weights, double man_value) {
  const double man = weights.size() > 0 ? weights[0] : 0;
  if (!(man > 0))
    throw Error("model.man_value: the fitted material.man opening weight is " + std::to_string(man) +
                ", so there is no scale of a man to put the weights on (leave man_value at 0)");
  return man_value / man;
}

double target_of(const Model& model, int result, double score) {
  const double result01 = (result + 1) / 2.0;
  if (std::isnan(score)) return result01;  // no search score (an imported game): the result alone
  return model.lambda * result01 + (1 - model.lambda) * sigmoid(model.k * score * kPerMan);
}

HugePageVector<float> targets_of(const SampleSet& samples, const Model& model) {
  HugePageVector<float> targets(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i)
    targets[i] = static_cast<float>(target_of(model, samples.results[i], samples.scores[i]));
  return targets;
}

LossSum::LossSum(const Model& model, const Eigen::VectorXd& w, bool with_gradient)
    : loss_(model.loss),
      scales_{model.k * kPerMan},
      w_(w),
      with_gradient_(with_gradient),
      chunk_samples_(chunk_samples_for(w.size())),
      total_losses_(1, 0.0) {
  if (with_gradient_) total_gradient_.setZero(w.size());
}

LossSum::LossSum(LossKind loss, std::span<const double> ks, const Eigen::VectorXd& w)
    : loss_(loss), w_(w), with_gradient_(false), chunk_samples_(chunk_samples_for(w.size())), total_losses_(ks.size(), 0.0) {
  for (const double k : ks) scales_.push_back(k * kPerMan);
}

void LossSum::add(const SampleSet& samples, std::span<const float> targets, Selection which) {
  count_ += which.size();
  while (!which.empty()) which = which.subspan(add_window(samples, targets, which));
}

// Sums the rest of the open chunk and up to kWindowChunks - 1 chunks after it
// in parallel, then adds the chunks completed to the totals in order; the
// last one, if not full, stays open for the next piece.  Returns the samples
// of `which` taken.
std::size_t LossSum::add_window(const SampleSet& samples, std::span<const float> targets, Selection which) {
  std::vector<Selection> parts;  // parts[0] goes into open_, parts[i] into window_[i - 1]
  std::size_t taken = 0;
  for (std::size_t room = chunk_samples_ - open_.samples; taken < which.size() && parts.size() < kWindowChunks;
       room = chunk_samples_) {
    parts.push_back(which.subspan(taken, std::min(room, which.size() - taken)));
    taken += parts.back().size();
  }
  if (window_.size() < parts.size() - 1) window_.resize(parts.size() - 1);
  auto chunk = [&](std::size_t i) -> Chunk& { return i == 0 ? open_ : window_[i - 1]; };
  // One part (a small piece) runs on this thread: waking a team costs more than it sums.
#pragma omp parallel for schedule(dynamic, 1) if (parts.size() > 1)
  for (std::size_t i = 0; i < parts.size(); ++i) sum_into(chunk(i), samples, targets, parts[i]);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (chunk(i).samples == chunk_samples_) fold(chunk(i));
    else if (i > 0) std::swap(open_, chunk(i));  // the last part: open_ was folded, so it is empty
  }
  return taken;
}

void LossSum::sum_into(Chunk& chunk, const SampleSet& samples, std::span<const float> targets,
                       Selection which) const {
  if (chunk.samples == 0) {  // a fresh chunk: zeroed here, by the thread that fills it
    chunk.losses.assign(scales_.size(), 0.0);
    if (with_gradient_) chunk.gradient.setZero(w_.size());
  }
  const std::uint32_t* offsets = samples.offsets.data();
  const std::uint32_t* indices = samples.indices.data();
  const float* coefficients = samples.coefficients.data();
  const double* weights = w_.data();
  const SamplePrefetcher prefetcher(which, offsets, indices, coefficients, targets.data());
  if (scales_.size() == 1) {
    const double scale = scales_[0];
    double* g = with_gradient_ ? chunk.gradient.data() : nullptr;
    double loss = chunk.losses[0];
    for (std::size_t t = 0; t < which.size(); ++t) {
      prefetcher.before(t);
      const std::uint32_t i = which[t];
      const std::uint32_t first = offsets[i], last = offsets[i + 1];
      const LossSlope ls = loss_and_slope(loss_, scale, eval_of(first, last, indices, coefficients, weights), targets[i]);
      loss += ls.loss;
      if (g)
        for (std::uint32_t j = first; j < last; ++j) g[indices[j]] += ls.slope * static_cast<double>(coefficients[j]);
    }
    chunk.losses[0] = loss;
  } else {
    for (std::size_t t = 0; t < which.size(); ++t) {
      prefetcher.before(t);
      const std::uint32_t i = which[t];
      const double eval = eval_of(offsets[i], offsets[i + 1], indices, coefficients, weights);
      for (std::size_t s = 0; s < scales_.size(); ++s)
        chunk.losses[s] += loss_and_slope(loss_, scales_[s], eval, targets[i]).loss;
    }
  }
  chunk.samples += which.size();
}

void LossSum::fold(Chunk& chunk) {
  for (std::size_t s = 0; s < scales_.size(); ++s) total_losses_[s] += chunk.losses[s];
  if (with_gradient_) total_gradient_ += chunk.gradient;
  chunk.samples = 0;
}

LossSum::Result LossSum::finish() {
  if (open_.samples > 0) fold(open_);
  Result result;
  const double inverse = count_ ? 1.0 / static_cast<double>(count_) : 0.0;
  for (const double total : total_losses_) result.mean_losses.push_back(total * inverse);
  if (with_gradient_) result.mean_gradient = total_gradient_ * inverse;
  return result;
}

double mean_loss(const SampleSet& samples, std::span<const float> targets, Selection which,
                 const Eigen::VectorXd& w, const Model& model, Eigen::VectorXd* gradient) {
  LossSum sum(model, w, gradient != nullptr);
  sum.add(samples, targets, which);
  LossSum::Result result = sum.finish();
  if (gradient) *gradient = std::move(result.mean_gradient);
  return result.mean_losses[0];
}

}  // namespace dama::train
