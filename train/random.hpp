// The tuner's random numbers: splitmix64, the same sequence on every
// platform, so a seed reproduces a split and every shuffle.
#pragma once

#include <cstdint>

namespace dama::train {

constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform double in [0, 1) from 53 bits of a hash.
constexpr double unit_interval(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix64(state_ - 0x9e3779b97f4a7c15ULL);
  }
  // Uniform in [0, n) (n > 0): the bias of a modulo of 64 bits is negligible here.
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  std::uint64_t state_;
};

}  // namespace dama::train
