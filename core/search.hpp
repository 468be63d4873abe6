// The search: iterative deepening over a principal variation search
// (alpha-beta with null windows after the first move), a transposition table,
// move ordering by TT move, captures, killers and history, and late move
// reductions of quiet moves (late_move_reduction below).
//
// Horizon.  At depth 0 the side to move may stand pat on the static
// evaluation only when it has no capture: captures are compulsory, so a
// position with one is never quiet, and every legal move (all captures) is
// searched until a quiet position is reached.  Under the house rule (capture
// not compulsory) the side to move may stand pat and then tries its captures.
// A threat by the opponent is not extended: the evaluation is trusted there
// (keeps the quiescence search small; the capture is seen one ply deeper);
// the threat-extension switch (measured, off) searches such a position a
// ply more instead, and the quiescence-exchanges switch (offer_exchanges)
// lets a quiet position without kings also try the moves that give the
// opponent a capture, once per line (Scan's quiescence tries selected
// ones; measured here, off).
// A position with a single legal move is searched one ply deeper (forced
// moves cost nothing to extend), but only while the path is shorter than
// twice the iteration's depth, so chains of forced moves cannot run away.
//
// Game end inside the tree.  No legal move loses: -kWinScore + ply (a loss
// in `ply` plies); in poddavki it wins, kWinScore - ply (no_move_score).  The game's own draw counters (DrawCounters, advance()
// from game.hpp) score 0 once they reach a draw; under tournament rules a
// position that repeats one from the search path or the game history (since
// the last irreversible move) also scores 0 -- the usual simplification: a
// side that could repeat once can repeat again, so a twofold repetition in
// the tree stands for the threefold one it leads to.  The table is keyed by
// the position alone, so a draw score found along one path may be reused on
// another: the accepted imprecision of every engine with such rules.
//
// Time.  Under a game clock (limits.optimum_ms, from core/time_control) the
// search aims at the optimum: it starts no iteration once more than about
// 60% of it is gone (the next would most likely not finish), stretches it
// up to 2.5 times while the best move keeps changing between iterations or
// the score falls, spends nothing on a single legal move, and is stopped
// at movetime_ms (the maximum) whatever it is doing.  While *limits.pondering
// is true no time limit applies; when it turns false (ponder-hit) the clock
// starts from that moment.
//
// Pruning near the horizon (non-PV nodes, at most kPruningDepth plies left,
// the side to move with no capture, no win or loss in sight):
//   reverse futility  when the static score exceeds beta by a margin per ply
//                     left, the node fails high unsearched.  Only when the
//                     opponent has no capture either: a pending capture is
//                     the one thing the evaluation cannot see, and draughts
//                     shots (a sacrifice then a multiple capture) start there;
//   late moves        after kLateMoves[depth] moves (scaled by the
//                     late-move-percent number, 150%), quiet moves other than
//                     crownings and killers are not searched (the ordering
//                     puts the ones that cut first).
// ProbCut (non-PV nodes from kProbCutDepth plies left): a null-window search
// of two fifths of the depth against beta plus a margin per ply; when even
// that fails high the node does, as in Scan 2.0's search (rhalbersma/scan,
// src/search.cpp: depth * 40 / 100, margin 5 per ply on its scale).
// Null-move pruning is not used: zugzwang decides many draughts positions.
// Switches measured and left off (docs/performance.md): keep-history (the history
// halved between searches, not cleared), wide-pruning (the two prunings up to
// kWidePruningDepth plies left) and iir (a node without a table move from
// kIirDepth plies left searched a ply shallower).
// Also measured and off: countermoves (the
// quiet reply that last cut after the opponent's move is ordered right
// after the killers) and razoring (a quiet node kRazorDepth or fewer plies
// from the horizon, neither side with a capture, whose static score is
// kRazorMargin per ply below alpha fails low unsearched), and
// singular-extension (singular_move: a table move that every other move
// trails by kSingularMargin a ply at half the depth is searched a ply deeper)
// and quiescence-exchanges (offer_exchanges, see "Horizon").
//
// Parallel search (core/parallel_search.hpp): with busy_ set, a move that
// another thread is searching is put off until the node's other moves are
// done (defer-busy-moves, core/busy_moves.hpp); alone, busy_ is null and the
// search is exactly the one-thread search.
//
// Aspiration.  From depth kAspirationDepth on, an iteration first searches a
// window of +-aspiration_window (SearchOptions) around the previous score,
// widened (doubled) on the side that failed until the score falls inside.
//
// The margins and limits of the pruning, the reductions and the iterations
// are SearchOptions numbers (kSearchNumbers), each a Hub parameter and a
// `dama search` option, so that a value is tried against the default in a
// match of one build; the defaults are what the matches kept.
//
// Determinism.  Nothing is random and, on one thread, nothing is shared:
// each Searcher owns its table (unless it is a thread of a parallel search,
// core/parallel_search.hpp, which is not reproducible), killers and history.  A fresh Searcher (or one after clear())
// given the same game and the same depth or node limit returns the same move,
// score and node count on every run and in any thread.  Time limits and the
// stop flag end a search at a moment the clock decides, so they do not.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <concepts>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "busy_moves.hpp"
#include "egtb/tablebase.hpp"
#include "evaluate.hpp"
#include "game.hpp"
#include "movegen.hpp"
#include "tt.hpp"
#include "weights.hpp"

namespace dama {

inline constexpr int kMaxPly = 128;   // the longest path, extensions and quiescence included
inline constexpr int kMaxDepth = 64;  // the deepest iteration
inline constexpr std::size_t kDefaultTTMegabytes = 16;

// Every limit left at 0 is off; with all off the search runs until *stop
// becomes true (or kMaxDepth is completed).
struct SearchLimits {
  int depth = 0;                            // iterations, in plies
  std::uint64_t nodes = 0;                  // the search never visits more
  std::int64_t movetime_ms = 0;             // wall-clock time: the search is stopped there
  std::int64_t optimum_ms = 0;              // under a game clock: the time to aim at (<= movetime_ms)
  const std::atomic<bool>* stop = nullptr;  // another thread sets it to end the search
  const std::atomic<bool>* pondering = nullptr;  // while true, no time limit (the opponent's clock runs)
};

// Search features that can be switched off, so that what each is worth can
// be measured with one build (Hub parameters, `dama search`).
struct SearchOptions {
  bool aspiration = true;         // aspiration windows at the root
  bool reverse_futility = true;   // fail high on a static score far above beta near the horizon
  bool late_move_pruning = true;  // skip the last quiet moves near the horizon
  bool history_malus = true;      // quiet moves that failed before a cutoff lose history
  bool probcut = true;            // a shallow search far above beta stands for the full one
  bool history_reductions = false;  // late moves with a bad history are reduced a ply more (undecided: off)
  bool deeper_reductions = false;   // late moves reduced by the steeper table (kDeepReductionDivisor; undecided: off)
  bool deepest_thread = false;      // parallel search: the move of the thread that completed the deepest search
  bool keep_history = false;        // the history survives from one search to the next, halved (measured, no gain: off)
  bool wide_pruning = false;        // reverse futility and late move pruning up to 5 plies left, not 3 (measured, no gain: off)
  bool iir = false;                 // a node with no table move searched a ply shallower (measured, no gain: off)
  bool threat_extension = false;    // at the horizon, a pending capture by the opponent: every reply searched (measured, no gain: off)
  bool early_reductions = false;    // non-PV nodes reduce from the second move, not the fourth (measured, no gain: off)
  bool countermoves = false;        // the quiet move that last cut after the opponent's move is tried after the killers (measured, no gain: off)
  bool razoring = false;            // near the horizon, a static score far below alpha fails low unsearched (measured, loses: off)
  bool singular_extension = false;  // a table move far better than every other searched a ply deeper (measured, loses: off)
  bool quiescence_exchanges = false;  // at the horizon, without kings, moves that offer the opponent a capture are searched too (measured, no gain: off)
  bool defer_busy_moves = true;     // parallel search: a move another thread is searching is left for last (Simplified ABDADA)

  // Margins and limits, kept here rather than as constants so that a value
  // can be tried against the default in a match of one build (kSearchNumbers).
  int futility_margin = 60;      // reverse futility: centi-men per ply left above beta
  int probcut_margin = 10;       // ProbCut: centi-men per ply above beta
  int aspiration_window = 25;    // centi-men either side of the last iteration's score
  int reduction_divisor = 225;   // late move reductions: ln(depth) ln(moves) / (this / 100)
  int late_move_percent = 150;   // late move pruning: the move counts of kLateMoves scaled by this (150 beat 100 in russian)
  int iteration_start = 60;      // under a clock: no iteration starts after this % of the target time
};

// The switches by name, for the front ends (Hub parameters, `dama search`
// flags): one table, so a new switch reaches all of them.
struct SearchSwitch {
  const char* name;
  bool SearchOptions::*member;
  const char* description;
};
inline constexpr SearchSwitch kSearchSwitches[] = {
    {"aspiration", &SearchOptions::aspiration, "aspiration windows at the root"},
    {"reverse-futility", &SearchOptions::reverse_futility, "reverse futility pruning near the horizon"},
    {"late-move-pruning", &SearchOptions::late_move_pruning, "late quiet moves near the horizon not searched"},
    {"history-malus", &SearchOptions::history_malus, "quiet moves tried before a cutoff lose history"},
    {"probcut", &SearchOptions::probcut, "a shallow search well above beta cuts the node (ProbCut)"},
    {"history-reductions", &SearchOptions::history_reductions, "late moves with a losing history reduced a ply more"},
    {"deeper-reductions", &SearchOptions::deeper_reductions, "late moves reduced about a third more"},
    {"deepest-thread", &SearchOptions::deepest_thread,
     "with several threads, play the move of the one that completed the deepest search"},
    {"keep-history", &SearchOptions::keep_history, "the move history carried, halved, from one search to the next"},
    {"wide-pruning", &SearchOptions::wide_pruning, "reverse futility and late move pruning up to 5 plies left"},
    {"iir", &SearchOptions::iir, "a node without a table move searched a ply shallower (internal iterative reduction)"},
    {"threat-extension", &SearchOptions::threat_extension,
     "at the horizon, a position where only the opponent can capture is searched a ply more"},
    {"early-reductions", &SearchOptions::early_reductions,
     "in non-PV nodes, late move reductions from the second move on (at least a ply), not the fourth"},
    {"countermoves", &SearchOptions::countermoves,
     "the quiet reply that last cut after the opponent's move is tried right after the killers"},
    {"razoring", &SearchOptions::razoring,
     "a quiet node 1 or 2 plies from the horizon whose static score is far below alpha fails low unsearched"},
    {"singular-extension", &SearchOptions::singular_extension,
     "a table move that beats every other by a margin at half the depth is searched a ply deeper"},
    {"quiescence-exchanges", &SearchOptions::quiescence_exchanges,
     "at the horizon, in a position without kings, the moves that give the opponent a capture (exchanges, shots) are searched too"},
    {"defer-busy-moves", &SearchOptions::defer_busy_moves,
     "with several threads, a move another thread is searching is tried last (Simplified ABDADA)"},
};

// The numbers by name, for the same front ends, with the range each accepts.
struct SearchNumber {
  const char* name;
  int SearchOptions::*member;
  int min;
  int max;
  const char* description;
};
inline constexpr SearchNumber kSearchNumbers[] = {
    {"futility-margin", &SearchOptions::futility_margin, 1, 1000,
     "reverse futility pruning: the margin above beta, centi-men a ply left"},
    {"probcut-margin", &SearchOptions::probcut_margin, 1, 1000, "ProbCut: the margin above beta, centi-men a ply"},
    {"aspiration-window", &SearchOptions::aspiration_window, 1, 400,
     "aspiration windows: centi-men either side of the last iteration's score"},
    {"reduction-divisor", &SearchOptions::reduction_divisor, 50, 1000,
     "late move reductions of ln(depth) ln(moves tried) / (this / 100) plies: lower reduces more"},
    {"late-move-percent", &SearchOptions::late_move_percent, 10, 1000,
     "late move pruning: the moves searched before late quiet moves are skipped, in % of the defaults"},
    {"iteration-start", &SearchOptions::iteration_start, 10, 100,
     "under a clock: no new iteration starts after this % of the time aimed at"},
};

// One completed iteration.
template <class Board>
struct SearchInfo {
  int depth = 0;
  Score score = 0;           // centi-men, side to move's view; beyond kWinBound a win or loss
  std::uint64_t nodes = 0;   // since the search began
  double seconds = 0;
  std::uint64_t nps = 0;
  std::uint64_t table_hits = 0;  // nodes an endgame table decided
  std::vector<Move<Board>> pv;
};

template <class Board>
struct SearchResult {
  std::optional<Move<Board>> best_move;  // nothing when the side to move has no legal move
  Score score = 0;       // of the last completed iteration (0 if none completed)
  int depth = 0;         // the last completed iteration (0: none)
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::uint64_t table_hits = 0;  // nodes an endgame table decided
  std::vector<Move<Board>> pv;
};

// Endgame-table scores: a position the tables call won scores
// kTableWinScore plus its static score (clamped to kTableSpread), less the
// plies to reach it -- above every evaluation, below every proven win, and
// still steered by the evaluation towards captures and crownings, the
// progress a win/draw/loss table cannot see.
inline constexpr Score kTableWinScore = 20000;
inline constexpr Score kTableSpread = 4000;
inline constexpr Score kTableWinBound = kTableWinScore - kTableSpread - kMaxPly;

// Win and loss scores: kWinScore - n is a win in n plies.
inline bool is_win_or_loss(Score s) { return s > kWinBound || s < -kWinBound; }
inline bool is_table_win_or_loss(Score s) { return (s > kTableWinBound || s < -kTableWinBound) && !is_win_or_loss(s); }
// "35", "-120", "win 7", "loss 4" (plies to the end of the game), "table
// win (20212)" and "table loss (-19800)" (an endgame table decided).
std::string format_score(Score s);

template <class Evaluator, class Pos>
concept PositionEvaluator = requires(const Evaluator& e, const Pos& p) {
  { e(p) } -> std::convertible_to<Score>;
};

// The engine's evaluation with a set of weights, which must outlive it.
template <RuleSet R>
struct WeightsEvaluator {
  const Weights* weights;
  Score operator()(const Position<BoardFor<R>>& p) const { return evaluate<R>(p, *weights); }
};

template <RuleSet R, class Evaluator>
  requires PositionEvaluator<Evaluator, Position<BoardFor<R>>>
class Searcher {
 public:
  using Board = BoardFor<R>;
  using Bitboard = typename Board::Bitboard;
  using Pos = Position<Board>;
  using MoveT = Move<Board>;
  using List = MoveList<Board>;
  using Gen = MoveGenerator<R>;
  using Info = SearchInfo<Board>;
  using Result = SearchResult<Board>;
  using InfoCallback = std::function<void(const Info&)>;

  explicit Searcher(Evaluator evaluator, std::size_t tt_megabytes = kDefaultTTMegabytes)
      : evaluator_(std::move(evaluator)),
        own_tt_(std::make_unique<TranspositionTable>(tt_megabytes)),
        tt_(own_tt_.get()),
        pv_(kMaxPly + 1) {
    set_options(options_);
  }

  // One of the threads of a parallel search: the table is shared, and its
  // owner (core/parallel_search.hpp) clears it and starts its searches.
  Searcher(Evaluator evaluator, TranspositionTable& shared)
      : evaluator_(std::move(evaluator)), tt_(&shared), pv_(kMaxPly + 1) {
    set_options(options_);
  }

  // Forgets everything learnt: the table (when its own), killers and history.
  void clear() {
    if (own_tt_) tt_->clear();
    clear_heuristics();
  }

  // A helper thread of a parallel search searches this many plies deeper
  // than the iteration count, so that the threads spread over two depths.
  void set_depth_offset(int plies) { depth_offset_ = plies; }
  int depth_offset() const { return depth_offset_; }
  // The moves the threads of a parallel search are busy with (shared, owned
  // by the parallel searcher); nullptr alone.
  void set_busy_moves(BusyMoves* busy) { busy_ = busy; }

  void set_options(const SearchOptions& options) {
    options_ = options;
    reductions_ = reduction_table(options.deeper_reductions ? kDeepReductionDivisor : options.reduction_divisor / 100.0);
    for (int d = 0; d <= kWidePruningDepth; ++d)
      late_moves_[d] = std::max(1, (kLateMoves[d] * options.late_move_percent + 50) / 100);
  }
  // Endgame tables to probe (they must outlive the searcher); nullptr: none.
  void set_tables(const egtb::Tablebase<R>* tables) { tables_ = tables; }
  const SearchOptions& options() const { return options_; }

  // Searches the game's current position, with its history for the draw
  // rules.  on_iteration is called after every completed iteration.
  Result search(const Game<R>& game, const SearchLimits& limits, const InfoCallback& on_iteration = {}) {
    begin(game, limits);
    Result result;
    List root_moves;
    Gen::generate(game.position(), root_moves);
    if (root_moves.empty()) return result;
    result.best_move = root_moves[0];  // until an iteration completes
    if (const auto decided = table_decision(game.position(), root_moves, limits)) {
      result = *decided;
      if (on_iteration) on_iteration(info(result));
      return result;
    }

    const NodeState root{game.hashes().back(), game.counters()};
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxDepth) : kMaxDepth;
    const bool single_reply = root_moves.size() == 1;
    for (int depth = 1; depth <= max_depth; ++depth) {
      root_depth_ = depth;
      const Score score = search_root(game.position(), root, std::min(depth + depth_offset_, kMaxDepth), result);
      if (aborted_ || pv_length_[0] == 0) break;  // (a complete root search always has a PV)
      const bool best_move_changed = result.depth > 0 && !pv_[0][0].same_identity(result.pv.front());
      const Score previous_score = result.score;
      result.depth = depth;
      result.score = score;
      result.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
      result.best_move = result.pv.front();
      if (on_iteration) on_iteration(info(result));
      update_time_factor(best_move_changed, depth > 1 ? previous_score - score : 0);
      if (!worth_another_iteration(score, depth, single_reply)) break;
    }
    result.nodes = nodes_;
    result.seconds = elapsed_seconds();
    result.table_hits = table_hits_;
    return result;
  }

  // The same from a position with no history (a game set up there).
  Result search(const Pos& root, const SearchLimits& limits, const InfoCallback& on_iteration = {},
                DrawRules draw_rules = DrawRules::Default) {
    return search(Game<R>(root, draw_rules), limits, on_iteration);
  }

 private:
  struct NodeState {
    std::uint64_t hash;
    DrawCounters counters;
    std::uint16_t previous = kNoKiller;  // quiet_key of the move that led here (none at the root)
  };

  static constexpr int kCheckEvery = 1024;  // nodes between looks at the clock and the stop flag

  void begin(const Game<R>& game, const SearchLimits& limits) {
    limits_ = limits;
    draw_rules_ = game.draw_rules();
    nodes_ = 0;
    table_hits_ = 0;
    aborted_ = false;
    start_ = std::chrono::steady_clock::now();
    pondering_ = limits.pondering && limits.pondering->load();
    best_move_changes_ = 0;
    time_factor_ = 1.0;
    if (own_tt_) tt_->new_search();
    if (options_.keep_history) age_heuristics();
    else clear_heuristics();
    // The positions the root may repeat: those since the last irreversible move.
    const auto& hashes = game.hashes();
    const int reversible = std::min<int>(game.counters().reversible_plies, static_cast<int>(hashes.size()) - 1);
    path_.assign(hashes.end() - reversible - 1, hashes.end());
    history_base_ = reversible;
    path_.resize(path_.size() + kMaxPly + 1);
  }

  void clear_heuristics() {
    for (auto& k : killers_) k = {kNoKiller, kNoKiller};
    for (auto& side : history_)
      for (auto& from : side) from.fill(0);
    for (auto& side : countermoves_)
      for (auto& from : side) from.fill(kNoKiller);
  }

  // keep-history: the killers belong to the plies of the last search and
  // go; the history of which quiet moves cut is mostly still true two plies
  // later, and is kept at half weight so that the new search soon dominates.
  void age_heuristics() {
    for (auto& k : killers_) k = {kNoKiller, kNoKiller};
    for (auto& side : countermoves_)
      for (auto& from : side) from.fill(kNoKiller);
    for (auto& side : history_)
      for (auto& from : side)
        for (int& value : from) value /= 2;
  }

  double elapsed_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  Info info(const Result& r) const {
    Info i;
    i.depth = r.depth;
    i.score = r.score;
    i.nodes = nodes_;
    i.seconds = elapsed_seconds();
    i.nps = i.seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(nodes_) / i.seconds) : 0;
    i.table_hits = table_hits_;
    i.pv = r.pv;
    return i;
  }

  // One iteration at the root: the full window, or an aspiration window
  // around the previous iteration's score widened on the side it fails.
  Score search_root(const Pos& p, const NodeState& root, int depth, const Result& previous) {
    const auto full = [&](Score alpha, Score beta) {
      return p.side == Color::White ? search<Color::White>(p, root, depth, alpha, beta, 0)
                                    : search<Color::Black>(p, root, depth, alpha, beta, 0);
    };
    if (!options_.aspiration || depth < kAspirationDepth || is_win_or_loss(previous.score))
      return full(-kInfinity, kInfinity);
    Score delta = static_cast<Score>(options_.aspiration_window);
    Score alpha = std::max<Score>(previous.score - delta, -kInfinity);
    Score beta = std::min<Score>(previous.score + delta, kInfinity);
    for (;;) {
      const Score score = full(alpha, beta);
      if (aborted_) return score;
      if (score <= alpha && alpha > -kInfinity) {
        beta = static_cast<Score>((alpha + beta) / 2);
        alpha = delta >= kAspirationGiveUp ? -kInfinity : std::max<Score>(score - delta, -kInfinity);
      } else if (score >= beta && beta < kInfinity) {
        beta = delta >= kAspirationGiveUp ? kInfinity : std::min<Score>(score + delta, kInfinity);
      } else {
        return score;
      }
      delta = static_cast<Score>(delta * 2);
    }
  }

  // Under a clock: more time while the best move is unsettled (a decaying
  // count of changes between iterations) or the score falls; less when it
  // has stayed put.
  void update_time_factor(bool best_move_changed, Score score_drop) {
    best_move_changes_ = best_move_changes_ / 2 + (best_move_changed ? 1.0 : 0.0);
    double factor = 0.9 + 0.6 * best_move_changes_;
    if (score_drop > 50) factor *= 1.5;
    else if (score_drop > 20) factor *= 1.25;
    time_factor_ = std::clamp(factor, 0.5, 2.5);
  }

  // Under a time limit: stop when another iteration would most likely not
  // finish, or when the game's end is already seen within the depth searched.
  bool worth_another_iteration(Score score, int depth, bool single_reply) {
    if (is_win_or_loss(score) && kWinScore - std::abs(score) <= depth && (limits_.movetime_ms > 0 || limits_.optimum_ms > 0))
      return false;
    if (pondering_now()) return true;
    if (limits_.optimum_ms > 0) {
      if (single_reply) return false;  // nothing to choose: the clock is better kept
      const double target = static_cast<double>(limits_.optimum_ms) * time_factor_;
      return elapsed_seconds() * 1000 < target * options_.iteration_start / 100.0;
    }
    if (limits_.movetime_ms <= 0) return true;
    return elapsed_seconds() * 1000 < static_cast<double>(limits_.movetime_ms) / 2;
  }

  // True while the search ponders; the moment pondering ends the clock starts.
  bool pondering_now() {
    if (!pondering_) return false;
    if (limits_.pondering->load(std::memory_order_relaxed)) return true;
    pondering_ = false;
    start_ = std::chrono::steady_clock::now();
    return false;
  }

  // Counts a node; true when the search must end now (the node is not searched).
  bool out_of_budget() {
    if (limits_.nodes && nodes_ >= limits_.nodes) aborted_ = true;
    if (aborted_) return true;
    ++nodes_;
    if (nodes_ % kCheckEvery == 0) {
      if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) aborted_ = true;
      if (limits_.movetime_ms > 0 && !pondering_now() &&
          elapsed_seconds() * 1000 >= static_cast<double>(limits_.movetime_ms))
        aborted_ = true;
    }
    return false;
  }

  Score static_score(const Pos& p) const {
    return std::clamp<Score>(evaluator_(p), -kWinBound + 1, kWinBound - 1);
  }

  // The tables' verdict on p as a score (see kTableWinScore); nothing when
  // no table holds it.
  std::optional<Score> table_score(const Pos& p, int ply) {
    if (!tables_) return std::nullopt;
    const auto value = tables_->probe(p);
    if (!value) return std::nullopt;
    ++table_hits_;
    if (*value == egtb::Wdl::Draw) return Score{0};
    const Score steer = std::clamp<Score>(static_score(p), -kTableSpread, kTableSpread);
    return *value == egtb::Wdl::Win ? kTableWinScore + steer - ply : -kTableWinScore + steer + ply;
  }

  // A won or lost root the tables hold is played from them, unsearched: the
  // move nearest to (or, lost, farthest from) the next conversion
  // (egtb::best_move), which a search that sees only win/draw/loss cannot
  // find in a long king ending.  Not while pondering: the protocol expects
  // the search to last until ponder-hit or stop.  Drawn roots are searched.
  std::optional<Result> table_decision(const Pos& root, const List& moves, const SearchLimits& limits) {
    if (!tables_ || (limits.pondering && limits.pondering->load())) return std::nullopt;
    const auto entry = tables_->probe_entry(root);
    if (!entry || entry->value == egtb::Wdl::Draw) return std::nullopt;
    Result r;
    r.best_move = moves[egtb::best_move<R>(*tables_, root, moves)];
    r.pv = {*r.best_move};
    r.depth = 1;
    r.score = *table_score(root, 0);
    r.nodes = nodes_ = 1;
    r.table_hits = table_hits_;
    r.seconds = elapsed_seconds();
    return r;
  }

  // The rules' draws: the counters, and under tournament rules a repetition.
  bool is_draw(const NodeState& s, int ply) const {
    if (counter_draw(s.counters, draw_rules_)) return true;
    if (draw_rules_ != DrawRules::Tournament) return false;
    const int here = history_base_ + ply;
    for (int back = 2; back <= s.counters.reversible_plies && back <= here; back += 2)
      if (path_[here - back] == s.hash) return true;
    return false;
  }

  NodeState child_state(const Pos& p, const NodeState& s, const MoveT& m, const Pos& child) const {
    // Towers: what the capture puts under the capturer and frees is in the
    // key too, so the child's key is computed whole.
    if constexpr (kHoldsTowers<Board>)
      return {child.hash(), advance(s.counters, p, m, child, draw_rules_), quiet_key(m)};
    else
      return {zobrist_after_move(s.hash, p.side, p.kings, m.from, m.to, m.captured, m.promotes),
              advance(s.counters, p, m, child, draw_rules_), quiet_key(m)};
  }

  // The side to move has no legal move: lost, or won in poddavki.
  static constexpr Score no_move_score(int ply) { return no_move_wins(R) ? kWinScore - ply : -kWinScore + ply; }

  template <Color C>
  Score search(const Pos& p, const NodeState& s, int depth, Score alpha, Score beta, int ply) {
    if (depth <= 0) {
      // threat-extension: the opponent's pending capture (a shot may start
      // there) is the one thing the static score cannot see; every reply is
      // searched a ply, while the path is shorter than twice the iteration.
      if (!options_.threat_extension || ply >= 2 * root_depth_ || !threatened<C>(p))
        return quiesce<C>(p, s, alpha, beta, ply, options_.quiescence_exchanges);
      depth = 1;
    }
    pv_length_[ply] = 0;
    if (out_of_budget()) return 0;
    path_[history_base_ + ply] = s.hash;

    // The moves are listed only after the table has had its say: a cutoff
    // there saves the generation.  A position without a legal move is scored
    // first whatever else holds, so the early exits before the list ask
    // (rarely) whether there is one; a table entry exists only for a
    // position that had moves (see the store at the end).
    const auto unless_blocked = [&](Score score) {
      return Gen::template count<C>(p) == 0 ? no_move_score(ply) : score;
    };
    if (ply > 0) {
      if (is_draw(s, ply)) return unless_blocked(0);
      // No line from here can end the game sooner than a result already found
      // (bounds that hold whichever way a position without a move is scored).
      alpha = std::max(alpha, -kWinScore + ply);
      beta = std::min(beta, kWinScore - ply - 1);
      if (alpha >= beta) return unless_blocked(alpha);
      if (const auto known = table_score(p, ply)) return unless_blocked(*known);
      if (ply >= kMaxPly - 1) return unless_blocked(static_score(p));
    }

    const bool pv_node = beta - alpha > 1;
    std::uint16_t tt_move = kNoMoveIndex;
    std::optional<TTEntry> tt_entry;  // for the singular extension
    if (const auto entry = tt_->probe(s.hash)) {
      tt_move = entry->move;
      tt_entry = *entry;
      if (!pv_node && entry->depth >= depth) {
        const Score stored = score_from_tt(entry->score, ply);
        if (entry->bound == Bound::Exact || (entry->bound == Bound::Lower && stored >= beta) ||
            (entry->bound == Bound::Upper && stored <= alpha))
          return stored;
      }
    }

    List moves;
    Gen::template generate<C>(p, moves);
    if (moves.empty()) return no_move_score(ply);

    if (options_.probcut && !pv_node && ply > 0 && depth >= kProbCutDepth && !verifying_ && !is_win_or_loss(beta)) {
      if (const auto cut = probcut<C>(p, s, depth, beta, ply)) return *cut;
      if (tt_move == kNoMoveIndex)
        if (const auto entry = tt_->probe(s.hash)) tt_move = entry->move;
    }

    // Internal iterative reduction: with no move from the table the ordering
    // is a guess, and a node this deep is searched a ply shallower rather
    // than first searched shallow for a move to try first.
    if (options_.iir && tt_move == kNoMoveIndex && depth >= kIirDepth) --depth;

    // Near the horizon in a quiet position (see the file comment).
    const int pruning_depth = options_.wide_pruning ? kWidePruningDepth : kPruningDepth;
    const bool prunable = !pv_node && ply > 0 && depth <= pruning_depth && !is_win_or_loss(beta) &&
                          !is_win_or_loss(alpha) && !has_capture(moves);
    if (prunable && (options_.reverse_futility || options_.razoring) && !Gen::template has_capture<~C>(p)) {
      const Score standing = static_score(p);
      if (options_.reverse_futility && standing - options_.futility_margin * depth >= beta) return standing;
      // razoring: so far below alpha that no quiet move is likely to bring
      // it back this near the horizon (neither side has a capture to start
      // a shot with); the node fails low on its static score.
      if (options_.razoring && depth <= kRazorDepth && standing + kRazorMargin * depth <= alpha) return standing;
    }

    int order[List::kCapacity];
    score_moves<C>(p, moves, tt_move, ply, order, s.previous);
    const bool forced = moves.size() == 1 && ply < 2 * root_depth_;
    const int child_depth = forced ? depth : depth - 1;
    // singular-extension: the table's move, when every other move falls
    // short of its score by a margin at half the depth, is searched a ply
    // deeper (a lone good move is where the horizon hides the most).
    const int extended_index = options_.singular_extension && !forced && tt_entry && ply > 0 &&
                                       ply < 2 * root_depth_ && !verifying_
                                   ? singular_move<C>(p, s, moves, *tt_entry, depth, ply)
                                   : -1;
    const Score original_alpha = alpha;
    Score best = -kInfinity;
    int best_index = -1;
    int failed_quiets[List::kCapacity];
    int failed_quiet_count = 0;
    // One move searched; true when the node is done (a cutoff, or the
    // search aborted).  n is the move's place in the order, which the
    // reductions read.
    const auto try_move = [&](int i, int n, const Pos& child, const NodeState& next, bool mark_busy) {
      const MoveT& m = moves[i];
      const int own_depth = child_depth + (i == extended_index);
      if (own_depth > 0) tt_->prefetch(next.hash);  // the child probes it first thing (quiesce does not)
      Score score;
      if (n == 0) {
        score = -search<~C>(child, next, own_depth, -beta, -alpha, ply + 1);
      } else {
        // Only the null-window searches are marked busy: a move that fails
        // there is free again for the other threads at once (Kerrigan).
        if (mark_busy) busy_->enter(next.hash);
        const int reduction = forced ? 0 : late_move_reduction<C>(m, n, depth, pv_node, ply);
        score = -search<~C>(child, next, own_depth - reduction, -alpha - 1, -alpha, ply + 1);
        if (reduction > 0 && score > alpha)
          score = -search<~C>(child, next, own_depth, -alpha - 1, -alpha, ply + 1);
        if (mark_busy) busy_->leave(next.hash);
        if (score > alpha && score < beta) score = -search<~C>(child, next, own_depth, -beta, -alpha, ply + 1);
      }
      if (aborted_) return true;
      if (score > best) {
        best = score;
        best_index = i;
        if (score > alpha) {
          alpha = score;
          update_pv(ply, m);
          if (alpha >= beta) {
            if (!m.is_capture())
              reward_quiet_cutoff<C>(moves, i, failed_quiets, failed_quiet_count, ply, depth, s.previous);
            return true;
          }
        }
      }
      if (!m.is_capture()) failed_quiets[failed_quiet_count++] = i;
      return false;
    };
    // defer-busy-moves: with other threads searching, a move one of them is
    // busy with waits until the others are done (core/busy_moves.hpp).
    const bool defers = busy_ && options_.defer_busy_moves && depth >= kDeferDepth;
    // A few slots only: this frame is on the stack at every ply, and
    // a move found busy when they are full is simply searched now.
    std::uint16_t deferred[kMaxDeferred], deferred_place[kMaxDeferred];
    int deferred_count = 0;
    bool done = false;
    for (int n = 0; n < moves.size() && !done; ++n) {
      const int i = pick_next(order, moves.size());
      const MoveT& m = moves[i];
      if (prunable && options_.late_move_pruning && n >= late_moves_[depth] && best > -kWinBound &&
          is_prunable_quiet(m, ply))
        continue;
      const Pos child = p.template after<C>(m);
      const NodeState next = child_state(p, s, m, child);
      if (defers && n > 0 && deferred_count < kMaxDeferred && busy_->busy(next.hash)) {
        deferred[deferred_count] = static_cast<std::uint16_t>(i);
        deferred_place[deferred_count++] = static_cast<std::uint16_t>(n);
        continue;
      }
      done = try_move(i, n, child, next, defers);
    }
    for (int d = 0; d < deferred_count && !done; ++d) {
      const MoveT& m = moves[deferred[d]];
      const Pos child = p.template after<C>(m);
      done = try_move(deferred[d], deferred_place[d], child, child_state(p, s, m, child), false);
    }
    if (aborted_) return 0;
    const Bound bound = best >= beta ? Bound::Lower : best > original_alpha ? Bound::Exact : Bound::Upper;
    tt_->store(s.hash, depth, score_to_tt(best, ply), bound,
              bound == Bound::Upper ? kNoMoveIndex : static_cast<std::uint16_t>(best_index));
    return best;
  }

  // ProbCut: a null-window search of about two fifths of the depth against
  // a beta raised by a margin per ply; when even that fails high, the node
  // is taken to fail high (by the margin less).  Its own subtree does no
  // ProbCut, so the verification cannot recurse into itself.
  template <Color C>
  std::optional<Score> probcut(const Pos& p, const NodeState& s, int depth, Score beta, int ply) {
    const Score margin = static_cast<Score>(options_.probcut_margin * depth);
    const Score raised = static_cast<Score>(std::min<int>(beta + margin, kWinBound));
    verifying_ = true;
    const Score score = search<C>(p, s, std::max(1, depth * 2 / 5), raised - 1, raised, ply);
    verifying_ = false;
    if (aborted_ || score < raised) return std::nullopt;
    return static_cast<Score>(score - margin);
  }

  // singular-extension: the index of the table's move when it is singular
  // here, else -1.  It qualifies when the table holds a lower bound (or an
  // exact score) for it from nearly this depth, away from the win and loss
  // scores; every other move is then searched at half the depth against
  // that bound less kSingularMargin a ply, and none may reach it.  The
  // searches go straight to the children, so this node's table entry is
  // untouched (no excluded-move key is needed).
  template <Color C>
  int singular_move(const Pos& p, const NodeState& s, const List& moves, const TTEntry& entry, int depth, int ply) {
    if (depth < kSingularDepth || entry.move >= moves.size() || entry.bound == Bound::Upper ||
        entry.depth < depth - 3)
      return -1;
    const Score bound = score_from_tt(entry.score, ply);
    if (is_win_or_loss(bound)) return -1;
    const Score singular_beta = static_cast<Score>(bound - kSingularMargin * depth);
    for (int i = 0; i < moves.size(); ++i) {
      if (i == entry.move) continue;
      const Pos child = p.template after<C>(moves[i]);
      const Score score = -search<~C>(child, child_state(p, s, moves[i], child), (depth - 1) / 2, -singular_beta,
                                      -singular_beta + 1, ply + 1);
      if (aborted_ || score >= singular_beta) return -1;
    }
    return entry.move;
  }

  // Late move pruning spares captures (none are left in a prunable node but
  // under the house rule), crownings and the killers.
  bool is_prunable_quiet(const MoveT& m, int ply) const {
    return !m.is_capture() && !m.promotes && !is_killer(m, ply);
  }

  bool is_killer(const MoveT& m, int ply) const {
    const std::uint16_t key = quiet_key(m);
    return key == killers_[ply][0] || key == killers_[ply][1];
  }

  // Only the opponent could capture, were it its move.
  template <Color C>
  static bool threatened(const Pos& p) {
    return !Gen::template has_capture<C>(p) && Gen::template has_capture<~C>(p);
  }

  static bool has_capture(const List& moves) {
    for (int i = 0; i < moves.size(); ++i)
      if (moves[i].is_capture()) return true;
    return false;
  }

  // Late move reductions: a quiet move ordered after the TT move, the
  // killers and the best-scored history moves rarely beats the best so far,
  // so it is first searched shallower; a null-window score above alpha sends
  // it back to the full depth.  Captures and crownings change the material
  // and are never reduced; PV nodes reduce one ply less, as the line they
  // search is the one the result will be read from.
  template <Color C>
  int late_move_reduction(const MoveT& m, int tried, int depth, bool pv_node, int ply) const {
    // early-reductions: Scan's rule for non-PV nodes (rhalbersma/scan,
    // src/search.cpp, reduce: every quiet move after the first), there at
    // least a ply, the table's amount where it says more.
    const bool early = options_.early_reductions && !pv_node;
    const int first_reduced = early ? 1 : kFirstReducedMove;
    if (depth < 3 || tried < first_reduced || m.is_capture() || m.promotes || is_killer(m, ply)) return 0;
    int r = reductions_[std::min(depth, kMaxDepth)][std::min(tried, kReductionMoves - 1)] - (pv_node ? 1 : 0);
    if (early) r = std::max(r, 1);
    // With the malus, a negative history means the move has failed more
    // often than it has cut: one ply more.
    if (options_.history_reductions && history_[index(C)][m.from][m.to] < 0) ++r;
    return std::clamp(r, 0, depth - 2);  // the reduced search keeps at least one ply
  }

  // The horizon: see the file comment.  `exchanges`: the first quiet
  // position of this line may still try its exchange offers (offer_exchanges).
  template <Color C>
  Score quiesce(const Pos& p, const NodeState& s, Score alpha, Score beta, int ply, bool exchanges) {
    pv_length_[ply] = 0;
    if (out_of_budget()) return 0;
    path_[history_base_ + ply] = s.hash;

    if (!Gen::template has_capture<C>(p)) {
      if (Gen::template count<C>(p) == 0) return no_move_score(ply);
      if (ply > 0 && is_draw(s, ply)) return 0;
      const Score stand = static_score(p);
      if (!exchanges || stand >= beta || p.kings != 0 || ply >= kMaxPly - 4) return stand;
      return offer_exchanges<C>(p, s, stand, alpha, beta, ply);
    }
    if (ply > 0 && is_draw(s, ply)) return 0;
    if (ply > 0)
      if (const auto known = table_score(p, ply)) return *known;
    if (ply >= kMaxPly - 1) return static_score(p);

    Score best = -kInfinity;
    if constexpr (!R.forced_capture) {
      best = static_score(p);  // a capture here is a choice, not an obligation
      if (best >= beta) return best;
      alpha = std::max(alpha, best);
    }
    List moves;
    Gen::template generate<C>(p, moves);
    int order[List::kCapacity];
    score_moves<C>(p, moves, kNoMoveIndex, ply, order);
    for (int n = 0; n < moves.size(); ++n) {
      const int i = pick_next(order, moves.size());
      const MoveT& m = moves[i];
      if (!m.is_capture()) break;  // captures are ordered first
      const Pos child = p.template after<C>(m);
      const Score score = -quiesce<~C>(child, child_state(p, s, m, child), -beta, -alpha, ply + 1, exchanges);
      if (aborted_) return 0;
      if (takes_quiescence_score(score, m, ply, best, alpha, beta)) break;
    }
    return best;
  }

  // A quiescence move's score raises the best and perhaps alpha (the move
  // then leads the PV); true when it reaches beta and the node is cut.
  bool takes_quiescence_score(Score score, const MoveT& m, int ply, Score& best, Score& alpha, Score beta) {
    if (score <= best) return false;
    best = score;
    if (score <= alpha) return false;
    alpha = score;
    update_pv(ply, m);
    return alpha >= beta;
  }

  // quiescence-exchanges: a quiet position whose static score is below beta
  // also tries the moves that give the opponent a capture -- the exchanges
  // and sacrifices with which draughts shots begin, which the static score
  // cannot see (Scan's quiescence searches selected ones, "add_sacs",
  // rhalbersma/scan src/search.cpp, in positions without kings).  Only men
  // on the board (king lines are long and the offers many), and once per
  // line of the quiescence: what follows an offer is captures only.
  template <Color C>
  Score offer_exchanges(const Pos& p, const NodeState& s, Score stand, Score alpha, Score beta, int ply) {
    Score best = stand;
    alpha = std::max(alpha, stand);
    List moves;
    Gen::template generate<C>(p, moves);  // all quiet: the caller found no capture
    for (int i = 0; i < moves.size(); ++i) {
      const MoveT& m = moves[i];
      const Pos child = p.template after<C>(m);
      if (!Gen::template has_capture<~C>(child)) continue;
      const Score score = -quiesce<~C>(child, child_state(p, s, m, child), -beta, -alpha, ply + 1, false);
      if (aborted_) return 0;
      if (takes_quiescence_score(score, m, ply, best, alpha, beta)) break;
    }
    return best;
  }

  // ---- move ordering ----------------------------------------------------

  // The window's width is options_.aspiration_window.
  static constexpr int kAspirationDepth = 5;
  static constexpr Score kAspirationGiveUp = 400;  // a window this wide becomes the full one
  // An iteration costs about as much as all before it (branching ~2 with the
  // reductions), so one started after 60% (options_.iteration_start) of the
  // target overruns it.

  // Pruning near the horizon (file comment): how near, and the moves
  // searched before late ones are skipped (scaled by
  // options_.late_move_percent into late_moves_); the reverse futility
  // margin is options_.futility_margin.
  static constexpr int kPruningDepth = 3;
  // wide-pruning: the same two prunings up to this depth, the late-move
  // counts growing on as the first three.
  static constexpr int kWidePruningDepth = 5;
  static constexpr int kLateMoves[kWidePruningDepth + 1] = {0, 4, 7, 12, 18, 25};
  // iir: from this depth.
  static constexpr int kIirDepth = 4;

  // singular-extension: from this depth, this margin per ply below the table's bound.
  static constexpr int kSingularDepth = 6;
  static constexpr int kSingularMargin = 2;

  // ProbCut (probcut above): from this depth; the margin a ply is
  // options_.probcut_margin.
  static constexpr int kProbCutDepth = 3;

  // defer-busy-moves: from this depth (Kerrigan's); nearer the leaves a
  // move costs less than the look-up.
  static constexpr int kDeferDepth = 3;
  static constexpr int kMaxDeferred = 16;  // moves put off at one node

  static constexpr std::uint16_t kNoKiller = 0xFFFF;
  static constexpr int kFirstReducedMove = 3;
  static constexpr int kReductionMoves = 64;
  // reductions_[depth][moves tried]: grows with the log of both, the shape
  // most alpha-beta engines settled on; the divisor sets how aggressive it is.
  using ReductionTable = std::array<std::array<int, kReductionMoves>, kMaxDepth + 1>;
  static ReductionTable reduction_table(double divisor) {
    ReductionTable table{};
    for (int d = 1; d <= kMaxDepth; ++d)
      for (int n = 1; n < kReductionMoves; ++n)
        table[d][n] = static_cast<int>(0.75 + std::log(d) * std::log(n) / divisor);
    return table;
  }
  // The table's divisor is options_.reduction_divisor / 100 (2.25); the
  // deeper-reductions switch makes it this, a third more reduction (Scan
  // reaches far greater depths in the same time, issue 15), off until a
  // match says so.
  static constexpr double kDeepReductionDivisor = 1.7;
  static constexpr int kTTMoveScore = 1 << 30;
  static constexpr int kCaptureScore = 1 << 26;
  static constexpr int kKillerScore[2] = {1 << 25, 1 << 24};
  static constexpr int kCountermoveScore = 1 << 23;
  static constexpr int kHistoryCeiling = 1 << 22;  // history stays below the killers and the countermove
  // razoring: up to this many plies left, this margin per ply below alpha.
  static constexpr int kRazorDepth = 2;
  static constexpr Score kRazorMargin = 150;

  static std::uint16_t quiet_key(const MoveT& m) { return static_cast<std::uint16_t>(m.from << 8 | m.to); }

  // order[i]: how early moves[i] should be tried (higher first).
  template <Color C>
  void score_moves(const Pos& p, const List& moves, std::uint16_t tt_move, int ply, int* order,
                   std::uint16_t previous = kNoKiller) const {
    const auto& killers = killers_[ply];
    const std::uint16_t counter =
        options_.countermoves && previous != kNoKiller ? countermoves_[index(C)][previous >> 8][previous & 0xFF] : kNoKiller;
    // A stored index past the end of the list comes from another position
    // with the same bucket and key bits: ignore it.
    const int tt_index = tt_move < moves.size() ? tt_move : -1;
    for (int i = 0; i < moves.size(); ++i) {
      const MoveT& m = moves[i];
      if (i == tt_index) {
        order[i] = kTTMoveScore;
      } else if (m.is_capture()) {
        // More pieces first, then more kings among them.
        order[i] = kCaptureScore + 64 * popcount(m.captured) + popcount(Bitboard(m.captured & p.kings));
      } else {
        const std::uint16_t key = quiet_key(m);
        order[i] = key == killers[0] ? kKillerScore[0]
                   : key == killers[1] ? kKillerScore[1]
                   : key == counter    ? kCountermoveScore
                                       : history_[index(C)][m.from][m.to];
      }
    }
  }

  // The highest-ordered move not yet tried (the first of equals), marked tried.
  static int pick_next(int* order, int count) {
    int best = 0;
    for (int i = 1; i < count; ++i)
      if (order[i] > order[best]) best = i;
    order[best] = INT_MIN;
    return best;
  }

  // A quiet move that cut becomes a killer and gains history; with the
  // malus, the quiet moves tried before it at this node lose as much.
  template <Color C>
  void reward_quiet_cutoff(const List& moves, int cut, const int* failed, int failed_count, int ply, int depth,
                           std::uint16_t previous) {
    const MoveT& m = moves[cut];
    auto& killers = killers_[ply];
    const std::uint16_t key = quiet_key(m);
    if (options_.countermoves && previous != kNoKiller) countermoves_[index(C)][previous >> 8][previous & 0xFF] = key;
    if (killers[0] != key) {
      killers[1] = killers[0];
      killers[0] = key;
    }
    const int bonus = depth * depth;
    bool overflow = add_history(history_[index(C)][m.from][m.to], bonus);
    if (options_.history_malus)
      for (int k = 0; k < failed_count; ++k) {
        const MoveT& q = moves[failed[k]];
        overflow |= add_history(history_[index(C)][q.from][q.to], -bonus);
      }
    if (overflow)
      for (auto& from : history_[index(C)])
        for (int& value : from) value /= 2;
  }

  // True when the entry has left the band the ordering keeps it in.
  static bool add_history(int& entry, int change) {
    entry += change;
    return entry >= kHistoryCeiling || entry <= -kHistoryCeiling;
  }

  void update_pv(int ply, const MoveT& m) {
    auto& line = pv_[ply];
    line[0] = m;
    const int child_length = pv_length_[ply + 1];
    std::copy(pv_[ply + 1].begin(), pv_[ply + 1].begin() + child_length, line.begin() + 1);
    pv_length_[ply] = child_length + 1;
  }

  Evaluator evaluator_;
  std::unique_ptr<TranspositionTable> own_tt_;  // null when shared
  TranspositionTable* tt_;
  std::array<std::array<std::uint16_t, 2>, kMaxPly + 1> killers_{};
  std::array<std::array<std::array<int, 64>, 64>, 2> history_{};  // [side][from bit][to bit]
  // countermoves: [side to reply][from bit][to bit] of the opponent's last move -> quiet_key of the reply that cut.
  std::array<std::array<std::array<std::uint16_t, 64>, 64>, 2> countermoves_{};
  std::vector<std::array<MoveT, kMaxPly + 1>> pv_;                 // triangular PV table, by ply
  std::array<int, kMaxPly + 2> pv_length_{};

  // Hashes of the game's reversible tail, then of the search path by ply.
  std::vector<std::uint64_t> path_;
  int history_base_ = 0;

  SearchLimits limits_;
  SearchOptions options_;
  ReductionTable reductions_{};                    // from options_ (set_options)
  std::array<int, kWidePruningDepth + 1> late_moves_{};  // from options_ (set_options)
  bool pondering_ = false;
  double best_move_changes_ = 0;
  double time_factor_ = 1.0;
  DrawRules draw_rules_ = DrawRules::Default;
  const egtb::Tablebase<R>* tables_ = nullptr;
  std::uint64_t table_hits_ = 0;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  bool verifying_ = false;  // inside a ProbCut search
  int root_depth_ = 1;
  int depth_offset_ = 0;
  BusyMoves* busy_ = nullptr;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dama
