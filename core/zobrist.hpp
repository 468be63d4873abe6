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

// The hash of the position after a move, from the hash before it: the same
// value zobrist_hash gives the new position (Position::after's rules: the
// mover is a king after the move if it was one or m promotes), at the cost
// of the squares that change rather than every piece.  The search's hot path.
template <class Bitboard>
std::uint64_t zobrist_after_move(std::uint64_t hash, Color mover, Bitboard kings_before, int from, int to,
                                 Bitboard captured, bool promotes) {
  const int c = index(mover);
  const bool was_king = (kings_before >> from) & 1;
  hash ^= kZobrist.piece[c][was_king][from] ^ kZobrist.piece[c][was_king || promotes][to] ^ kZobrist.black_to_move;
  for_each_bit(captured, [&](int b) { hash ^= kZobrist.piece[c ^ 1][(kings_before >> b) & 1][b]; });
  return hash;
}

}  // namespace dama
