// The transposition table: what the search learnt about a position, found
// again by its Zobrist hash.
//
// Buckets of two entries, a power-of-two count of them, indexed by the low
// bits of the hash: the first entry keeps the deepest result seen (replaced
// only by one at least as deep, or by anything once a new search has begun),
// the second takes every other store (always-replace), so recent shallow
// results do not push out expensive deep ones and vice versa.
//
// One table belongs to one Searcher: no sharing, no locks, and so every
// search from a cleared table is reproducible.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "evaluate.hpp"

namespace dama {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

// The move is stored as its index in the generator's list for the position
// (generation order is deterministic), which keeps an entry at 16 bytes.
inline constexpr std::uint16_t kNoMoveIndex = 0xFFFF;

struct TTEntry {
  std::uint64_t key = 0;
  std::int16_t score = 0;  // adjusted: a win or loss counts from this node, not the root
  std::uint16_t move = kNoMoveIndex;
  std::int8_t depth = 0;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;
};
static_assert(sizeof(TTEntry) == 16);

// Win and loss scores are kept relative to the node that stores them, so an
// entry means the same wherever in the tree the position is met again.
inline Score score_to_tt(Score s, int ply) {
  if (s > kWinBound) return s + ply;
  if (s < -kWinBound) return s - ply;
  return s;
}
inline Score score_from_tt(Score s, int ply) {
  if (s > kWinBound) return s - ply;
  if (s < -kWinBound) return s + ply;
  return s;
}

class TranspositionTable {
 public:
  // Uses the largest power-of-two number of buckets that fits in `megabytes`
  // (at least one bucket).
  explicit TranspositionTable(std::size_t megabytes) {
    const std::size_t wanted = std::max<std::size_t>(1, megabytes * 1024 * 1024 / sizeof(Bucket));
    std::size_t count = 1;
    while (count * 2 <= wanted) count *= 2;
    buckets_.resize(count);
    mask_ = count - 1;
  }

  void clear() {
    std::fill(buckets_.begin(), buckets_.end(), Bucket{});
    generation_ = 0;
  }
  // Marks the entries stored so far as belonging to an older search.
  void new_search() { ++generation_; }

  const TTEntry* probe(std::uint64_t key) const {
    const Bucket& b = buckets_[key & mask_];
    if (b.deep.bound != Bound::None && b.deep.key == key) return &b.deep;
    if (b.recent.bound != Bound::None && b.recent.key == key) return &b.recent;
    return nullptr;
  }

  void store(std::uint64_t key, int depth, Score score, Bound bound, std::uint16_t move) {
    Bucket& b = buckets_[key & mask_];
    TTEntry entry{key, static_cast<std::int16_t>(score), move, static_cast<std::int8_t>(std::clamp(depth, -128, 127)),
                  bound, generation_};
    const bool replace_deep = b.deep.bound == Bound::None || b.deep.key == key || depth >= b.deep.depth ||
                              b.deep.generation != generation_;
    TTEntry& slot = replace_deep ? b.deep : b.recent;
    // A result without a best move (all moves failed low) keeps the move
    // an earlier visit found: it is still the best guess to try first.
    if (move == kNoMoveIndex && slot.key == key) entry.move = slot.move;
    // A deep entry pushed out by a deeper one still beats an empty slot.
    if (replace_deep && b.deep.bound != Bound::None && b.deep.key != key) b.recent = b.deep;
    slot = entry;
  }

  std::size_t bucket_count() const { return buckets_.size(); }
  std::size_t bytes() const { return buckets_.size() * sizeof(Bucket); }

 private:
  struct Bucket {
    TTEntry deep;    // depth-preferred
    TTEntry recent;  // always-replace
  };
  static_assert(sizeof(Bucket) == 32);

  std::vector<Bucket> buckets_;
  std::size_t mask_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace dama
