// The transposition table: what the search learnt about a position, found
// again by its Zobrist hash.
//
// Buckets of two entries, a power-of-two count of them, indexed by the low
// bits of the hash: the first entry keeps the deepest result seen (replaced
// only by one at least as deep, or by anything once a new search has begun),
// the second takes every other store (always-replace), so recent shallow
// results do not push out expensive deep ones and vice versa.
//
// A table belongs to one Searcher, or is shared by the threads of one
// parallel search (core/parallel_search.hpp).  Shared, it needs no lock:
// each entry is two 64-bit words written and read atomically (relaxed), the
// key stored XORed with the data, so a read that meets a half-written entry
// sees a key that matches nothing and misses (the "lockless" scheme of
// Hyatt and Mann, "A lock-less transposition table implementation for
// parallel search chess engines", ICGA Journal 2002).  Single-threaded the
// table behaves exactly as a plain one, so every search from a cleared table
// on one thread is reproducible.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>

#include "evaluate.hpp"
#include "huge_pages.hpp"

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
    buckets_ = allocate_buckets(count);
    count_ = count;
    mask_ = count - 1;
    clear();
  }

  void clear() {
    for (std::size_t i = 0; i < count_; ++i)
      for (Slot* slot : {&buckets_[i].deep, &buckets_[i].recent}) {
        slot->check.store(0, std::memory_order_relaxed);
        slot->data.store(0, std::memory_order_relaxed);
      }
    generation_ = 0;
  }
  // Marks the entries stored so far as belonging to an older search.  Not
  // while threads search: a parallel search calls it before they start.
  void new_search() { ++generation_; }

  // Asks the memory for `key`'s bucket ahead of a probe: a table of many
  // megabytes lives in the last cache level or in memory, and a search can
  // do the rest of its work on a move while the line arrives.
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }

  std::optional<TTEntry> probe(std::uint64_t key) const {
    const Bucket& b = buckets_[key & mask_];
    if (const TTEntry e = load(b.deep); e.bound != Bound::None && e.key == key) return e;
    if (const TTEntry e = load(b.recent); e.bound != Bound::None && e.key == key) return e;
    return std::nullopt;
  }

  void store(std::uint64_t key, int depth, Score score, Bound bound, std::uint16_t move) {
    Bucket& b = buckets_[key & mask_];
    const TTEntry deep = load(b.deep);
    TTEntry entry{key, static_cast<std::int16_t>(score), move, static_cast<std::int8_t>(std::clamp(depth, -128, 127)),
                  bound, generation_};
    const bool replace_deep = deep.bound == Bound::None || deep.key == key || depth >= deep.depth ||
                              deep.generation != generation_;
    Slot& slot = replace_deep ? b.deep : b.recent;
    // A result without a best move (all moves failed low) keeps the move
    // an earlier visit found: it is still the best guess to try first.
    if (move == kNoMoveIndex) {
      const TTEntry old = replace_deep ? deep : load(b.recent);
      if (old.key == key) entry.move = old.move;
    }
    // A deep entry pushed out by a deeper one still beats an empty slot.
    if (replace_deep && deep.bound != Bound::None && deep.key != key) save(b.recent, deep);
    save(slot, entry);
  }

  std::size_t bucket_count() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(Bucket); }

 private:
  struct Slot {
    std::atomic<std::uint64_t> check{0};  // key ^ data
    std::atomic<std::uint64_t> data{0};   // score, move, depth, bound, generation
  };
  struct Bucket {
    Slot deep;    // depth-preferred
    Slot recent;  // always-replace
  };
  static_assert(sizeof(Bucket) == 32);

  static std::uint64_t pack(const TTEntry& e) {
    return std::uint64_t{static_cast<std::uint16_t>(e.score)} | std::uint64_t{e.move} << 16 |
           std::uint64_t{static_cast<std::uint8_t>(e.depth)} << 32 | std::uint64_t{static_cast<std::uint8_t>(e.bound)} << 40 |
           std::uint64_t{e.generation} << 48;
  }
  static TTEntry load(const Slot& slot) {
    const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
    const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
    TTEntry e;
    e.key = check ^ data;
    e.score = static_cast<std::int16_t>(data & 0xFFFF);
    e.move = static_cast<std::uint16_t>(data >> 16 & 0xFFFF);
    e.depth = static_cast<std::int8_t>(data >> 32 & 0xFF);
    e.bound = static_cast<Bound>(data >> 40 & 0xFF);
    e.generation = static_cast<std::uint8_t>(data >> 48 & 0xFF);
    return e;
  }
  static void save(Slot& slot, const TTEntry& e) {
    const std::uint64_t data = pack(e);
    slot.data.store(data, std::memory_order_relaxed);
    slot.check.store(e.key ^ data, std::memory_order_relaxed);
  }

  // Every probe lands on a random bucket: on huge pages (huge_pages.hpp).
  struct FreeBuckets {
    void operator()(Bucket* b) const { std::free(b); }
  };
  using Buckets = std::unique_ptr<Bucket[], FreeBuckets>;

  static Buckets allocate_buckets(std::size_t count) {
    Bucket* buckets = static_cast<Bucket*>(allocate_for_random_access(count * sizeof(Bucket), alignof(Bucket)));
    std::uninitialized_default_construct_n(buckets, count);
    return Buckets(buckets);
  }

  Buckets buckets_;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace dama
