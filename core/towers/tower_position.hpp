// Bashni's position (docs/rules-russian-family.md): every occupied square
// holds a tower, a stack of pieces of either colour owned by its top piece.
// The top pieces are kept exactly as every other variant keeps its pieces
// (pieces by colour, kings, side to move), so the move generator, which moves
// a tower as its top piece moves, is the one all variants use; the rest of
// each tower is one word per square.  Copy-make, as Position<Board>.
#pragma once

#include <array>
#include <cstdint>

#include "../bitboard.hpp"
#include "../board.hpp"
#include "../move.hpp"
#include "../zobrist.hpp"

namespace dama {

namespace towers {

// The pieces under a tower's top piece in one word: their number in the low
// 6 bits, then a colour field (bit i set: the i-th piece under the top is
// Black; i = 0 lies right under the top) and a king field.
using Below = std::uint64_t;
inline constexpr int kFieldBits = 29;
inline constexpr int kColourShift = 6;
inline constexpr int kKingShift = kColourShift + kFieldBits;
inline constexpr Below kCountMask = 63;
inline constexpr Below kField = (Below{1} << kFieldBits) - 1;

struct Piece {
  Color colour;
  bool king;
  constexpr bool operator==(const Piece&) const = default;
};

constexpr int count(Below b) { return static_cast<int>(b & kCountMask); }
constexpr Below colours(Below b) { return (b >> kColourShift) & kField; }
constexpr Below kings(Below b) { return (b >> kKingShift) & kField; }
constexpr Below make(int n, Below colour_bits, Below king_bits) {
  return static_cast<Below>(n) | (colour_bits << kColourShift) | (king_bits << kKingShift);
}
// The i-th piece under the top.
constexpr Piece piece(Below b, int i) {
  return {((colours(b) >> i) & 1) ? Color::Black : Color::White, ((kings(b) >> i) & 1) != 0};
}
// b with p put at the bottom: where a capture puts the piece it takes.
constexpr Below with_bottom(Below b, Piece p) {
  const int n = count(b);
  return make(n + 1, colours(b) | (Below{p.colour == Color::Black} << n), kings(b) | (Below{p.king} << n));
}
// b without its first piece, which has become the top.
constexpr Below without_first(Below b) { return make(count(b) - 1, colours(b) >> 1, kings(b) >> 1); }
// Every piece's colour the other one.
constexpr Below colours_swapped(Below b) {
  return make(count(b), colours(b) ^ ((Below{1} << count(b)) - 1), kings(b));
}

// The hash key of piece p lying i places under the top on bit `bit`: a
// fixed mix of the three, so no table is needed for 64 x 29 x 4 keys.
constexpr std::uint64_t key(int bit, int i, Piece p) {
  std::uint64_t state = 0xB45A7C0FF5E3ULL ^ (static_cast<std::uint64_t>(bit) << 16) ^
                        (static_cast<std::uint64_t>(i) << 4) ^ (static_cast<std::uint64_t>(p.colour == Color::Black) << 1) ^
                        static_cast<std::uint64_t>(p.king);
  return splitmix64(state);
}

// The squares strictly between two squares on one diagonal.
template <class Board>
constexpr typename Board::Bitboard between(int from_bit, int to_bit) {
  const int a = Board::kSquareOfBit[from_bit], b = Board::kSquareOfBit[to_bit];
  const int x0 = Board::x_of_square(a), y0 = Board::y_of_square(a);
  const int x1 = Board::x_of_square(b), y1 = Board::y_of_square(b);
  const int dx = x1 > x0 ? 1 : -1, dy = y1 > y0 ? 1 : -1;
  typename Board::Bitboard out = 0;
  for (int x = x0 + dx, y = y0 + dy; x != x1; x += dx, y += dy) out |= Board::square_bit(Board::square_of_xy(x, y));
  return out;
}

// Calls f(bit) for each square capture m jumps, in the order jumped: the one
// captured square between each two consecutive stops of its path.  The
// order prisoners go under the tower, and the order the Hub writes them.
template <class Board, class F>
constexpr void for_each_jumped(const Move<Board>& m, F&& f) {
  int at = m.from;
  for (int i = 0; i <= m.landing_count; ++i) {
    const int stop = i < m.landing_count ? m.landings[i] : m.to;
    f(lowest_bit(static_cast<typename Board::Bitboard>(m.captured & between<Board>(at, stop))));
    at = stop;
  }
}

}  // namespace towers

template <class Board>
struct Position;

template <class B>
struct Position<Towers<B>> {
  using Board = Towers<B>;
  using Bitboard = typename Board::Bitboard;
  // Every piece of the game can end in one tower: all but its top lie below.
  static constexpr int kMaxBelow = 2 * Board::kStartMen - 1;
  static_assert(kMaxBelow <= towers::kFieldBits, "a tower's pieces do not fit in its word");

  std::array<Bitboard, 2> pieces{};  // top pieces by colour, men and kings together
  Bitboard kings = 0;                // top pieces that are kings
  Color side = Color::White;
  std::array<towers::Below, Board::kBitCount> below{};  // by bit; 0 on a square without a tower under its top

  constexpr Bitboard occupied() const { return pieces[0] | pieces[1]; }
  constexpr Bitboard empty() const { return Board::kAll & ~occupied(); }
  constexpr Bitboard of(Color c) const { return pieces[index(c)]; }
  constexpr Bitboard men(Color c) const { return pieces[index(c)] & ~kings; }
  constexpr Bitboard kings_of(Color c) const { return pieces[index(c)] & kings; }

  // The piece on top at `bit` and the one i places under it (i >= 0).
  constexpr towers::Piece top(int bit) const {
    return {(pieces[1] >> bit) & 1 ? Color::Black : Color::White, ((kings >> bit) & 1) != 0};
  }
  constexpr int height(int bit) const { return (occupied() >> bit) & 1 ? 1 + towers::count(below[bit]) : 0; }

  // The position after m: the whole tower moves; each tower jumped gives its
  // top piece to the bottom of the moving tower, in the order jumped, and is
  // then owned by the piece that was under it, or leaves an empty square.
  template <Color C>
  constexpr Position after(const Move<Board>& m) const {
    Position next = *this;
    const Bitboard from = Bitboard{1} << m.from, to = Bitboard{1} << m.to;
    const bool king = (kings & from) || m.promotes;
    next.pieces[index(C)] = pieces[index(C)] & ~from;
    next.kings = kings & ~from;
    towers::Below moving = below[m.from];
    next.below[m.from] = 0;
    if (m.captured) {
      towers::for_each_jumped(m, [&](int bit) {
        const Bitboard square = Bitboard{1} << bit;
        moving = towers::with_bottom(moving, top(bit));
        next.pieces[index(~C)] &= ~square;
        next.kings &= ~square;
        const towers::Below rest = below[bit];
        if (towers::count(rest) == 0) return;
        const towers::Piece freed = towers::piece(rest, 0);
        next.pieces[index(freed.colour)] |= square;
        if (freed.king) next.kings |= square;
        next.below[bit] = towers::without_first(rest);
      });
    }
    next.pieces[index(C)] |= to;
    if (king) next.kings |= to;
    next.below[m.to] = moving;
    next.side = ~C;
    return next;
  }
  constexpr Position after(const Move<Board>& m) const {
    return side == Color::White ? after<Color::White>(m) : after<Color::Black>(m);
  }

  std::uint64_t hash() const {
    std::uint64_t h = zobrist_hash<Board>(pieces, kings, side);
    for_each_bit(occupied(), [&](int bit) {
      for (int i = 0; i < towers::count(below[bit]); ++i) h ^= towers::key(bit, i, towers::piece(below[bit], i));
    });
    return h;
  }

  // The same game from the other chair (Position<Board>::flipped), towers and all.
  constexpr Position flipped() const {
    Position p;
    for_each_bit(occupied(), [&](int bit) {
      const int turned = Board::kBitOfSquare[Board::kSquares + 1 - Board::kSquareOfBit[bit]];
      const towers::Piece t = top(bit);
      p.pieces[index(~t.colour)] |= Bitboard{1} << turned;
      if (t.king) p.kings |= Bitboard{1} << turned;
      p.below[turned] = towers::colours_swapped(below[bit]);
    });
    p.side = ~side;
    return p;
  }

  constexpr bool operator==(const Position&) const = default;

  // Russian draughts' start: a man on every square of a side's 3 nearest rows.
  static constexpr Position start(Color first_player) {
    Position p;
    p.pieces[0] = Board::T::make_start_men(0);
    p.pieces[1] = Board::T::make_start_men(1);
    p.side = first_player;
    return p;
  }

};

namespace towers {

// Bit i set: the i-th top piece capture m takes in p is a king.  With the
// move's ends and captured squares this names a capture uniquely (the
// generator's identity of a tower capture), so datasets store it.
template <class B>
std::uint32_t prisoner_kings(const Position<Towers<B>>& p, const Move<Towers<B>>& m) {
  std::uint32_t bits = 0;
  int i = 0;
  for_each_jumped(m, [&](int bit) { bits |= static_cast<std::uint32_t>((p.kings >> bit) & 1) << i++; });
  return bits;
}

}  // namespace towers

}  // namespace dama
