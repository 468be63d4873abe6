// dama's engine as a DXP program.  Instantiates the search for the 10x10
// rule sets only: DXP has no other board.
#include "dxp_player.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>

#include "dxp/dxp_board.hpp"
#include "dxp_peer.hpp"
#include "egtb/tablebase.hpp"
#include "openings.hpp"
#include "parallel_search.hpp"
#include "pdn/pdn.hpp"
#include "time_control.hpp"
#include "utc_time.hpp"
#include "weights.hpp"

namespace dama::eval {

namespace {

using Clock = std::chrono::steady_clock;

// How long the other side may be silent beyond its own clock before dama
// gives up on it (it may count its time differently, or not at all).
constexpr std::int64_t kPeerGraceMs = 60000;
constexpr std::int64_t kNoClockWaitMs = 3600 * 1000LL;

const char* peer_end_text(dxp::EndReason reason) {
  switch (reason) {
    case dxp::EndReason::ILose: return "the other program gave up";
    case dxp::EndReason::Draw: return "the other program claimed a draw";
    case dxp::EndReason::IWin: return "the other program claimed a win";
    default: return "the other program ended the game";
  }
}

// One side's clock in a game, as the GAMEREQ set it.
struct DxpClock {
  double remaining = 0;  // seconds
  int moves_left = 0;    // to the GAMEREQ's number of moves; 0: no number
  bool running = false;  // false: the GAMEREQ gave no time (0 minutes)

  static DxpClock of(const dxp::GameRequest& r) {
    return DxpClock{60.0 * r.minutes, r.moves, r.minutes > 0};
  }
  std::int64_t wait_ms() const {
    return running ? static_cast<std::int64_t>(std::max(0.0, remaining) * 1000) + kPeerGraceMs : kNoClockWaitMs;
  }
  void spend(double seconds) {
    remaining -= seconds;
    if (moves_left > 1) --moves_left;
  }
};

template <RuleSet R>
class DxpProgram {
 public:
  using Board = BoardFor<R>;

  DxpProgram(const DxpSettings& s, const DxpControl& c, const Variant& variant)
      : settings_(s), control_(c), variant_(variant),
        weights_(s.weights_file.empty() ? default_weights(variant) : load_weights(s.weights_file, variant)),
        searcher_(WeightsEvaluator<R>{&weights_}, s.tt_megabytes, s.threads) {
    if (!s.tables_dir.empty()) {
      tables_ = egtb::Tablebase<R>::load(s.tables_dir, "--egtb");
      searcher_.set_tables(&*tables_);
    }
    if (!s.openings.empty()) {
      const OpeningsFile file = read_openings(s.openings);
      for (const auto& line : file.openings) {
        try {
          openings_.push_back(opening_start<R>(line, variant));
        } catch (const Error& e) {
          throw Error(file.path + ":" + std::to_string(line.line) + ": " + e.what());
        }
      }
    }
  }

  DxpOutcome run() {
    if (settings_.connect.empty()) {
      DxpListener listener(parse_endpoint(settings_.listen, "--listen", true));
      note("listening on port " + std::to_string(listener.port()));
      while (!stopping()) {
        auto link = listener.accept(control_.stop);
        if (!link) break;
        note("connection from " + link->peer());
        try {
          serve(std::move(*link));
        } catch (const Error& e) {
          if (settings_.once) throw;
          note(std::string(e.what()) + "; waiting for the next connection");
        }
        if (settings_.once) break;
      }
    } else {
      serve(DxpLink::connect(parse_endpoint(settings_.connect, "--connect", false), 10000));
    }
    return outcome_;
  }

 private:
  bool stopping() const { return control_.stop && control_.stop->load(); }
  void note(const std::string& text) const {
    if (control_.on_note) control_.on_note(text);
  }

  void serve(DxpLink link) {
    DxpPeer peer(std::move(link), settings_.name, control_.on_note);
    if (settings_.initiator)
      initiate(peer);
    else
      follow(peer);
  }

  void initiate(DxpPeer& peer) {
    for (int g = 0; g < settings_.games && !stopping(); ++g) {
      const Position<Board> start = openings_.empty()
                                        ? Position<Board>::start(Color::White)
                                        : openings_[static_cast<std::size_t>(g / 2) % openings_.size()];
      const Color ours = g % 2 == 0 ? Color::White : Color::Black;
      const dxp::GameRequest request =
          dxp::game_request(settings_.name, start, ~ours, settings_.minutes, settings_.moves);
      peer.request_game(request);
      const bool last = g + 1 == settings_.games;
      play(peer, request, ours, last);
      if (peer.stop_requested()) break;
    }
  }

  void follow(DxpPeer& peer) {
    while (!stopping()) {
      const auto request = peer.await_request(control_.stop);
      if (!request) return;
      if (request->version != dxp::kProtocolVersion) {
        peer.answer_request(dxp::Acceptance::WrongVersion);
        continue;
      }
      try {
        const Game<R> check(dxp::request_position<Board>(*request));
        if (check.over()) throw Error("the game is over in that position");
      } catch (const Error& e) {
        note(std::string("refused a game: ") + e.what());
        peer.answer_request(dxp::Acceptance::NotThisGame);
        continue;
      }
      peer.answer_request(dxp::Acceptance::Accepted);
      play(peer, *request, request->follower_color, false);
      if (peer.stop_requested()) return;
    }
  }

  // One game, from the GAMEREQ to the confirmed GAMEEND.
  void play(DxpPeer& peer, const dxp::GameRequest& request, Color ours, bool last) {
    Game<R> game(dxp::request_position<Board>(request));
    searcher_.clear();
    DxpClock own = DxpClock::of(request), theirs = DxpClock::of(request);
    note("game " + std::to_string(outcome_.games + 1) + " against " + peer.name() + ", dama " +
         (ours == Color::White ? "white" : "black"));
    std::optional<GameResult> result;
    while (!result) {
      if (game.over()) {
        result = finish(peer, game, ours, theirs, last);
      } else if (game.position().side == ours) {
        const auto started = Clock::now();
        const auto move = choose(game, own);
        const double took = std::chrono::duration<double>(Clock::now() - started).count();
        own.spend(took);
        peer.send_move(dxp::to_message(*move, static_cast<int>(std::lround(took))));
        game.play(*move);
      } else {
        const auto started = Clock::now();
        const auto turn = peer.await_turn(theirs.wait_ms(), nullptr);
        theirs.spend(std::chrono::duration<double>(Clock::now() - started).count());
        if (turn->end)
          result = GameResult{outcome_of_peer_end(turn->end->reason, ours), peer_end_text(turn->end->reason)};
        else
          game.play(dxp::find_move<R>(game.position(), *turn->move));
      }
    }
    record(game, *result, ours, peer);
  }

  // The game is over by the rules: the side to move says so (the spec lets
  // only it send the first GAMEEND).  When that is the other side and it
  // plays on instead -- its rules may differ -- dama ends the game on its turn.
  GameResult finish(DxpPeer& peer, const Game<R>& game, Color ours, const DxpClock& theirs, bool last) {
    const GameResult result = game.result();
    const bool stop = last || stopping();
    if (game.position().side != ours) {
      const auto turn = peer.await_turn(theirs.wait_ms(), nullptr);
      if (turn->end) return result;
    }
    peer.end_game(end_reason_for(result.outcome, ours), stop);
    return result;
  }

  std::optional<Move<Board>> choose(const Game<R>& game, const DxpClock& clock) {
    SearchLimits limits = settings_.fixed;
    if (limits.depth == 0 && limits.nodes == 0 && limits.movetime_ms == 0) {
      const GameClock c{clock.running ? clock.remaining : 5.0 * 60, clock.moves_left, 0};
      const TimeBudget budget = allocate_time(c);
      limits.movetime_ms = budget.maximum_ms;
      limits.optimum_ms = budget.optimum_ms;
    }
    return searcher_.search(game, limits).best_move;
  }

  void record(const Game<R>& game, const GameResult& result, Color ours, const DxpPeer& peer) {
    ++outcome_.games;
    if (result.outcome == Outcome::Draw) ++outcome_.draws;
    else if (result.outcome == Outcome::Ongoing) ++outcome_.unfinished;
    else if ((result.outcome == Outcome::FirstPlayerWins) == (ours == Color::White)) ++outcome_.wins;
    else ++outcome_.losses;
    note("game " + std::to_string(outcome_.games) + ": " + std::string(result.text()) + " (" + result.reason +
         "), " + std::to_string(game.plies()) + " plies; dama " + std::to_string(outcome_.wins) + " won, " +
         std::to_string(outcome_.losses) + " lost, " + std::to_string(outcome_.draws) + " drawn");
    if (settings_.pdn_out.empty()) return;
    PdnTags tags;
    tags.event = "dama dxp";
    tags.site = peer.address();
    tags.date = pdn_date(std::chrono::system_clock::now());
    tags.round = std::to_string(outcome_.games);
    const std::string us = settings_.name, them = peer.name().empty() ? peer.address() : peer.name();
    tags.white = ours == Color::White ? us : them;
    tags.black = ours == Color::White ? them : us;
    std::ofstream out(settings_.pdn_out, std::ios::app);
    out << write_pdn_game<R>(variant_, tags, game.positions().front(), game.moves(), result.text()) << '\n';
    out.flush();
    if (!out) throw Error(settings_.pdn_out + ": cannot write the game");
  }

  const DxpSettings& settings_;
  const DxpControl& control_;
  const Variant& variant_;
  Weights weights_;
  std::optional<egtb::Tablebase<R>> tables_;  // before the searcher, which points at it
  ParallelSearcher<R, WeightsEvaluator<R>> searcher_;
  std::vector<Position<Board>> openings_;
  DxpOutcome outcome_;
};

void check_settings(const DxpSettings& s, const Variant& variant) {
  if (!(variant.rules.board == BoardShape{10, 10}))
    throw Error("dama dxp: DXP is a protocol of the 10x10 board; " + std::string(variant.name) + " is played on " +
                shape_name(variant.rules.board));
  if (s.listen.empty() == s.connect.empty()) throw Error("dama dxp: give one of --listen and --connect");
  if (s.games < 1) throw Error("--games: at least 1");
  if (s.minutes < 0 || s.minutes > 999) throw Error("--minutes: 0 to 999 (DXP has three digits)");
  if (s.moves < 0 || s.moves > 999) throw Error("--moves: 0 to 999 (DXP has three digits)");
  if (!s.pdn_out.empty()) {
    std::ofstream probe(s.pdn_out, std::ios::app);
    if (!probe) throw Error("--pdn-out " + s.pdn_out + ": cannot write there");
  }
}

}  // namespace

DxpOutcome run_dxp(const DxpSettings& settings, const DxpControl& control) {
  const Variant& variant = find_variant(settings.variant);
  check_settings(settings, variant);
  return with_rules(variant.rules, [&]<RuleSet R>() -> DxpOutcome {
    if constexpr (dxp::kSpeaksDxp<BoardFor<R>>) {
      DxpProgram<R> program(settings, control, variant);
      return program.run();
    } else {
      throw Error("dama dxp: DXP is a protocol of the 10x10 board");
    }
  });
}

}  // namespace dama::eval
