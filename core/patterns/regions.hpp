// Pattern features: overlapping regions of the board, one weight per
// configuration of the men in a region (Scan's readme: the board "divided"
// into 16 overlapping 4x4 regions, each with its own weight per
// configuration).  docs/evaluation.md gives the design and why.
//
// The regions are the 4x4 windows of the board whose corners lie on even
// files and rows: 9 on 8x8 (origins 0, 2, 4 each way), 16 on 10x10 (0, 2, 4,
// 6), 12 on 10x8 (columns 0, 2, 4, 6; rows 0, 2, 4).  A window holds 8 playing squares; each is empty (0), an own man (1) or
// an opponent's man (2), so a region has 3^8 = 6561 configurations.  Kings
// stay out of the patterns (a king's square reads as empty): the named
// features and the king piece-square table value them, and a king's square
// would otherwise need a fourth state, 4^8 = 65536 configurations a region.
//
// Colour symmetry is the only sharing: the board is read as the side to move
// sees it (turned 180 degrees when Black is to move, own and opponent men
// instead of White and Black), so a configuration means the same for both
// colours.  Left-right mirroring is not shared: the 8x8 variants are not
// mirror-symmetric (the double corner is on one side only).
//
// Each region contributes exactly one feature: pattern feature
// kFirst + region * 6561 + configuration, with value 1, blended between an
// opening and an endgame weight like every feature (features.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "../bitboard.hpp"
#include "../board.hpp"
#include "../features.hpp"
#include "../position.hpp"
#include "../variant.hpp"

namespace dama {

inline constexpr int kPatternSquares = 8;          // playing squares of a 4x4 window
inline constexpr int kPatternConfigurations = 6561;  // 3^8

template <class Board>
struct PatternTables {
  using Bitboard = typename Board::Bitboard;
  static constexpr int kColumnOrigins = Board::kWidth / 2 - 1;  // 0, 2, ..., width - 4
  static constexpr int kRowOrigins = Board::kHeight / 2 - 1;    // 0, 2, ..., height - 4
  static constexpr int kRegions = kColumnOrigins * kRowOrigins;
  static constexpr int kFirst = FeatureLayout<Board>::kCount;  // the first pattern feature
  static constexpr int kFeatures = kRegions * kPatternConfigurations;

  // The squares of region r, as White sees them, in ascending square number:
  // digit i of a configuration is the state of square kSquares[r][i].
  static constexpr auto kRegionSquares = [] {
    std::array<std::array<int, kPatternSquares>, kRegions> t{};
    for (int r = 0; r < kRegions; ++r) {
      const int x0 = 2 * (r % kColumnOrigins), y0 = 2 * (r / kColumnOrigins);
      int n = 0;
      for (int s = 1; s <= Board::kSquares; ++s) {
        const int x = Board::x_of_square(s), y = Board::y_of_square(s);
        if (x >= x0 && x < x0 + 4 && y >= y0 && y < y0 + 4) t[r][n++] = s;
      }
    }
    return t;
  }();

  // The actual square colour c's relative square s is.
  static constexpr int actual_square(int c, int s) { return c == 0 ? s : Board::kSquares + 1 - s; }

  // The mask of region r as colour c sees it.
  static constexpr auto kMask = [] {
    std::array<std::array<Bitboard, kRegions>, 2> t{};
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < kRegions; ++r)
        for (const int s : kRegionSquares[r]) t[c][r] |= Board::square_bit(actual_square(c, s));
    return t;
  }();

  // kDigitValue[c][r][bits]: the configuration value of the men `bits`, the
  // region's mask bits taken in ascending bit order (what a parallel bit
  // extract gives): the sum of 3^i over the digits i set.  An opponent's men
  // count twice this.  The bit order differs from the square order on the
  // rotated 8x8 layout, and between the colours, hence a table per colour.
  static constexpr auto kDigitValue = [] {
    std::array<std::array<std::array<std::uint16_t, 256>, kRegions>, 2> t{};
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < kRegions; ++r) {
        std::array<int, kPatternSquares> power_of_bit{};  // by rank of the bit in the mask
        int rank = 0;
        for (int b = 0; b < Board::kBitCount; ++b) {
          if (!((kMask[c][r] >> b) & 1)) continue;
          int digit = 0;
          while (Board::kBitOfSquare[actual_square(c, kRegionSquares[r][digit])] != b) ++digit;
          int power = 1;
          for (int i = 0; i < digit; ++i) power *= 3;
          power_of_bit[rank++] = power;
        }
        for (int bits = 0; bits < 256; ++bits) {
          int value = 0;
          for (int j = 0; j < kPatternSquares; ++j)
            if (bits >> j & 1) value += power_of_bit[j];
          t[c][r][bits] = static_cast<std::uint16_t>(value);
        }
      }
    return t;
  }();
};

namespace patterns_detail {

// The bits of b under mask, packed into the low bits in ascending order.
template <class Bitboard>
[[gnu::always_inline]] inline unsigned extract_bits(Bitboard b, Bitboard mask) {
#if defined(__BMI2__)
  if constexpr (sizeof(Bitboard) == 8) return static_cast<unsigned>(_pext_u64(b, mask));
  else return _pext_u32(b, mask);
#else
  unsigned out = 0;
  for (int j = 0; mask; mask &= mask - 1, ++j)
    if (b & mask & (~mask + 1)) out |= 1u << j;
  return out;
#endif
}

}  // namespace patterns_detail

// The configuration of region r for the side to move.
template <class Board>
[[gnu::always_inline]] inline int pattern_configuration(const Position<Board>& p, int r) {
  using T = PatternTables<Board>;
  const int c = index(p.side);
  const auto mask = T::kMask[c][r];
  const auto& digits = T::kDigitValue[c][r];
  return digits[patterns_detail::extract_bits(p.men(p.side), mask)] +
         2 * digits[patterns_detail::extract_bits(p.men(~p.side), mask)];
}

// Reports the pattern features of p to sink.add(feature, 1), region by
// region: exactly one feature a region, in ascending feature order.
template <RuleSet R, class Sink>
[[gnu::always_inline]] inline void visit_patterns(const Position<BoardFor<R>>& p, Sink& sink) {
  using T = PatternTables<BoardFor<R>>;
  for (int r = 0; r < T::kRegions; ++r)
    sink.add(T::kFirst + r * kPatternConfigurations + pattern_configuration(p, r), 1.0f);
}

// The pattern features of a board size (8 or 10), and a hash (16 hex digits)
// of what they mean: the named schema's hash, the regions' squares and the
// states, so a pattern weights file from a build with other regions is refused.
int pattern_feature_count(BoardShape board);
const std::string& pattern_schema_hash(BoardShape board);
// "r0 = squares 1 2 5 6 9 10 13 14" and so on, for `dama weights info`.
std::string describe_regions(BoardShape board);
// The name of any feature of the pattern model: the named schema's, or
// "pattern.r<region>.<digits>", digit i the state of the region's i-th square.
std::string feature_name(FeatureSchema schema, int feature);

}  // namespace dama
