// The search: forced wins it must find, the game's draw rules inside its
// tree, determinism (across runs and threads), its limits, and the search
// and bench subcommands.
//
// The tests search with a plain material count (man 100, king 300) rather
// than the tuned evaluation, so that what they expect follows from the
// position alone and does not move when the weights are retuned.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include "busy_moves.hpp"
#include "fen.hpp"
#include "game.hpp"
#include "notation.hpp"
#include "parallel_search.hpp"
#include "search.hpp"
#include "test_support.hpp"
#include "tt.hpp"
#include "variant.hpp"
#include "weights.hpp"

#ifndef DAMA_BINARY
#error "DAMA_BINARY must name the dama program"
#endif

namespace dama {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

template <class Board>
struct MaterialEvaluator {
  Score operator()(const Position<Board>& p) const {
    const Color us = p.side, them = ~p.side;
    return 100 * (popcount(p.men(us)) - popcount(p.men(them))) +
           300 * (popcount(p.kings_of(us)) - popcount(p.kings_of(them)));
  }
};

template <RuleSet R>
using TestSearcher = Searcher<R, MaterialEvaluator<BoardFor<R>>>;

template <RuleSet R>
TestSearcher<R> make_searcher(std::size_t tt_megabytes = 4) {
  return TestSearcher<R>(MaterialEvaluator<BoardFor<R>>{}, tt_megabytes);
}

SearchLimits depth_limit(int depth) {
  SearchLimits limits;
  limits.depth = depth;
  return limits;
}

template <RuleSet R>
std::string numeric(const Position<BoardFor<R>>& p, const Move<BoardFor<R>>& m) {
  MoveList<BoardFor<R>> legal;
  MoveGenerator<R>::generate(p, legal);
  return format_move(m, legal, Notation::Numeric);
}

// The variants as types, for typed tests.
template <std::size_t I>
struct VariantAt {
  static constexpr RuleSet kRules = kVariants[I].rules;
  static constexpr std::string_view kName = kVariants[I].name;
};
using AllVariants = ::testing::Types<VariantAt<0>, VariantAt<1>, VariantAt<2>, VariantAt<3>, VariantAt<4>,
                                     VariantAt<5>, VariantAt<6>, VariantAt<7>, VariantAt<8>, VariantAt<9>>;
static_assert(kVariantCount == 10, "add the new variant to AllVariants");

// The text for R's board: 8x8, 10x10 or 10x8.  The 10x8 positions are the
// 8x8 ones on the same coordinates (a1 bottom left), renumbered.
template <RuleSet R>
constexpr const char* on_board(const char* board8, const char* board10, const char* board10x8) {
  if constexpr (R.board == BoardShape{8, 8}) return board8;
  if constexpr (R.board == BoardShape{10, 10}) return board10;
  return board10x8;
}

template <class V>
class SearchTest : public ::testing::Test {};
TYPED_TEST_SUITE(SearchTest, AllVariants);

// ---------------------------------------------------------------------------
// Forced wins

// The shot, the same in every variant (8x8 squares; the same pattern in the
// lower left corner of the 10x10 board):
//   White men a1 b2 c3 e3, Black men c5 e5, White to move.
//   1. c3-d4 (22-18): Black must capture, and can only take with e5 over d4
//      to c3 (c5 over d4 would land on e3, occupied; from c3 the man cannot
//      go on: b2's far side a1 is occupied).
//   2. b2xd4xb6: White's man takes c3 then c5 -- Black has no piece left.
// So 22-18 wins in 3 plies.  White has no capture now, so nothing wins
// sooner; every other move lets Black live longer.  Found at depth 1 (the
// horizon searches the forced captures); asked at depths 3 and 1.
TYPED_TEST(SearchTest, FindsTheShotThatWinsInThreePlies) {
  constexpr RuleSet R = TypeParam::kRules;
  if constexpr (no_move_wins(R)) return;  // poddavki's wins are the other way round: PoddavkiSearch
  using Board = BoardFor<R>;
  const auto root = parse_fen<Board>(on_board<R>("W:W22,23,25,29:B14,15", "W:W37,38,41,46:B27,28", "W:W27,28,31,36:B17,18"));
  const std::string shot = on_board<R>("22-18", "37-32", "27-22");
  auto searcher = make_searcher<R>();
  const auto result = searcher.search(root, depth_limit(3));
  ASSERT_TRUE(result.best_move);
  EXPECT_EQ(numeric<R>(root, *result.best_move), shot);
  EXPECT_EQ(result.score, kWinScore - 3);
  EXPECT_EQ(format_score(result.score), "win 3");
  ASSERT_EQ(result.pv.size(), 3u);

  // Depth 1 suffices: the horizon may not stand pat while a capture is due.
  auto shallow = make_searcher<R>();
  const auto at_depth_1 = shallow.search(root, depth_limit(1));
  ASSERT_TRUE(at_depth_1.best_move);
  EXPECT_EQ(numeric<R>(root, *at_depth_1.best_move), shot);
  EXPECT_EQ(at_depth_1.score, kWinScore - 3);

  // From Black's side after 22-18: the forced capture, and a loss in 2 plies.
  const auto after = root.after(*result.best_move);
  auto defender = make_searcher<R>();
  const auto defence = defender.search(after, depth_limit(3));
  ASSERT_TRUE(defence.best_move);
  EXPECT_TRUE(defence.best_move->is_capture());
  EXPECT_EQ(defence.score, -(kWinScore - 2));
  EXPECT_EQ(format_score(defence.score), "loss 2");
}

// A king that must be captured (8x8, where men may take kings): White's man
// c3 (22) against Black's lone king d4 (18), e5 (15) empty.  The capture
// c3xe5 is compulsory and takes Black's last piece: a win in 1 ply.
TYPED_TEST(SearchTest, CapturingTheLastPieceIsAWinInOne) {
  constexpr RuleSet R = TypeParam::kRules;
  using Board = BoardFor<R>;
  if constexpr (R.board == BoardShape{8, 8} && R.men_capture_kings && !no_move_wins(R)) {
    const auto root = parse_fen<Board>("W:W22:BK18");
    auto searcher = make_searcher<R>();
    const auto result = searcher.search(root, depth_limit(2));
    ASSERT_TRUE(result.best_move);
    EXPECT_EQ(numeric<R>(root, *result.best_move), "22x15");
    EXPECT_EQ(result.score, kWinScore - 1);
  }
}

// Poddavki: the side left without a move wins.  White's man c3 (22) against
// Black's e5 (15): c3-d4 (22-18) forces e5:c3 and leaves White without a
// piece, a win in 2 plies; in russian the same move loses the man.  And the
// forced c3:e5 against d4 (W:W22:B18) gives Black the win.
TEST(PoddavkiSearch, GivesAwayTheLastPieceAndAvoidsTakingTheOpponentsLast) {
  constexpr RuleSet R = test::variant_rules("poddavki");
  auto searcher = make_searcher<R>();
  const auto root = parse_fen<Board8>("W:W22:B15");
  const auto result = searcher.search(root, depth_limit(4));
  ASSERT_TRUE(result.best_move);
  EXPECT_EQ(numeric<R>(root, *result.best_move), "22-18");
  EXPECT_EQ(result.score, kWinScore - 2);
  auto forced = make_searcher<R>();
  const auto lost = forced.search(parse_fen<Board8>("W:W22:B18"), depth_limit(3));
  EXPECT_EQ(lost.score, -(kWinScore - 1));
  EXPECT_EQ(format_score(lost.score), "loss 1");

  constexpr RuleSet kRussianRules = test::variant_rules("russian");
  auto russian = make_searcher<kRussianRules>();
  const auto won = russian.search(parse_fen<Board8>("W:W22:B18"), depth_limit(3));
  EXPECT_EQ(won.score, kWinScore - 1);
}

TYPED_TEST(SearchTest, NoLegalMoveMeansNoBestMove) {
  constexpr RuleSet R = TypeParam::kRules;
  using Board = BoardFor<R>;
  // 8x8: White's man g1 is blocked by f2, h2 and e3 (see game_test).  10x10
  // and 10x8: White's man on a1 is blocked by b2 and c3.
  const auto root = parse_fen<Board>(on_board<R>("W:W32:B23,27,28", "W:W46:B37,41", "W:W36:B27,31"));
  auto searcher = make_searcher<R>();
  const auto result = searcher.search(root, depth_limit(4));
  EXPECT_FALSE(result.best_move);
  EXPECT_EQ(result.depth, 0);
}

// ---------------------------------------------------------------------------
// Determinism

template <class Board>
void expect_same(const SearchResult<Board>& a, const SearchResult<Board>& b) {
  ASSERT_TRUE(a.best_move && b.best_move);
  EXPECT_TRUE(a.best_move->same_identity(*b.best_move));
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.depth, b.depth);
  ASSERT_EQ(a.pv.size(), b.pv.size());
  for (std::size_t i = 0; i < a.pv.size(); ++i) EXPECT_TRUE(a.pv[i].same_identity(b.pv[i])) << "pv move " << i;
}

// A middlegame position (from the bench set), legal in every variant of its board.
constexpr const char* kMiddlegame10x8 = "W:W21,22,25,26,27,33,35,36,37,38,39:B1,4,5,6,8,9,11,13,15,19";
template <RuleSet R>
Position<BoardFor<R>> middlegame() {
  return parse_fen<BoardFor<R>>(
      on_board<R>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14",
                  "W:W22,26,36,37,38,39,42,44,45,46,47,48,49,50:B3,5,7,8,9,10,11,14,15,16,19,29,35", kMiddlegame10x8));
}

TYPED_TEST(SearchTest, FixedDepthIsDeterministic) {
  constexpr RuleSet R = TypeParam::kRules;
  const auto root = middlegame<R>();
  const int depth = R.board == BoardShape{10, 10} ? 5 : 7;
  auto first = make_searcher<R>(), second = make_searcher<R>();
  const auto a = first.search(root, depth_limit(depth));
  const auto b = second.search(root, depth_limit(depth));
  EXPECT_EQ(a.depth, depth);
  expect_same(a, b);
  // clear() makes a used searcher as good as new.
  first.clear();
  expect_same(a, first.search(root, depth_limit(depth)));
}

TYPED_TEST(SearchTest, FixedNodesIsDeterministic) {
  constexpr RuleSet R = TypeParam::kRules;
  const auto root = middlegame<R>();
  SearchLimits limits;
  limits.nodes = 20000;
  auto first = make_searcher<R>(), second = make_searcher<R>();
  const auto a = first.search(root, limits);
  const auto b = second.search(root, limits);
  EXPECT_LE(a.nodes, limits.nodes);
  expect_same(a, b);
}

TYPED_TEST(SearchTest, TwoThreadsAtOnceAgree) {
  constexpr RuleSet R = TypeParam::kRules;
  const auto root = middlegame<R>();
  const auto limits = depth_limit(R.board == BoardShape{10, 10} ? 5 : 7);
  using Result = SearchResult<BoardFor<R>>;
  Result in_thread[2];
  std::thread workers[2];
  for (int t = 0; t < 2; ++t)
    workers[t] = std::thread([&, t] {
      auto searcher = make_searcher<R>();
      in_thread[t] = searcher.search(root, limits);
    });
  for (auto& w : workers) w.join();
  expect_same(in_thread[0], in_thread[1]);
  auto alone = make_searcher<R>();
  expect_same(in_thread[0], alone.search(root, limits));
}

// ---------------------------------------------------------------------------
// Limits and reports

TYPED_TEST(SearchTest, NodeLimitIsNeverExceeded) {
  constexpr RuleSet R = TypeParam::kRules;
  const auto root = Position<BoardFor<R>>::start(R.first_player);
  for (std::uint64_t budget : {1ull, 50ull, 1000ull, 30000ull}) {
    SCOPED_TRACE(budget);
    SearchLimits limits;
    limits.nodes = budget;
    auto searcher = make_searcher<R>();
    const auto result = searcher.search(root, limits);
    EXPECT_LE(result.nodes, budget);
    EXPECT_TRUE(result.best_move) << "a move even when no iteration completes";
  }
}

TYPED_TEST(SearchTest, IterationsAreReportedInOrder) {
  constexpr RuleSet R = TypeParam::kRules;
  const auto root = middlegame<R>();
  std::vector<SearchInfo<BoardFor<R>>> infos;
  auto searcher = make_searcher<R>();
  const auto result = searcher.search(root, depth_limit(5), [&](const auto& info) { infos.push_back(info); });
  ASSERT_EQ(infos.size(), 5u);
  for (std::size_t i = 0; i < infos.size(); ++i) {
    EXPECT_EQ(infos[i].depth, static_cast<int>(i) + 1);
    EXPECT_FALSE(infos[i].pv.empty());
    if (i > 0) {
      EXPECT_GE(infos[i].nodes, infos[i - 1].nodes);
    }
  }
  EXPECT_TRUE(infos.back().pv.front().same_identity(*result.best_move));
  EXPECT_EQ(infos.back().score, result.score);
  // The PV is a line of legal moves.
  auto p = root;
  for (const auto& m : result.pv) {
    MoveList<BoardFor<R>> legal;
    MoveGenerator<R>::generate(p, legal);
    EXPECT_TRUE(std::any_of(legal.begin(), legal.end(), [&](const auto& l) { return l.same_identity(m); }));
    p = p.after(m);
  }
}

TEST(SearchLimits, MovetimeIsRespected) {
  constexpr RuleSet R = test::variant_rules("international");
  SearchLimits limits;
  limits.movetime_ms = 100;
  auto searcher = make_searcher<R>();
  const auto start = std::chrono::steady_clock::now();
  const auto result = searcher.search(Position<Board10>::start(Color::White), limits);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(result.best_move);
  EXPECT_GE(result.depth, 1);
  EXPECT_LT(elapsed, std::chrono::milliseconds(100 + 400));
}

TEST(SearchLimits, StopFlagEndsAnInfiniteSearch) {
  constexpr RuleSet R = test::variant_rules("russian");
  std::atomic<bool> stop{false};
  SearchLimits limits;  // no limit but the flag
  limits.stop = &stop;
  auto searcher = make_searcher<R>();
  SearchResult<Board8> result;
  const auto start = std::chrono::steady_clock::now();
  std::thread worker([&] { result = searcher.search(Position<Board8>::start(Color::White), limits); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  stop = true;
  worker.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(result.best_move);
  EXPECT_GE(result.depth, 1);
}

// Under a clock the search aims at the optimum and never passes the maximum.
TEST(SearchLimits, ClockOptimumAndMaximum) {
  constexpr RuleSet R = test::variant_rules("international");
  SearchLimits limits;
  limits.optimum_ms = 40;
  limits.movetime_ms = 400;
  auto searcher = make_searcher<R>();
  const auto start = std::chrono::steady_clock::now();
  const auto result = searcher.search(Position<Board10>::start(Color::White), limits);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(result.best_move);
  EXPECT_GE(result.depth, 2);
  EXPECT_LT(elapsed, std::chrono::milliseconds(400 + 100));
}

// A single legal move under a clock is played at once: nothing to choose.
TEST(SearchLimits, ClockSpendsNothingOnASingleReply) {
  constexpr RuleSet R = test::variant_rules("russian");
  // White's man on 22 must take 18 (the only capture, so the only move).
  const auto p = parse_fen<Board8>("W:W22,31,32:B18,1,2");
  MoveList<Board8> legal;
  MoveGenerator<R>::generate(p, legal);
  ASSERT_EQ(legal.size(), 1);
  SearchLimits limits;
  limits.optimum_ms = 5000;
  limits.movetime_ms = 20000;
  auto searcher = make_searcher<R>();
  const auto start = std::chrono::steady_clock::now();
  const auto result = searcher.search(p, limits);
  EXPECT_EQ(result.depth, 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

// While pondering no time limit applies; after ponder-hit the clock starts.
TEST(SearchLimits, PonderingHoldsTheClockUntilTheHit) {
  constexpr RuleSet R = test::variant_rules("russian");
  std::atomic<bool> pondering{true};
  SearchLimits limits;
  limits.optimum_ms = 30;
  limits.movetime_ms = 60;
  limits.pondering = &pondering;
  auto searcher = make_searcher<R>();
  SearchResult<Board8> result;
  const auto start = std::chrono::steady_clock::now();
  std::thread worker([&] { result = searcher.search(Position<Board8>::start(Color::White), limits); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  pondering = false;
  const auto hit = std::chrono::steady_clock::now();
  worker.join();
  const auto end = std::chrono::steady_clock::now();
  EXPECT_GE(end - start, std::chrono::milliseconds(300)) << "the search ended while pondering";
  EXPECT_LT(end - hit, std::chrono::milliseconds(60 + 200));
  EXPECT_TRUE(result.best_move);
}

// A fresh searcher with these options, p searched to this depth.
template <RuleSet R>
auto search_with(const SearchOptions& options, const Position<Board8>& p, int depth) {
  auto searcher = make_searcher<R>();
  searcher.set_options(options);
  const auto result = searcher.search(p, depth_limit(depth));
  EXPECT_TRUE(result.best_move);
  return result;
}

// Every switch of the table switches something (the tree changes when it is
// flipped from its default) and none changes the verdict by more than a man
// at depth 9; the pruning ones search fewer nodes when on.  Late move
// pruning at its former counts (late-move-percent 100): at the default's
// 27 and 38 moves, 4 and 5 plies left, wide-pruning finds nothing to prune
// in this position.
TEST(SearchOptions, EverySwitchChangesTheTreeNotTheVerdict) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto p = parse_fen<Board8>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  SearchOptions base;
  base.late_move_percent = 100;
  const auto usual = search_with<R>(base, p, 9);
  for (const auto& sw : kSearchSwitches) {
    SCOPED_TRACE(sw.name);
    if (std::string_view(sw.name) == "deepest-thread") continue;  // one thread: nothing to choose (tested below)
    if (std::string_view(sw.name) == "defer-busy-moves") continue;  // one thread: nobody to defer to (tested below)
    if (std::string_view(sw.name) == "keep-history") continue;    // a first search has nothing to keep (tested below)
    if (std::string_view(sw.name) == "iir") continue;             // needs a larger tree (tested below)
    SearchOptions options = base;
    const bool on_by_default = options.*sw.member;
    options.*sw.member = !on_by_default;
    const auto flipped = search_with<R>(options, p, 9);
    EXPECT_NEAR(flipped.score, usual.score, 100);
    EXPECT_NE(flipped.nodes, usual.nodes);
    const std::string name = sw.name;
    if (name == "reverse-futility" || name == "late-move-pruning" || name == "probcut" || name == "wide-pruning") {
      const auto with = on_by_default ? usual.nodes : flipped.nodes;
      const auto without = on_by_default ? flipped.nodes : usual.nodes;
      EXPECT_LT(with, without);
    }
  }
}

// Every number of the table is read by the search: moved from its default
// (halved, then doubled, within its range) it changes the depth-13 tree
// (at depth 9 the aspiration windows of 12 and 25 search the same), not
// the verdict.  iteration-start acts only under a clock (tested below).
TEST(SearchOptions, EveryNumberChangesTheTreeNotTheVerdict) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto p = parse_fen<Board8>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  const auto usual = search_with<R>(SearchOptions{}, p, 13);
  for (const auto& n : kSearchNumbers) {
    if (std::string_view(n.name) == "iteration-start") continue;
    const int base = SearchOptions{}.*n.member;
    for (const int value : {std::max(n.min, base / 2), std::min(n.max, base * 2)}) {
      SCOPED_TRACE(std::string(n.name) + "=" + std::to_string(value));
      SearchOptions options;
      options.*n.member = value;
      const auto moved = search_with<R>(options, p, 13);
      EXPECT_NEAR(moved.score, usual.score, 100);
      EXPECT_NE(moved.nodes, usual.nodes);
    }
  }
}

// iteration-start: under a clock, a lower share starts fewer iterations.
TEST(SearchOptions, IterationStartSharesTheTimeAimedAt) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto start = Position<Board8>::start(R.first_player);
  SearchLimits limits;
  limits.movetime_ms = 60000;  // the hard limit, far away
  limits.optimum_ms = 200;
  const auto depth_with = [&](int share) {
    SearchOptions options;
    options.iteration_start = share;
    auto searcher = make_searcher<R>();
    searcher.set_options(options);
    const auto result = searcher.search(start, limits);
    EXPECT_LT(result.seconds, 5.0);
    return result.depth;
  };
  EXPECT_LT(depth_with(10), depth_with(100));
}

// iir: nodes without a table move are rare in a small tree (iterative
// deepening leaves one almost everywhere); from the start at depth 11 some
// are reached with the engine's evaluation, and the tree changes, not the verdict.
TEST(SearchOptions, InternalIterativeReductionChangesTheTreeNotTheVerdict) {
  constexpr RuleSet R = test::variant_rules("russian");
  const Weights weights = default_weights(find_variant("russian"));
  using Engine = Searcher<R, WeightsEvaluator<R>>;
  const auto start = Position<Board8>::start(R.first_player);
  Engine plain(WeightsEvaluator<R>{&weights}, 4);
  const auto usual = plain.search(start, depth_limit(11));
  SearchOptions options;
  options.iir = true;
  Engine reducing(WeightsEvaluator<R>{&weights}, 4);
  reducing.set_options(options);
  const auto reduced = reducing.search(start, depth_limit(11));
  ASSERT_TRUE(reduced.best_move);
  EXPECT_NE(reduced.nodes, usual.nodes);
  EXPECT_NEAR(reduced.score, usual.score, 100);
}

// quiescence-exchanges: in this russian position (from a game of the
// issue-15 match) the white moves a depth-1 search likes best leave Black a
// sacrifice that wins back more than it gives, which the static score at the
// horizon cannot see: depth 1 scores White about a man better than depth 7
// does.  With the exchange offers tried at the horizon the depth-1 score
// comes down to (within 40 centi-men of) the deep one.
TEST(SearchOptions, ExchangeOffersAtTheHorizonSeeTheOpponentsShot) {
  constexpr RuleSet R = test::variant_rules("russian");
  const Weights weights = default_weights(find_variant("russian"));
  using Engine = Searcher<R, WeightsEvaluator<R>>;
  SearchOptions offering;
  offering.quiescence_exchanges = true;
  const auto search = [&](const Position<Board8>& p, int depth, bool offers) {
    Engine engine(WeightsEvaluator<R>{&weights}, 4);
    if (offers) engine.set_options(offering);
    return engine.search(p, depth_limit(depth));
  };
  const auto p = parse_fen<Board8>("W:W14,20,21,22,24,26,27,30,32:B1,3,6,7,8,11,15");
  const auto blind = search(p, 1, false), seeing = search(p, 1, true), deep = search(p, 7, false);
  EXPECT_GT(blind.score, deep.score + 80);
  EXPECT_LT(seeing.score, blind.score - 80);
  EXPECT_NEAR(seeing.score, deep.score, 40);
  EXPECT_GT(seeing.nodes, blind.nodes);

  // The same with a white king on a1 (it stays on the board in every line of
  // a depth-1 search; without the test for kings the offers add 147 nodes).
  const auto with_king = parse_fen<Board8>("W:W14,20,21,22,24,26,27,K29,30,32:B1,3,6,7,8,11,15");
  EXPECT_EQ(search(with_king, 1, true).nodes, search(with_king, 1, false).nodes);
}

// keep-history: a second search of the same searcher starts from the first
// one's history, so its tree differs from that of a searcher that forgets
// it; a fresh searcher (or one after clear()) is the plain search.
TEST(SearchOptions, KeepHistoryCarriesTheHistoryIntoTheNextSearch) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto first = parse_fen<Board8>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  const auto second = parse_fen<Board8>("B:W18,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  SearchOptions keep;
  keep.keep_history = true;
  auto forgetting = make_searcher<R>();
  auto keeping = make_searcher<R>();
  keeping.set_options(keep);
  EXPECT_EQ(forgetting.search(first, depth_limit(9)).nodes, keeping.search(first, depth_limit(9)).nodes);
  const auto forgot = forgetting.search(second, depth_limit(9));
  const auto kept = keeping.search(second, depth_limit(9));
  EXPECT_NE(forgot.nodes, kept.nodes);
  EXPECT_NEAR(forgot.score, kept.score, 100);
  keeping.clear();
  auto fresh = make_searcher<R>();
  EXPECT_EQ(keeping.search(second, depth_limit(9)).nodes, fresh.search(second, depth_limit(9)).nodes);
}

// Lazy SMP: one thread is exactly the plain search; two share the table,
// and the main thread's result is a complete search of the asked depth.
TEST(ParallelSearch, OneThreadIsThePlainSearch) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto p = parse_fen<Board8>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  auto plain = make_searcher<R>();
  ParallelSearcher<R, MaterialEvaluator<Board8>> one(MaterialEvaluator<Board8>{}, 4, 1);
  const auto a = plain.search(p, depth_limit(9));
  const auto b = one.search(Game<R>(p), depth_limit(9));
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.score, b.score);
  ASSERT_TRUE(a.best_move && b.best_move);
  EXPECT_TRUE(a.best_move->same_identity(*b.best_move));
}

TEST(ParallelSearch, TwoThreadsFindTheShotAndStopTogether) {
  constexpr RuleSet R = test::variant_rules("international");
  const auto root = parse_fen<Board10>("W:W37,38,41,46:B27,28");
  ParallelSearcher<R, MaterialEvaluator<Board10>> two(MaterialEvaluator<Board10>{}, 4, 2);
  EXPECT_EQ(two.threads(), 2);
  const auto shot = two.search(Game<R>(root), depth_limit(5));
  ASSERT_TRUE(shot.best_move);
  EXPECT_EQ(numeric<R>(root, *shot.best_move), "37-32");
  EXPECT_EQ(shot.score, kWinScore - 3);

  // A timed search from the start: both threads stop by the move time.
  SearchLimits limits;
  limits.movetime_ms = 150;
  const auto start = std::chrono::steady_clock::now();
  const auto result = two.search(Game<R>(Position<Board10>::start(Color::White)), limits);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150 + 300));
  ASSERT_TRUE(result.best_move);
  EXPECT_GE(result.depth, 3);
}

// ponder-threads: while pondering only the first threads search, the others
// wait for ponder-hit.  With one of two pondering and no hit the helper
// searches nothing and the search is the plain one node for node; after a
// hit the helper joins.
TEST(ParallelSearch, PonderThreadsLeaveTheOthersWaitingForTheHit) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto p = parse_fen<Board8>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  auto plain = make_searcher<R>();
  const auto alone = plain.search(p, depth_limit(9));
  ParallelSearcher<R, MaterialEvaluator<Board8>> two(MaterialEvaluator<Board8>{}, 4, 2);
  two.set_ponder_threads(1);
  EXPECT_EQ(two.ponder_threads(), 1);
  std::atomic<bool> pondering{true};
  SearchLimits limits = depth_limit(9);
  limits.pondering = &pondering;
  const auto pondered = two.search(Game<R>(p), limits);
  EXPECT_EQ(two.helper_nodes(), 0u);
  EXPECT_EQ(pondered.nodes, alone.nodes);
  EXPECT_EQ(pondered.score, alone.score);

  // A hit 30 ms into a search with a 120 ms budget: the helper searches too.
  two.clear();
  SearchLimits timed;
  timed.movetime_ms = 120;
  timed.optimum_ms = 120;
  timed.pondering = &pondering;
  SearchResult<Board8> result;
  std::thread worker([&] { result = two.search(Game<R>(Position<Board8>::start(Color::White)), timed); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  pondering = false;
  worker.join();
  EXPECT_GT(two.helper_nodes(), 0u);
  EXPECT_TRUE(result.best_move);
}

// The table of moves other threads are busy with: a mark lasts from enter
// to leave, a set full of other marks gives one up, clear forgets all.
TEST(ParallelSearch, BusyMovesMarksWhatIsBeingSearched) {
  BusyMoves busy;
  const std::uint64_t key = 0x9E3779B97F4A7C15ULL;
  EXPECT_FALSE(busy.busy(key));
  busy.enter(key);
  EXPECT_TRUE(busy.busy(key));
  busy.enter(key);  // twice is once
  busy.leave(key);
  EXPECT_FALSE(busy.busy(key));

  // Keys that share a set (the low bits): four fit, a fifth replaces one.
  const std::uint64_t step = std::uint64_t{1} << 40;
  for (int k = 1; k <= 4; ++k) busy.enter(key + k * step);
  for (int k = 1; k <= 4; ++k) EXPECT_TRUE(busy.busy(key + k * step)) << k;
  busy.enter(key + 5 * step);
  EXPECT_TRUE(busy.busy(key + 5 * step));
  int kept = 0;
  for (int k = 1; k <= 4; ++k) kept += busy.busy(key + k * step) ? 1 : 0;
  EXPECT_EQ(kept, 3);
  busy.clear();
  for (int k = 1; k <= 5; ++k) EXPECT_FALSE(busy.busy(key + k * step)) << k;
}

// defer-busy-moves on and off (the earlier lazy SMP stays selectable): two
// threads searching deep enough for moves to be deferred (from 3 plies
// left) find the shot and its exact score, as one thread does.
TEST(ParallelSearch, DeferringBusyMovesKeepsTheResult) {
  constexpr RuleSet R = test::variant_rules("international");
  const auto root = parse_fen<Board10>("W:W37,38,41,46:B27,28");
  for (const bool defer : {true, false}) {
    ParallelSearcher<R, MaterialEvaluator<Board10>> two(MaterialEvaluator<Board10>{}, 4, 2);
    SearchOptions options;
    options.defer_busy_moves = defer;
    two.set_options(options);
    for (int run = 0; run < 3; ++run) {
      const auto shot = two.search(Game<R>(root), depth_limit(9));
      ASSERT_TRUE(shot.best_move);
      EXPECT_EQ(numeric<R>(root, *shot.best_move), "37-32") << "defer " << defer;
      EXPECT_EQ(shot.score, kWinScore - 3) << "defer " << defer;
      EXPECT_EQ(shot.depth, 9);
    }
  }
}

// deepest-thread: the result is the deepest completed search of any thread,
// never shallower than what the main thread reported, and legal.  At a fixed
// depth the helper one ply ahead (plain lazy SMP: defer-busy-moves off) may
// finish that extra ply first.
TEST(ParallelSearch, DeepestThreadGivesTheDeepestCompletedSearch) {
  constexpr RuleSet R = test::variant_rules("russian");
  const auto p = parse_fen<Board8>("W:W19,20,21,22,24,29,30,31,32:B1,3,5,8,9,12,14");
  ParallelSearcher<R, MaterialEvaluator<Board8>> two(MaterialEvaluator<Board8>{}, 4, 2);
  SearchOptions options;
  options.deepest_thread = true;
  options.defer_busy_moves = false;
  two.set_options(options);
  for (int run = 0; run < 5; ++run) {
    int reported = 0;
    const auto fixed = two.search(Game<R>(p), depth_limit(8),
                                  [&](const SearchInfo<Board8>& info) { reported = std::max(reported, info.depth); });
    ASSERT_TRUE(fixed.best_move);
    EXPECT_EQ(reported, 8);
    EXPECT_TRUE(fixed.depth == 8 || fixed.depth == 9) << fixed.depth;
    ASSERT_FALSE(fixed.pv.empty());
    EXPECT_TRUE(fixed.pv.front().same_identity(*fixed.best_move));
    MoveList<Board8> legal;
    MoveGenerator<R>::generate(p, legal);
    bool found = false;
    for (int i = 0; i < legal.size(); ++i) found |= legal[i].same_identity(*fixed.best_move);
    EXPECT_TRUE(found);

    SearchLimits limits;
    limits.movetime_ms = 60;
    reported = 0;
    const auto timed =
        two.search(Game<R>(Position<Board8>::start(Color::White)), limits,
                   [&](const SearchInfo<Board8>& info) { reported = std::max(reported, info.depth); });
    ASSERT_TRUE(timed.best_move);
    EXPECT_GE(timed.depth, reported);
  }
}

TEST(SearchScores, Format) {
  EXPECT_EQ(format_score(35), "35");
  EXPECT_EQ(format_score(-120), "-120");
  EXPECT_EQ(format_score(kWinScore - 7), "win 7");
  EXPECT_EQ(format_score(-kWinScore + 4), "loss 4");
}

// ---------------------------------------------------------------------------
// The game's draw rules inside the tree

constexpr RuleSet kRussian = test::variant_rules("russian");

template <RuleSet R>
void play_text(Game<R>& game, std::string_view move) {
  game.play(parse_move<R>(game.position(), move));
}

// White's extra man on h4 (20) is worth 100 -- until the 80-ply count ends
// the game.  After 78 plies of kings shuffling (h2-g1 and b8-a7, squares on
// the edge where no capture is possible) the man's step h4-g5 and any reply
// reach the 80th ply: a draw, 0; White has nothing better (a king moving
// onto the a7-g1 diagonal is taken and cannot be won back within reach).
// From the same position with a fresh count White keeps its extra man.
TEST(SearchDraws, EightyPlyRule) {
  Game<kRussian> game(parse_fen<Board8>("W:W20,K28:BK1"));
  const char* shuffle[] = {"28-32", "1-5", "32-28", "5-1"};
  for (int i = 0; i < 78; ++i) play_text(game, shuffle[i % 4]);
  ASSERT_FALSE(game.over());
  ASSERT_EQ(game.plies_since_capture_or_crowning(), 78);
  auto searcher = make_searcher<kRussian>();
  EXPECT_EQ(searcher.search(game, depth_limit(4)).score, 0);
  auto fresh = make_searcher<kRussian>();
  EXPECT_GE(fresh.search(game.position(), depth_limit(4)).score, 100);
}

using test::play_fresh_king_moves;  // tests/test_support.hpp

// Tournament rule (b) in the tree: three kings (c1, e1, g1 at the start)
// against a lone king (b8), White to make its 15th move since the balance
// arose.  Any move that does not take the king ends the game in a draw, and
// none can (the line was chosen so that White has no capture): the score is
// exactly 0.  By default White is simply 600 ahead.
TEST(SearchDraws, ThreeKingsAgainstOneUnderTournamentRules) {
  const auto start = parse_fen<Board8>("W:WK30,K31,K32:BK1");
  Game<kRussian> tournament(start, DrawRules::Tournament);
  ASSERT_TRUE(play_fresh_king_moves(tournament, 28));
  Game<kRussian> by_default(start);
  for (const auto& m : tournament.moves()) by_default.play(m);
  ASSERT_EQ(tournament.counters().strong_side_moves, 14);
  ASSERT_FALSE(tournament.over());
  ASSERT_FALSE(MoveGenerator<kRussian>::has_capture(tournament.position()));
  auto searcher = make_searcher<kRussian>();
  EXPECT_EQ(searcher.search(tournament, depth_limit(4)).score, 0);
  auto other = make_searcher<kRussian>();
  EXPECT_GE(other.search(by_default, depth_limit(4)).score, 600);
}

// Tournament repetition in the tree.  White's lone king h2 against Black's
// kings b8 and f8 (300 behind).  After h2-g1 b8-a7 g1-h2 a7-b8 the start is
// back; now h2-g1 repeats the position after the first ply, a draw (0) under
// tournament rules, better than any other move (-300 or worse).  By default
// there is no such draw.
TEST(SearchDraws, RepetitionUnderTournamentRules) {
  const auto start = parse_fen<Board8>("W:WK28:BK1,K3");
  Game<kRussian> tournament(start, DrawRules::Tournament), by_default(start);
  for (const char* m : {"28-32", "1-5", "32-28", "5-1"}) {
    play_text(tournament, m);
    play_text(by_default, m);
  }
  auto searcher = make_searcher<kRussian>();
  const auto drawn = searcher.search(tournament, depth_limit(1));
  ASSERT_TRUE(drawn.best_move);
  EXPECT_EQ(numeric<kRussian>(tournament.position(), *drawn.best_move), "28-32");
  EXPECT_EQ(drawn.score, 0);
  auto other = make_searcher<kRussian>();
  EXPECT_LE(other.search(by_default, depth_limit(1)).score, -300);
}

// ---------------------------------------------------------------------------
// Pieces of the search

TYPED_TEST(SearchTest, IncrementalHashEqualsFullHash) {
  constexpr RuleSet R = TypeParam::kRules;
  using Board = BoardFor<R>;
  // Towers hash what a capture stacks and frees: the search computes their key whole.
  if constexpr (kHoldsTowers<Board>) GTEST_SKIP() << "towers: no incremental key";
  test::Random random(99);
  MoveList<Board> moves;
  for (int game = 0; game < 20; ++game) {
    auto p = Position<Board>::start(R.first_player);
    std::uint64_t hash = p.hash();
    for (int ply = 0; ply < 150; ++ply) {
      MoveGenerator<R>::generate(p, moves);
      if (moves.empty()) break;
      const auto& m = moves[random.below(moves.size())];
      hash = zobrist_after_move(hash, p.side, p.kings, m.from, m.to, m.captured, m.promotes);
      p = p.after(m);
      ASSERT_EQ(hash, p.hash()) << to_fen(p);
    }
  }
}

TEST(TranspositionTable, StoresAndReplaces) {
  TranspositionTable tt(1);
  EXPECT_EQ(tt.bucket_count(), 1u << 15);  // 1 MB of 32-byte buckets
  EXPECT_FALSE(tt.probe(12345));
  tt.store(12345, 5, 40, Bound::Exact, 3);
  const auto e = tt.probe(12345);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->depth, 5);
  EXPECT_EQ(e->score, 40);
  EXPECT_EQ(e->move, 3);
  EXPECT_EQ(e->bound, Bound::Exact);

  // Same bucket, other key, shallower: goes to the always-replace slot.
  const std::uint64_t other = 12345 + (std::uint64_t{1} << 40);
  tt.store(other, 2, -7, Bound::Upper, kNoMoveIndex);
  ASSERT_TRUE(tt.probe(other));
  ASSERT_TRUE(tt.probe(12345)) << "the deep entry stays";
  // A deeper one takes the deep slot; the old deep entry moves to the other.
  const std::uint64_t third = 12345 + (std::uint64_t{2} << 40);
  tt.store(third, 9, 1, Bound::Lower, 0);
  EXPECT_TRUE(tt.probe(third));
  EXPECT_TRUE(tt.probe(12345));
  EXPECT_FALSE(tt.probe(other));
  // No best move: the earlier one is kept.
  tt.store(third, 10, 2, Bound::Upper, kNoMoveIndex);
  EXPECT_EQ(tt.probe(third)->move, 0);
  // Negative scores and depths survive the packing into one word.
  tt.store(77, -3, -1234, Bound::Lower, 513);
  ASSERT_TRUE(tt.probe(77));
  EXPECT_EQ(tt.probe(77)->score, -1234);
  EXPECT_EQ(tt.probe(77)->depth, -3);
  EXPECT_EQ(tt.probe(77)->move, 513);
  EXPECT_EQ(tt.probe(77)->bound, Bound::Lower);
  tt.clear();
  EXPECT_FALSE(tt.probe(third));
}

// A table of huge pages (2 MB and more, aligned for them) holds an entry in
// every bucket, from the first to the last, and starts empty.
TEST(TranspositionTable, ALargeTableUsesItsWholeSpan) {
  TranspositionTable tt(8);
  ASSERT_EQ(tt.bucket_count(), 1u << 18);  // 8 MB of 32-byte buckets
  const std::uint64_t high = std::uint64_t{1} << 40;  // other keys, same buckets
  for (std::uint64_t bucket = 0; bucket < tt.bucket_count(); bucket += 4099) EXPECT_FALSE(tt.probe(bucket + high));
  for (std::uint64_t bucket : {std::uint64_t{0}, std::uint64_t{1}, tt.bucket_count() / 2, tt.bucket_count() - 1}) {
    tt.store(bucket + high, 4, static_cast<Score>(bucket % 1000), Bound::Exact, 1);
    const auto e = tt.probe(bucket + high);
    ASSERT_TRUE(e) << "bucket " << bucket;
    EXPECT_EQ(e->score, static_cast<Score>(bucket % 1000));
  }
  EXPECT_FALSE(tt.probe(tt.bucket_count() - 1));  // the same bucket, another key
}

TEST(TranspositionTable, WinScoresCountFromTheStoringNode) {
  const Score win_in_7_from_root = kWinScore - 7;
  const Score stored = score_to_tt(win_in_7_from_root, 3);  // a win in 4 from the node at ply 3
  EXPECT_EQ(stored, kWinScore - 4);
  EXPECT_EQ(score_from_tt(stored, 5), kWinScore - 9);  // met again at ply 5: a win in 9 from the root
  EXPECT_EQ(score_from_tt(score_to_tt(-kWinScore + 6, 2), 2), -kWinScore + 6);
  EXPECT_EQ(score_to_tt(123, 9), 123);
}

// ---------------------------------------------------------------------------
// The subcommands

struct CommandRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
  std::vector<std::string> lines() const {
    std::vector<std::string> result;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) result.push_back(line);
    return result;
  }
};

std::ostream& operator<<(std::ostream& os, const CommandRun& r) {
  return os << "exit " << r.exit_code << "\n" << r.out;
}

// Runs dama with arguments that need no quoting beyond single quotes.
CommandRun run_dama(const std::vector<std::string>& args) {
  std::string command = std::string("'") + DAMA_BINARY + "'";
  for (const auto& a : args) command += " '" + a + "'";
  command += " 2>&1 </dev/null";
  CommandRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer;
  while (const std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(SearchCommand, PrintsIterationsAndTheBestMove) {
  const CommandRun r = run_dama({"search", "--variant", "russian", "--depth", "4"});
  ASSERT_EQ(r.exit_code, 0) << r;
  const auto lines = r.lines();
  ASSERT_EQ(lines.size(), 5u) << r;
  for (int d = 1; d <= 4; ++d) {
    EXPECT_THAT(lines[d - 1], StartsWith("info depth " + std::to_string(d) + " score ")) << r;
    EXPECT_THAT(lines[d - 1], HasSubstr(" nodes ")) << r;
    EXPECT_THAT(lines[d - 1], HasSubstr(" nps ")) << r;
    EXPECT_THAT(lines[d - 1], HasSubstr(" pv ")) << r;
  }
  const CommandRun moves = run_dama({"moves", "--variant", "russian"});
  ASSERT_THAT(lines.back(), StartsWith("bestmove "));
  EXPECT_THAT(moves.lines(), ::testing::Contains(lines.back().substr(9))) << "a legal move, in algebraic notation";
}

TEST(SearchCommand, ShotFromAFen) {
  const CommandRun r =
      run_dama({"search", "--variant", "spanish", "--fen", "W:W22,23,25,29:B14,15", "--nodes", "5000"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("score win 3"));
  EXPECT_EQ(r.lines().back(), "bestmove 22-18");
  const CommandRun algebraic =
      run_dama({"search", "--variant", "russian", "--fen", "W:W22,23,25,29:B14,15", "--movetime", "200"});
  ASSERT_EQ(algebraic.exit_code, 0) << algebraic;
  EXPECT_EQ(algebraic.lines().back(), "bestmove c3-d4");
}

TEST(SearchCommand, PlayedMovesAndTournamentRules) {
  const CommandRun r = run_dama(
      {"search", "--variant", "russian", "--play", "c3-d4 f6-e5", "--depth", "3", "--draw-rules", "tournament"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.lines().back(), "bestmove d4:f6") << "the only legal move";
}

TEST(SearchCommand, NoLegalMove) {
  const CommandRun r = run_dama({"search", "--variant", "russian", "--fen", "W:W32:B23,27,28", "--depth", "3"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("no legal move"));
  EXPECT_EQ(r.lines().back(), "bestmove none");
}

TEST(SearchCommand, NeedsExactlyOneLimit) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"search"}, {"search", "--depth", "3", "--nodes", "100"},
        {"search", "--depth", "3", "--movetime", "100"}}) {
    const CommandRun r = run_dama(args);
    EXPECT_EQ(r.exit_code, 2) << r;
    EXPECT_THAT(r.out, StartsWith("dama: error: ")) << r;
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr("bestmove"))) << r;
  }
}

TEST(SearchCommand, TournamentRulesOnlyForRussian) {
  const CommandRun r = run_dama({"search", "--variant", "czech", "--depth", "2", "--draw-rules", "tournament"});
  EXPECT_EQ(r.exit_code, 2) << r;
  EXPECT_THAT(r.out, HasSubstr("russian only")) << r;
}

// The node total of the bench is the behaviour signature: the same on every run.
TEST(BenchCommand, SameTotalTwice) {
  std::string totals[2];
  for (auto& total : totals) {
    const CommandRun r = run_dama({"bench", "--variant", "russian"});
    ASSERT_EQ(r.exit_code, 0) << r;
    const auto lines = r.lines();
    ASSERT_EQ(lines.size(), 2u) << r;
    EXPECT_THAT(lines[0], StartsWith("russian ")) << r;
    std::istringstream last(lines[1]);
    std::string bench, nodes_word, nps, nps_word;
    ASSERT_TRUE(last >> bench >> total >> nodes_word >> nps >> nps_word) << r;
    EXPECT_EQ(bench, "bench");
    EXPECT_EQ(nodes_word, "nodes");
    EXPECT_EQ(nps_word, "nps");
  }
  EXPECT_EQ(totals[0], totals[1]);
  EXPECT_NE(totals[0], "0");
}

// The signature of every variant together is recorded in docs/performance.md;
// a change of behaviour must update it there, on purpose.
TEST(BenchCommand, SignatureIsTheOneRecordedInTheDocs) {
  std::ifstream doc(DAMA_SOURCE_DIR "/docs/performance.md");
  ASSERT_TRUE(doc) << "cannot open docs/performance.md";
  std::string line, recorded;
  const std::string prefix = "bench signature: ";
  while (std::getline(doc, line))
    if (line.rfind(prefix, 0) == 0) recorded = line.substr(prefix.size());
  ASSERT_FALSE(recorded.empty()) << "no 'bench signature:' line in docs/performance.md";

  const CommandRun r = run_dama({"bench"});
  ASSERT_EQ(r.exit_code, 0) << r;
  const auto lines = r.lines();
  ASSERT_FALSE(lines.empty()) << r;
  std::istringstream last(lines.back());
  std::string bench, total, nodes_word;
  ASSERT_TRUE(last >> bench >> total >> nodes_word) << r;
  EXPECT_EQ(total + " " + nodes_word, recorded) << r;
}

}  // namespace
}  // namespace dama
