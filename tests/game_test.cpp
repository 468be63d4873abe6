// The end of the game (RULES.md "End of the game"): a side without a legal
// move loses; the default 80-ply draw; the russian tournament draws.  Each
// draw rule is shown to fire exactly at its threshold and not one ply before.
//
// Squares: on 8x8, 1 = b8, 4 = h8, 5 = a7, 28 = h2, 29 = a1, 32 = g1.  Pieces
// on edge squares can never be captured (there is no square behind them),
// which keeps the hand-made king shuffles free of captures.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fen.hpp"
#include "game.hpp"
#include "notation.hpp"
#include "test_support.hpp"

namespace dama {
namespace {

constexpr RuleSet kRussian = test::variant_rules("russian");
constexpr RuleSet kAmerican = test::variant_rules("american");
constexpr RuleSet kInternational = test::variant_rules("international");
constexpr RuleSet kPoddavki = test::variant_rules("poddavki");

template <RuleSet R>
Game<R> game_from(std::string_view fen, DrawRules rules = DrawRules::Default) {
  return Game<R>(parse_fen<BoardFor<R>>(fen), rules);
}

template <RuleSet R>
void play(Game<R>& game, std::string_view move) {
  game.play(parse_move<R>(game.position(), move));
}

// Plays the moves in turn, cycling through them, `plies` times.
template <RuleSet R>
void play_cycle(Game<R>& game, const std::vector<std::string>& moves, int plies) {
  for (int i = 0; i < plies; ++i) play(game, moves[i % moves.size()]);
}

using test::play_fresh_king_moves;  // tests/test_support.hpp

// ---------------------------------------------------------------------------
// No legal move loses; results are from the first player's view.

TEST(GameEnd, BlockedSideToMoveLoses) {
  // White's only man on g1 (32) faces f2 (27) and h2 (28); the jump over f2
  // lands on e3 (23), taken too, and h2 is on the edge.
  const auto game = game_from<kRussian>("W:W32:B23,27,28");
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().outcome, Outcome::SecondPlayerWins);
  EXPECT_EQ(game.result().text(), "0-1");
  EXPECT_EQ(game.result().reason, kReasonNoMoves);
}

TEST(GameEnd, SideWithoutPiecesLoses) {
  auto game = game_from<kRussian>("W:W22:B18");
  EXPECT_FALSE(game.over());
  play(game, "22x15");  // c3:e5 takes Black's last piece
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().text(), "1-0");
  EXPECT_EQ(game.result().reason, kReasonNoMoves);
  EXPECT_THROW(play(game, "15-10"), Error) << "no move after the end";
}

// Poddavki (Goal::NoMoveWins): the same positions, the other result.
TEST(GameEnd, BlockedSideToMoveWinsInPoddavki) {
  const auto game = game_from<kPoddavki>("W:W32:B23,27,28");
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().outcome, Outcome::FirstPlayerWins);
  EXPECT_EQ(game.result().reason, kReasonNoMoves);
}

TEST(GameEnd, SideThatGaveAwayEveryPieceWinsInPoddavki) {
  auto game = game_from<kPoddavki>("W:W22:B18");
  play(game, "22x15");  // compulsory: c3:e5 takes Black's last piece, and Black wins
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().text(), "0-1");
  auto giving = game_from<kPoddavki>("W:W22:B15");
  play(giving, "22-18");  // c3-d4 offers the man ...
  EXPECT_FALSE(giving.over());
  play(giving, "15x22");  // ... e5:c3 is compulsory, and White has nothing left
  ASSERT_TRUE(giving.over());
  EXPECT_EQ(giving.result().text(), "1-0");
}

TEST(GameEnd, PoddavkiHasNoHouseRule) {
  EXPECT_THROW(rules_of(find_variant("poddavki"), true), Error);
  EXPECT_FALSE(is_compiled(kPoddavki.without_forced_capture()));
  EXPECT_TRUE(is_compiled(test::variant_rules("russian").without_forced_capture()));
}

TEST(GameEnd, ResultsAreFromTheFirstPlayersView) {
  // Black's man on h8 (4) is blocked by g7 (8) and f6 (11).
  EXPECT_EQ(game_from<kRussian>("B:W8,11:B4").result().text(), "1-0") << "russian: White moved first and won";
  // American: Black is the first player, so Black losing is "0-1" ...
  const auto black_blocked = game_from<kAmerican>("B:W8,11:B4");
  EXPECT_EQ(black_blocked.result().outcome, Outcome::SecondPlayerWins);
  EXPECT_EQ(black_blocked.result().text(), "0-1");
  // ... and White (the second player) blocked on a1 by b2 (25) and c3 (22) is "1-0".
  const auto white_blocked = game_from<kAmerican>("W:W29:B22,25");
  EXPECT_EQ(white_blocked.result().outcome, Outcome::FirstPlayerWins);
  EXPECT_EQ(white_blocked.result().text(), "1-0");
}

TEST(GameEnd, OngoingGameHasNoResult) {
  const Game<kRussian> game;
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.result().text(), "*");
  EXPECT_EQ(game.result().reason, "");
  EXPECT_EQ(game.position(), Position<Board8>::start(Color::White));
}

TEST(GameEnd, IllegalMoveIsRefused) {
  Game<kRussian> game;
  const auto after_step = Position<Board8>::start(Color::White).after(parse_move<kRussian>(game.position(), "c3-d4"));
  // A black move is not legal for White.
  EXPECT_THROW(game.play(parse_move<kRussian>(after_step, "f6-e5")), Error);
  EXPECT_EQ(game.plies(), 0);
}

// ---------------------------------------------------------------------------
// Default rule: 80 plies without capture or crowning.

// Kings shuffle on edge squares: h2-g1 and b8-a7 (8x8), j2-i1 and a9-b10 (10x10).
template <RuleSet R>
void expect_draw_at_80_plies(std::string_view fen, const std::vector<std::string>& shuffle) {
  auto game = game_from<R>(fen);
  play_cycle(game, shuffle, 79);
  EXPECT_FALSE(game.over()) << "one ply before the limit";
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 79);
  play_cycle(game, {shuffle[79 % shuffle.size()]}, 1);
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().outcome, Outcome::Draw);
  EXPECT_EQ(game.result().text(), "1/2-1/2");
  EXPECT_EQ(game.result().reason, kReasonQuietPlies);
}

TEST(DefaultDrawRule, EightyQuietPliesRussian) {
  expect_draw_at_80_plies<kRussian>("W:WK28:BK1", {"28-32", "1-5", "32-28", "5-1"});
}

TEST(DefaultDrawRule, EightyQuietPliesAmericanBlackFirst) {
  expect_draw_at_80_plies<kAmerican>("B:WK28:BK1", {"1-5", "28-32", "5-1", "32-28"});
}

TEST(DefaultDrawRule, EightyQuietPliesInternational) {
  expect_draw_at_80_plies<kInternational>("W:WK45:BK6", {"45-50", "6-1", "50-45", "1-6"});
}

TEST(DefaultDrawRule, RepetitionIsNoDrawByDefault) {
  auto game = game_from<kRussian>("W:WK28:BK1");
  play_cycle(game, {"28-32", "1-5", "32-28", "5-1"}, 12);
  EXPECT_EQ(game.repetitions(), 4);
  EXPECT_FALSE(game.over());
}

TEST(DefaultDrawRule, CountResetsOnCrowningNotOnAManStep) {
  // White: man a5 (13), king h2 (28); Black: king h8 (4).
  auto game = game_from<kRussian>("W:W13,K28:BK4");
  play_cycle(game, {"28-32", "4-8"}, 2);
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 2);
  play(game, "13-9");  // a man's step that does not crown: the count goes on
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 3);
  EXPECT_EQ(game.counters().reversible_plies, 0) << "a man moved";
  play(game, "8-4");
  play(game, "9-5");
  play(game, "4-8");
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 6);
  play(game, "5-1");  // a7-b8 crowns
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 0);
  EXPECT_EQ(game.counters_at(6).quiet_plies, 6) << "the history of the counter is kept";
}

TEST(DefaultDrawRule, CountResetsOnCapture) {
  // Kings shuffle (h2-g1, b8-a7), Black's man a5 (13) steps to b4 (17), and
  // White's man c3 (22) must take it.
  auto game = game_from<kRussian>("W:W22,K28:B13,K1");
  play_cycle(game, {"28-32", "1-5", "32-28", "13-17"}, 4);
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 4);
  play(game, "22x13");
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 0);
  EXPECT_EQ(game.counters().reversible_plies, 0);
}

// ---------------------------------------------------------------------------
// Tournament rules (russian only).

TEST(TournamentRules, RefusedOutsideRussian) {
  for (const auto& v : kVariants) {
    SCOPED_TRACE(std::string(v.name));
    EXPECT_NO_THROW(check_draw_rules(DrawRules::Default, v.rules));
    if (v.name == "russian") {
      EXPECT_NO_THROW(check_draw_rules(DrawRules::Tournament, v.rules));
      EXPECT_NO_THROW(check_draw_rules(DrawRules::Tournament, v.rules.without_forced_capture()));
    } else {
      EXPECT_THROW(check_draw_rules(DrawRules::Tournament, v.rules), Error);
    }
  }
  EXPECT_THROW(Game<kAmerican>(Position<Board8>::start(Color::Black), DrawRules::Tournament), Error);
  EXPECT_THROW(Game<kInternational>(Position<Board10>::start(Color::White), DrawRules::Tournament), Error);
  EXPECT_NO_THROW(Game<kRussian>(Position<Board8>::start(Color::White), DrawRules::Tournament));
}

TEST(TournamentRules, ParseNames) {
  EXPECT_EQ(parse_draw_rules("default"), DrawRules::Default);
  EXPECT_EQ(parse_draw_rules("tournament"), DrawRules::Tournament);
  EXPECT_THROW(parse_draw_rules("fide"), Error);
}

TEST(TournamentRules, ThreefoldRepetition) {
  const std::vector<std::string> shuffle = {"28-32", "1-5", "32-28", "5-1"};
  auto game = game_from<kRussian>("W:WK28:BK1", DrawRules::Tournament);
  play_cycle(game, shuffle, 4);
  EXPECT_EQ(game.repetitions(), 2);
  play_cycle(game, shuffle, 3);
  EXPECT_FALSE(game.over()) << "one ply before the third occurrence";
  play_cycle(game, {shuffle[3]}, 1);
  EXPECT_EQ(game.repetitions(), 3);
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().text(), "1/2-1/2");
  EXPECT_EQ(game.result().reason, kReasonRepetition);
}

TEST(TournamentRules, ThreeKingsAgainstALoneKingFromTheStart) {
  // White (to move) has kings c1, e1, g1 against Black's lone king b8:
  // White's 15th move is ply 29, one ply before the kings-only rule (30)
  // could fire.
  auto game = game_from<kRussian>("W:WK30,K31,K32:BK1", DrawRules::Tournament);
  EXPECT_EQ(game.counters().strong_side, index(Color::White));
  ASSERT_TRUE(play_fresh_king_moves(game, 28));
  EXPECT_EQ(game.counters().strong_side_moves, 14);
  EXPECT_FALSE(game.over()) << "one ply before White's 15th move";
  ASSERT_TRUE(play_fresh_king_moves(game, 1));
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().text(), "1/2-1/2");
  EXPECT_EQ(game.result().reason, kReasonKingsAgainstLoneKing);

  auto by_default = game_from<kRussian>("W:WK30,K31,K32:BK1");
  for (const auto& m : game.moves()) by_default.play(m);
  EXPECT_FALSE(by_default.over()) << "no such rule by default";
}

TEST(TournamentRules, ThreeKingsCountFromTheCaptureThatLeftALoneKing) {
  // White's king e1 (31) takes the man on d2 (26) at ply 1, landing on a5
  // (13): from then on Black has a lone king (b8), and White's moves count
  // from the next one.
  auto game = game_from<kRussian>("W:WK30,K31,K32:B26,K1", DrawRules::Tournament);
  EXPECT_EQ(game.counters().strong_side, -1);
  play(game, "31x13");
  EXPECT_EQ(game.counters().strong_side, index(Color::White));
  EXPECT_EQ(game.counters().strong_side_moves, 0) << "the move that made the balance does not count";
  ASSERT_TRUE(play_fresh_king_moves(game, 2));
  EXPECT_EQ(game.counters().strong_side_moves, 1);
  ASSERT_TRUE(play_fresh_king_moves(game, 27));
  EXPECT_EQ(game.counters().strong_side_moves, 14);
  EXPECT_FALSE(game.over()) << "ply 30: one ply before White's 15th move";
  ASSERT_TRUE(play_fresh_king_moves(game, 1));
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().reason, kReasonKingsAgainstLoneKing);
}

TEST(TournamentRules, FifteenMovesEachWithKingsOnly) {
  // Men on a3 (21) and h6 (12) stay where they are (so rule (b) does not
  // apply); only kings move, never to a position seen before.
  auto game = game_from<kRussian>("W:W21,K29,K31:B12,K2,K4", DrawRules::Tournament);
  ASSERT_TRUE(play_fresh_king_moves(game, 29));
  EXPECT_EQ(game.counters().reversible_plies, 29);
  EXPECT_FALSE(game.over()) << "one ply before the 15th move of each side";
  ASSERT_TRUE(play_fresh_king_moves(game, 1));
  ASSERT_TRUE(game.over());
  EXPECT_EQ(game.result().text(), "1/2-1/2");
  EXPECT_EQ(game.result().reason, kReasonKingsOnly);

  auto by_default = game_from<kRussian>("W:W21,K29,K31:B12,K2,K4");
  for (const auto& m : game.moves()) by_default.play(m);
  EXPECT_FALSE(by_default.over()) << "no such rule by default";
}

TEST(TournamentRules, ManMoveRestartsTheKingsOnlyCount) {
  auto game = game_from<kRussian>("W:W21,K29,K31:B12,K2,K4", DrawRules::Tournament);
  ASSERT_TRUE(play_fresh_king_moves(game, 20));
  EXPECT_EQ(game.counters().reversible_plies, 20);
  play(game, "21-17");  // a3-b4
  EXPECT_EQ(game.counters().reversible_plies, 0);
  EXPECT_EQ(game.plies_since_capture_or_crowning(), 21) << "a man's step is no capture and no crowning";
}

}  // namespace
}  // namespace dama
