// A game record and the end of the game (RULES.md "End of the game").
//
// Game<R> keeps every position, move and hash from the start, the draw
// counters after every ply, and decides when the game is over:
//  * the side to move with no legal move loses -- wins in poddavki
//    (Goal::NoMoveWins) -- checked first: a move that leaves the opponent
//    without a move ends the game so even if it also completes a draw count;
//  * default draw rule, every variant: 80 plies in a row with no capture and
//    no crowning;
//  * DrawRules::Tournament (russian only): also (a) threefold repetition,
//    (b) three or more kings against a lone king not captured by the stronger
//    side's 15th move since that balance arose, (c) 15 moves by each side
//    (30 plies) of kings only, no man moving and no capture.
//
// Results are from the FIRST PLAYER's view: "1-0" means the side that moved
// first won.  In american the first player is Black, so there "1-0" is a win
// for Black; in every other variant it is a win for White.
//
// DrawCounters and advance() are the single definition of the draw counts:
// the search applies the same function inside its tree, so the game and the
// search can never disagree about when a draw happens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bitboard.hpp"
#include "error.hpp"
#include "movegen.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama {

enum class DrawRules : std::uint8_t {
  Default,     // 80 plies without capture or crowning
  Tournament,  // russian tournament rules on top of the default
};

inline constexpr int kQuietPliesForDraw = 80;        // default: no capture, no crowning
inline constexpr int kKingOnlyPliesForDraw = 30;     // tournament (c): 15 moves by each side
inline constexpr int kStrongSideMovesForDraw = 15;   // tournament (b): the stronger side's moves
inline constexpr int kKingsForStrongSide = 3;        // tournament (b): "three or more kings"

// "default" or "tournament"; throws dama::Error otherwise.
DrawRules parse_draw_rules(std::string_view name);
std::string_view draw_rules_name(DrawRules rules);

// Tournament rules exist for russian only (with or without the house rule):
// throws dama::Error for any other rule set.
void check_draw_rules(DrawRules draw_rules, const RuleSet& rules);

struct DrawCounters {
  int quiet_plies = 0;       // since the last capture or crowning
  int reversible_plies = 0;  // since the last capture or man move: both sides moved kings only
  int strong_side_moves = 0; // moves made by the strong side since the balance of (b) arose
  std::int8_t strong_side = -1;  // index(Color) of the side with 3+ kings against a lone king, or -1

  constexpr bool operator==(const DrawCounters&) const = default;
};

// The colour with at least three kings (men do not matter) whose opponent
// has exactly one piece, a king; nothing when the board is not so.
template <class Board>
std::int8_t strong_side_of(const Position<Board>& p) {
  for (Color c : {Color::White, Color::Black}) {
    const auto lone = p.of(~c);
    if (popcount(lone) == 1 && (lone & p.kings) && popcount(p.kings_of(c)) >= kKingsForStrongSide)
      return static_cast<std::int8_t>(index(c));
  }
  return -1;
}

// The counters at the start of a game (or of a game set up from a FEN).
// The balance of rule (b) is followed under tournament rules only.
template <class Board>
DrawCounters initial_counters(const Position<Board>& start, DrawRules rules) {
  DrawCounters c;
  if (rules == DrawRules::Tournament) c.strong_side = strong_side_of(start);
  return c;
}

// The counters after `m` was played in `before`, giving `after`.
template <class Board>
[[gnu::always_inline]] inline DrawCounters advance(const DrawCounters& c, const Position<Board>& before,
                                                   const Move<Board>& m, const Position<Board>& after,
                                                   DrawRules rules) {
  DrawCounters next;
  const bool capture = m.captured != 0;
  const bool man_moved = !(before.kings & (typename Board::Bitboard{1} << m.from));
  next.quiet_plies = capture || m.promotes ? 0 : c.quiet_plies + 1;
  next.reversible_plies = capture || man_moved ? 0 : c.reversible_plies + 1;
  if (rules == DrawRules::Tournament) {
    next.strong_side = strong_side_of(after);
    if (next.strong_side >= 0 && next.strong_side == c.strong_side)
      next.strong_side_moves = c.strong_side_moves + (index(before.side) == next.strong_side ? 1 : 0);
  }
  return next;  // a balance that has just arisen (or none) counts from zero
}

inline constexpr std::string_view kReasonNoMoves = "no legal moves";
inline constexpr std::string_view kReasonQuietPlies = "80 plies without capture or crowning";
inline constexpr std::string_view kReasonRepetition = "threefold repetition";
inline constexpr std::string_view kReasonKingsAgainstLoneKing = "three kings against a lone king not won in 15 moves";
inline constexpr std::string_view kReasonKingsOnly = "15 moves by each side with kings only";

// Why the counters end the game in a draw, or nothing.  Repetition is not a
// counter: Game and the search look for it in their histories.  Inline: the
// search asks at every node.
[[gnu::always_inline]] inline std::optional<std::string_view> counter_draw(const DrawCounters& c, DrawRules rules) {
  if (c.quiet_plies >= kQuietPliesForDraw) return kReasonQuietPlies;
  if (rules == DrawRules::Tournament) {
    if (c.strong_side >= 0 && c.strong_side_moves >= kStrongSideMovesForDraw) return kReasonKingsAgainstLoneKing;
    if (c.reversible_plies >= kKingOnlyPliesForDraw) return kReasonKingsOnly;
  }
  return std::nullopt;
}

enum class Outcome : std::uint8_t { Ongoing, FirstPlayerWins, SecondPlayerWins, Draw };

struct GameResult {
  Outcome outcome = Outcome::Ongoing;
  std::string reason;  // empty while the game goes on

  // "1-0", "0-1", "1/2-1/2" from the first player's view; "*" while ongoing.
  std::string_view text() const;
  bool over() const { return outcome != Outcome::Ongoing; }
};

template <RuleSet R>
class Game {
 public:
  using Board = BoardFor<R>;
  using Pos = Position<Board>;
  using MoveT = Move<Board>;
  using List = MoveList<Board>;

  // Throws dama::Error for tournament rules outside russian.
  explicit Game(const Pos& start = Pos::start(R.first_player), DrawRules draw_rules = DrawRules::Default)
      : draw_rules_(draw_rules) {
    check_draw_rules(draw_rules, R);
    positions_.push_back(start);
    hashes_.push_back(start.hash());
    counters_.push_back(initial_counters(start, draw_rules));
    update_result();
  }

  // Plays m, which must be legal here (matched by identity: from, to,
  // captured set).  Throws dama::Error when the game is over or m is illegal.
  void play(const MoveT& m) {
    if (result_.over()) throw Error("the game is over (" + std::string(result_.text()) + ", " + result_.reason + ")");
    List legal;
    MoveGenerator<R>::generate(position(), legal);
    const MoveT* found = nullptr;
    for (const auto& candidate : legal)
      if (candidate.same_identity(m)) found = &candidate;
    if (!found) throw Error("illegal move in this position");
    const Pos next = position().after(*found);
    counters_.push_back(advance(counters_.back(), position(), *found, next, draw_rules_));
    moves_.push_back(*found);
    positions_.push_back(next);
    hashes_.push_back(next.hash());
    update_result();
  }

  const Pos& position() const { return positions_.back(); }
  const std::vector<Pos>& positions() const { return positions_; }  // [0] the start, [i] after i plies
  const std::vector<MoveT>& moves() const { return moves_; }
  const std::vector<std::uint64_t>& hashes() const { return hashes_; }  // of positions()
  int plies() const { return static_cast<int>(moves_.size()); }

  const DrawCounters& counters() const { return counters_.back(); }
  const DrawCounters& counters_at(int ply) const { return counters_.at(static_cast<std::size_t>(ply)); }
  int plies_since_capture_or_crowning() const { return counters().quiet_plies; }

  // How many times the current position (same side to move) has occurred, this one included.
  int repetitions() const {
    int count = 1;
    const int last = plies();
    for (int back = 2; back <= counters().reversible_plies; back += 2)
      if (hashes_[last - back] == hashes_[last] && positions_[last - back] == positions_[last]) ++count;
    return count;
  }

  DrawRules draw_rules() const { return draw_rules_; }
  const GameResult& result() const { return result_; }
  bool over() const { return result_.over(); }

 private:
  void update_result() {
    if (MoveGenerator<R>::count(position()) == 0) {
      const Color winner = no_move_wins(R) ? position().side : ~position().side;
      result_ = {winner == R.first_player ? Outcome::FirstPlayerWins : Outcome::SecondPlayerWins,
                 std::string(kReasonNoMoves)};
    } else if (draw_rules_ == DrawRules::Tournament && repetitions() >= 3) {
      result_ = {Outcome::Draw, std::string(kReasonRepetition)};
    } else if (const auto reason = counter_draw(counters(), draw_rules_)) {
      result_ = {Outcome::Draw, std::string(*reason)};
    }
  }

  DrawRules draw_rules_;
  std::vector<Pos> positions_;
  std::vector<MoveT> moves_;
  std::vector<std::uint64_t> hashes_;
  std::vector<DrawCounters> counters_;
  GameResult result_;
};

}  // namespace dama
