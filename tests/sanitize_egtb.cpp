// The endgame tables and the boards under AddressSanitizer and UBSan, in
// seconds: a table build on two threads (atomics, the retrograde rounds),
// the files read back, every value re-derived (verify), probes, the best
// move, a search that probes the tables, and perft -- for russian (4
// pieces), russian10x8 (3) and international (3).  The whole test suite
// under the sanitizers (scripts/test.sh --sanitize address,undefined) takes
// an hour on two cores; this program, built only with -DDAMA_SANITIZE
// (scripts/sanitize_egtb.sh), is the quick check of this code.  Exits 1 on
// a mismatch; a sanitizer report aborts it.
#include <cstdio>
#include <filesystem>
#include <string>

#include "egtb/builder.hpp"
#include "egtb/verify.hpp"
#include "evaluate.hpp"
#include "fen.hpp"
#include "perft.hpp"
#include "search.hpp"
#include "weights.hpp"

namespace {

using namespace dama;

template <std::size_t I>
bool check(const std::string& root, int pieces, const char* fen) {
  constexpr RuleSet R = kVariants[I].rules;
  using Board = BoardFor<R>;
  const std::string name(kVariants[I].name), dir = root + "/" + name;
  std::filesystem::remove_all(dir);
  egtb::Tablebase<R> built;
  if (!egtb::build_tables<R>({dir, pieces, 2}, built, {}, {})) return false;
  const auto tables = egtb::Tablebase<R>::load(dir);
  std::uint64_t positions = 0, mismatches = 0;
  for (const auto& m : egtb::materials_in_build_order(pieces)) {
    const auto report = egtb::verify_slice(tables, m, 2);
    positions += report.positions, mismatches += report.mismatches;
  }
  const auto p = parse_fen<Board>(fen);
  const auto entry = tables.probe_entry(p);
  MoveList<Board> moves;
  MoveGenerator<R>::generate(p, moves);
  const int best = moves.empty() ? -1 : static_cast<int>(egtb::best_move<R>(tables, p, moves));
  const Weights weights = default_weights(kVariants[I]);
  Searcher<R, WeightsEvaluator<R>> searcher(WeightsEvaluator<R>{&weights}, 4);
  searcher.set_tables(&tables);
  SearchLimits limits;
  limits.depth = 8;
  const auto result = searcher.search(p, limits);
  const auto leaves = perft<R, Counting::Unique>(Position<Board>::start(R.first_player), 5);
  std::printf("%-13s %llu positions verified, %llu mismatches; %s: %s, best move %d; search depth %d; perft(5) %llu\n",
              name.c_str(), static_cast<unsigned long long>(positions), static_cast<unsigned long long>(mismatches), fen,
              entry ? egtb::wdl_name(entry->value) : "not in the tables", best, result.depth,
              static_cast<unsigned long long>(leaves));
  return mismatches == 0 && entry.has_value();
}

constexpr std::size_t index_of(std::string_view name) {
  for (std::size_t i = 0; i < kVariantCount; ++i)
    if (kVariants[i].name == name) return i;
  return kVariantCount;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : "sanitize-egtb";
  bool ok = check<index_of("russian")>(root, 4, "W:WK29:BK4");
  ok = check<index_of("russian10x8")>(root, 3, "W:WK37:BK5") && ok;
  ok = check<index_of("international")>(root, 3, "W:WK46:BK5") && ok;
  std::printf("%s\n", ok ? "no mismatch" : "MISMATCH");
  return ok ? 0 : 1;
}
