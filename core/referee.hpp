// Playing whole games between two engine players: the loop that self-play
// and matches share.  Pure: no I/O, no clocks unless a player's limits ask
// for move time.
//
// Reproducibility: everything random comes from a GameRng seeded by the
// caller (self-play derives it from the job seed and the game index), and
// each player's search state is cleared at the start of every game, so a game
// is the same whichever thread plays it and whatever it played before.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "evaluate.hpp"
#include "game.hpp"
#include "movegen.hpp"
#include "search.hpp"
#include "zobrist.hpp"

namespace dama {

// splitmix64: small, fast, and the same stream on every platform.
class GameRng {
 public:
  explicit GameRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return splitmix64(state_); }
  // Uniform in [0, n) (n > 0); the modulo bias is below 2^-50 for the n used here.
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }

 private:
  std::uint64_t state_;
};

// The seed of game `index` of a job with seed `job_seed`: independent streams
// per game, so a game does not depend on which games ran before it.
inline std::uint64_t game_seed(std::uint64_t job_seed, std::uint64_t index) {
  std::uint64_t state = job_seed ^ (0x9E3779B97F4A7C15ull * (index + 1));
  splitmix64(state);
  return splitmix64(state);
}

// When to end a game before the rules do.  A bound of 0 turns a test off.
struct Adjudication {
  Score resign_score = 0;    // |score| at or beyond this ...
  int resign_plies = 0;      // ... for this many plies in a row (both sides agreeing) ends the game
  Score draw_score = 0;      // |score| at or below this ...
  int draw_plies = 0;        // ... for this many plies in a row ...
  int draw_min_ply = 0;      // ... from this ply on, is a draw
};

// Optional randomness in the first plies: the mover picks uniformly among the
// moves whose score (each searched one ply shallower) is within `margin` of
// the best.
struct EarlyRandomness {
  int plies = 0;
  Score margin = 0;
};

struct PlayerSettings {
  const Weights* weights = nullptr;
  SearchLimits limits;
};

template <class Board>
struct PlayedGame {
  std::vector<Score> scores;  // per ply: the mover's search score, from the mover's view
  GameResult result;
  bool adjudicated = false;
};

template <RuleSet R>
class Referee {
 public:
  using Board = BoardFor<R>;
  using Pos = Position<Board>;
  using MoveT = Move<Board>;
  using Engine = Searcher<R, WeightsEvaluator<R>>;

  Referee(const PlayerSettings& first, const PlayerSettings& second, std::size_t tt_megabytes)
      : settings_{first, second},
        engines_{Engine(WeightsEvaluator<R>{first.weights}, tt_megabytes),
                 Engine(WeightsEvaluator<R>{second.weights}, tt_megabytes)} {}

  // Plays `game` (which may already hold opening moves) to its end or to an
  // adjudication.  Player 0 moves for R.first_player, player 1 for the other.
  PlayedGame<Board> play(Game<R>& game, const Adjudication& adjudication, const EarlyRandomness& randomness,
                         GameRng& rng) {
    for (auto& e : engines_) e.clear();
    PlayedGame<Board> out;
    int resign_run = 0, draw_run = 0, resign_sign = 0;
    while (!game.over()) {
      if (const auto verdict = table_verdict(game)) {
        out.result = *verdict;
        out.adjudicated = true;
        return out;
      }
      const int player = game.position().side == R.first_player ? 0 : 1;
      const auto choice = choose(player, game, randomness, rng);
      out.scores.push_back(choice.score);
      game.play(choice.move);
      if (const auto verdict = adjudicate(adjudication, game, choice.score, player, resign_run, draw_run, resign_sign)) {
        out.result = *verdict;
        out.adjudicated = true;
        return out;
      }
    }
    out.result = game.result();
    return out;
  }

  Engine& engine(int player) { return engines_[player]; }

  // Endgame tables (they must outlive the referee): both players' searches
  // probe them, and with `adjudicate` a game ends the moment its position
  // is in them, with the tables' result and the reason "tablebase".
  void set_tables(const egtb::Tablebase<R>* tables, bool adjudicate) {
    tables_ = adjudicate ? tables : nullptr;
    for (auto& e : engines_) e.set_tables(tables);
  }

 private:
  struct Choice {
    MoveT move;
    Score score;
  };

  Choice choose(int player, const Game<R>& game, const EarlyRandomness& randomness, GameRng& rng) {
    Engine& engine = engines_[player];
    const auto result = engine.search(game, settings_[player].limits);
    Choice best{*result.best_move, result.score};
    if (game.plies() >= randomness.plies || randomness.margin < 0) return best;
    return random_near_best(player, game, best, randomness.margin, rng);
  }

  // Each legal move searched one ply shallower from the opponent's side;
  // a uniform pick among those within `margin` of the best of them.
  Choice random_near_best(int player, const Game<R>& game, const Choice& searched, Score margin, GameRng& rng) {
    MoveList<Board> legal;
    MoveGenerator<R>::generate(game.position(), legal);
    if (legal.size() == 1) return searched;
    SearchLimits child_limits = settings_[player].limits;
    if (child_limits.depth > 1) --child_limits.depth;
    if (child_limits.nodes > 0) child_limits.nodes = std::max<std::uint64_t>(1, child_limits.nodes / legal.size());
    std::vector<Choice> scored;
    Score best = -kInfinity;
    for (const MoveT& m : legal) {
      Game<R> child = game;
      child.play(m);
      Score s;
      if (child.over()) {
        // Over after our move: a draw, or won by the side the game names
        // (the mover, except in poddavki), one ply from here.
        const Outcome outcome = child.result().outcome;
        const Color winner = outcome == Outcome::FirstPlayerWins ? R.first_player : ~R.first_player;
        s = outcome == Outcome::Draw ? 0 : winner == game.position().side ? kWinScore - 1 : -(kWinScore - 1);
      } else {
        s = -engines_[player].search(child, child_limits).score;
      }
      scored.push_back({m, s});
      best = std::max(best, s);
    }
    std::vector<Choice> near;
    for (const Choice& c : scored)
      if (c.score >= best - margin) near.push_back(c);
    return near[rng.below(static_cast<std::uint32_t>(near.size()))];
  }

  std::optional<GameResult> table_verdict(const Game<R>& game) const {
    if (!tables_) return std::nullopt;
    const auto value = tables_->probe(game.position());
    if (!value) return std::nullopt;
    if (*value == egtb::Wdl::Draw) return GameResult{Outcome::Draw, "tablebase"};
    const bool mover_wins = *value == egtb::Wdl::Win;
    const bool first_wins = (game.position().side == R.first_player) == mover_wins;
    return GameResult{first_wins ? Outcome::FirstPlayerWins : Outcome::SecondPlayerWins, "tablebase"};
  }

  // Resignation needs both players to see the same side winning: each
  // mover's score is turned to the first player's view before comparing.
  static std::optional<GameResult> adjudicate(const Adjudication& a, const Game<R>& game, Score mover_score,
                                              int player, int& resign_run, int& draw_run, int& resign_sign) {
    if (game.over()) return std::nullopt;
    const Score first_view = player == 0 ? mover_score : -mover_score;
    if (a.resign_score > 0 && a.resign_plies > 0) {
      const int sign = first_view >= a.resign_score ? 1 : first_view <= -a.resign_score ? -1 : 0;
      resign_run = sign != 0 && sign == resign_sign ? resign_run + 1 : (sign != 0 ? 1 : 0);
      resign_sign = sign;
      if (resign_run >= a.resign_plies)
        return GameResult{sign > 0 ? Outcome::FirstPlayerWins : Outcome::SecondPlayerWins, "adjudicated: resignation"};
    }
    if (a.draw_plies > 0 && game.plies() >= a.draw_min_ply) {
      draw_run = std::abs(first_view) <= a.draw_score ? draw_run + 1 : 0;
      if (draw_run >= a.draw_plies) return GameResult{Outcome::Draw, "adjudicated: draw"};
    }
    return std::nullopt;
  }

  PlayerSettings settings_[2];
  Engine engines_[2];
  const egtb::Tablebase<R>* tables_ = nullptr;  // adjudicating
};

// A random opening: `plies` uniformly random legal moves from the variant's
// start, retried (with the same stream) until the game is still on and, with
// a cap, no capture is pending and the static evaluation of the result is
// within `max_imbalance` for the side to move.  Gives up with the last try after 1000 attempts.
template <RuleSet R>
Game<R> random_opening(int plies, Score max_imbalance, const Weights& weights, DrawRules draw_rules, GameRng& rng) {
  using Board = BoardFor<R>;
  for (int attempt = 0;; ++attempt) {
    Game<R> game(Position<Board>::start(R.first_player), draw_rules);
    for (int i = 0; i < plies && !game.over(); ++i) {
      MoveList<Board> legal;
      MoveGenerator<R>::generate(game.position(), legal);
      game.play(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    if (attempt >= 1000) return game;
    if (game.over()) continue;
    // A pending capture makes the static evaluation meaningless: only quiet
    // positions are measured against the cap.
    if (max_imbalance > 0 && MoveGenerator<R>::has_capture(game.position())) continue;
    if (max_imbalance > 0 && std::abs(evaluate<R>(game.position(), weights)) > max_imbalance) continue;
    return game;
  }
}

}  // namespace dama
