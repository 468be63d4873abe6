// Google Benchmark: perft speed from the start position, per variant, as leaf
// nodes per second (counter "leaves/s").  The node counts are checked against
// the published figures so a fast but wrong generator cannot pass unnoticed.
#include <benchmark/benchmark.h>

#include <string>

#include "perft.hpp"
#include "towers/rules.hpp"
#include "variant.hpp"

namespace {

using namespace dama;

struct Case {
  const char* variant;
  int depth;
  std::uint64_t leaves;  // tests/data/start.tsv, counting "unique"
};

constexpr Case kCases[] = {
    {"russian", 9, 4570586},  {"czech", 9, 3963671},       {"brazilian", 9, 4431766},
    {"spanish", 9, 3860866},  {"italian", 9, 3860875},     {"american", 9, 3963680},
    {"international", 7, 1049442}, {"russian10x8", 8, 6238312},
};

void perft_start(benchmark::State& state, const Case& c) {
  const RuleSet rules = find_variant(c.variant).rules;
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = with_rules(rules, [&]<RuleSet R>() {
      return perft<R, Counting::Unique>(Position<BoardFor<R>>::start(R.first_player), c.depth);
    });
    benchmark::DoNotOptimize(leaves);
  }
  if (leaves != c.leaves) state.SkipWithError(("wrong node count " + std::to_string(leaves)).c_str());
  state.counters["leaves/s"] = benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}

// Bashni (not yet a variant): the tower position's copy-make beside russian's
// bitboards, the same generator.  4 533 133: tests/tower_position_test.cpp.
void perft_bashni_start(benchmark::State& state) {
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = perft<kBashniRules, Counting::Unique>(Position<BoardFor<kBashniRules>>::start(Color::White), 9);
    benchmark::DoNotOptimize(leaves);
  }
  if (leaves != 4533133) state.SkipWithError(("wrong node count " + std::to_string(leaves)).c_str());
  state.counters["leaves/s"] = benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}

const bool registered = [] {
  for (const Case& c : kCases)
    benchmark::RegisterBenchmark((std::string("perft/") + c.variant + "/" + std::to_string(c.depth)).c_str(), perft_start, c)
        ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("perft/bashni/9", perft_bashni_start)->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
