#include "model.hpp"

#include <algorithm>
#include <cmath>

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

// Fixed, thread-independent chunks: the pass sums each chunk on its own and
// adds the chunks up in order (see mean_loss).
std::size_t chunk_count(std::size_t n) { return std::clamp<std::size_t>(n / 2048, 1, 64); }

}  // namespace

std::string_view loss_name(LossKind kind) { return kind == LossKind::CrossEntropy ? "cross_entropy" : "mse"; }

double sigmoid(double x) {
  if (x >= 0) return 1 / (1 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1 + e);
}

double target_of(const Model& model, int result, double score) {
  const double result01 = (result + 1) / 2.0;
  return model.lambda * result01 + (1 - model.lambda) * sigmoid(model.k * score * kPerMan);
}

std::vector<float> targets_of(const SampleSet& samples, const Model& model) {
  std::vector<float> targets(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i)
    targets[i] = static_cast<float>(target_of(model, samples.results[i], samples.scores[i]));
  return targets;
}

double mean_loss(const SampleSet& samples, const std::vector<float>& targets, Selection which,
                 const Eigen::VectorXd& w, const Model& model, Eigen::VectorXd* gradient) {
  const std::size_t n = which.size();
  const Eigen::Index size = w.size();
  if (gradient) gradient->setZero(size);
  if (n == 0) return 0;
  const std::size_t chunks = chunk_count(n);
  std::vector<double> chunk_loss(chunks, 0.0);
  // One gradient accumulator per chunk, each written by one thread only.
  std::vector<Eigen::VectorXd> chunk_gradient(gradient ? chunks : 0);
  const double scale = model.k * kPerMan;
  const LossKind kind = model.loss;
  const std::uint32_t* offsets = samples.offsets.data();
  const std::uint16_t* indices = samples.indices.data();
  const float* coefficients = samples.coefficients.data();
  const double* weights = w.data();

#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = n * c / chunks, end = n * (c + 1) / chunks;
    double* g = nullptr;
    if (gradient) {
      chunk_gradient[c].setZero(size);
      g = chunk_gradient[c].data();
    }
    double loss = 0;
    for (std::size_t k = begin; k < end; ++k) {
      const std::uint32_t i = which[k];
      const std::uint32_t first = offsets[i], last = offsets[i + 1];
      double eval = 0;
      for (std::uint32_t j = first; j < last; ++j) eval += static_cast<double>(coefficients[j]) * weights[indices[j]];
      const LossSlope ls = loss_and_slope(kind, scale, eval, targets[i]);
      loss += ls.loss;
      if (g)
        for (std::uint32_t j = first; j < last; ++j) g[indices[j]] += ls.slope * static_cast<double>(coefficients[j]);
    }
    chunk_loss[c] = loss;
  }

  double total = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    total += chunk_loss[c];
    if (gradient) *gradient += chunk_gradient[c];
  }
  const double inverse = 1.0 / static_cast<double>(n);
  if (gradient) *gradient *= inverse;
  return total * inverse;
}

double fit_k(const SampleSet& samples, Selection which, const Eigen::VectorXd& w, LossKind loss) {
  const std::vector<float> results = targets_of(samples, Model{1.0, 1.0, loss});  // lambda = 1: no k in them
  auto loss_at = [&](double log_k) { return mean_loss(samples, results, which, w, Model{std::exp(log_k), 1.0, loss}); };
  const double golden = (std::sqrt(5.0) - 1) / 2;
  double lo = std::log(0.01), hi = std::log(20.0);
  double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo);
  double fa = loss_at(a), fb = loss_at(b);
  for (int i = 0; i < 60 && hi - lo > 1e-6; ++i) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - golden * (hi - lo);
      fa = loss_at(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + golden * (hi - lo);
      fb = loss_at(b);
    }
  }
  return std::exp((lo + hi) / 2);
}

}  // namespace dama::train
