// Memory for large arrays read at random: the transposition table, and the
// tuner's terms when a mini-batch visits them in shuffled order.
//
// With 4 KB pages nearly every random access into hundreds of megabytes
// also misses the TLB, and the page walk costs as much as the access.  An
// array of at least 2 MB is therefore aligned to 2 MB and offered to the
// kernel's transparent huge pages (Linux: madvise, the setting Debian
// ships), which map it with a few hundred TLB entries.  A kernel that
// declines, or a system without madvise, leaves ordinary pages: only slower.
// Measured in docs/performance.md ("Huge pages").
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace dama {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// `bytes` of memory aligned to `alignment`, on huge pages when it is large
// enough to fill one; release with std::free.  Throws std::bad_alloc.
inline void* allocate_for_random_access(std::size_t bytes, std::size_t alignment) {
  const bool huge = bytes >= kHugePageBytes;
  if (huge) alignment = kHugePageBytes;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  void* memory = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (huge) ::madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  return memory;
}

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_for_random_access(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, std::size_t) noexcept { std::free(p); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace dama
