// dama bench: a fixed set of positions per variant, each searched to a fixed
// depth by a fresh Searcher with the built-in weights.  The node total is the
// behaviour signature: any change to the move generator, the search or the
// evaluation that changes what the engine does changes it.  nps is the
// speed, on one thread.
#include <array>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>

#include "commands.hpp"
#include "fen.hpp"
#include "search.hpp"
#include "error.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

// The start, then positions reached by uniformly random moves from it
// (splitmix64, seed as noted, after 8, 16, 24, 32 and 44 plies; kept only
// when neither side is more than two pieces ahead).
struct BenchPositions {
  std::string_view variant;
  std::array<std::string_view, 6> fens;  // "" stands for the start position
};

constexpr std::array<std::string_view, 6> kRussianPositions = {
    "",
    "W:W13,21,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,12,19",  // seed 1000, 8 plies
    "W:W21,23,25,26,28,29,30:B1,2,3,4,5,7,8,15",                 // seed 2000, 16 plies
    "W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14",            // seed 3001, 24 plies
    "W:W12,22,23,28,29,30:B2,3,4,8,10,13,21",                    // seed 4002, 32 plies
    "W:W17,19,27,30:B4,6,K32"};                                  // seed 5000, 44 plies

constexpr BenchPositions kBenchPositions[] = {
    {"russian", kRussianPositions},
    {"czech",
     {"",
      "W:W21,23,25,26,27,28,29,30,31,32:B2,3,4,5,7,8,9,10,12,16",  // seed 1000, 8 plies
      "W:W21,23,25,26,28,29,30:B1,2,3,4,5,7,8,15",                 // seed 2000, 16 plies
      "W:W12,19,21,22,25,29,30:B1,3,5,8,9,11,13,K32",              // seed 3000, 24 plies
      "W:W20,24,28,29,30:B3,4,11,12,21,23",                        // seed 4000, 32 plies
      "W:W7,11,21,28,29:B5,9,12,13,20,K27"}},                      // seed 5007, 44 plies
    {"brazilian",
     {"",
      "W:W13,21,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,12,19",  // seed 1000, 8 plies
      "W:W21,23,25,26,28,29,30:B1,2,3,4,5,7,8,15",                 // seed 2000, 16 plies
      "W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14",            // seed 3001, 24 plies
      "W:W12,22,23,28,29,30:B2,3,4,8,10,13,21",                    // seed 4002, 32 plies
      "W:W16,20,23,28,30:B6,7,8,10"}},                             // seed 5007, 44 plies
    {"spanish",
     {"",
      "W:W21,23,25,26,27,28,29,30,31,32:B2,3,4,5,7,8,9,10,12,16",  // seed 1000, 8 plies
      "W:W21,23,25,26,28,29,30:B1,2,3,4,5,7,8,15",                 // seed 2000, 16 plies
      "W:W12,19,21,22,25,29,30:B1,3,5,8,9,11,13,K32",              // seed 3000, 24 plies
      "W:W20,24,28,29,30:B3,4,11,12,21,23",                        // seed 4000, 32 plies
      "W:W7,11,21,28,29:B5,9,12,13,20,K27"}},                      // seed 5007, 44 plies
    {"italian",
     {"",
      "W:W21,23,25,26,27,28,29,30,31,32:B2,3,4,5,7,8,9,10,12,16",  // seed 1000, 8 plies
      "W:W21,23,25,26,28,29,30:B1,2,3,4,5,7,8,15",                 // seed 2000, 16 plies
      "W:W12,19,21,22,25,29,30:B1,3,5,8,9,11,13,K32",              // seed 3000, 24 plies
      "W:W20,24,28,29,30:B3,4,11,12,21,23",                        // seed 4000, 32 plies
      "W:W6,K10,25,26:B4,12,15,K16,19"}},                          // seed 5000, 44 plies
    {"american",
     {"",
      "B:W21,22,24,25,26,27,29,30,31,32:B1,2,3,4,5,7,8,9,10,15,20",  // seed 1000, 8 plies
      "B:W14,19,21,26,27,28,29,31,32:B2,3,4,5,6,8,11,12",            // seed 2000, 16 plies
      "B:W20,22,25,27,28,29,30:B4,5,7,9,10,11,15",                   // seed 3002, 24 plies
      "B:W12,16,17,21,29,30,32:B3,4,6,8,14",                         // seed 4000, 32 plies
      "B:WK4,19,25:B12,17,23"}},                                     // seed 5001, 44 plies
    {"international",
     {"",
      // seed 1000, 8 plies
      "W:W26,27,33,34,35,36,37,38,39,40,41,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,14,15,16,17,19,20,22",
      // seed 2000, 16 plies
      "W:W30,31,32,37,38,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,14,18,22,25",
      // seed 3001, 24 plies
      "W:W23,27,28,30,37,38,39,40,41,42,43,44,46,47,48,49,50:B1,2,3,5,6,7,8,10,11,12,13,14,15,16,17",
      // seed 4000, 32 plies
      "W:W22,26,36,37,38,39,42,44,45,46,47,48,49,50:B3,5,7,8,9,10,11,14,15,16,19,29,35",
      // seed 5002, 44 plies
      "W:W26,31,33,35,38,40,41,43,44,45,47,49,50:B1,2,3,4,5,6,9,10,14,16,17,19,20"}},
    // poddavki moves as russian does, so the same seeds reach the same positions.
    {"poddavki", kRussianPositions},
    {"russian10x8",
     {"",
      "W:W22,25,26,31,32,33,34,35,36,37,38,39,40:B1,2,3,4,5,6,7,8,9,10,11,15,24",  // seed 1000, 8 plies
      "W:W19,26,31,32,33,35,36,37,38,39,40:B1,2,3,4,5,7,8,10,16,17,18",            // seed 2000, 16 plies
      "W:W21,22,25,26,27,33,35,36,37,38,39:B1,4,5,6,8,9,11,13,15,19",              // seed 3004, 24 plies
      "W:W16,31,32,33,34,36,37,39:B1,2,4,6,7,10,12,18",                            // seed 4000, 32 plies
      "W:WK1,31,36,37,39,40:B3,6,8,16,K38"}},                                      // seed 5000, 44 plies
    // Bashni: random moves as above (not filtered: towers hide the material),
    // the last the perft table's "kings in towers" (docs/performance.md).
    {"bashni",
     {"",
      "W:W15b,19,21,23,24,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,8,12,13,20",  // seed 1000, 8 plies
      "W:W19bb,21,24b,25,26,27w,28,29,30,32:B1,2,3,4,5,6,8,18w,20",         // seed 2000, 16 plies
      "W:W5bbbb,17b,20,21,22,24,25,26,27,29,30:B1,4,10bb,13,15W",           // seed 3000, 24 plies
      "W:WK1bb,13b,16w,17,K20bbbbb,25,26,27,28,30,31:B3,4,8,9",             // seed 4000, 32 plies
      "W:W14wb,K17bbb,26w,28,29bb,32:B2w,3,4,5,K8www,11"}},
};
static_assert(std::size(kBenchPositions) == kVariantCount, "bench positions for every variant");

// The depth each variant is searched to unless --depth says otherwise: about
// the same time for every variant.
constexpr int default_depth(BoardShape board) { return board == BoardShape{8, 8} ? 13 : board == BoardShape{10, 8} ? 12 : 11; }

struct BenchOptions {
  std::string weights;  // empty: each variant's built-in weights
  std::string variant;  // empty: every variant
  int depth = 0;        // 0: default_depth
  std::size_t tt_megabytes = kDefaultTTMegabytes;
};

struct BenchTotals {
  std::uint64_t nodes = 0;
  double seconds = 0;
};

std::uint64_t per_second(std::uint64_t nodes, double seconds) {
  return seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(nodes) / seconds) : 0;
}

template <std::size_t I>
BenchTotals bench_variant(const BenchOptions& o) {
  constexpr Variant variant = kVariants[I];
  constexpr RuleSet R = variant.rules;
  using Board = BoardFor<R>;
  static_assert(kBenchPositions[I].variant == variant.name, "kBenchPositions follows kVariants' order");
  const Weights weights = o.weights.empty() ? default_weights(variant) : load_weights(o.weights, variant);
  SearchLimits limits;
  limits.depth = o.depth > 0 ? o.depth : default_depth(R.board);
  BenchTotals totals;
  for (const std::string_view fen : kBenchPositions[I].fens) {
    const auto position = fen.empty() ? Position<Board>::start(R.first_player) : parse_fen<Board>(fen);
    Searcher<R, WeightsEvaluator<R>> searcher(WeightsEvaluator<R>{&weights}, o.tt_megabytes);
    const auto result = searcher.search(position, limits);
    totals.nodes += result.nodes;
    totals.seconds += result.seconds;
  }
  std::printf("%-14s depth %2d positions %zu nodes %12llu nps %10llu\n", std::string(variant.name).c_str(),
              limits.depth, kBenchPositions[I].fens.size(), static_cast<unsigned long long>(totals.nodes),
              static_cast<unsigned long long>(per_second(totals.nodes, totals.seconds)));
  std::fflush(stdout);
  return totals;
}

template <std::size_t... I>
BenchTotals bench_variants(const BenchOptions& o, std::index_sequence<I...>) {
  BenchTotals all;
  auto add = [&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    if (!o.variant.empty() && &find_variant(o.variant) != &kVariants[i]) return;
    const BenchTotals t = bench_variant<i>(o);
    all.nodes += t.nodes;
    all.seconds += t.seconds;
  };
  (add(std::integral_constant<std::size_t, I>{}), ...);
  return all;
}

}  // namespace

void register_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "search fixed positions to a fixed depth: node-count signature and speed");
  static BenchOptions options;
  cmd->add_option("--variant,-v", options.variant, "one variant only (default: all of them)");
  cmd->add_option("--depth,-d", options.depth, "search depth in plies (default: 13 on 8x8, 11 on 10x10)")
      ->check(CLI::Range(1, kMaxDepth));
  cmd->add_option("--weights", options.weights,
                  "weights to search with: a file (with --variant) or builtin:linear / builtin:patterns "
                  "(default: the built-in weights; the node signature is for those)");
  cmd->add_option("--tt-mb", options.tt_megabytes, "transposition table size in MB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->callback([] {
    if (!options.variant.empty()) find_variant(options.variant);  // an unknown name fails before any work
    if (!options.weights.empty() && options.weights.rfind("builtin:", 0) != 0 && options.variant.empty())
      throw Error("--weights " + options.weights + ": a weights file is for one variant: give --variant");
    const BenchTotals all = bench_variants(options, std::make_index_sequence<kVariantCount>{});
    std::printf("bench %llu nodes %llu nps\n", static_cast<unsigned long long>(all.nodes),
                static_cast<unsigned long long>(per_second(all.nodes, all.seconds)));
  });
}

}  // namespace dama::cli
