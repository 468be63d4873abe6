// The tables checked against themselves: every position's value re-derived
// from its successors' values (win if a move reaches a position lost for the
// opponent, loss if none is left or every move reaches a won one, draw
// otherwise) must be the stored one, and every hole of the index must hold 0.
#pragma once

#include <atomic>
#include <cstdint>

#include "../movegen.hpp"
#include "builder.hpp"
#include "tablebase.hpp"

namespace dama::egtb {

struct VerifyReport {
  std::uint64_t positions = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t first_bad = 0;  // an index that failed, when mismatches > 0
};

// The value of p re-derived from its successors (all of which must be in `tables`).
template <RuleSet R>
Wdl value_from_successors(const Tablebase<R>& tables, const Position<BoardFor<R>>& p) {
  MoveList<BoardFor<R>> moves;
  MoveGenerator<R>::generate(p, moves);
  bool all_won = true;
  for (const auto& m : moves) {
    const auto v = tables.probe(p.after(m));
    if (!v) throw Error("egtb verify: a successor is in no loaded table");
    if (*v == Wdl::Loss) return Wdl::Win;
    all_won &= *v == Wdl::Win;
  }
  return all_won ? Wdl::Loss : Wdl::Draw;
}

template <RuleSet R>
VerifyReport verify_slice(const Tablebase<R>& tables, const Material& m, int threads) {
  const auto* slice = tables.slice(m);
  VerifyReport report;
  report.positions = slice->index.size();
  std::atomic<std::uint64_t> mismatches{0}, first_bad{~std::uint64_t{0}};
  parallel_chunks(slice->index.size(), threads, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      Position<BoardFor<R>> p;
      const bool real = slice->index.decode(i, p);
      const Wdl expected = real ? value_from_successors(tables, p) : Wdl::Unknown;
      if (slice->values.get(i) == expected) continue;
      ++mismatches;
      std::uint64_t seen = first_bad.load();
      while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
      }
    }
  });
  report.mismatches = mismatches;
  report.first_bad = first_bad;
  return report;
}

}  // namespace dama::egtb
