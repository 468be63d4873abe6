// The variants: every rule switch of RULES.md, one description per variant.
// Adding a variant means adding one entry to kVariants (plus its config and
// tests); the move generator reads only the switches, never a name.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "board.hpp"
#include "error.hpp"

namespace dama {

enum class CaptureChoice : std::uint8_t {
  Any,                  // any complete capture sequence
  KingFirst,            // a king's capture if any king can capture (czech)
  MostPieces,           // only the sequences taking the most pieces
  MostPiecesThenKings,  // most pieces, then most kings (spanish)
  Italian,              // most pieces, king capturing, most kings, earliest king
};

enum class CrowningInCapture : std::uint8_t {
  ContinueAsKing,  // crowned on the spot, goes on capturing as a king (russian)
  EndsMove,        // crowned, the move ends
  OnlyIfEnds,      // stays a man while passing; crowned only if the capture ends there
};

enum class Removal : std::uint8_t {
  AtEnd,   // jumped pieces stay (and block) until the move is over
  AtOnce,  // a jumped square is empty straight away (american)
};

enum class Notation : std::uint8_t { Numeric, Algebraic };

// What a player plays for (RULES.md "End of the game";
// docs/rules-russian-family.md for poddavki).
enum class Goal : std::uint8_t {
  NoMoveLoses,  // the side to move with no legal move loses: every variant but one
  NoMoveWins,   // ... wins: poddavki, the give-away game (give away or block every piece)
};

// What a capture does with the pieces it jumps (docs/rules-russian-family.md).
enum class Prisoners : std::uint8_t {
  Removed,        // taken off the board: every variant but bashni
  UnderCapturer,  // the jumped tower's top piece goes under the capturing tower (bashni)
};

// A structural type, so a rule set can be a template argument: the generator is
// compiled once per rule set and no variant pays for another's rules.
struct RuleSet {
  BoardShape board{8, 8};
  Color first_player = Color::White;
  bool men_capture_backwards = false;
  bool flying_kings = false;
  bool men_capture_kings = true;
  CaptureChoice choice = CaptureChoice::Any;
  CrowningInCapture crowning = CrowningInCapture::EndsMove;
  Removal removal = Removal::AtEnd;
  bool forced_capture = true;
  Goal goal = Goal::NoMoveLoses;
  Prisoners prisoners = Prisoners::Removed;

  constexpr bool operator==(const RuleSet&) const = default;
  constexpr RuleSet without_forced_capture() const {
    RuleSet r = *this;
    r.forced_capture = false;
    return r;
  }
};

struct Variant {
  std::string_view name;
  std::string_view alias;  // empty when none
  RuleSet rules;
  int pdn_game_type;        // PDN GameType tag
  Notation native_notation;
  std::string_view summary;
};

inline constexpr Variant kVariants[] = {
    {"russian", "", {{8, 8}, Color::White, true, true, true, CaptureChoice::Any, CrowningInCapture::ContinueAsKing, Removal::AtEnd},
     25, Notation::Algebraic, "shashki: men capture backwards, flying kings, free choice of capture"},
    {"czech", "", {{8, 8}, Color::White, false, true, true, CaptureChoice::KingFirst, CrowningInCapture::EndsMove, Removal::AtEnd},
     29, Notation::Algebraic, "flying kings, men capture forwards, a king must capture if it can"},
    {"brazilian", "", {{8, 8}, Color::White, true, true, true, CaptureChoice::MostPieces, CrowningInCapture::OnlyIfEnds, Removal::AtEnd},
     26, Notation::Algebraic, "international rules on 8x8: take the most pieces"},
    {"spanish", "", {{8, 8}, Color::White, false, true, true, CaptureChoice::MostPiecesThenKings, CrowningInCapture::EndsMove, Removal::AtEnd},
     24, Notation::Numeric, "flying kings, men capture forwards, most pieces then most kings"},
    {"italian", "", {{8, 8}, Color::White, false, false, false, CaptureChoice::Italian, CrowningInCapture::EndsMove, Removal::AtEnd},
     22, Notation::Numeric, "short kings, men never take kings, the Italian order of captures"},
    {"american", "english", {{8, 8}, Color::Black, false, false, true, CaptureChoice::Any, CrowningInCapture::EndsMove, Removal::AtOnce},
     21, Notation::Numeric, "checkers: short kings, Black moves first, free choice of capture"},
    {"international", "", {{10, 10}, Color::White, true, true, true, CaptureChoice::MostPieces, CrowningInCapture::OnlyIfEnds, Removal::AtEnd},
     20, Notation::Numeric, "10x10, 20 men each, flying kings, take the most pieces"},
    // PDN has no GameType for poddavki: its games are written as GameType 25
    // (every move is a Russian move) with a private [Variant "poddavki"] tag.
    {"poddavki", "", {{8, 8}, Color::White, true, true, true, CaptureChoice::Any, CrowningInCapture::ContinueAsKing, Removal::AtEnd, true, Goal::NoMoveWins},
     25, Notation::Algebraic, "give-away shashki: russian moves, the side left without a move wins"},
    // Russian rules on a board of 10 columns (a-h, i, k) and 8 rows, 15 men
    // each (docs/rules-russian-family.md); PDN 3.0 GameType 41.
    {"russian10x8", "", {{10, 8}, Color::White, true, true, true, CaptureChoice::Any, CrowningInCapture::ContinueAsKing, Removal::AtEnd},
     41, Notation::Algebraic, "shashki on a 10x8 board: russian rules, columns a-k without j, 15 men each"},
    // Russian moves with towers: a capture puts the jumped top piece under the
    // capturing tower (docs/rules-russian-family.md).  PDN: GameType 25 with a
    // private [Variant "bashni"] tag, as poddavki.
    {"bashni", "", {{8, 8}, Color::White, true, true, true, CaptureChoice::Any, CrowningInCapture::ContinueAsKing, Removal::AtEnd, true, Goal::NoMoveLoses, Prisoners::UnderCapturer},
     25, Notation::Algebraic, "towers: russian moves, a captured piece goes under the capturing tower"},
};
inline constexpr std::size_t kVariantCount = std::size(kVariants);

// The house rule "capture not compulsory" exists for the 8x8 variants whose
// goal is to win material; in poddavki compulsory capture is the game itself,
// and bashni's sources know no such rule.
constexpr bool has_house_rule(const RuleSet& r) {
  return r.board == BoardShape{8, 8} && r.goal == Goal::NoMoveLoses && r.prisoners == Prisoners::Removed;
}
// Whether captured pieces stay on the board under the capturer (bashni).
constexpr bool has_towers(const RuleSet& r) { return r.prisoners == Prisoners::UnderCapturer; }

// The score of "the side to move has no legal move" for that side, in the
// search's terms: lost in every variant, won in poddavki.
constexpr bool no_move_wins(const RuleSet& r) { return r.goal == Goal::NoMoveWins; }

// Every rule set the program is compiled for: each variant, and where it
// exists the house rule "capture not compulsory" as well.
inline constexpr auto kCompiledRuleSets = [] {
  constexpr std::size_t n8 = [] {
    std::size_t n = 0;
    for (const auto& v : kVariants) n += has_house_rule(v.rules);
    return n;
  }();
  std::array<RuleSet, kVariantCount + n8> all{};
  std::size_t i = 0;
  for (const auto& v : kVariants) all[i++] = v.rules;
  for (const auto& v : kVariants)
    if (has_house_rule(v.rules)) all[i++] = v.rules.without_forced_capture();
  return all;
}();

// The board layout of a shape; each shape a rule set may have is one of these.
template <BoardShape S>
using BoardOfShape = std::conditional_t<S == BoardShape{8, 8}, Board8,
                                        std::conditional_t<S == BoardShape{10, 10}, Board10, Board10x8>>;
// Where captured pieces stay on the board, a square holds a tower and the
// position keeps one per square (core/towers/tower_position.hpp).
template <RuleSet R>
using BoardFor = std::conditional_t<R.prisoners == Prisoners::UnderCapturer, Towers<BoardOfShape<R.board>>, BoardOfShape<R.board>>;

// The board shapes some variant is played on: each has a layout above.
inline constexpr BoardShape kBoardShapes[] = {{8, 8}, {10, 10}, {10, 8}};
static_assert(std::ranges::all_of(kVariants,
                                  [](const Variant& v) { return std::ranges::find(kBoardShapes, v.rules.board) != std::end(kBoardShapes); }),
              "a variant on a board with no layout in board.hpp");

// Runs f.template operator()<Board>() with the layout of `shape`; throws
// dama::Error for a shape no variant has.
template <class F>
decltype(auto) with_board(BoardShape shape, F&& f) {
  if (shape == BoardShape{8, 8}) return f.template operator()<Board8>();
  if (shape == BoardShape{10, 10}) return f.template operator()<Board10>();
  if (shape == BoardShape{10, 8}) return f.template operator()<Board10x8>();
  throw Error("no variant is played on a " + shape_name(shape) + " board");
}

// Runs f.template operator()<Board>() with BoardFor<rules>: the layout of
// the rules' board, holding towers where the rules keep prisoners (bashni).
template <class F>
decltype(auto) with_board_of(const RuleSet& rules, F&& f) {
  if (has_towers(rules)) {
    if (rules.board == BoardShape{8, 8}) return f.template operator()<Towers<Board8>>();
    throw Error("no variant has towers on a " + shape_name(rules.board) + " board");
  }
  return with_board(rules.board, std::forward<F>(f));
}

// Finds a variant by name or alias; throws dama::Error naming the known ones.
const Variant& find_variant(std::string_view name);
// "russian, czech, ...": every variant's name, for help texts and errors.
std::string variant_names();

// The variant's rules, or its house rule (capture not compulsory) when asked;
// throws dama::Error where the house rule does not exist (10x10, poddavki).
RuleSet rules_of(const Variant& variant, bool no_forced_capture);
// A variant with a switch flipped may no longer match a compiled rule set.
bool is_compiled(const RuleSet& rules);
std::string describe(const RuleSet& rules);

[[noreturn]] void throw_not_compiled(const RuleSet& rules);

// Runs f.template operator()<R>() with the compiled rule set R equal to `rules`;
// throws dama::Error when no compiled rule set matches.
template <std::size_t I = 0, class F>
decltype(auto) with_rules(const RuleSet& rules, F&& f) {
  constexpr RuleSet candidate = kCompiledRuleSets[I];
  if constexpr (I + 1 == kCompiledRuleSets.size()) {
    if (!(rules == candidate)) throw_not_compiled(rules);
    return f.template operator()<candidate>();
  } else {
    if (rules == candidate) return f.template operator()<candidate>();
    return with_rules<I + 1>(rules, std::forward<F>(f));
  }
}

}  // namespace dama
