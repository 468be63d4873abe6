// The model the tuner fits: the engine's linear evaluation squashed into a
// win probability, compared with a target that blends the game's result and
// the search score.
//
//   eval      = sum of weight * coefficient over a position's terms (centi-men,
//               side to move's view; weighted_sum() of core/evaluate.hpp)
//   predicted = sigmoid(k * eval / 100): k is the logit of a one-man lead, so
//               k = 1 makes a man up worth a 73% expectation
//   target    = lambda * result01 + (1 - lambda) * sigmoid(k * score / 100),
//               result01 = (result + 1) / 2 (1 win, 0.5 draw, 0 loss); a
//               position with no search score (NaN: a game imported from
//               PDN) has target result01 whatever lambda
//
// Losses are per position, averaged: the squared error (predicted - target)^2
// or the cross-entropy -t log p - (1 - t) log(1 - p).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <Eigen/Dense>

#include "samples.hpp"

namespace dama::train {

enum class LossKind { MeanSquaredError, CrossEntropy };

std::string_view loss_name(LossKind kind);  // "mse", "cross_entropy"

struct Model {
  double k = 1.0;       // logits per man (100 centi-men)
  double lambda = 1.0;  // the share of the game result in the target
  LossKind loss = LossKind::CrossEntropy;
};

double sigmoid(double x);

// The fit fixes only the product of k and the weights (the target is
// sigmoid(k * score / 100)): every weight times c with k divided by c
// predicts the same.  The factor c that makes material.man's opening weight
// (weights[0], the first feature of every schema) worth `man_value`
// centi-men, so that a fit can be put back on the scale the search's
// margins and the users' scores assume.  Throws dama::Error when the fitted
// man is worth nothing or less (poddavki: then there is no such scale).
double man_value_factor(const Eigen::VectorXd& weights, double man_value);

// The target of one position under `model`; `score` NaN: none.
double target_of(const Model& model, int result, double score);

// Every sample's target, in sample order.
HugePageVector<float> targets_of(const SampleSet& samples, const Model& model);

// The samples a pass runs over: indices into a SampleSet.
using Selection = std::span<const std::uint32_t>;

// A mean loss, and its gradient when asked, over samples that arrive in
// pieces: a whole data set in memory, block after block of a file, a
// mini-batch that spans two blocks.  The samples are summed in fixed chunks
// of chunk_samples_for(weights) consecutive samples of the whole sequence, each chunk by
// one thread in sequence order, and the chunk sums are added up in order.
// So the result is the same to the last bit for any number of threads and
// however the sequence is cut into pieces: data streamed block by block sums
// exactly like the same data held in memory.
class LossSum {
 public:
  static constexpr std::size_t kChunkSamples = 2048;
  // A chunk's gradient is a dense vector, zeroed and added once a chunk: for
  // the pattern model (over this many weights) chunks are larger, so that
  // this stays below the chunk's own gradient terms.
  static constexpr std::size_t kLargeModelWeights = 65536;
  static constexpr std::size_t kLargeModelChunkSamples = 8192;
  static std::size_t chunk_samples_for(Eigen::Index weights);

  // What a pass sums: its mean loss, its gradient, or both (finish() gives
  // the losses as 0 for Gradient, and no gradient for Loss).
  enum class PassOutput { Loss, Gradient, LossAndGradient };

  // The loss under `model` at weights w.  w is read as the pieces are added:
  // it must not change until finish().
  LossSum(const Model& model, const Eigen::VectorXd& w, PassOutput output);
  // The losses at several k at once (targets as given, no gradient): the
  // sums fit_k compares, one pass for all of them.
  LossSum(LossKind loss, std::span<const double> ks, const Eigen::VectorXd& w);

  // The next samples of the sequence: `which` indexes samples and targets.
  void add(const SampleSet& samples, std::span<const float> targets, Selection which);
  std::size_t count() const { return count_; }
  // Starts a new sum at the weights w refers to now, keeping the chunks'
  // memory: a mini-batch epoch sums many small batches one after another.
  void restart();

  struct Result {
    std::vector<double> mean_losses;  // one per k (0 for no samples)
    Eigen::VectorXd mean_gradient;    // empty without a gradient
  };
  Result finish();

 private:
  struct Chunk {
    std::vector<double> losses;  // one per k
    Eigen::VectorXd gradient;
    std::size_t samples = 0;
  };
  std::size_t add_window(const SampleSet& samples, std::span<const float> targets, Selection which);
  void sum_into(Chunk& chunk, const SampleSet& samples, std::span<const float> targets, Selection which) const;
  void fold(Chunk& chunk);

  LossKind loss_;
  std::vector<double> scales_;  // k / 100 for each k
  const Eigen::VectorXd& w_;
  PassOutput output_;
  std::size_t chunk_samples_;  // chunk_samples_for(w's size)
  std::size_t count_ = 0;
  std::vector<double> total_losses_;
  Eigen::VectorXd total_gradient_;
  Chunk open_;                 // the chunk the next sample goes into
  std::vector<Chunk> window_;  // chunks after it, summed in parallel with it
};

// The mean loss over `which` at weights w and, when gradient is not null, its
// gradient with respect to w (resized to w's size): one LossSum over the
// selection, on every OpenMP thread.
double mean_loss(const SampleSet& samples, std::span<const float> targets, Selection which,
                 const Eigen::VectorXd& w, const Model& model, Eigen::VectorXd* gradient = nullptr);

}  // namespace dama::train
