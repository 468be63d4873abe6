// Zobrist keys: a constant table filled at compile time from a fixed-seed
// splitmix64 stream, so hashes are identical in every build and run.
#pragma once

#include <array>
#include <cstdint>

#include "bitboard.hpp"
#include "board.hpp"

namespace dama {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// kZobristPiece[colour][is_king][bit]; kZobristBlackToMove for the side.
struct ZobristTable {
  std::array<std::array<std::array<std::uint64_t, 64>, 2>, 2> piece{};
  std::uint64_t black_to_move = 0;
};

inline constexpr ZobristTable kZobrist = [] {
  ZobristTable t;
  std::uint64_t state = 0xDA3A2026ULL;
  for (auto& colour : t.piece)
    for (auto& kind : colour)
      for (auto& key : kind) key = splitmix64(state);
  t.black_to_move = splitmix64(state);
  return t;
}();

template <class Board, class Bitboard>
std::uint64_t zobrist_hash(const std::array<Bitboard, 2>& pieces, Bitboard kings, Color side) {
  std::uint64_t h = side == Color::Black ? kZobrist.black_to_move : 0;
  for (int c = 0; c < 2; ++c) {
    for_each_bit(Bitboard(pieces[c] & ~kings), [&](int b) { h ^= kZobrist.piece[c][0][b]; });
    for_each_bit(Bitboard(pieces[c] & kings), [&](int b) { h ^= kZobrist.piece[c][1][b]; });
  }
  return h;
}

}  // namespace dama
