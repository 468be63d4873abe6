// perft: the number of leaf nodes of the tree of legal moves to a depth — the
// standard check of a move generator against published figures.  The last ply
// is counted, not made (bulk counting).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "movegen.hpp"

namespace dama {

template <RuleSet R, Counting K, Color C>
std::uint64_t perft(const Position<BoardFor<R>>& p, int depth) {
  using Gen = MoveGenerator<R, K>;
  if (depth <= 1) return depth == 1 ? Gen::template count<C>(p) : 1;
  typename Gen::List moves;
  Gen::template generate<C>(p, moves);
  std::uint64_t nodes = 0;
  if (depth == 2) {
    // The last ply is counted in place: no call per node.
    for (const auto& m : moves) nodes += Gen::template count<~C>(p.template after<C>(m));
  } else {
    for (const auto& m : moves) nodes += perft<R, K, ~C>(p.template after<C>(m), depth - 1);
  }
  return nodes;
}

template <RuleSet R, Counting K>
std::uint64_t perft(const Position<BoardFor<R>>& p, int depth) {
  return p.side == Color::White ? perft<R, K, Color::White>(p, depth) : perft<R, K, Color::Black>(p, depth);
}

// perft of each legal move's subtree, in generation order ("divide").
template <RuleSet R, Counting K>
std::vector<std::pair<Move<BoardFor<R>>, std::uint64_t>> perft_divide(const Position<BoardFor<R>>& p, int depth,
                                                                       MoveList<BoardFor<R>>& moves) {
  MoveGenerator<R, K>::generate(p, moves);
  std::vector<std::pair<Move<BoardFor<R>>, std::uint64_t>> out;
  for (const auto& m : moves) out.emplace_back(m, perft<R, K>(p.after(m), depth - 1));
  return out;
}

}  // namespace dama
