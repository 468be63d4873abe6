// Helpers shared by the test files: the reference data in tests/data, moves
// written with PDN square numbers, and a small non-template facade over the
// generator and perft.
//
// The facade exists for build time: instantiating MoveGenerator and perft for
// every compiled rule set costs minutes of compiler time, so it happens once,
// in engine_moves.cpp and engine_perft.cpp, and every test file calls these
// functions instead.  Tests of rule sets that are not compiled into the
// program (rules_test.cpp) instantiate the templates themselves.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "board.hpp"
#include "game.hpp"
#include "move.hpp"
#include "movegen.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama::test {

// ---------------------------------------------------------------------------
// Reference data

struct TsvTable {
  std::string path;
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;  // column name -> field
};

// Reads tests/data/<name>.  Lines starting with '#' and blank lines are
// skipped; the first other line is the header.  Throws std::runtime_error
// naming the file when it is missing, empty or has a row of the wrong width.
TsvTable read_tsv(std::string_view name);

// The field of `column` in `row`; throws std::runtime_error when absent.
const std::string& field(const std::map<std::string, std::string>& row, const std::string& column);

// "7,49,302" -> {7, 49, 302}; throws std::runtime_error on anything else.
std::vector<std::uint64_t> parse_counts(std::string_view list);

std::vector<std::string> split(std::string_view s, char separator);  // keeps empty fields
std::vector<std::string> split_words(std::string_view s);           // on runs of blanks

// Letters, digits and '_' only, for gtest parameter names.
std::string test_name(std::string_view text);

Counting parse_counting(std::string_view name);  // "unique" or "paths"
const char* counting_name(Counting counting);

// ---------------------------------------------------------------------------
// Variants and boards

// A variant's rule set by name, usable as a template argument:
// MoveGenerator<variant_rules("russian")>.
constexpr RuleSet variant_rules(std::string_view name) {
  for (const auto& v : kVariants)
    if (v.name == name) return v.rules;
  throw std::logic_error("no such variant");
}

template <class Board>
int square_of_bit(int bit) {
  return Board::kSquareOfBit[bit];
}

// The PDN numbers of the squares in a bitboard, ascending.
template <class Board, class Bitboard>
std::vector<int> squares_of(Bitboard b) {
  std::vector<int> squares;
  for_each_bit(b, [&](int bit) { squares.push_back(Board::kSquareOfBit[bit]); });
  std::sort(squares.begin(), squares.end());
  return squares;
}

// ---------------------------------------------------------------------------
// Moves with PDN square numbers

struct PlainMove {
  int from = 0;
  int to = 0;
  std::vector<int> landings;  // intermediate landing squares of a capture, in order
  std::vector<int> captured;  // ascending
  bool promotes = false;

  bool is_capture() const { return !captured.empty(); }
  // "22-18" for a step, "32x23[10,11,18,19]" for a capture: the identity of
  // RULES.md, in the format of rule_cases.tsv's legal_moves column.
  std::string identity() const;
  // identity() plus " (king)" when the move promotes.
  std::string identity_and_crowning() const;
  // "22-18", or "32x14x7x16x23": every landing square (the paths column).
  std::string path() const;
};

template <class Board>
PlainMove to_plain(const Move<Board>& m) {
  PlainMove p;
  p.from = Board::kSquareOfBit[m.from];
  p.to = Board::kSquareOfBit[m.to];
  if (m.is_capture())
    for (int i = 0; i < m.landing_count; ++i) p.landings.push_back(Board::kSquareOfBit[m.landings[i]]);
  p.captured = squares_of<Board>(m.captured);
  p.promotes = m.promotes;
  return p;
}

template <class Board>
std::vector<PlainMove> to_plain(const MoveList<Board>& list) {
  std::vector<PlainMove> out;
  for (const auto& m : list) out.push_back(to_plain(m));
  return out;
}

// Sorted, duplicates kept.
std::vector<std::string> identities(const std::vector<PlainMove>& moves);  // with " (king)"
std::vector<std::string> paths(const std::vector<PlainMove>& moves);

// Reads a legal_moves column ("11x26[7,9,22] (king) 23-18"): one entry per
// move, " (king)" attached to the move it follows; sorted.
std::vector<std::string> parse_legal_moves_column(std::string_view column);

// ---------------------------------------------------------------------------
// The facade over every compiled rule set (dama::kCompiledRuleSets).  Each
// function dispatches with dama::with_rules, so an uncompiled rule set throws
// dama::Error, and Board must be BoardFor<rules> (else std::logic_error).

// Runs f.template operator()<R, K>() -> Result for the compiled rule set R
// equal to `rules` and the counting convention K; used by the facade.
template <class Board, class Result, class F>
Result dispatch_rules(const RuleSet& rules, Counting counting, F&& f) {
  return with_rules(rules, [&]<RuleSet R>() -> Result {
    if constexpr (!std::is_same_v<BoardFor<R>, Board>) {
      throw std::logic_error("the position's board does not match the rule set's");
    } else {
      if (counting == Counting::Paths) return f.template operator()<R, Counting::Paths>();
      return f.template operator()<R, Counting::Unique>();
    }
  });
}

template <class Board>
struct Successor {
  PlainMove move;
  Position<Board> next;  // the position after the move
};

// MoveGenerator<R, counting>::generate, in generation order.
template <class Board>
std::vector<Successor<Board>> successors(const RuleSet& rules, const Position<Board>& p, Counting counting);
template <class Board>
std::vector<PlainMove> legal_moves(const RuleSet& rules, const Position<Board>& p, Counting counting);
std::vector<PlainMove> legal_moves(const RuleSet& rules, std::string_view fen, Counting counting);

// MoveGenerator<R, counting>::count and ::has_capture.
template <class Board>
int count_moves(const RuleSet& rules, const Position<Board>& p, Counting counting);
template <class Board>
bool has_capture(const RuleSet& rules, const Position<Board>& p);

// Positions met in random games from the start (uniformly random legal
// moves, Counting::Unique), each recorded with probability 1/4, until `count`
// are collected; a game ends when the side to move has no move or after 200
// plies.  Deterministic for a seed.
template <class Board>
std::vector<Position<Board>> random_positions(const RuleSet& rules, std::uint64_t seed, int count);

// Random legal set-ups rather than positions from play: 1 to 12 (20) pieces a
// side on random squares, about a third of them kings, no man on its crowning
// row, either side to move.  Rich in long and branching captures.
template <class Board>
std::vector<Position<Board>> random_setups(std::uint64_t seed, int count);

// Both of the above, half and half: what the property tests run on.
template <class Board>
std::vector<Position<Board>> test_positions(const RuleSet& rules, std::uint64_t seed, int count) {
  auto positions = random_positions<Board>(rules, seed, count / 2);
  for (auto& p : random_setups<Board>(seed, count - count / 2)) positions.push_back(p);
  return positions;
}

// dama::perft<R, counting>.
template <class Board>
std::uint64_t perft_nodes(const RuleSet& rules, const Position<Board>& p, Counting counting, int depth);
std::uint64_t perft_nodes(const RuleSet& rules, std::string_view fen, Counting counting, int depth);
// From Position<BoardFor<R>>::start(R.first_player).
std::uint64_t perft_from_start(const RuleSet& rules, Counting counting, int depth);
// dama::perft_divide<R, counting>: each legal move's subtree.
template <class Board>
std::vector<std::pair<PlainMove, std::uint64_t>> perft_divide(const RuleSet& rules, const Position<Board>& p,
                                                              Counting counting, int depth);

// The legal moves by an independent, slow implementation of RULES.md
// (reference_movegen.cpp), one per identity and crowning, with the landing
// squares of one of its paths; any RuleSet, compiled or not.
template <class Board>
std::vector<PlainMove> reference_moves(const RuleSet& rules, const Position<Board>& p);
// perft in the unique convention by reference_moves and a move maker of the
// reference's own: a second implementation of every table figure.
template <class Board>
std::uint64_t reference_perft(const RuleSet& rules, const Position<Board>& p, int depth);

// A small deterministic generator (splitmix64), the same on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

 private:
  std::uint64_t state_;
};

// `game` continued with uniformly random legal moves (deterministic for a
// seed) until it ends or `plies` more have been played.
template <RuleSet R>
Game<R> random_game(Game<R> game, std::uint64_t seed, int plies) {
  Random random(seed);
  for (int i = 0; i < plies && !game.over(); ++i) {
    MoveList<BoardFor<R>> legal;
    MoveGenerator<R>::generate(game.position(), legal);
    game.play(legal[random.below(legal.size())]);
  }
  return game;
}

// Extends the game by `plies` king moves without capture, each to a position
// not met before in the game, each leaving the opponent no capture and at
// least one move -- so the game goes on with kings only and never repeats
// (the draw rules' counters then run without a repetition ending the game).
// A depth-first search over the legal moves in generation order (a copy of
// the game per try: the games here are a few dozen plies long).  Returns
// false, leaving the game as it was, when there is no such line.
template <RuleSet R>
bool play_fresh_king_moves(Game<R>& game, int plies) {
  using Board = BoardFor<R>;
  if (plies == 0) return true;
  MoveList<Board> moves;
  MoveGenerator<R>::generate(game.position(), moves);
  for (const auto& m : moves) {
    const bool king = game.position().kings & (typename Board::Bitboard{1} << m.from);
    if (m.is_capture() || !king) continue;
    const auto next = game.position().after(m);
    const auto& seen = game.positions();
    if (std::find(seen.begin(), seen.end(), next) != seen.end()) continue;
    if (MoveGenerator<R>::has_capture(next) || MoveGenerator<R>::count(next) == 0) continue;
    Game<R> trial = game;
    trial.play(m);
    if (play_fresh_king_moves(trial, plies - 1)) {
      game = std::move(trial);
      return true;
    }
  }
  return false;
}

// What a shell command prints on stdout (empty when it cannot be run);
// *status, when given, gets pclose's status.
std::string command_output(const std::string& command, int* status = nullptr);

}  // namespace dama::test
