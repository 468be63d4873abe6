// A position: who stands where and who is to move.  Copy-make: after() returns
// the position after a move, so search and perft never undo anything.
#pragma once

#include <array>
#include <cstdint>

#include "board.hpp"
#include "move.hpp"
#include "variant.hpp"
#include "zobrist.hpp"

namespace dama {

template <class Board>
struct Position {
  using Bitboard = typename Board::Bitboard;

  std::array<Bitboard, 2> pieces{};  // by colour, men and kings together
  Bitboard kings = 0;
  Color side = Color::White;

  constexpr Bitboard occupied() const { return pieces[0] | pieces[1]; }
  constexpr Bitboard empty() const { return Board::kAll & ~occupied(); }
  constexpr Bitboard of(Color c) const { return pieces[index(c)]; }
  constexpr Bitboard men(Color c) const { return pieces[index(c)] & ~kings; }
  constexpr Bitboard kings_of(Color c) const { return pieces[index(c)] & kings; }

  // The position after m, with the side to move known at compile time (the
  // hot path: no indexing by a runtime colour).
  template <Color C>
  [[gnu::always_inline]] constexpr Position after(const Move<Board>& m) const {
    Position next;
    const Bitboard from = Bitboard{1} << m.from, to = Bitboard{1} << m.to;
    next.pieces[index(C)] = (pieces[index(C)] & ~from) | to;  // from == to when a capture returns home
    next.pieces[index(~C)] = pieces[index(~C)] & ~m.captured;
    const bool king = (kings & from) || m.promotes;
    next.kings = (kings & ~(m.captured | from)) | (king ? to : 0);
    next.side = ~C;
    return next;
  }
  constexpr Position after(const Move<Board>& m) const {
    return side == Color::White ? after<Color::White>(m) : after<Color::Black>(m);
  }

  std::uint64_t hash() const { return zobrist_hash<Board>(pieces, kings, side); }

  // The same game seen from the other chair: the board turned 180 degrees
  // (square s <-> N+1-s), the colours swapped, the other side to move.  Every
  // rule is symmetric under this, so a sound evaluation is too (tests).
  constexpr Position flipped() const {
    const auto turned = [](Bitboard b) {
      Bitboard out = 0;
      for_each_bit(b, [&](int bit) {
        out |= Board::square_bit(Board::kSquares + 1 - Board::kSquareOfBit[bit]);
      });
      return out;
    };
    Position p;
    p.pieces[0] = turned(pieces[1]);
    p.pieces[1] = turned(pieces[0]);
    p.kings = turned(kings);
    p.side = ~side;
    return p;
  }

  constexpr bool operator==(const Position&) const = default;

  // The variant's start: each side's men on its 3 (8x8, 10x8) or 4 (10x10) nearest rows.
  static constexpr Position start(Color first_player) {
    Position p;
    p.pieces[0] = Board::T::make_start_men(0);
    p.pieces[1] = Board::T::make_start_men(1);
    p.side = first_player;
    return p;
  }
};

}  // namespace dama

// Bashni keeps a tower on each square: Position<Towers<B>>.
#include "towers/tower_position.hpp"
