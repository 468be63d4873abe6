// The moves the threads of a parallel search are searching right now, so
// that a thread can leave a move another thread is busy with for later
// ("deferred moves": Tom Kerrigan's Simplified ABDADA, tckerrigan.com,
// Chess/Parallel_Search/Simplified_ABDADA, 2017, after Jean-Christophe
// Weill's ABDADA).  By the time the thread comes back to the move the other
// one has usually stored its result in the shared transposition table, and
// the second search of it is a table hit instead of the same work twice --
// the work plain lazy SMP repeats.
//
// A move is named by the key of the position it leads to (a transposition
// reached by another thread counts as busy too, which is what is wanted).
// The table is small and lossy: a set of a few ways per key; a full set
// forgets its oldest guess.  A lost or stale mark costs only a move searched
// out of its best order, never a wrong result: what is found busy is still
// searched, only later.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace dama {

class BusyMoves {
 public:
  BusyMoves() : slots_(std::make_unique<Set[]>(kSets)) { clear(); }

  // Nobody is searching anything (between searches).
  void clear() {
    for (std::size_t s = 0; s < kSets; ++s)
      for (auto& way : slots_[s]) way.store(0, std::memory_order_relaxed);
  }

  // Another thread has marked the move as being searched.
  bool busy(std::uint64_t key) const {
    const Set& set = set_of(key);
    for (const auto& way : set)
      if (way.load(std::memory_order_relaxed) == key) return true;
    return false;
  }

  // Marks the move while this thread searches it.  Races between threads
  // can lose a mark; that is allowed (see the file comment).
  void enter(std::uint64_t key) {
    Set& set = set_of(key);
    for (const auto& way : set)
      if (way.load(std::memory_order_relaxed) == key) return;
    for (auto& way : set)
      if (way.load(std::memory_order_relaxed) == 0) {
        way.store(key, std::memory_order_relaxed);
        return;
      }
    set[0].store(key, std::memory_order_relaxed);
  }

  void leave(std::uint64_t key) {
    for (auto& way : set_of(key)) {
      std::uint64_t expected = key;
      way.compare_exchange_strong(expected, 0, std::memory_order_relaxed);
    }
  }

 private:
  static constexpr std::size_t kSets = 1 << 14;  // 16 384 sets x 4 ways x 8 bytes = 512 KB
  static constexpr std::size_t kWays = 4;
  using Set = std::array<std::atomic<std::uint64_t>, kWays>;

  Set& set_of(std::uint64_t key) { return slots_[key & (kSets - 1)]; }
  const Set& set_of(std::uint64_t key) const { return slots_[key & (kSets - 1)]; }

  std::unique_ptr<Set[]> slots_;
};

}  // namespace dama
