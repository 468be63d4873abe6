// Bit tricks shared by both board layouts.  Kept tiny and constexpr so the
// generator's inner loops compile to single instructions.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace dama {

template <class BB>
constexpr int popcount(BB b) { return std::popcount(b); }

template <class BB>
constexpr int lowest_bit(BB b) { return std::countr_zero(b); }

template <class BB>
constexpr BB lowest_bit_only(BB b) { return b & (~b + 1); }

template <class BB>
constexpr BB pop_lowest(BB b) { return b & (b - 1); }

template <class BB>
constexpr BB bit(int index) { return BB{1} << index; }

// Calls f(index) for every set bit, lowest first.
template <class BB, class F>
constexpr void for_each_bit(BB b, F&& f) {
  while (b) {
    f(lowest_bit(b));
    b = pop_lowest(b);
  }
}

}  // namespace dama
