// The tables checked against themselves: every position's value and
// distance re-derived from its successors' (win if a move reaches a position
// lost for the opponent, loss if every move reaches a won one, no move at
// all a loss or in poddavki a win, draw otherwise) must be the stored ones, and every hole of the index
// must hold 0.
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

// The value and distance of p re-derived from its successors (all of which
// must be in `tables`): a win is one ply more than its nearest lost
// successor, a loss one more than its farthest won one, a capture or a
// crowning counting as the conversion itself.
template <RuleSet R>
typename Tablebase<R>::Entry entry_from_successors(const Tablebase<R>& tables, const Position<BoardFor<R>>& p) {
  MoveList<BoardFor<R>> moves;
  MoveGenerator<R>::generate(p, moves);
  if (moves.empty()) return {no_move_value(no_move_wins(R)), 0};
  bool all_won = true;
  int nearest_win = kFarDistance, farthest_loss = 0;
  bool win = false;
  for (const auto& m : moves) {
    const auto child = tables.probe_entry(p.after(m));
    if (!child) throw Error("egtb verify: a successor is in no loaded table");
    const int d = std::min(kFarDistance, 1 + (m.is_capture() || m.promotes ? 0 : child->distance));
    if (child->value == Wdl::Loss) {
      win = true;
      nearest_win = std::min(nearest_win, d);
    }
    all_won &= child->value == Wdl::Win;
    farthest_loss = std::max(farthest_loss, d);
  }
  if (win) return {Wdl::Win, nearest_win};
  if (all_won) return {Wdl::Loss, farthest_loss};
  return {Wdl::Draw, 0};
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
      const auto expected = real ? entry_from_successors(tables, p) : typename Tablebase<R>::Entry{Wdl::Unknown, 0};
      if (slice->values.get(i) == expected.value && slice->distances[i] == expected.distance) continue;
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
