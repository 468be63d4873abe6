// The evaluation features: what the engine and the tuner see of a position.
//
// visit_features() is the only place a feature is computed.  It reports each
// active feature to a sink as sink.add(feature, value); evaluate() passes a
// sink that sums weights on the fly and extract_features() one that records
// terms, so the engine and the tuner cannot disagree about a feature.
//
// Every value is from the side to move's view: the side to move's count minus
// the opponent's, unless a feature says otherwise.  Squares are seen from the
// owner's side: a piece of the second colour is looked up on the square a
// 180-degree turn of the board gives it (s -> N+1-s), so a feature means the
// same for both colours and the evaluation is colour-symmetric.
//
// The schema (the ordered list of feature names) is per board size.  Weight
// files are keyed by name and carry a hash of this list, so appending a family
// of features (e.g. Scan-style patterns "pattern.<region>.<config>") changes
// the hash but never the file format.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bitboard.hpp"
#include "board.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama {

// The features that exist once per board (PSTs come after them).
enum NamedFeature : int {
  kMaterialMan,           // men
  kMaterialKing,          // kings
  kBackRowGuard,          // men still on their own first row (they keep the opponent from crowning)
  kCentreMan,             // men on the 8 central squares
  kCentreKing,            // kings on the 8 central squares
  kKingLongDiagonal,      // kings on the long diagonal a1-h8 (a1-j10; 10x8: FeatureTables)
  kKingDoubleDiagonal,    // kings on the two diagonals next to the double corners (a7-g1, b8-h2; 10x10 alike)
  kKingTrapped,           // kings with no empty neighbouring square (no step at all)
  kTempoMan,              // the men's advancement: rows each man has moved up, summed
  kMobilityMan,           // plain steps the men have
  kMobilityKing,          // plain steps (slides, for flying kings) the kings have
  kRunawayMan,            // men no enemy piece can stop from crowning (see runaway_men)
  kStructureBackedMan,    // men off the first row with both rear squares own pieces or off the board
  kStructureIsolatedMan,  // men with no own piece on any neighbouring square
  kBalanceMan,            // |men on the left half - men on the right half|
  kEndgameTempoParity,    // +1/-1 in kingless endgames, by the parity of the steps left (see tempo_parity)
  kSideToMove,            // always 1: the value of having the move
  kNamedFeatureCount
};

inline constexpr std::array<std::string_view, kNamedFeatureCount> kNamedFeatureNames = {
    "material.man",         "material.king",      "back_row.guard",        "centre.man",
    "centre.king",          "king.long_diagonal", "king.double_diagonal",  "king.trapped",
    "tempo.man",            "mobility.man",       "mobility.king",         "runaway.man",
    "structure.backed_man", "structure.isolated_man", "balance.man",       "endgame.tempo_parity",
    "side_to_move"};

// Where each feature lives in the schema of one board.  Feature f owns weights
// 2f (opening) and 2f+1 (endgame).
//   [0, kNamedFeatureCount)   the named features above
//   pst.man.<i>               a man on relative square i; i runs over the
//                             squares a man can stand on (not its crowning row)
//   pst.king.<i>              a king on relative square i, i = 1..N
// "Relative square" is the PDN number of the square as the owner sees it,
// i.e. as if the owner were White: its men crown on the top row (squares
// 1..4, 1..5) and start on the highest numbers.
template <class Board>
struct FeatureLayout {
  static constexpr int kManSquares = Board::kSquares - Board::kSquaresPerRow;
  static constexpr int kPstMan = kNamedFeatureCount;  // + relative square - (squares per row + 1)
  static constexpr int kPstKing = kPstMan + kManSquares;  // + relative square - 1
  static constexpr int kCount = kPstKing + Board::kSquares;
};

// Bashni's towers add two features after the piece-square tables, each a
// count by the owner of the top piece, side to move's minus the opponent's:
//   tower.reserve    own pieces right under an own top, down to the first
//                    enemy piece: each takes over the square when the top
//                    above it is taken
//   tower.prisoners  enemy pieces anywhere under an own top: held as long as
//                    the tower stands, freed in turn as it is taken apart
template <class B>
struct FeatureLayout<Towers<B>> : FeatureLayout<B> {
  static constexpr int kTowerReserve = FeatureLayout<B>::kCount;
  static constexpr int kTowerPrisoners = kTowerReserve + 1;
  static constexpr int kCount = kTowerPrisoners + 1;
};
inline constexpr std::array<std::string_view, 2> kTowerFeatureNames = {"tower.reserve", "tower.prisoners"};

// Which schema a rule set's evaluation has: one per board shape, and
// bashni's (8x8 with the tower features).  A BoardShape alone names the
// schema of the variants without towers.
struct FeatureSchema {
  BoardShape board;
  bool towers = false;
  constexpr FeatureSchema(BoardShape b, bool t = false) : board(b), towers(t) {}  // NOLINT: a shape is a schema
  constexpr FeatureSchema(int width, int height) : board{width, height} {}        // NOLINT: {8, 8} as a shape
  constexpr bool operator==(const FeatureSchema&) const = default;
};
constexpr FeatureSchema feature_schema(const RuleSet& r) { return {r.board, has_towers(r)}; }

// Schema of a board shape (8x8, 10x10, 10x8) or of bashni: the ordered
// feature names, their count, and a hash of the list (16 hex digits) that
// weight files must match.
int feature_count(FeatureSchema schema);
const std::vector<std::string>& feature_names(FeatureSchema schema);
const std::string& schema_hash(FeatureSchema schema);

// Masks and per-square tables the features read, built at compile time from
// the board geometry.  Index [c] is by colour.
template <class Board>
struct FeatureTables {
  using Bitboard = typename Board::Bitboard;
  using Layout = FeatureLayout<Board>;
  static constexpr int kWidth = Board::kWidth, kHeight = Board::kHeight;
  static constexpr int kBits = Board::kBitCount;

  static constexpr Bitboard squares_where(auto&& predicate) {
    Bitboard b = 0;
    for (int s = 1; s <= Board::kSquares; ++s)
      if (predicate(Board::x_of_square(s), Board::y_of_square(s))) b |= Board::square_bit(s);
    return b;
  }
  // The board turned 180 degrees: what a mask of White's is for Black.
  static constexpr Bitboard turned(Bitboard b) {
    Bitboard out = 0;
    for (int s = 1; s <= Board::kSquares; ++s)
      if (b & Board::square_bit(s)) out |= Board::square_bit(Board::kSquares + 1 - s);
    return out;
  }
  static constexpr std::array<Bitboard, 2> for_both(Bitboard white) { return {white, turned(white)}; }

  // The square a piece of colour c on `bit` stands on, as its owner sees it.
  static constexpr int relative_square(int c, int bit) {
    const int s = Board::kSquareOfBit[bit];
    return c == 0 ? s : Board::kSquares + 1 - s;
  }

  static constexpr auto kPstManIndex = [] {
    std::array<std::array<std::int16_t, kBits>, 2> t{};
    for (int c = 0; c < 2; ++c)
      for (int b = 0; b < kBits; ++b) {
        const int rel = relative_square(c, b);
        const bool man_square = Board::kSquareOfBit[b] != 0 && rel > Board::kSquaresPerRow;
        t[c][b] = static_cast<std::int16_t>(man_square ? Layout::kPstMan + rel - Board::kSquaresPerRow - 1 : -1);
      }
    return t;
  }();
  static constexpr auto kPstKingIndex = [] {
    std::array<std::array<std::int16_t, kBits>, 2> t{};
    for (int c = 0; c < 2; ++c)
      for (int b = 0; b < kBits; ++b)
        t[c][b] = static_cast<std::int16_t>(Board::kSquareOfBit[b] ? Layout::kPstKing + relative_square(c, b) - 1 : -1);
    return t;
  }();

  // The owner's rows 1..height-2 (a man is never on row height-1, its crowning row).
  static constexpr auto kRelativeRow = [] {
    std::array<std::array<Bitboard, kHeight>, 2> t{};
    for (int y = 0; y < kHeight; ++y) {
      const auto masks = for_both(squares_where([y](int, int sy) { return sy == y; }));
      t[0][y] = masks[0];
      t[1][y] = masks[1];
    }
    return t;
  }();

  static constexpr auto kBackRow = for_both(squares_where([](int, int y) { return y == 0; }));
  // The middle four columns of the middle four rows.
  static constexpr Bitboard kCentre = squares_where([](int x, int y) {
    return x >= kWidth / 2 - 2 && x <= kWidth / 2 + 1 && y >= kHeight / 2 - 2 && y <= kHeight / 2 + 1;
  });
  // Masks read for both colours alike, so each is its own 180-degree turn:
  // on a square board a1-h8 (a1-j10) and the two diagonals beside the double
  // corners; on 10x8 the two longest diagonals (a1-h8, c1-k8) and the two
  // diagonals that meet the corners a7 and k2.
  static constexpr Bitboard kLongDiagonal = squares_where([](int x, int y) { return x - y == 0 || x - y == kWidth - kHeight; });
  static constexpr Bitboard kDoubleDiagonals =
      squares_where([](int x, int y) { return x + y == kHeight - 2 || x + y == kWidth; });
  static_assert(turned(kLongDiagonal) == kLongDiagonal && turned(kDoubleDiagonals) == kDoubleDiagonals);
  static constexpr Bitboard kLeftHalf = squares_where([](int x, int) { return x < kWidth / 2; });

  // Runaway men (runaway_men below).  For a White man on (x, y):
  //  kRunawayPath: the squares it could pass through on its way to the
  //    crowning row, (x', y') with y' > y and |x' - x| <= y' - y.  An enemy
  //    man outside this cone can never reach a square of it (both move one
  //    row a turn), so it can neither block the man nor jump it forwards.
  //  kRunawayZone: where men also capture backwards, an enemy man can jump
  //    the man from behind once it has passed.  Widening the cone by two files
  //    and one row back, (x', y') with y' >= y - 1 and |x' - x| <= y' - y + 2,
  //    covers every square such a jump can start from, whoever moves first.
  static constexpr auto make_runaway_table(int widen, int rows_back) {
    std::array<std::array<Bitboard, kBits>, 2> t{};
    for (int b = 0; b < kBits; ++b) {
      const int s = Board::kSquareOfBit[b];
      if (s == 0) continue;
      const int x = Board::x_of_square(s), y = Board::y_of_square(s);
      t[0][b] = squares_where([=](int sx, int sy) {
        const int dx = sx > x ? sx - x : x - sx;
        return sy >= y - rows_back && !(sx == x && sy == y) && dx <= sy - y + widen;
      });
      // Black's entry for the square a turn of the board takes s to.
      t[1][Board::kBitOfSquare[Board::kSquares + 1 - s]] = turned(t[0][b]);
    }
    return t;
  }
  static constexpr auto kRunawayPath = make_runaway_table(0, 0);
  static constexpr auto kRunawayZone = make_runaway_table(2, 1);
};

// How far the game has gone, from the material on the board: 1 with every
// man on the board (the opening), falling linearly to 0 with an empty board.
// The one function that decides the blend of opening and endgame weights.
template <class Board>
constexpr float game_phase(const Position<Board>& p) {
  constexpr int kStartPieces = 2 * Board::kStartMen;
  const int pieces = popcount(p.occupied());
  return pieces >= kStartPieces ? 1.0f : static_cast<float>(pieces) / static_cast<float>(kStartPieces);
}

namespace features_detail {

template <class Board, Dir... Ds>
[[gnu::always_inline]] constexpr typename Board::Bitboard step_any(typename Board::Bitboard b) {
  return (Board::template step<Ds>(b) | ...);
}

template <class Board, Color C>
[[gnu::always_inline]] inline int man_steps(typename Board::Bitboard men, typename Board::Bitboard empty) {
  constexpr Dir kLeft = C == Color::White ? NW : SW, kRight = C == Color::White ? NE : SE;
  return popcount(Board::template step<kLeft>(men) & empty) + popcount(Board::template step<kRight>(men) & empty);
}

template <RuleSet R>
[[gnu::always_inline]] inline int king_steps(typename BoardFor<R>::Bitboard kings, typename BoardFor<R>::Bitboard empty) {
  using Board = BoardFor<R>;
  if (!kings) return 0;
  int n = 0;
  auto along = [&]<Dir D>() {
    auto ray = Board::template step<D>(kings) & empty;
    if constexpr (R.flying_kings) {
      // A fixed number of steps rather than "while the ray goes on": no
      // unpredictable branch.  Rays of two kings along one direction never
      // overlap (each stops at the first piece), so one popcount counts all.
      auto reach = ray;
      for (int i = 2; i <= Board::kLongestDiagonal; ++i) {
        ray = Board::template step<D>(ray) & empty;
        reach |= ray;
      }
      n += popcount(reach);
    } else {
      n += popcount(ray);
    }
  };
  along.template operator()<NE>();
  along.template operator()<NW>();
  along.template operator()<SE>();
  along.template operator()<SW>();
  return n;
}

// Rows moved up by the men of colour C, summed.
template <class Board, Color C>
[[gnu::always_inline]] inline int advancement(typename Board::Bitboard men) {
  using T = FeatureTables<Board>;
  int sum = 0;
  for (int row = 1; row < Board::kHeight - 1; ++row) sum += row * popcount(men & T::kRelativeRow[index(C)][row]);
  return sum;
}

// Men of colour C that nothing can stop from crowning.  Deliberately
// conservative (it may miss a runaway, it should never call a man one that can
// be caught):
//  * the opponent has no king (a king can reach any square in time);
//  * every square of the man's path cone is empty (kRunawayPath), so neither
//    side has a piece in its way;
//  * where men capture backwards, no enemy piece is in its wider zone
//    (kRunawayZone), so no enemy man can jump it from behind either.
// It ignores what happens elsewhere on the board: a forced capture may keep
// the man from running; the search settles such tactics.
template <RuleSet R, Color C>
[[gnu::always_inline]] inline int runaway_men(const Position<BoardFor<R>>& p) {
  using T = FeatureTables<BoardFor<R>>;
  if (p.kings_of(~C)) return 0;
  const auto occupied = p.occupied(), enemy = p.of(~C);
  int n = 0;
  for_each_bit(p.men(C), [&](int b) {
    bool runs = (T::kRunawayPath[index(C)][b] & occupied) == 0;
    if constexpr (R.men_capture_backwards) runs = runs && (T::kRunawayZone[index(C)][b] & enemy) == 0;
    n += runs;
  });
  return n;
}

// Men of colour C, off their first row, that cannot be jumped from the front:
// both rear neighbours are own pieces or off the board.
template <class Board, Color C>
[[gnu::always_inline]] inline int backed_men(typename Board::Bitboard men, typename Board::Bitboard own) {
  using T = FeatureTables<Board>;
  constexpr Dir kRearLeft = C == Color::White ? SW : NW, kRearRight = C == Color::White ? SE : NE;
  // A man's rear neighbour along D is own iff the man is an own piece's step back along opposite(D).
  const auto left_covered = ~Board::kHasNeighbour[kRearLeft] | Board::template step<opposite(kRearLeft)>(own);
  const auto right_covered = ~Board::kHasNeighbour[kRearRight] | Board::template step<opposite(kRearRight)>(own);
  return popcount(men & ~T::kBackRow[index(C)] & left_covered & right_covered);
}

template <class Board>
[[gnu::always_inline]] inline int imbalance(typename Board::Bitboard men) {
  const int left = popcount(men & FeatureTables<Board>::kLeftHalf);
  const int right = popcount(men) - left;
  return left > right ? left - right : right - left;
}

// Reports a count; zero too, so that the summing sink runs without branches
// (a recording sink drops zeros).
template <class Sink>
[[gnu::always_inline]] inline void emit(Sink& sink, int feature, int value) {
  sink.add(feature, static_cast<float>(value));
}

template <RuleSet R, Color Us, class Sink>
[[gnu::always_inline]] inline void visit_features_for(const Position<BoardFor<R>>& p, Sink& sink) {
  using Board = BoardFor<R>;
  using T = FeatureTables<Board>;
  constexpr Color Them = ~Us;
  constexpr int us = index(Us), them = index(Them);
  const auto empty = p.empty();
  const auto our_men = p.men(Us), their_men = p.men(Them);
  const auto our_kings = p.kings_of(Us), their_kings = p.kings_of(Them);
  const auto ours = p.of(Us), theirs = p.of(Them);
  auto difference = [](auto ours_mask, auto theirs_mask) { return popcount(ours_mask) - popcount(theirs_mask); };

  emit(sink, kMaterialMan, difference(our_men, their_men));
  emit(sink, kMaterialKing, difference(our_kings, their_kings));
  emit(sink, kBackRowGuard, difference(our_men & T::kBackRow[us], their_men & T::kBackRow[them]));
  emit(sink, kCentreMan, difference(our_men & T::kCentre, their_men & T::kCentre));
  emit(sink, kCentreKing, difference(our_kings & T::kCentre, their_kings & T::kCentre));
  emit(sink, kKingLongDiagonal, difference(our_kings & T::kLongDiagonal, their_kings & T::kLongDiagonal));
  emit(sink, kKingDoubleDiagonal, difference(our_kings & T::kDoubleDiagonals, their_kings & T::kDoubleDiagonals));
  // A king has a step iff some neighbour is empty, i.e. it is a step back from an empty square.
  const auto free = step_any<Board, NE, NW, SE, SW>(empty);
  emit(sink, kKingTrapped, difference(our_kings & ~free, their_kings & ~free));
  const int our_advance = advancement<Board, Us>(our_men), their_advance = advancement<Board, Them>(their_men);
  emit(sink, kTempoMan, our_advance - their_advance);
  emit(sink, kMobilityMan, man_steps<Board, Us>(our_men, empty) - man_steps<Board, Them>(their_men, empty));
  emit(sink, kMobilityKing, king_steps<R>(our_kings, empty) - king_steps<R>(their_kings, empty));
  emit(sink, kRunawayMan, runaway_men<R, Us>(p) - runaway_men<R, Them>(p));
  emit(sink, kStructureBackedMan, backed_men<Board, Us>(our_men, ours) - backed_men<Board, Them>(their_men, theirs));
  emit(sink, kStructureIsolatedMan, difference(our_men & ~step_any<Board, NE, NW, SE, SW>(ours),
                                               their_men & ~step_any<Board, NE, NW, SE, SW>(theirs)));
  emit(sink, kBalanceMan, imbalance<Board>(our_men) - imbalance<Board>(their_men));
  // Tempo parity: in an endgame of men only (no more men than the board has
  // rows), whether the steps all men together still have to make before
  // every one is crowned is even (+1) or odd (-1).  With men blocked against
  // each other this decides who runs out of moves first; its sign and weight
  // are left to tuning.
  const bool parity_counts = !p.kings && popcount(p.occupied()) <= Board::kHeight;
  const int steps_left = (Board::kHeight - 1) * popcount(p.occupied()) - our_advance - their_advance;
  emit(sink, kEndgameTempoParity, parity_counts ? 1 - 2 * (steps_left & 1) : 0);
  emit(sink, kSideToMove, 1);
  if constexpr (kHoldsTowers<Board>) {
    int reserve = 0, prisoners = 0;
    for_each_bit(p.occupied(), [&](int b) {
      const towers::Below below = p.below[b];
      const int n = towers::count(below);
      if (n == 0) return;
      const bool our_tower = (p.of(Us) >> b) & 1;
      // Colour bits as "enemy of the top's owner": a run of zeros is the reserve.
      const towers::Below enemy = (our_tower == (Us == Color::White) ? towers::colours(below) : ~towers::colours(below)) &
                                  ((towers::Below{1} << n) - 1);
      const int run = enemy ? std::countr_zero(enemy) : n;
      const int held = popcount(enemy);
      reserve += our_tower ? run : -run;
      prisoners += our_tower ? held : -held;
    });
    emit(sink, T::Layout::kTowerReserve, reserve);
    emit(sink, T::Layout::kTowerPrisoners, prisoners);
  }
  // Piece-square tables: one term per piece, an opponent's piece counting -1
  // on its own relative square.
  for_each_bit(our_men, [&](int b) { sink.add(T::kPstManIndex[us][b], 1.0f); });
  for_each_bit(their_men, [&](int b) { sink.add(T::kPstManIndex[them][b], -1.0f); });
  for_each_bit(our_kings, [&](int b) { sink.add(T::kPstKingIndex[us][b], 1.0f); });
  for_each_bit(their_kings, [&](int b) { sink.add(T::kPstKingIndex[them][b], -1.0f); });
}

}  // namespace features_detail

// Reports the features of p to sink.add(int feature, float value), in a fixed
// order.  A value may be 0 (an inactive feature; sinks that record drop it),
// and a feature may be reported more than once (a piece-square entry with a
// piece of each side on it): the values add.
template <RuleSet R, class Sink>
[[gnu::always_inline]] inline void visit_features(const Position<BoardFor<R>>& p, Sink& sink) {
  if (p.side == Color::White) features_detail::visit_features_for<R, Color::White>(p, sink);
  else features_detail::visit_features_for<R, Color::Black>(p, sink);
}

}  // namespace dama
