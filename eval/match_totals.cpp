// The match's plain parts: settings checks and totals.
#include <string>

#include "error.hpp"
#include "match.hpp"
#include "variant.hpp"

namespace dama::eval {

void check_match_settings(const MatchSettings& s) {
  if (s.games == 0 || s.games % 2 != 0)
    throw Error("--games: expected a positive even number (games are played in pairs), got " + std::to_string(s.games));
  if (s.concurrency < 1) throw Error("--concurrency: expected at least 1, got " + std::to_string(s.concurrency));
  if (s.openings.file.empty() && s.openings.random_plies < 0)
    throw Error("--random-plies: expected 0 or more, got " + std::to_string(s.openings.random_plies));
  if (s.openings.max_imbalance < 0)
    throw Error("--max-imbalance: expected 0 or more, got " + std::to_string(s.openings.max_imbalance));
  if (s.sprt) check_sprt_settings(*s.sprt);
  if (s.tt_megabytes == 0) throw Error("--tt-mb: expected at least 1");
  for (const auto* p : {&s.a, &s.b}) {
    if (p->dxp_address.empty()) continue;
    if (!(find_variant(s.variant).rules.board == BoardShape{10, 10}) || s.no_forced_capture)
      throw Error("--" + std::string(p == &s.a ? "a" : "b") + " '" + p->text +
                  "': DXP is a protocol of the 10x10 board (variant international)");
    if (s.concurrency != 1)
      throw Error("--concurrency: a DXP engine plays one game at a time (it has one connection); use 1");
  }
  if (s.pairing == Pairing::DoubleGame) {
    for (const auto* p : {&s.a, &s.b}) {
      const std::string option = p == &s.a ? "--a" : "--b";
      if (!p->dxp_address.empty())
        throw Error("--double: " + option + " '" + p->text +
                    "' is a DXP engine, which plays one game at a time; a double game needs two");
      if (p->clock && p->clock->moves > 0)
        throw Error("--double: " + option + " '" + p->text +
                    "': a double game's clock serves both boards, so moves per control are not defined; give "
                    "tc=BASE+INC");
      // Its one engine per board would ponder while the other board's
      // engine of the same player thinks: the player would search twice at once.
      if (p->ponder)
        throw Error("--double: " + option + " '" + p->text + "': a player of a double game cannot ponder (ponder=false)");
    }
  }
  if (s.resume && s.journal.empty())
    throw Error(
        "--resume needs the journal of the interrupted run: give the same --pgn-out (its journal is "
        "FILE.journal) or --journal");
}

const char* stop_reason_text(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
      return "all games played";
    case StopReason::SprtAcceptedH0:
      return "SPRT: H0 accepted";
    case StopReason::SprtAcceptedH1:
      return "SPRT: H1 accepted";
    case StopReason::Interrupted:
      return "interrupted";
  }
  return "?";
}

void count_next_game(MatchTotals& t, const std::vector<GameRecord>& games, const std::optional<SprtSettings>& sprt,
                     Pairing pairing) {
  const GameRecord& g = games.at(t.games);
  const double score = score_of_a(g, pairing);
  ++t.games;
  if (score == 1.0)
    ++t.a.wins;
  else if (score == 0.0)
    ++t.a.losses;
  else
    ++t.a.draws;
  if (g.clocks) {
    const bool on_time = g.reason == kLostOnTime;
    for (int side = 0; side < 2; ++side) {
      ClockTotals& c = side == 0 ? t.clock_a : t.clock_b;
      ++c.games;
      c.used_seconds += (*g.clocks)[side].used_seconds;
      c.budget_seconds += (*g.clocks)[side].budget_seconds;
      if (on_time && score == (side == 0 ? 0.0 : 1.0)) ++c.time_losses;
      if (g.ponders) {
        c.ponder_hits += static_cast<std::uint64_t>((*g.ponders)[side].hits);
        c.ponder_searches += static_cast<std::uint64_t>((*g.ponders)[side].searches);
      }
    }
  }
  if (g.index % 2 == 0) return;
  t.pairs.add_pair(score_of_a(games[g.index - 1], pairing), score);
  if (sprt) {
    t.llr = sprt_llr(t.pairs, sprt->elo0, sprt->elo1);
    t.decision = sprt_decision(*t.llr, sprt_bounds(*sprt));
  }
}

MatchTotals totals_of(const std::vector<GameRecord>& games, const std::optional<SprtSettings>& sprt,
                      Pairing pairing) {
  MatchTotals t;
  if (sprt) t.llr = sprt_llr(t.pairs, sprt->elo0, sprt->elo1);
  while (t.games < games.size()) count_next_game(t, games, sprt, pairing);
  return t;
}

}  // namespace dama::eval
