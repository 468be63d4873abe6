#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "error.hpp"

namespace dama::train {

namespace {

constexpr double kPerMan = 1.0 / 100.0;  // eval and score are in centi-men

// The logistic function at z, with the e^-|z| it was computed from, which
// the cross-entropy's softplus needs as well: one exp serves both.
struct Logistic {
  double p;  // sigmoid(z), bit for bit
  double e;  // exp(-|z|)
};

[[gnu::always_inline]] inline Logistic logistic(double z) {
  const double e = std::exp(-std::abs(z));
  return {(z >= 0 ? 1.0 : e) / (1 + e), e};
}

// A sample's loss, from z = scale * eval and its logistic.
[[gnu::always_inline]] inline double loss_of(LossKind kind, double z, Logistic l, double target) {
  if (kind == LossKind::CrossEntropy) {
    // -t log p - (1 - t) log(1 - p) = softplus(z) - t z, and softplus(z) =
    // log(1 + e^z) = max(z, 0) + log(1 + e^-|z|), stable for any z.
    return (z > 0 ? z : 0.0) + std::log1p(l.e) - target * z;
  }
  const double error = l.p - target;
  return error * error;
}

// The derivative of a sample's loss with respect to eval.
[[gnu::always_inline]] inline double slope_of(LossKind kind, double scale, Logistic l, double target) {
  const double error = l.p - target;
  if (kind == LossKind::CrossEntropy) return error * scale;
  return 2 * error * l.p * (1 - l.p) * scale;
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

LossSum::LossSum(const Model& model, const Eigen::VectorXd& w, PassOutput output)
    : loss_(model.loss),
      scales_{model.k * kPerMan},
      w_(w),
      output_(output),
      chunk_samples_(chunk_samples_for(w.size())),
      total_losses_(1, 0.0) {
  if (output_ != PassOutput::Loss) total_gradient_.setZero(w.size());
}

LossSum::LossSum(LossKind loss, std::span<const double> ks, const Eigen::VectorXd& w)
    : loss_(loss),
      w_(w),
      output_(PassOutput::Loss),
      chunk_samples_(chunk_samples_for(w.size())),
      total_losses_(ks.size(), 0.0) {
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

namespace {

// Calls visit(i, first, last, eval) for each sample i of `which` in order,
// its terms first..last and its eval at `weights`; the samples' data is
// asked for ahead (SamplePrefetcher).
template <class Visit>
[[gnu::always_inline]] inline void for_each_eval(const SampleSet& samples, std::span<const float> targets,
                                                 Selection which, const double* weights, Visit&& visit) {
  const std::uint32_t* offsets = samples.offsets.data();
  const std::uint32_t* indices = samples.indices.data();
  const float* coefficients = samples.coefficients.data();
  const SamplePrefetcher prefetcher(which, offsets, indices, coefficients, targets.data());
  for (std::size_t t = 0; t < which.size(); ++t) {
    prefetcher.before(t);
    const std::uint32_t i = which[t];
    const std::uint32_t first = offsets[i], last = offsets[i + 1];
    visit(i, first, last, eval_of(first, last, indices, coefficients, weights));
  }
}

// Sums `which` into a chunk at one k: the losses, the gradient or both
// (a mini-batch's pass needs no loss, and the loss is the costlier half).
template <bool kLoss, bool kGradient>
void sum_chunk(LossKind kind, double scale, const SampleSet& samples, std::span<const float> targets, Selection which,
               const double* weights, double& loss, double* g) {
  const std::uint32_t* indices = samples.indices.data();
  const float* coefficients = samples.coefficients.data();
  const auto add = [&](std::uint32_t i, std::uint32_t first, std::uint32_t last, double eval) {
    const double z = scale * eval;
    const Logistic l = logistic(z);
    if constexpr (kLoss) loss += loss_of(kind, z, l, targets[i]);
    if constexpr (kGradient) {
      const double slope = slope_of(kind, scale, l, targets[i]);
      for (std::uint32_t j = first; j < last; ++j) g[indices[j]] += slope * static_cast<double>(coefficients[j]);
    }
  };
  for_each_eval(samples, targets, which, weights, add);
}

}  // namespace

void LossSum::sum_into(Chunk& chunk, const SampleSet& samples, std::span<const float> targets,
                       Selection which) const {
  const bool with_gradient = output_ != PassOutput::Loss;
  if (chunk.samples == 0) {  // a fresh chunk: zeroed here, by the thread that fills it
    chunk.losses.assign(scales_.size(), 0.0);
    if (with_gradient) chunk.gradient.setZero(w_.size());
  }
  const double* weights = w_.data();
  if (scales_.size() == 1) {
    auto sum = [&]<bool kLoss, bool kGradient>() {
      sum_chunk<kLoss, kGradient>(loss_, scales_[0], samples, targets, which, weights, chunk.losses[0],
                                  chunk.gradient.data());
    };
    if (output_ == PassOutput::Loss) sum.template operator()<true, false>();
    else if (output_ == PassOutput::Gradient) sum.template operator()<false, true>();
    else sum.template operator()<true, true>();
  } else {
    for_each_eval(samples, targets, which, weights, [&](std::uint32_t i, std::uint32_t, std::uint32_t, double eval) {
      for (std::size_t s = 0; s < scales_.size(); ++s) {
        const double z = scales_[s] * eval;
        chunk.losses[s] += loss_of(loss_, z, logistic(z), targets[i]);
      }
    });
  }
  chunk.samples += which.size();
}

void LossSum::fold(Chunk& chunk) {
  for (std::size_t s = 0; s < scales_.size(); ++s) total_losses_[s] += chunk.losses[s];
  if (output_ != PassOutput::Loss) total_gradient_ += chunk.gradient;
  chunk.samples = 0;
}

void LossSum::restart() {
  open_.samples = 0;  // a chunk's sums are zeroed when it is next started
  count_ = 0;
  std::fill(total_losses_.begin(), total_losses_.end(), 0.0);
  if (output_ != PassOutput::Loss) total_gradient_.setZero();
}

LossSum::Result LossSum::finish() {
  if (open_.samples > 0) fold(open_);
  Result result;
  const double inverse = count_ ? 1.0 / static_cast<double>(count_) : 0.0;
  for (const double total : total_losses_) result.mean_losses.push_back(total * inverse);
  if (output_ != PassOutput::Loss) result.mean_gradient = total_gradient_ * inverse;
  return result;
}

double mean_loss(const SampleSet& samples, std::span<const float> targets, Selection which,
                 const Eigen::VectorXd& w, const Model& model, Eigen::VectorXd* gradient) {
  LossSum sum(model, w, gradient ? LossSum::PassOutput::LossAndGradient : LossSum::PassOutput::Loss);
  sum.add(samples, targets, which);
  LossSum::Result result = sum.finish();
  if (gradient) *gradient = std::move(result.mean_gradient);
  return result.mean_losses[0];
}

}  // namespace dama::train
