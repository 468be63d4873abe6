// A move and a fixed-capacity move list (no heap allocation on the hot path).
// A move's identity is (from, to, captured set) — RULES.md "Identity of a move";
// the landing squares are kept only to print and read notation.
#pragma once

#include <array>
#include <cstdint>

#include "board.hpp"
#include "error.hpp"

namespace dama {

template <class Board>
struct Move {
  using Bitboard = typename Board::Bitboard;
  Bitboard captured;  // squares of the pieces taken (0 for a step)
  std::uint8_t from;  // bit indices in Board's layout
  std::uint8_t to;
  bool promotes;      // the moving man ends the move as a king
  std::uint8_t landing_count;  // intermediate landing squares of a capture
  std::array<std::uint8_t, Board::kMaxCaptures - 1> landings;

  bool is_capture() const { return captured != 0; }
  bool same_identity(const Move& o) const {
    return from == o.from && to == o.to && captured == o.captured;
  }
};

template <class Board>
class MoveList {
 public:
  // Enough for any position reachable in play on either board; a full list is
  // reported, never overrun.
  static constexpr int kCapacity = Board::kWidth == 8 ? 384 : 768;
  static constexpr int kMaxPieces = Board::kStartMen;
  static constexpr int kMaxKingSteps = Board::kMaxKingSteps;
  static_assert(kCapacity >= kMaxPieces * (kMaxKingSteps + 4), "room for every step and single jump unchecked");
  using MoveT = Move<Board>;

  // Steps and single jumps need no check: a side has at most 12 (20) pieces
  // and a flying king at most 13 (17) steps, far below the capacity.  The
  // generator writes through a local cursor so the size is stored once, not
  // reloaded after every byte written (bytes may alias it).
  MoveT* cursor() { return moves_.data() + size_; }
  void set_cursor(MoveT* end) { size_ = static_cast<int>(end - moves_.data()); }
  MoveT& push() {
    if (size_ == kCapacity) [[unlikely]]
      throw Error("move list overflow: more than " + std::to_string(kCapacity) + " moves");
    return moves_[size_++];
  }
  void truncate(int n) { size_ = n; }
  void clear() { size_ = 0; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  MoveT& operator[](int i) { return moves_[i]; }
  const MoveT& operator[](int i) const { return moves_[i]; }
  const MoveT* begin() const { return moves_.data(); }
  const MoveT* end() const { return moves_.data() + size_; }
  MoveT* begin() { return moves_.data(); }
  MoveT* end() { return moves_.data() + size_; }

 private:
  int size_ = 0;
  std::array<MoveT, kCapacity> moves_;
};

}  // namespace dama
