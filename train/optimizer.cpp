#include "optimizer.hpp"

#include <cmath>
#include <numbers>

namespace dama::train {

const char* optimizer_name(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::Adam:
      return "adam";
    case OptimizerKind::GradientDescent:
      return "gradient_descent";
    case OptimizerKind::LazyAdam:
      return "lazy_adam";
  }
  return "adam";
}

namespace {

// Adam's bias corrections for the step about to be taken (state.steps
// counted), the moments sized to the weights on the first step.
struct AdamCorrections {
  double first, second;
};
AdamCorrections begin_adam_step(const OptimizerSettings& settings, OptimizerState& state, Eigen::Index size) {
  ++state.steps;
  if (state.moment1.size() != size) state.moment1.setZero(size);
  if (state.moment2.size() != size) state.moment2.setZero(size);
  const double t = static_cast<double>(state.steps);
  return {1 - std::pow(settings.beta1, t), 1 - std::pow(settings.beta2, t)};
}

}  // namespace

double learning_rate_at(const OptimizerSettings& settings, int epoch, int max_epochs) {
  switch (settings.schedule) {
    case Schedule::Constant:
      return settings.learning_rate;
    case Schedule::Step:
      return settings.learning_rate * std::pow(settings.step_factor, epoch / settings.step_epochs);
    case Schedule::Cosine: {
      const double progress = max_epochs > 1 ? static_cast<double>(epoch) / (max_epochs - 1) : 0.0;
      const double low = settings.min_learning_rate;
      return low + 0.5 * (settings.learning_rate - low) * (1 + std::cos(std::numbers::pi * progress));
    }
  }
  return settings.learning_rate;
}

double add_regularisation(const OptimizerSettings& settings, const Eigen::VectorXd& w, const Eigen::VectorXd& start,
                          Eigen::VectorXd& gradient) {
  if (settings.l2 == 0) return 0;
  const Eigen::VectorXd drift = w - start;
  gradient += 2 * settings.l2 * drift;
  return settings.l2 * drift.squaredNorm();
}

void optimizer_step(const OptimizerSettings& settings, double learning_rate, const Eigen::VectorXd& gradient,
                    OptimizerState& state, Eigen::VectorXd& w) {
  if (settings.kind == OptimizerKind::GradientDescent) {
    ++state.steps;
    w -= learning_rate * gradient;
    return;
  }
  const AdamCorrections c = begin_adam_step(settings, state, w.size());
  state.moment1 = settings.beta1 * state.moment1 + (1 - settings.beta1) * gradient;
  state.moment2 = settings.beta2 * state.moment2 + (1 - settings.beta2) * gradient.cwiseAbs2();
  w.array() -= learning_rate * (state.moment1.array() / c.first) /
               ((state.moment2.array() / c.second).sqrt() + settings.epsilon);
}

void lazy_adam_step(const OptimizerSettings& settings, double learning_rate, const Eigen::VectorXd& gradient,
                    const Eigen::VectorXd& start, OptimizerState& state, Eigen::VectorXd& w) {
  const AdamCorrections c = begin_adam_step(settings, state, w.size());
  const double pull = 2 * settings.l2;
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    if (gradient[i] == 0) continue;  // no sample of the batch uses this weight
    const double g = gradient[i] + pull * (w[i] - start[i]);
    double& m = state.moment1[i];
    double& v = state.moment2[i];
    m = settings.beta1 * m + (1 - settings.beta1) * g;
    v = settings.beta2 * v + (1 - settings.beta2) * g * g;
    w[i] -= learning_rate * (m / c.first) / (std::sqrt(v / c.second) + settings.epsilon);
  }
}

void regularised_step(const OptimizerSettings& settings, double learning_rate, Eigen::VectorXd& gradient,
                      const Eigen::VectorXd& start, OptimizerState& state, Eigen::VectorXd& w) {
  if (settings.kind == OptimizerKind::LazyAdam) {
    lazy_adam_step(settings, learning_rate, gradient, start, state, w);
    return;
  }
  add_regularisation(settings, w, start, gradient);
  optimizer_step(settings, learning_rate, gradient, state, w);
}

}  // namespace dama::train
