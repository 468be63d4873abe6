// The rules-specific half of a match: openings, and one game played by the
// Referee and written as PDN.  The only translation unit that instantiates
// the referee (and the search) for every compiled rule set.
#include "match.hpp"

#include <chrono>
#include <fstream>
#include <memory>
#include <vector>

#include "dxp/dxp_board.hpp"
#include "dxp_peer.hpp"
#include "fen.hpp"
#include "hub_engine.hpp"
#include "hub_protocol.hpp"
#include "match_scheduler.hpp"
#include "openings.hpp"
#include "parallel_search.hpp"
#include "pdn/pdn.hpp"
#include "referee.hpp"
#include "time_control.hpp"
#include "weights.hpp"

namespace dama::eval {

namespace {

struct Players {
  Weights a_weights, b_weights, opening_weights;
};

Weights weights_for(const PlayerSpec& spec, const Variant& variant, const char* option) {
  if (spec.weights_file.empty()) return default_weights(variant);
  try {
    return load_weights(spec.weights_file, variant);
  } catch (const Error& e) {
    throw Error(std::string(option) + " '" + spec.text + "': " + e.what());
  }
}

// Everything a game's moves depend on: a journal written under other values
// belongs to another match.
JournalIdentity identity_of(const MatchSettings& s, const Players& p, const std::optional<OpeningsFile>& openings) {
  auto player = [](const PlayerSpec& spec, const Weights& w) {
    return spec.text + " weights " + w.source + " " + weights_hash(w);
  };
  JournalIdentity id = {
      {"variant", s.variant},
      {"forced-capture", s.no_forced_capture ? "no" : "yes"},
      {"draw-rules", std::string(draw_rules_name(s.draw_rules))},
      {"a", player(s.a, p.a_weights)},
      {"b", player(s.b, p.b_weights)},
      {"seed", std::to_string(s.seed)},
      {"tt-mb", std::to_string(s.tt_megabytes)},
      {"pdn", s.pdn_out.empty() ? "none" : s.pdn_out},
  };
  // Only when it is one: a journal of paired games from before double games stays valid.
  if (s.pairing == Pairing::DoubleGame) id.emplace_back("pairing", "double games");
  if (openings)
    id.emplace_back("openings", "file " + openings->path + " " + openings->digest);
  else
    id.emplace_back("openings", "random " + std::to_string(s.openings.random_plies) + " plies, imbalance " +
                                    std::to_string(s.openings.max_imbalance));
  return id;
}

constexpr std::string_view kEndedByDxpEngine = "ended by the DXP engine";

// A player's game clock.  In a double game one clock serves both boards: it
// gets the increment before every move on either, and a search plans with
// the time left shared among the boards still in play.
struct PlayerClock {
  TimeControl control;
  double remaining = 0;
  double budget = 0;  // seconds it held in all: the base of every control begun, and the increments
  int moves_made = 0;  // on every board it serves
  int boards_in_play = 1;

  void start() {
    remaining = budget = control.base_seconds;
    moves_made = 0;
  }
  // Before every move the increment, and the next control's base when one begins.
  void wind() {
    double added = control.increment_seconds;
    if (control.moves > 0 && moves_made > 0 && moves_made % control.moves == 0) added += control.base_seconds;
    remaining += added;
    budget += added;
  }
  // The time one board's move may plan with.
  double share() const { return remaining / boards_in_play; }
};

template <RuleSet R>
class MatchGames {
 public:
  using Board = BoardFor<R>;

  MatchGames(const MatchSettings& settings, const Variant& variant, const Players& players,
             const std::optional<OpeningsFile>& openings)
      : settings_(settings), variant_(variant), players_(players) {
    if (openings) parse_openings(*openings);
  }

  std::unique_ptr<GameWorker> make_worker(const std::atomic<bool>* cancel) const {
    return std::make_unique<Worker>(*this, cancel);
  }

 private:
  // What a Side did with its turn.
  struct Turn {
    std::optional<Move<Board>> move;   // nothing: cancelled, flagged or ended
    bool flagged = false;              // its clock ran out on this move
    std::optional<GameResult> ended;   // a DXP engine ended the game instead of moving
  };

  // One player on one board outside the Referee: one of our engines, a Hub
  // engine or a DXP engine, with its game clock (`clock`, kept by the
  // caller) when it plays under one.
  class Side {
   public:
    Side(const MatchGames& match, const PlayerSpec& spec, const Weights& weights, PlayerClock* clock,
         const std::atomic<bool>* cancel)
        : limits_(match.settings_for(spec, weights, cancel).limits),
          clock_(spec.clock ? clock : nullptr),
          cancel_(cancel),
          ponders_(spec.ponder) {
      command_ = spec.hub_command;
      if (!spec.dxp_address.empty()) {
        command_ = "dxp:" + spec.dxp_address;
        dxp_ = std::make_unique<DxpPeer>(
            DxpLink::connect(parse_endpoint(spec.dxp_address, "dxp engine", false), 10000), "dama match");
        return;
      }
      if (spec.hub_command.empty()) {
        engine_.emplace(WeightsEvaluator<R>{&weights}, match.settings_.tt_megabytes, spec.threads);
        return;
      }
      hub_ = std::make_unique<HubEngine>(
          HubEngineSettings{spec.hub_command, match.settings_.variant, !match.settings_.no_forced_capture,
                            std::string(draw_rules_name(match.settings_.draw_rules)), match.settings_.tt_megabytes});
      // Hub `level` (Scan 3.1's protocol text: depth=, nodes=, move-time=).
      if (spec.limits.depth > 0)
        level_ = "depth=" + std::to_string(spec.limits.depth);
      else if (spec.limits.nodes > 0)
        level_ = "nodes=" + std::to_string(spec.limits.nodes);
      else
        level_ = "move-time=" + std::to_string(static_cast<double>(spec.limits.movetime_ms) / 1000);
    }

    void new_game(const Game<R>& game, Color own) {
      if (engine_)
        engine_->clear();
      else if (hub_)
        hub_->new_game();
      else
        request_dxp_game(game, own);
      own_ = own;
      seconds_used_ = 0;
      ponders_this_game_ = {};
    }

    // The seconds its clock ran for this board's moves.
    double seconds_used() const { return seconds_used_; }
    // Its ponder searches this game, and their hits.
    const PonderCount& ponders() const { return ponders_this_game_; }

    Turn choose(const Game<R>& game) {
      if (clock_) clock_->wind();
      const auto started = std::chrono::steady_clock::now();
      Turn turn;
      if (dxp_)
        turn = ask_dxp(game);
      else
        turn.move = engine_ ? search(game) : ask_hub(game, started);
      const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (!clock_) return turn;
      ++clock_->moves_made;
      if (turn.move) {
        seconds_used_ += took;
        clock_->remaining -= took;
        if (clock_->remaining < 0) turn = Turn{std::nullopt, true, std::nullopt};
      }
      if (ponders_ && hub_ && turn.move) start_pondering(game, *turn.move);
      return turn;
    }

    // A DXP engine learns the game's last move and its end (the side to
    // move sends the first GAMEEND; dama does when the engine plays on).
    void end_game(const Game<R>& game, const GameResult& result) {
      if (hub_) hub_->stop_pondering();  // the game may end on the opponent's move
      if (!dxp_ || result.reason == kEndedByDxpEngine) return;  // it has had its confirmation
      tell_dxp(game);
      if (game.position().side == own_ && result.reason != kLostOnTime) {
        const auto turn = dxp_->await_turn(60000, cancel_);
        if (!turn || turn->end) return;
      }
      dxp_->end_game(end_reason_for(result.outcome, own_), false);
    }

   private:
    void request_dxp_game(const Game<R>& game, Color own) {
      if constexpr (dxp::kSpeaksDxp<Board>) {
        dxp_->request_game(
            dxp::game_request("dama match", game.position(), own, static_cast<int>(clock_->control.base_seconds / 60), 0));
        told_plies_ = game.plies();
      }
    }

    // Sends the moves the engine has not seen (the opponent's last).
    void tell_dxp(const Game<R>& game) {
      if constexpr (dxp::kSpeaksDxp<Board>)
        for (; told_plies_ < game.plies(); ++told_plies_)
          dxp_->send_move(dxp::to_message(game.moves()[static_cast<std::size_t>(told_plies_)], 0));
    }

    Turn ask_dxp(const Game<R>& game) {
      Turn out;
      if constexpr (dxp::kSpeaksDxp<Board>) {
        tell_dxp(game);
        const auto turn = dxp_->await_turn(static_cast<std::int64_t>(seconds_left() * 1000) + 60000, cancel_);
        if (!turn) return out;
        if (turn->end) {
          out.ended = GameResult{outcome_of_peer_end(turn->end->reason, own_), std::string(kEndedByDxpEngine)};
          return out;
        }
        try {
          out.move = dxp::find_move<R>(game.position(), *turn->move);
        } catch (const Error& e) {
          throw Error("DXP engine '" + command_ + "' played a move dama cannot accept: " + e.what());
        }
        ++told_plies_;
      }
      return out;
    }

    double seconds_left() const { return clock_ ? clock_->remaining : 0; }

    std::optional<Move<Board>> search(const Game<R>& game) {
      SearchLimits limits = limits_;
      if (clock_) {
        const TimeBudget budget = allocate_time(GameClock{
            clock_->share(), moves_to_go(clock_->control, clock_->moves_made), clock_->control.increment_seconds});
        limits.movetime_ms = budget.maximum_ms;
        limits.optimum_ms = budget.optimum_ms;
      }
      const auto result = engine_->search(game, limits);
      if (cancel_->load()) return std::nullopt;
      return result.best_move;
    }

    static std::vector<std::string> hub_moves(const Game<R>& game) {
      std::vector<std::string> moves;
      for (const auto& m : game.moves()) moves.push_back(hub::format_move(m));
      return moves;
    }

    std::optional<Move<Board>> ask_hub(const Game<R>& game, std::chrono::steady_clock::time_point started) {
      // Generous: an engine may overrun its move time a little, and a depth has no clock at all.
      const std::int64_t timeout_ms =
          60000 + (clock_ ? static_cast<std::int64_t>(seconds_left() * 1000) : 4 * limits_.movetime_ms);
      std::string level = clock_ ? hub_level_for(clock_->control, clock_->share(), clock_->moves_made) : level_;
      const std::string start = hub::format_position(game.positions().front());
      const std::vector<std::string> moves = hub_moves(game);
      if (clock_ && !hub_->pondering(start, moves, level)) {
        // A ponder miss: the stop and its done run on the engine's clock,
        // so the level it is sent says what is left after them (a loaded
        // machine can make that tens of milliseconds, and a level that
        // ignored them once cost a game on time).
        hub_->stop_pondering();
        PlayerClock now = *clock_;
        now.remaining -= std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        level = hub_level_for(now.control, now.share(), now.moves_made);
      }
      const HubReply reply = hub_->best_move(start, moves, level, timeout_ms, cancel_);
      expected_reply_ = reply.expected_reply;
      if (reply.move.empty()) return std::nullopt;
      ponders_this_game_.hits += reply.pondered;
      try {
        return hub::parse_move<R>(game.position(), reply.move);
      } catch (const Error& e) {
        throw Error("hub engine '" + command_ + "' played a move dama cannot accept: " + e.what());
      }
    }

    // After its move, the engine searches the position after the reply it
    // expects, with the level its clock will give there (the increment
    // added, as wind() will); the next ask_hub() finds out whether it was
    // played.  Nothing when the game ends before, or the reply named is not
    // a legal one (the engine then thinks on its own time as usual).
    void start_pondering(const Game<R>& game, const Move<Board>& played) {
      Game<R> next = game;
      next.play(played);
      if (next.over() || expected_reply_.empty()) return;
      try {
        next.play(hub::parse_move<R>(next.position(), expected_reply_));
      } catch (const Error&) {
        return;
      }
      if (next.over()) return;
      PlayerClock there = *clock_;
      there.wind();
      hub_->ponder(hub::format_position(next.positions().front()), hub_moves(next),
                   hub_level_for(there.control, there.share(), there.moves_made));
      ++ponders_this_game_.searches;
    }

    SearchLimits limits_;
    PlayerClock* clock_;  // null: no game clock
    const std::atomic<bool>* cancel_;
    bool ponders_;                // a Hub engine under a clock, ponder=true
    std::string expected_reply_;  // the reply the Hub engine named with its last move
    std::optional<ParallelSearcher<R, WeightsEvaluator<R>>> engine_;
    std::unique_ptr<HubEngine> hub_;
    std::unique_ptr<DxpPeer> dxp_;
    std::string command_, level_;
    Color own_ = Color::White;
    int told_plies_ = 0;  // moves of the game the DXP engine knows
    double seconds_used_ = 0;
    PonderCount ponders_this_game_;
  };

  class Worker : public GameWorker {
   public:
    Worker(const MatchGames& match, const std::atomic<bool>* cancel) : match_(match), cancel_(cancel) {
      const MatchSettings& s = match.settings_;
      const auto plain = [](const PlayerSpec& p) {
        return p.hub_command.empty() && p.dxp_address.empty() && !p.clock && p.threads == 1;
      };
      if (plain(s.a) && plain(s.b)) {
        a_first_.emplace(match.settings_for(s.a, match.players_.a_weights, cancel),
                         match.settings_for(s.b, match.players_.b_weights, cancel), s.tt_megabytes);
        b_first_.emplace(match.settings_for(s.b, match.players_.b_weights, cancel),
                         match.settings_for(s.a, match.players_.a_weights, cancel), s.tt_megabytes);
        return;
      }
      if (s.a.clock) a_clock_.control = *s.a.clock;
      if (s.b.clock) b_clock_.control = *s.b.clock;
      for (std::size_t board = 0; board < match.boards(); ++board) {
        a_[board].emplace(match, s.a, match.players_.a_weights, &a_clock_, cancel);
        b_[board].emplace(match, s.b, match.players_.b_weights, &b_clock_, cancel);
      }
    }

    std::optional<std::vector<FinishedGame>> play(std::uint64_t index) override {
      const MatchSettings& s = match_.settings_;
      const std::uint64_t first = index - index % match_.boards();
      const bool a_first = a_moves_first(first, s.pairing);
      std::vector<Game<R>> games;
      for (std::size_t board = 0; board < match_.boards(); ++board)
        games.push_back(match_.opening(match_.opening_number(first + board)));
      std::vector<GameResult> results;
      if (a_first_) {
        // Without clocks the boards do not touch: one after the other.
        for (std::size_t board = 0; board < games.size(); ++board) {
          GameRng rng(game_seed(s.seed, first + board));  // unused without early randomness
          results.push_back(
              (a_first ? *a_first_ : *b_first_).play(games[board], Adjudication{}, EarlyRandomness{}, rng).result);
        }
      } else if (auto played = play_boards(games, a_first)) {
        results = std::move(*played);
      } else {
        return std::nullopt;
      }
      if (cancel_->load()) return std::nullopt;
      std::vector<FinishedGame> out;
      for (std::size_t board = static_cast<std::size_t>(index - first); board < games.size(); ++board) {
        FinishedGame game;
        game.record.index = first + board;
        if (s.a.clock || s.b.clock)
          game.record.clocks = {{clock_use(a_clock_, *a_[board]), clock_use(b_clock_, *b_[board])}};
        if (s.a.ponder || s.b.ponder) game.record.ponders = {{a_[board]->ponders(), b_[board]->ponders()}};
        game.record.result = std::string(results[board].text());
        game.record.plies = games[board].plies();
        game.record.reason = results[board].reason;
        game.pdn = write_pdn_game<R>(match_.variant_, match_.tags(game.record.index), games[board],
                                     results[board].text());
        out.push_back(std::move(game));
      }
      return out;
    }

   private:
    // A board's share of a clock: the time its moves took, and the clock's
    // budget divided among the boards it served.
    ClockUse clock_use(const PlayerClock& clock, const Side& side) const {
      return ClockUse{side.seconds_used(), clock.budget / static_cast<double>(match_.boards())};
    }

    Side& first_player(std::size_t board, bool a_first) { return a_first ? *a_[board] : *b_[board]; }
    Side& second_player(std::size_t board, bool a_first) { return a_first ? *b_[board] : *a_[board]; }

    // The Referee's loop for players it cannot hold, with their clocks, on
    // every board at once: each round, one move on each board still in play.
    // The results, or nothing when cancelled.
    std::optional<std::vector<GameResult>> play_boards(std::vector<Game<R>>& games, bool a_first) {
      const std::size_t boards = games.size();
      a_clock_.start();
      b_clock_.start();
      for (std::size_t board = 0; board < boards; ++board) {
        first_player(board, a_first).new_game(games[board], R.first_player);
        second_player(board, a_first).new_game(games[board], ~R.first_player);
      }
      std::vector<std::optional<GameResult>> results(boards);
      const auto boards_in_play = [&] {
        int n = 0;
        for (std::size_t board = 0; board < boards; ++board) n += !results[board] && !games[board].over();
        return n;
      };
      for (bool moved = true; moved;) {
        moved = false;
        for (std::size_t board = 0; board < boards; ++board) {
          Game<R>& game = games[board];
          if (results[board]) continue;
          if (game.over()) {
            results[board] = game.result();
            continue;
          }
          a_clock_.boards_in_play = b_clock_.boards_in_play = boards_in_play();
          const bool first_moves = game.position().side == R.first_player;
          const Turn turn =
              (first_moves ? first_player(board, a_first) : second_player(board, a_first)).choose(game);
          moved = true;
          if (turn.flagged) {
            // Its clock served every board: the player loses all those still in play.
            const GameResult lost{first_moves ? Outcome::SecondPlayerWins : Outcome::FirstPlayerWins,
                                  std::string(kLostOnTime)};
            for (std::size_t other = 0; other < boards; ++other)
              if (!results[other]) results[other] = games[other].over() ? games[other].result() : lost;
          } else if (turn.ended) {
            results[board] = turn.ended;
          } else if (!turn.move) {
            return std::nullopt;
          } else {
            game.play(*turn.move);
          }
        }
      }
      std::vector<GameResult> out;
      for (std::size_t board = 0; board < boards; ++board) {
        first_player(board, a_first).end_game(games[board], *results[board]);
        second_player(board, a_first).end_game(games[board], *results[board]);
        out.push_back(*results[board]);
      }
      return out;
    }

    const MatchGames& match_;
    const std::atomic<bool>* cancel_;
    std::optional<Referee<R>> a_first_, b_first_;  // both players ours, no clocks
    PlayerClock a_clock_, b_clock_;                // otherwise: A's and B's, for every board
    std::optional<Side> a_[2], b_[2];              // by board
  };

  PlayerSettings settings_for(const PlayerSpec& spec, const Weights& weights, const std::atomic<bool>* cancel) const {
    PlayerSettings p;
    p.weights = &weights;
    p.limits = spec.limits;
    p.limits.stop = cancel;
    return p;
  }

  void parse_openings(const OpeningsFile& file) {
    for (const auto& line : file.openings) {
      const std::string where = file.path + ":" + std::to_string(line.line) + ": ";
      Position<Board> p;
      try {
        p = opening_start<R>(line, variant_);
      } catch (const Error& e) {
        throw Error(where + e.what());
      }
      Game<R> game(p, settings_.draw_rules);
      if (game.over())
        throw Error(where + "the game is already over there (" + std::string(game.result().text()) + ", " +
                    game.result().reason + ")");
      openings_.push_back(std::move(game));
    }
  }

  // Boards per game: 2 in a double game.
  std::size_t boards() const { return settings_.pairing == Pairing::DoubleGame ? 2 : 1; }

  // The opening that game `index` starts from: the pair's, or in double
  // games the board's, shared with the next or previous pair, whose colours
  // are swapped.
  std::uint64_t opening_number(std::uint64_t index) const {
    return settings_.pairing == Pairing::DoubleGame ? index / 4 * 2 + index % 2 : index / 2;
  }

  Game<R> opening(std::uint64_t number) const {
    if (!openings_.empty()) return openings_[number % openings_.size()];
    GameRng rng(game_seed(settings_.seed, number));
    return random_opening<R>(settings_.openings.random_plies, settings_.openings.max_imbalance,
                             players_.opening_weights, settings_.draw_rules, rng);
  }

  // A plays White when it moves first and the first player is White, or
  // moves second and the first player is Black (american).  A double game's
  // two boards share the round number: "12.1" is its dark board, "12.2" its
  // light one, written as the mirror image (docs/pdn.md).
  PdnTags tags(std::uint64_t index) const {
    const bool a_first = a_moves_first(index, settings_.pairing);
    const bool a_white = a_first == (R.first_player == Color::White);
    const std::string a = "A " + settings_.a.text, b = "B " + settings_.b.text;
    PdnTags t;
    t.event = "dama match";
    t.date = pdn_date(std::chrono::system_clock::now());
    t.round = std::to_string(index + 1);
    if (settings_.pairing == Pairing::DoubleGame) {
      t.event = "dama match, double game";
      t.round = std::to_string(index / 2 + 1) + "." + std::to_string(index % 2 + 1);
      t.extra.emplace_back("DoubleGame", index % 2 == 0 ? "dark" : "light, mirrored");
    }
    t.white = a_white ? a : b;
    t.black = a_white ? b : a;
    return t;
  }

  const MatchSettings& settings_;
  const Variant& variant_;
  const Players& players_;
  std::vector<Game<R>> openings_;
};

}  // namespace

MatchOutcome run_match(const MatchSettings& settings, const MatchControl& control) {
  check_match_settings(settings);
  const Variant& variant = find_variant(settings.variant);
  RuleSet rules = rules_of(variant, settings.no_forced_capture);
  check_draw_rules(settings.draw_rules, rules);
  const Players players{weights_for(settings.a, variant, "--a"), weights_for(settings.b, variant, "--b"),
                        default_weights(variant)};
  std::optional<OpeningsFile> openings;
  if (!settings.openings.file.empty()) openings = read_openings(settings.openings.file);

  return with_rules(rules, [&]<RuleSet R>() {
    const MatchGames<R> games(settings, variant, players, openings);  // checks the openings first
    const bool journal_existed = !settings.journal.empty() && std::ifstream(settings.journal).good();
    MatchJournal journal(settings.journal, settings.pdn_out, identity_of(settings, players, openings), settings.resume,
                         settings.games);
    if (control.on_note) {
      // Only now, with every input checked: bad input gets its one line alone.
      if (settings.openings.variant_default)
        control.on_note("openings: " + settings.openings.file +
                        " (the variant's standard set; --random-plies N for random ones)");
      if (journal.resumed())
        control.on_note("resuming from " + settings.journal + ": " + std::to_string(journal.finished().size()) +
                        " of " + std::to_string(settings.games) + " games already played");
      else if (settings.resume && !journal_existed)
        control.on_note("no journal at " + settings.journal + ": starting from the first game");
      if (journal.pdn_bytes_dropped() > 0)
        control.on_note(settings.pdn_out + ": cut off " + std::to_string(journal.pdn_bytes_dropped()) +
                        " bytes written after the journal's last game (that game is played again)");
    }
    return schedule_games(settings, control, journal,
                          [&](const std::atomic<bool>* cancel) { return games.make_worker(cancel); });
  });
}

}  // namespace dama::eval
