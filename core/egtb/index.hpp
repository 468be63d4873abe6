// The index of a position within its slice (material signature, White to
// move), and back.  Squares are numbered 0..N-1 in PDN order (square s + 1).
//
//   index = ((own men * C(M, other men) + other men) * C(F1, own kings) + own kings)
//           * C(F2, other kings) + other kings
//
// where each term is the colexicographic rank of that set of squares:
//  * White's men among the M = N - N/rows squares off White's crowning row
//    (White never has a man there: it would have been crowned);
//  * Black's men among the M squares off Black's crowning row; a placement
//    that puts a black man on a white man's square is a hole in the index
//    (decode() says so; the table stores 0 there);
//  * White's kings among the F1 squares the men leave free, Black's kings
//    among the F2 squares left after them: no holes.
// The holes are few (about own men x other men / M of the slice) and keep
// index() a handful of table look-ups, the cost that matters in search.
#pragma once

#include <array>
#include <cstdint>

#include "../bitboard.hpp"
#include "../position.hpp"
#include "material.hpp"

namespace dama::egtb {

inline constexpr int kMaxTablePieces = 8;

// C(n, k) for n up to the 50 squares of 10x10, k up to kMaxTablePieces.
inline constexpr auto kBinomial = [] {
  std::array<std::array<std::uint64_t, kMaxTablePieces + 1>, 51> c{};
  for (int n = 0; n <= 50; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= kMaxTablePieces; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
  }
  return c;
}();

template <class Board>
class SliceIndex {
 public:
  using Bitboard = typename Board::Bitboard;
  using Pos = Position<Board>;
  static constexpr int kSquares = Board::kSquares;
  static constexpr int kRow = Board::kSquaresPerRow;
  static constexpr int kManSquares = kSquares - kRow;

  explicit SliceIndex(const Material& m) : m_(m) {
    men_ways_[0] = kBinomial[kManSquares][m.own_men];
    men_ways_[1] = kBinomial[kManSquares][m.other_men];
    king_ways_[0] = kBinomial[kSquares - m.men()][m.own_kings];
    king_ways_[1] = kBinomial[kSquares - m.men() - m.own_kings][m.other_kings];
    size_ = men_ways_[0] * men_ways_[1] * king_ways_[0] * king_ways_[1];
  }

  const Material& material() const { return m_; }
  std::uint64_t size() const { return size_; }

  // p has White to move and this slice's material.
  std::uint64_t index(const Pos& p) const {
    const std::uint64_t own_men = linear(p.men(Color::White)), other_men = linear(p.men(Color::Black));
    const std::uint64_t own_kings = linear(p.kings_of(Color::White)), other_kings = linear(p.kings_of(Color::Black));
    // White's men sit on squares kRow.. (square 1..kRow is White's crowning row).
    const std::uint64_t r0 = rank(own_men >> kRow);
    const std::uint64_t r1 = rank(other_men);
    const std::uint64_t r2 = rank_among_free(own_kings, own_men | other_men);
    const std::uint64_t r3 = rank_among_free(other_kings, own_men | other_men | own_kings);
    return ((r0 * men_ways_[1] + r1) * king_ways_[0] + r2) * king_ways_[1] + r3;
  }

  // The position at `index` (White to move); false for a hole.
  bool decode(std::uint64_t index, Pos& p) const {
    const std::uint64_t r3 = index % king_ways_[1];
    index /= king_ways_[1];
    const std::uint64_t r2 = index % king_ways_[0];
    index /= king_ways_[0];
    const std::uint64_t r1 = index % men_ways_[1];
    const std::uint64_t r0 = index / men_ways_[1];
    const std::uint64_t own_men = unrank(r0, m_.own_men) << kRow;
    const std::uint64_t other_men = unrank(r1, m_.other_men);
    if (own_men & other_men) return false;
    const std::uint64_t own_kings = place_among_free(unrank(r2, m_.own_kings), own_men | other_men);
    const std::uint64_t other_kings = place_among_free(unrank(r3, m_.other_kings), own_men | other_men | own_kings);
    p = Pos{};
    p.pieces[0] = board(own_men | own_kings);
    p.pieces[1] = board(other_men | other_kings);
    p.kings = board(own_kings | other_kings);
    p.side = Color::White;
    return true;
  }

 private:
  static constexpr auto kLinearOfBit = [] {
    std::array<std::int8_t, Board::kBitCount> t{};
    for (int b = 0; b < Board::kBitCount; ++b) t[b] = static_cast<std::int8_t>(Board::kSquareOfBit[b] - 1);
    return t;
  }();

  // The set as a mask of linear squares (bit s = square s + 1).
  static std::uint64_t linear(Bitboard b) {
    std::uint64_t out = 0;
    for_each_bit(b, [&](int bit) { out |= std::uint64_t{1} << kLinearOfBit[bit]; });
    return out;
  }
  static Bitboard board(std::uint64_t linear_squares) {
    Bitboard out = 0;
    for_each_bit(linear_squares, [&](int s) { out |= Board::square_bit(s + 1); });
    return out;
  }
  static std::uint64_t rank(std::uint64_t set) {
    std::uint64_t r = 0;
    int i = 1;
    for_each_bit(set, [&](int s) { r += kBinomial[s][i++]; });
    return r;
  }
  static std::uint64_t unrank(std::uint64_t r, int k) {
    std::uint64_t set = 0;
    for (int i = k, s = 50; i >= 1; --i) {
      while (kBinomial[s][i] > r) --s;
      r -= kBinomial[s][i];
      set |= std::uint64_t{1} << s;
    }
    return set;
  }
  // Squares renumbered past the occupied ones: the j-th free square is j.
  static std::uint64_t rank_among_free(std::uint64_t set, std::uint64_t occupied) {
    std::uint64_t r = 0;
    int i = 1;
    for_each_bit(set, [&](int s) {
      const int free_below = s - std::popcount(occupied & ((std::uint64_t{1} << s) - 1));
      r += kBinomial[free_below][i++];
    });
    return r;
  }
  static std::uint64_t place_among_free(std::uint64_t relative, std::uint64_t occupied) {
    std::uint64_t out = 0;
    int free_index = 0;
    for (int s = 0; s < kSquares && relative; ++s) {
      if (occupied >> s & 1) continue;
      if (relative >> free_index & 1) {
        out |= std::uint64_t{1} << s;
        relative &= ~(std::uint64_t{1} << free_index);
      }
      ++free_index;
    }
    return out;
  }

  Material m_;
  std::uint64_t men_ways_[2], king_ways_[2], size_;
};

}  // namespace dama::egtb
