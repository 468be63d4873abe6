// Little-endian integers and the FNV-1a checksum of dama's binary files (the
// pattern weights, the endgame tables): the same bytes on every platform.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace dama {

// FNV-1a, 64 bits: tiny, stable, enough to catch a corrupt or truncated file.
inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

template <class T>
T read_le(std::string_view bytes, std::size_t at) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    value |= static_cast<T>(static_cast<T>(static_cast<unsigned char>(bytes[at + i])) << (8 * i));
  return value;
}

template <class T>
void append_le(std::string& out, T value) {
  using U = std::make_unsigned_t<T>;
  const U bits = static_cast<U>(value);
  for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xffu));
}

}  // namespace dama
