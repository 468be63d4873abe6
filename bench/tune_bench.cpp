// Google Benchmark: the tuner's gradient pass (train/model.hpp mean_loss with
// a gradient) over positions from random play, on one OpenMP thread and on
// all of them, for the linear and the pattern model, visiting the samples in
// stored order (a full-batch pass) or shuffled (a mini-batch epoch's order,
// where every sample is a cache miss away).  Counters: positions/s, terms
// per position, and bytes per position of the compact sample form.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>
#include <vector>

#include "dataset.hpp"
#include "model.hpp"
#include "random.hpp"
#include "movegen.hpp"
#include "samples.hpp"
#include "weights.hpp"

namespace {

using namespace dama;

// Positions of uniformly random games from the start, each of the first
// `max_plies` plies kept with probability 1/2, a game id per game;
// deterministic.  Fewer plies, more pieces on the board, more terms.
template <RuleSet R>
std::vector<PositionRow> random_play_rows(std::size_t count, int max_plies) {
  using Board = BoardFor<R>;
  std::vector<PositionRow> rows;
  std::uint64_t state = 12345;
  auto next = [&] {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  MoveList<Board> moves;
  for (std::uint64_t game = 0; rows.size() < count; ++game) {
    auto p = Position<Board>::start(R.first_player);
    for (int ply = 0; ply < max_plies && rows.size() < count; ++ply) {
      MoveGenerator<R>::generate(p, moves);
      if (moves.empty()) break;
      if (next() & 1) {
        PositionRow row = side_relative_row(p);
        row.game_id = game;
        row.result = static_cast<std::int8_t>(static_cast<int>(next() % 3) - 1);
        row.score = static_cast<std::int16_t>(static_cast<int>(next() % 401) - 200);
        rows.push_back(row);
      }
      p = p.after(moves[static_cast<int>(next() % static_cast<std::uint64_t>(moves.size()))]);
    }
  }
  return rows;
}

template <RuleSet R>
void gradient_pass(benchmark::State& state, const char* variant_name) {
  const Variant& variant = find_variant(variant_name);
  const auto model_kind = state.range(2) == 0 ? EvalModel::Linear : EvalModel::Patterns;
  const auto rows = random_play_rows<R>(1 << 20, static_cast<int>(state.range(1)));
  const train::SampleSet samples = train::make_samples(rows, variant, model_kind);
  const Weights w = default_weights(variant, model_kind);
  Eigen::VectorXd weights(static_cast<Eigen::Index>(w.values.size()));
  for (std::size_t i = 0; i < w.values.size(); ++i) weights[static_cast<Eigen::Index>(i)] = w.values[i];
  const train::Model model{1.0, 0.5, train::LossKind::CrossEntropy};
  const auto targets = train::targets_of(samples, model);
  std::vector<std::uint32_t> all(samples.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);
  if (state.range(3) == 1) {
    train::SplitMix64 random(7);
    for (std::size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[random.below(i)]);
  }
  const int threads = state.range(0) == 0 ? omp_get_num_procs() : static_cast<int>(state.range(0));
  omp_set_num_threads(threads);
  Eigen::VectorXd gradient;
  for (auto _ : state) benchmark::DoNotOptimize(train::mean_loss(samples, targets, all, weights, model, &gradient));
  state.counters["threads"] = threads;
  const auto positions = static_cast<double>(samples.size());
  state.counters["positions/s"] = benchmark::Counter(positions, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["positions/s/thread"] =
      benchmark::Counter(positions / threads, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["terms/position"] = static_cast<double>(samples.term_count()) / static_cast<double>(samples.size());
  state.counters["bytes/position"] = samples.bytes_per_position();
}

constexpr RuleSet kRussian = kVariants[0].rules;
constexpr RuleSet kInternational = kVariants[kVariantCount - 1].rules;

void russian(benchmark::State& state) { gradient_pass<kRussian>(state, "russian"); }
void international(benchmark::State& state) { gradient_pass<kInternational>(state, "international"); }

// Args: OpenMP threads (0: every core), the plies of each random game sampled,
// the model (0 linear, 1 patterns), the order (0 stored, 1 shuffled).
BENCHMARK(russian)->Name("gradient_pass/russian")->ArgNames({"threads", "plies", "patterns", "shuffled"})
    ->ArgsProduct({{1, 0}, {150, 30}, {0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(international)->Name("gradient_pass/international")->ArgNames({"threads", "plies", "patterns", "shuffled"})
    ->ArgsProduct({{1, 0}, {150, 40}, {0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
