// Matches (eval/): the statistics against hand-computed figures, the SPRT on
// synthetic counts, player specs, and whole matches at tiny depths -- paired
// colours, the same results for any concurrency, resuming after an
// interruption (or a crash) without playing a game twice, and the command
// line refusing bad input.
//
// Reference figures come from Fishtest's formulas (stat_util.get_elo,
// LLRcalc.LLR_logistic) evaluated independently in Python; the first case is
// also worked by hand below.
#include "match.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "error.hpp"
#include "fen.hpp"
#include "openings.hpp"
#include "pdn/pdn_fen.hpp"
#include "pdn/pdn_game_type.hpp"
#include "pdn/pdn_reader.hpp"
#include "run_dama.hpp"
#include "sprt.hpp"
#include "statistics.hpp"
#include "test_support.hpp"

namespace dama::eval {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Pentanomial counts(std::uint64_t ll, std::uint64_t ld, std::uint64_t dd, std::uint64_t dw, std::uint64_t ww) {
  Pentanomial p;
  p.pairs = {ll, ld, dd, dw, ww};
  return p;
}

Pentanomial mirrored(const Pentanomial& p) {
  return counts(p.pairs[4], p.pairs[3], p.pairs[2], p.pairs[1], p.pairs[0]);
}

// ---------------------------------------------------------------------------
// Statistics

TEST(MatchStatistics, PairScoresLandInTheirCells) {
  Pentanomial p;
  p.add_pair(0, 0);
  p.add_pair(0.5, 0);
  p.add_pair(1, 0);
  p.add_pair(0.5, 0.5);
  p.add_pair(1, 0.5);
  p.add_pair(1, 1);
  EXPECT_EQ(p.pairs, (std::array<std::uint64_t, 5>{1, 1, 2, 1, 1}));
  EXPECT_EQ(p.total_pairs(), 6u);
  EXPECT_THROW(p.add_pair(1, 1.5), std::logic_error);
}

// 26 pairs = 52 games, A's points 0*2 + 0.5*5 + 1*10 + 1.5*6 + 2*3 = 27.5:
//   mu  = 27.5 / 52                                  = 0.528846
//   var = sum n_i (s_i - 2 mu)^2 / 52, 2 mu = 1.057692
//       = (2*1.118713 + 5*0.311021 + 10*0.003328 + 6*0.195636 + 3*0.887944) / 52
//       = 7.663462 / 52                              = 0.147374
//   se  = sqrt(var / 52)                             = 0.053236
//   Elo = -400 log10(1/mu - 1) = -400 log10(0.890909) = 20.07
//   95%: (Elo(mu + 1.96 se) - Elo(mu - 1.96 se)) / 2 = (96.91 - (-50.79)) / 2 = 73.85
//   LOS = Phi(0.028846 / 0.053236) = Phi(0.5418)     = 0.7060
TEST(MatchStatistics, EloFromPentanomialByHand) {
  const EloEstimate e = estimate_elo(counts(2, 5, 10, 6, 3));
  EXPECT_NEAR(e.score, 0.5288461538, 1e-9);
  EXPECT_NEAR(e.variance, 0.1473742604, 1e-9);
  EXPECT_NEAR(e.elo, 20.0666437863, 1e-7);
  EXPECT_NEAR(e.elo_error95, 73.8495992486, 1e-6);
  EXPECT_NEAR(e.los, 0.7060389451, 1e-8);
}

TEST(MatchStatistics, SymmetricCountsAreEven) {
  const EloEstimate e = estimate_elo(counts(3, 7, 20, 7, 3));
  EXPECT_NEAR(e.score, 0.5, 1e-12);
  EXPECT_NEAR(e.elo, 0, 1e-9);
  EXPECT_NEAR(e.los, 0.5, 1e-12);
  const EloEstimate m = estimate_elo(mirrored(counts(2, 5, 10, 6, 3)));
  EXPECT_NEAR(m.elo, -20.0666437863, 1e-7);
  EXPECT_NEAR(m.los, 1 - 0.7060389451, 1e-8);
}

// Nearly all draws: the variance is tiny but the empty cells' 1e-3 prior
// keeps it positive, so nothing is NaN or infinite.
TEST(MatchStatistics, DrawsAndDegenerateCountsStayFinite) {
  const EloEstimate draws = estimate_elo(counts(0, 0, 24, 0, 0));
  EXPECT_NEAR(draws.elo, 0, 1e-9);
  EXPECT_NEAR(draws.variance, 0.0000520747, 1e-9);
  EXPECT_NEAR(draws.elo_error95, 1.4184407138, 1e-6);
  EXPECT_NEAR(draws.los, 0.5, 1e-9);

  const EloEstimate mostly = estimate_elo(counts(0, 3, 40, 3, 0));
  EXPECT_NEAR(mostly.elo_error95, 18.1583263412, 1e-6);

  const EloEstimate none = estimate_elo(Pentanomial{});
  EXPECT_TRUE(std::isfinite(none.elo) && std::isfinite(none.elo_error95) && std::isfinite(none.los));
  EXPECT_NEAR(none.elo, 0, 1e-9);

  const EloEstimate lost = estimate_elo(counts(30, 0, 0, 0, 0));
  EXPECT_NEAR(lost.elo, -1199.8261952904, 1e-6);  // the score clamped at 0.001
  EXPECT_TRUE(std::isfinite(lost.elo_error95));
  EXPECT_LT(lost.los, 1e-9);
}

TEST(MatchStatistics, NormalDistribution) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_cdf(1.959963984540054), 0.975, 1e-12);
  EXPECT_NEAR(normal_cdf(0), 0.5, 1e-15);
  EXPECT_NEAR(score_of_elo(0), 0.5, 1e-15);
  EXPECT_NEAR(elo_of_score(score_of_elo(123.4)), 123.4, 1e-9);
}

TEST(MatchStatistics, WinLossDraw) {
  const WinLossDraw w{5, 3, 12};
  EXPECT_EQ(w.games(), 20u);
  EXPECT_DOUBLE_EQ(w.points(), 11.0);
}

// ---------------------------------------------------------------------------
// SPRT

TEST(MatchSprt, WaldBounds) {
  const SprtBounds b = sprt_bounds({0, 10, 0.05, 0.05});
  EXPECT_NEAR(b.lower, -2.9444389792, 1e-9);
  EXPECT_NEAR(b.upper, 2.9444389792, 1e-9);
  const SprtBounds skew = sprt_bounds({0, 10, 0.1, 0.2});
  EXPECT_NEAR(skew.lower, std::log(0.2 / 0.9), 1e-12);
  EXPECT_NEAR(skew.upper, std::log(0.8 / 0.1), 1e-12);
}

TEST(MatchSprt, LogLikelihoodRatioMatchesReference) {
  EXPECT_NEAR(sprt_llr(counts(2, 5, 10, 6, 3), 0, 10), 0.1091023769, 1e-7);
  EXPECT_NEAR(sprt_llr(counts(2, 5, 10, 6, 3), -5, 5), 0.1448564900, 1e-7);
  EXPECT_NEAR(sprt_llr(counts(10, 50, 300, 120, 20), 0, 10), 7.2563254171, 1e-6);
  EXPECT_NEAR(sprt_llr(counts(20, 120, 300, 50, 10), 0, 10), -9.3164462217, 1e-6);
  EXPECT_NEAR(sprt_llr(counts(1, 2, 4, 10, 15), 0, 10), 0.8096632984, 1e-6);
  EXPECT_NEAR(sprt_llr(counts(0, 0, 24, 0, 0), 0, 10), -0.6936708175, 1e-6);
  EXPECT_NEAR(sprt_llr(counts(30, 0, 0, 0, 0), 0, 10), -0.8759532314, 1e-6);
  EXPECT_NEAR(sprt_llr(Pentanomial{}, 0, 10), 0, 1e-4);
}

// Van den Bergh's Brownian approximation, N (s1 - s0)(2 s - s0 - s1) / (2 var),
// is close to the exact ratio when the data are well spread.
TEST(MatchSprt, CloseToTheBrownianApproximation) {
  const Pentanomial p = counts(2, 5, 10, 6, 3);
  const double n = 26, s = 27.5 / 52, var = 0.1473742604 / 2;  // per-pair-average variance
  const double s0 = score_of_elo(0), s1 = score_of_elo(10);
  const double approximate = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
  EXPECT_NEAR(sprt_llr(p, 0, 10), approximate, 0.01 * std::abs(approximate));
}

TEST(MatchSprt, AntisymmetricUnderSwappingPlayers) {
  for (const Pentanomial& p : {counts(2, 5, 10, 6, 3), counts(1, 2, 4, 10, 15), counts(0, 3, 40, 3, 0)})
    EXPECT_NEAR(sprt_llr(p, -5, 5), -sprt_llr(mirrored(p), -5, 5), 1e-9);
}

TEST(MatchSprt, DecidesOnSyntheticCounts) {
  const SprtBounds b = sprt_bounds({0, 10, 0.05, 0.05});
  EXPECT_EQ(sprt_decision(sprt_llr(counts(10, 50, 300, 120, 20), 0, 10), b), SprtDecision::AcceptH1);
  EXPECT_EQ(sprt_decision(sprt_llr(counts(20, 120, 300, 50, 10), 0, 10), b), SprtDecision::AcceptH0);
  EXPECT_EQ(sprt_decision(sprt_llr(counts(2, 5, 10, 6, 3), 0, 10), b), SprtDecision::Continue);
  EXPECT_EQ(sprt_decision(2.9444389792, b), SprtDecision::AcceptH1);
  EXPECT_EQ(sprt_decision(-2.9444389792, b), SprtDecision::AcceptH0);
}

// Simulated matches between players of known strength: the test reaches the
// right verdict (games independent, half of them draws).
TEST(MatchSprt, SequentialTestFindsTheTruth) {
  auto run = [](double true_elo, std::uint64_t seed) {
    test::Random random(seed);
    const double s = score_of_elo(true_elo);
    auto game = [&] {
      const double u = static_cast<double>(random.next() >> 11) / 9007199254740992.0;
      return u < s - 0.25 ? 1.0 : u < 0.5 + (s - 0.25) ? 0.5 : 0.0;
    };
    const SprtBounds b = sprt_bounds({0, 10, 0.05, 0.05});
    Pentanomial p;
    for (int pair = 0; pair < 100000; ++pair) {
      p.add_pair(game(), game());
      if (pair % 16 == 0)
        if (const auto d = sprt_decision(sprt_llr(p, 0, 10), b); d != SprtDecision::Continue) return d;
    }
    return SprtDecision::Continue;
  };
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    EXPECT_EQ(run(30, seed), SprtDecision::AcceptH1) << seed;
    EXPECT_EQ(run(-20, seed), SprtDecision::AcceptH0) << seed;
  }
}

TEST(MatchSprt, RefusesBadSettings) {
  EXPECT_THROW(check_sprt_settings({10, 0, 0.05, 0.05}), Error);
  EXPECT_THROW(check_sprt_settings({0, 10, 0, 0.05}), Error);
  EXPECT_THROW(check_sprt_settings({0, 10, 0.05, 1}), Error);
  EXPECT_THROW(check_sprt_settings({0, 10, 0.6, 0.5}), Error);
  EXPECT_NO_THROW(check_sprt_settings({0, 10, 0.05, 0.05}));
}

// ---------------------------------------------------------------------------
// Player specs

TEST(MatchPlayerSpec, ReadsTheFields) {
  const PlayerSpec a = parse_player_spec("depth=4", "--a");
  EXPECT_EQ(a.limits.depth, 4);
  EXPECT_TRUE(a.weights_file.empty());
  const PlayerSpec b = parse_player_spec("weights=configs/weights/russian.json,depth=4", "--b");
  EXPECT_EQ(b.weights_file, "configs/weights/russian.json");
  EXPECT_EQ(b.limits.depth, 4);
  const PlayerSpec c = parse_player_spec("weights=default,nodes=20000,movetime=50", "--a");
  EXPECT_TRUE(c.weights_file.empty());
  EXPECT_EQ(c.limits.nodes, 20000u);
  EXPECT_EQ(c.limits.movetime_ms, 50);
  EXPECT_TRUE(parse_player_spec("default,movetime=100", "--a").weights_file.empty());
  const PlayerSpec d = parse_player_spec("tc=10+0.1", "--a");
  ASSERT_TRUE(d.clock.has_value());
  EXPECT_DOUBLE_EQ(d.clock->base_seconds, 10);
  EXPECT_DOUBLE_EQ(d.clock->increment_seconds, 0.1);
  EXPECT_EQ(d.clock->moves, 0);
  const PlayerSpec e = parse_player_spec("hub:/bin/scan hub,tc=40/60.5", "--b");
  ASSERT_TRUE(e.clock.has_value());
  EXPECT_EQ(e.clock->moves, 40);
  EXPECT_DOUBLE_EQ(e.clock->base_seconds, 60.5);
  EXPECT_DOUBLE_EQ(e.clock->increment_seconds, 0);
  EXPECT_EQ(parse_player_spec("tc=5+0.05,threads=2", "--a").threads, 2);
  EXPECT_EQ(parse_player_spec("depth=3", "--a").threads, 1);
}

TEST(MatchPlayerSpec, ClocksAsTheHubProtocolWritesThem) {
  const TimeControl fischer = parse_time_control("10+0.1", "tc");
  EXPECT_EQ(hub_level_for(fischer, 9.5, 3), "time=9.500 inc=0.100");
  const TimeControl classical = parse_time_control("40/60", "tc");
  EXPECT_EQ(moves_to_go(classical, 0), 40);
  EXPECT_EQ(moves_to_go(classical, 39), 1);
  EXPECT_EQ(moves_to_go(classical, 40), 40);
  EXPECT_EQ(hub_level_for(classical, 12.25, 45), "moves=35 time=12.250");
  EXPECT_EQ(hub_level_for(classical, -0.5, 45), "moves=35 time=0.000");
}

TEST(MatchPlayerSpec, RefusesMalformedSpecs) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "empty player"},
      {"depth=0", "from 1 to 64"},
      {"depth=65", "from 1 to 64"},
      {"depth=x", "whole number"},
      {"depth=4x", "whole number"},
      {"nodes=-5", "whole number"},
      {"depth=4,depth=5", "given twice"},
      {"depth=4,", "empty field"},
      {"speed=3", "unknown field 'speed'"},
      {"weights=foo.json", "no search limit"},
      {"depth", "not key=value"},
      {"weights=,depth=3", "weights file"},
      {"tc=abc", "in seconds"},
      {"tc=10+", "the increment"},
      {"tc=-1+2", "in seconds"},
      {"tc=0+0", "no time"},
      {"tc=0/10", "moves before /"},
      {"tc=10+0.1,depth=4", "takes no depth"},
      {"depth=4,threads=0", "from 1 to 64"},
      {"hub:/bin/scan hub,tc=10,threads=2", "its own weights and threads"},
      {"tc=10,ponder=true", "only a Hub engine under a game clock ponders"},
      {"hub:/bin/scan hub,depth=4,ponder=true", "only a Hub engine under a game clock ponders"},
      {"hub:/bin/scan hub,tc=10,ponder=yes", "expected true or false"},
  };
  for (const auto& [spec, message] : cases) {
    try {
      parse_player_spec(spec, "--b");
      ADD_FAILURE() << "accepted '" << spec << "'";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), StartsWith(std::string("--b '") + spec + "'"));
      EXPECT_THAT(e.what(), HasSubstr(message)) << spec;
    }
  }
}

// ---------------------------------------------------------------------------
// Whole matches

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The journal's game records: what was played, not where it was written.
std::vector<std::string> game_lines(const std::string& journal) {
  std::vector<std::string> out;
  for (const auto& line : lines_of(slurp(journal)))
    if (line.rfind("game ", 0) == 0) out.push_back(line);
  return out;
}

// The PDN games without their Date tags (the only thing the clock decides).
std::vector<std::string> pdn_games(const std::string& pdn) {
  std::vector<std::string> games;
  for (const auto& line : lines_of(slurp(pdn))) {
    if (line.rfind("[Event ", 0) == 0) games.emplace_back();
    if (line.rfind("[Date ", 0) == 0) continue;
    if (games.empty())
      ADD_FAILURE() << "text before the first game: " << line;
    else
      games.back() += line + "\n";
  }
  return games;
}

std::string tag_of(const std::string& game, const std::string& name) {
  const std::string prefix = "[" + name + " \"";
  const auto at = game.find(prefix);
  if (at == std::string::npos) return "(absent)";
  const auto start = at + prefix.size();
  return game.substr(start, game.find("\"]", start) - start);
}

std::vector<std::string> movetext_words(const std::string& game) {
  const auto blank = game.find("\n\n");
  return test::split_words(game.substr(blank + 2));
}

class MatchRun : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "dama_match_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern + "/";
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // A few quick games: depth 1 against depth 2 from random 4-ply openings.
  MatchSettings tiny(const std::string& name, std::uint64_t games = 12) const {
    MatchSettings s;
    s.variant = "russian";
    s.a = parse_player_spec("depth=1", "--a");
    s.b = parse_player_spec("depth=2", "--b");
    s.games = games;
    s.seed = 7;
    s.openings.random_plies = 4;
    s.tt_megabytes = 1;
    s.pdn_out = dir_ + name + ".pdn";
    s.journal = s.pdn_out + ".journal";
    return s;
  }

  std::string dir_;
};

// Plays all of a match of eight games, checks that they were counted and
// written, and returns its outcome.
MatchOutcome play_eight(const MatchSettings& s) {
  const MatchOutcome r = run_match(s);
  EXPECT_EQ(r.stop, StopReason::Completed);
  EXPECT_EQ(r.totals.games, 8u);
  EXPECT_EQ(r.totals.pairs.total_pairs(), 4u);
  EXPECT_EQ(pdn_games(s.pdn_out).size(), 8u);
  return r;
}

TEST_F(MatchRun, ColoursAlternateWithinEachPair) {
  const MatchSettings s = tiny("colours", 8);
  const MatchOutcome r = play_eight(s);
  const auto games = pdn_games(s.pdn_out);
  ASSERT_EQ(games.size(), 8u);
  for (std::size_t g = 0; g < games.size(); ++g) {
    EXPECT_EQ(tag_of(games[g], "Round"), std::to_string(g + 1));
    // russian: White moves first, so A is White in games 1, 3, 5, ... (index 0, 2, 4, ...).
    EXPECT_EQ(tag_of(games[g], "White"), g % 2 == 0 ? "A depth=1" : "B depth=2") << games[g];
    EXPECT_EQ(tag_of(games[g], "Black"), g % 2 == 0 ? "B depth=2" : "A depth=1") << games[g];
    EXPECT_EQ(tag_of(games[g], "GameType"), "25");
  }
  for (std::size_t pair = 0; pair < 4; ++pair) {
    // The same opening in both games: the first 4 plies (6 words with the move numbers).
    const auto first = movetext_words(games[2 * pair]), second = movetext_words(games[2 * pair + 1]);
    ASSERT_GE(first.size(), 6u);
    ASSERT_GE(second.size(), 6u);
    EXPECT_EQ(std::vector<std::string>(first.begin(), first.begin() + 6),
              std::vector<std::string>(second.begin(), second.begin() + 6));
  }
  // Different pairs, different openings (4 random plies: a repeat is possible but not for this seed).
  EXPECT_NE(movetext_words(games[0]), movetext_words(games[2]));
  // The totals are those of the games written.
  const auto records = game_lines(s.journal);
  ASSERT_EQ(records.size(), 8u);
  std::uint64_t a_wins = 0;
  for (std::size_t g = 0; g < games.size(); ++g) {
    const std::string result = tag_of(games[g], "Result");
    EXPECT_THAT(records[g], StartsWith("game " + std::to_string(g) + " " + result + " "));
    a_wins += (g % 2 == 0 && result == "1-0") || (g % 2 == 1 && result == "0-1");
  }
  EXPECT_EQ(r.totals.a.wins, a_wins);
}

TEST_F(MatchRun, AmericanGivesTheFirstMoveToBlack) {
  MatchSettings s = tiny("american", 2);
  s.variant = "american";
  run_match(s);
  const auto games = pdn_games(s.pdn_out);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(tag_of(games[0], "Black"), "A depth=1");
  EXPECT_EQ(tag_of(games[1], "Black"), "B depth=2");
  EXPECT_EQ(tag_of(games[0], "GameType"), "21");
}

TEST_F(MatchRun, ConcurrencyDoesNotChangeTheResults) {
  MatchSettings one = tiny("one", 16), two = tiny("two", 16);
  two.concurrency = 2;
  const MatchOutcome r1 = run_match(one), r2 = run_match(two);
  EXPECT_EQ(game_lines(one.journal).size(), 16u);
  EXPECT_EQ(game_lines(one.journal), game_lines(two.journal));
  EXPECT_EQ(pdn_games(one.pdn_out), pdn_games(two.pdn_out));
  EXPECT_EQ(r1.totals.pairs.pairs, r2.totals.pairs.pairs);
  EXPECT_EQ(r1.totals.a.wins, r2.totals.a.wins);
  EXPECT_EQ(r1.totals.a.draws, r2.totals.a.draws);
}

// Stops taking games once `after` games are committed, as Ctrl-C does.
MatchControl stop_after(std::atomic<bool>& flag, std::uint64_t after) {
  MatchControl c;
  c.stop_new_games = &flag;
  c.on_game = [&flag, after](const MatchTotals& t, const GameRecord&) {
    if (t.games >= after) flag = true;
  };
  return c;
}

TEST_F(MatchRun, ResumingGivesTheUninterruptedTotals) {
  const MatchSettings whole = tiny("whole", 16);
  const MatchOutcome reference = run_match(whole);

  MatchSettings parts = tiny("parts", 16);
  parts.concurrency = 2;
  std::atomic<bool> stop{false};
  const MatchOutcome first = run_match(parts, stop_after(stop, 5));
  EXPECT_EQ(first.stop, StopReason::Interrupted);
  EXPECT_GE(first.totals.games, 5u);
  EXPECT_LT(first.totals.games, 16u);
  EXPECT_EQ(game_lines(parts.journal).size(), first.totals.games);

  parts.resume = true;
  parts.concurrency = 1;
  std::vector<std::string> notes;
  MatchControl control;
  control.on_note = [&](const std::string& n) { notes.push_back(n); };
  const MatchOutcome second = run_match(parts, control);
  EXPECT_EQ(second.stop, StopReason::Completed);
  EXPECT_EQ(second.games_from_journal, first.totals.games);
  EXPECT_EQ(second.games_played, 16u - first.totals.games);
  ASSERT_FALSE(notes.empty());
  EXPECT_THAT(notes.front(), HasSubstr("resuming"));

  EXPECT_EQ(second.totals.pairs.pairs, reference.totals.pairs.pairs);
  EXPECT_EQ(second.totals.a.wins, reference.totals.a.wins);
  EXPECT_EQ(second.totals.a.losses, reference.totals.a.losses);
  EXPECT_EQ(game_lines(parts.journal), game_lines(whole.journal));
  const auto games = pdn_games(parts.pdn_out);
  EXPECT_EQ(games, pdn_games(whole.pdn_out));
  std::set<std::string> rounds;
  for (const auto& g : games) EXPECT_TRUE(rounds.insert(tag_of(g, "Round")).second) << "game twice: " << g;
  EXPECT_EQ(rounds.size(), 16u);

  // Resuming a finished match plays nothing and reports the same.
  const MatchOutcome again = run_match(parts);
  EXPECT_EQ(again.games_played, 0u);
  EXPECT_EQ(again.totals.pairs.pairs, reference.totals.pairs.pairs);
}

// A crash between the PDN write and the journal write, and a journal line
// torn in half: resuming cuts both off and plays that game again.
TEST_F(MatchRun, ResumingRepairsWhatACrashLeft) {
  const MatchSettings whole = tiny("whole", 8);
  run_match(whole);

  MatchSettings parts = tiny("parts", 8);
  std::atomic<bool> stop{false};
  run_match(parts, stop_after(stop, 3));
  const auto committed = game_lines(parts.journal).size();
  {
    std::ofstream(parts.pdn_out, std::ios::app) << "[Event \"dama match\"]\n[Round \"99\"]\n\n1. 22-18";
    std::ofstream(parts.journal, std::ios::app) << "game " << committed << " 1-0 4";
  }
  parts.resume = true;
  std::vector<std::string> notes;
  MatchControl control;
  control.on_note = [&](const std::string& n) { notes.push_back(n); };
  run_match(parts, control);
  EXPECT_THAT(notes, ::testing::Contains(HasSubstr("cut off")));
  EXPECT_EQ(game_lines(parts.journal), game_lines(whole.journal));
  EXPECT_EQ(pdn_games(parts.pdn_out), pdn_games(whole.pdn_out));
}

TEST_F(MatchRun, RefusesAJournalOfAnotherMatch) {
  MatchSettings s = tiny("other", 4);
  std::atomic<bool> stop{false};
  run_match(s, stop_after(stop, 2));

  MatchSettings again = s;  // no --resume: the journal is not silently reused
  try {
    run_match(again);
    ADD_FAILURE() << "an existing journal was overwritten";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("--resume"));
  }
  again.resume = true;
  again.seed = 8;
  try {
    run_match(again);
    ADD_FAILURE() << "a journal of another seed was continued";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("seed was '7', now '8'"));
  }
  again.seed = 7;
  again.b = parse_player_spec("depth=3", "--b");
  EXPECT_THROW(run_match(again), Error);
  again.b = s.b;
  again.games = 2;  // fewer games than the journal holds
  EXPECT_THROW(run_match(again), Error);
}

TEST_F(MatchRun, SprtStopsAtTheSamePairForAnyConcurrency) {
  MatchSettings one = tiny("sprt1", 200), two = tiny("sprt2", 200);
  // Wide bounds (alpha = beta = 0.3: LLR beyond -+0.85) so a few pairs decide.
  one.sprt = two.sprt = SprtSettings{-50, 50, 0.3, 0.3};
  two.concurrency = 2;
  const MatchOutcome r1 = run_match(one), r2 = run_match(two);
  EXPECT_NE(r1.stop, StopReason::Completed);
  EXPECT_NE(r1.stop, StopReason::Interrupted);
  EXPECT_EQ(r1.stop, r2.stop);
  EXPECT_LT(r1.totals.games, 200u);
  EXPECT_EQ(r1.totals.games % 2, 0u);
  EXPECT_EQ(r1.totals.games, r2.totals.games);
  EXPECT_EQ(game_lines(one.journal), game_lines(two.journal));
  ASSERT_TRUE(r1.totals.llr);
  const SprtBounds b = sprt_bounds(*one.sprt);
  EXPECT_TRUE(*r1.totals.llr >= b.upper || *r1.totals.llr <= b.lower) << *r1.totals.llr;
}

TEST_F(MatchRun, PlaysTheOpeningsOfAFileInTurn) {
  const std::string file = dir_ + "openings.txt";
  std::ofstream(file) << "# two openings\nW:W21-32:B1-12\n\n[FEN \"B:W18,21,23-32:B1-12\"]\n";
  MatchSettings s = tiny("file", 6);
  s.openings.file = file;
  run_match(s);
  const auto games = pdn_games(s.pdn_out);
  ASSERT_EQ(games.size(), 6u);
  // The first opening is the start (no FEN tag); the second is written out,
  // in russian's algebraic squares (docs/pdn.md); then the first again.
  const std::string second = "B:Wd4,a3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6";
  const std::vector<std::string> expected = {"(absent)", "(absent)", second, second, "(absent)", "(absent)"};
  for (std::size_t g = 0; g < games.size(); ++g) EXPECT_EQ(tag_of(games[g], "FEN"), expected[g]) << g;
  EXPECT_EQ(movetext_words(games[2]).front(), "1...");
}

// The games a match writes are read back by the PDN reader, in italian's
// numbering of the mirror-image board: the same games the journal records.
// An openings file takes the FEN tags of such games ([FEN "..."] in the
// GameType's squares) as well as dama's own FEN: both lines below are the
// same position.
TEST_F(MatchRun, PdnOutReadsBackWithTheReaderAndItsFenTagsAsOpenings) {
  constexpr RuleSet kItalian = test::variant_rules("italian");
  const Variant& italian = find_variant("italian");
  const auto opening = parse_fen<Board8>("W:W18,21,23-32:B1-12");
  const std::string tag = to_pdn_fen(opening, pdn_game_type_of(italian));
  EXPECT_EQ(tag, "W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  MatchSettings s = tiny("italian", 4);
  s.variant = "italian";
  s.openings.file = dir_ + "openings.txt";
  std::ofstream(s.openings.file) << "[FEN \"" << tag << "\"]\nW:W18,21,23-32:B1-12\n";
  run_match(s);
  const auto games = split_pdn_games(slurp(s.pdn_out), "italian.pdn");
  const auto records = game_lines(s.journal);
  ASSERT_EQ(games.size(), 4u);
  ASSERT_EQ(records.size(), 4u);
  for (std::size_t g = 0; g < games.size(); ++g) {
    const Variant& variant = pdn_game_variant(games[g], nullptr, "italian.pdn");
    EXPECT_EQ(variant.name, "italian");
    const PdnGame<kItalian> read = replay_pdn_game<kItalian>(games[g], variant, "italian.pdn");
    EXPECT_EQ(read.start, opening) << g;
    const auto fields = test::split_words(records[g]);  // game <index> <result> <plies> ...
    ASSERT_GE(fields.size(), 4u);
    EXPECT_EQ(read.result, fields[2]) << records[g];
    EXPECT_EQ(std::to_string(read.moves.size()), fields[3]) << records[g];
  }
}

// A PDN file of games is an openings file too: each game's moves (from its
// FEN tag or the start) lead to its opening.
TEST_F(MatchRun, PlaysTheOpeningsOfAPdnFileOfGames) {
  MatchSettings s = tiny("pdn-openings", 4);
  s.openings.file = dir_ + "openings.pdn";
  std::ofstream(s.openings.file) << "% two openings\n[Event \"first\"]\n1. c3-d4 f6-e5 *\n\n"
                                    "[FEN \"W:Wc3,e3:Bf6\"]\n1. e3-f4 *\n";
  run_match(s);
  const auto games = pdn_games(s.pdn_out);
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(tag_of(games[0], "FEN"), "W:Wd4,a3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,h6,e5");
  EXPECT_EQ(tag_of(games[2], "FEN"), "B:Wf4,c3:Bf6");
  std::ofstream(s.openings.file) << "[Event \"bad\"]\n1. c3-d4 c3-d4 *\n";
  try {
    run_match(s);
    ADD_FAILURE() << "an opening with an illegal move was played";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), StartsWith(s.openings.file + ":1: "));
  }
}

// The three-move ballots shipped for american: the ACF deck of 156, every one
// legal, all different, three plies from the start, none of the barred ones.
TEST(ShippedOpenings, AmericanIsTheThreeMoveDeck) {
  constexpr RuleSet kAmerican = test::variant_rules("american");
  const Variant& american = find_variant("american");
  ASSERT_EQ(shipped_openings(american), std::optional<std::string>("builtin:american"));
  EXPECT_FALSE(shipped_openings(find_variant("czech")));
  const OpeningsFile file = read_openings("builtin:american");
  ASSERT_EQ(file.openings.size(), 156u);
  const auto after = [&](const std::string& moves) {
    const auto games = split_pdn_games("[GameType \"21\"]\n" + moves + " *\n", "ballot");
    const auto g = replay_pdn_game<kAmerican>(games.at(0), american, "ballot");
    Position<Board8> p = g.start;
    for (const auto& m : g.moves) p = p.after(m);
    return p;
  };
  std::set<std::string> seen;
  for (const auto& line : file.openings) {
    const auto p = opening_start<kAmerican>(line, american);
    EXPECT_EQ(p.side, Color::White) << line.line;  // Black, the first player, has made two moves
    EXPECT_TRUE(seen.insert(to_fen(p)).second) << "ballot at line " << line.line << " twice";
  }
  EXPECT_TRUE(seen.count(to_fen(after("1. 9-13 21-17 2. 5-9"))));        // ACF 1
  EXPECT_TRUE(seen.count(to_fen(after("1. 12-16 24-20 2. 10-15"))));     // ACF 174, the Skunk
  EXPECT_FALSE(seen.count(to_fen(after("1. 9-13 21-17 2. 10-14"))));     // ACF 3, barred
  EXPECT_FALSE(seen.count(to_fen(after("1. 11-16 22-18 2. 10-15"))));    // ACF 145, barred
  EXPECT_THROW(read_openings("builtin:chess"), Error);
}

// The FEN each opening game of a shipped set leads to, by its Event tag;
// every game has one, and no two lead to the same position.  check sees
// each position (and the opening's line) for the set's own conditions.
template <RuleSet R, class Check>
std::map<std::string, std::string> fens_by_event(const OpeningsFile& file, const Variant& variant, Check check) {
  std::map<std::string, std::string> fen_of_event;
  std::set<std::string> seen;
  for (const auto& line : file.openings) {
    if (!line.game) {
      ADD_FAILURE() << "line " << line.line << " is not a game";
      continue;
    }
    const auto p = opening_start<R>(line, variant);
    check(p, line.line);
    EXPECT_TRUE(seen.insert(to_fen(p)).second) << "opening at line " << line.line << " twice";
    const PdnTag* event = line.game->tag("Event");
    if (!event) {
      ADD_FAILURE() << "line " << line.line << " has no Event tag";
      continue;
    }
    fen_of_event[event->value] = to_fen(p);
  }
  return fen_of_event;
}

// The openings shipped for russian: the FMJD drawing table's 344 positions
// given as moves and 14 named openings, every one legal and different.  The
// spot checks are the table's own FENs (github.com/notzmv/lidraughts,
// OpeningTable.scala; the numbering is dama's, 1 = b8 .. 32 = g1), so a line
// typed wrongly into the file fails here.
TEST(ShippedOpenings, RussianIsTheFmjdTableAndTheNamedOpenings) {
  constexpr RuleSet kRussian = test::variant_rules("russian");
  const Variant& russian = find_variant("russian");
  ASSERT_EQ(shipped_openings(russian), std::optional<std::string>("builtin:russian"));
  EXPECT_FALSE(shipped_openings(find_variant("poddavki")));  // its own game: random openings
  const OpeningsFile file = read_openings("builtin:russian");
  ASSERT_EQ(file.openings.size(), 358u);
  const auto fen_of_event = fens_by_event<kRussian>(file, russian, [](const auto& p, int line) {
    MoveList<Board8> moves;
    MoveGenerator<kRussian>::generate(p, moves);
    EXPECT_FALSE(moves.empty()) << line;
  });
  const auto table = [&](const std::string& number) {
    const auto it = fen_of_event.find("FMJD drawing table 64, " + number);
    return it == fen_of_event.end() ? std::string("(missing)") : it->second;
  };
  const auto fen = [](const char* text) { return to_fen(parse_fen<Board8>(text)); };
  EXPECT_EQ(table("1-I"), fen("W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,14"));
  EXPECT_EQ(table("1-IV"), fen("B:W17,20,21,22,23,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,12,13,15"));
  EXPECT_EQ(table("11-I"), fen("W:W19,20,21,22,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,14"));
  EXPECT_EQ(table("46-XVI"), fen("W:W20,21,22,23,24,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,15,16"));
}

// The openings shipped for international: Moby Dam's 79 two-move ballots
// (its test/2-move ballots matchfile.fen, github.com/rhalbersma/mobydam),
// written as moves; the spot checks are that file's own FENs (lines 1, 10,
// 44 and 79), so a ballot typed wrongly into the file fails here.
TEST(ShippedOpenings, InternationalIsMobyDamsTwoMoveBallots) {
  constexpr RuleSet kInternational = test::variant_rules("international");
  const Variant& international = find_variant("international");
  ASSERT_EQ(shipped_openings(international), std::optional<std::string>("builtin:international"));
  const OpeningsFile file = read_openings("builtin:international");
  ASSERT_EQ(file.openings.size(), 79u);
  const auto fen_of_event = fens_by_event<kInternational>(
      file, international, [](const auto& p, int line) { EXPECT_EQ(p.side, Color::White) << line; });
  std::map<std::string, std::string> fen_of_number;
  for (const auto& [name, fen] : fen_of_event) {  // "Moby Dam 2-move ballot N: moves"
    const auto number_at = name.find("ballot ") + 7;
    fen_of_number[name.substr(number_at, name.find(':') - number_at)] = fen;
  }
  const auto fen = [](const char* text) { return to_fen(parse_fen<Board10>(text)); };
  EXPECT_EQ(fen_of_number["1"], fen("W:W26,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                                     "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17,18,19,20,21"));
  EXPECT_EQ(fen_of_number["10"], fen("W:W27,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                                      "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,18,19,20,21"));
  EXPECT_EQ(fen_of_number["44"], fen("W:W29,31,32,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                                      "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17,18,19,20,21"));
  EXPECT_EQ(fen_of_number["79"], fen("W:W30,31,32,33,34,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                                      "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,25"));
}

TEST_F(MatchRun, RefusesBadOpeningsFiles) {
  MatchSettings s = tiny("bad", 2);
  s.openings.file = dir_ + "bad.txt";
  std::ofstream(s.openings.file) << "W:W21-32:B1-12\nW:W21-32:B1-99\n";
  EXPECT_THROW(
      {
        try {
          run_match(s);
        } catch (const Error& e) {
          EXPECT_THAT(e.what(), StartsWith(s.openings.file + ":2: "));
          throw;
        }
      },
      Error);
  std::ofstream(s.openings.file) << "# nothing\n\n";
  EXPECT_THROW(run_match(s), Error);
  std::ofstream(s.openings.file) << "W:W29:B22,25\n";  // White cannot move: over before it starts
  try {
    run_match(s);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(":1: the game is already over"));
  }
  s.openings.file = dir_ + "missing.txt";
  EXPECT_THROW(run_match(s), Error);
}

// dama's own Hub engine at depth 1 plays exactly the games the built-in
// player at depth 1 plays: same search, same weights, same table size.
TEST_F(MatchRun, HubEnginePlaysLikeTheBuiltInPlayer) {
  const MatchSettings inside = tiny("inside", 4);
  MatchSettings outside = tiny("outside", 4);
  outside.a = parse_player_spec(std::string("hub:") + DAMA_BINARY + " hub,depth=1", "--a");
  outside.concurrency = 2;
  run_match(inside);
  run_match(outside);
  const auto inside_games = pdn_games(inside.pdn_out), outside_games = pdn_games(outside.pdn_out);
  ASSERT_EQ(outside_games.size(), 4u);
  ASSERT_EQ(inside_games.size(), 4u);
  for (std::size_t g = 0; g < 4; ++g) {
    EXPECT_EQ(movetext_words(outside_games[g]), movetext_words(inside_games[g])) << g;
    EXPECT_THAT(outside_games[g], HasSubstr("A hub:"));
  }

  MatchSettings missing = tiny("missing", 2);
  missing.b = parse_player_spec("hub:/no/such/engine hub,depth=2", "--b");
  try {
    run_match(missing);
    ADD_FAILURE() << "a missing engine was accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("hub engine '/no/such/engine hub'"));
  }
  EXPECT_THROW(parse_player_spec("hub:/bin/true", "--a"), Error);          // no limit
  EXPECT_THROW(parse_player_spec("hub:/bin/true,nodes=5,depth=2", "--a"), Error);  // one limit
  EXPECT_THROW(parse_player_spec("hub:/bin/true,nodes=5,weights=w.json", "--a"), Error);  // its own weights
  EXPECT_THROW(parse_player_spec("hub:,depth=2", "--a"), Error);           // no program
  EXPECT_EQ(parse_player_spec("hub:/bin/scan hub,movetime=50", "--a").hub_command, "/bin/scan hub");
}

// A node limit reaches a Hub engine as `level nodes=N`: dama's own Hub
// engine plays the built-in player's games at the same node limit, so two
// builds compare at equal nodes whatever else runs on the machine.
TEST_F(MatchRun, HubEngineAtANodeLimitPlaysLikeTheBuiltInPlayer) {
  MatchSettings inside = tiny("inside-nodes", 2);
  MatchSettings outside = tiny("outside-nodes", 2);
  inside.a = parse_player_spec("nodes=400", "--a");
  outside.a = parse_player_spec(std::string("hub:") + DAMA_BINARY + " hub,nodes=400", "--a");
  run_match(inside);
  run_match(outside);
  const auto inside_games = pdn_games(inside.pdn_out), outside_games = pdn_games(outside.pdn_out);
  ASSERT_EQ(inside_games.size(), 2u);
  ASSERT_EQ(outside_games.size(), 2u);
  for (std::size_t g = 0; g < 2; ++g) EXPECT_EQ(movetext_words(outside_games[g]), movetext_words(inside_games[g])) << g;
}

// Under a clock both players spend most of their time, none flags, and the
// journal keeps the clock figures across a resume.
TEST_F(MatchRun, GameClocksAreKeptAndReported) {
  // One game at a time, and clocks of a second and a half: wide enough that
  // a machine busy with other tests does not flag them.
  MatchSettings s = tiny("clock", 2);
  s.a = parse_player_spec("tc=1.5+0.02", "--a");
  s.b = parse_player_spec(std::string("hub:") + DAMA_BINARY + " hub,tc=1.5+0.02", "--b");
  const MatchOutcome r = run_match(s);
  ASSERT_EQ(r.totals.games, 2u);
  for (const ClockTotals* c : {&r.totals.clock_a, &r.totals.clock_b}) {
    EXPECT_EQ(c->games, 2u);
    EXPECT_EQ(c->time_losses, 0u);
    EXPECT_GT(c->used_share(), 0.3);
    EXPECT_LE(c->used_share(), 1.0);
  }
  for (const auto& line : game_lines(slurp(s.journal))) EXPECT_THAT(line, HasSubstr(" clock=")) << line;
  MatchSettings again = s;
  again.resume = true;
  const MatchOutcome resumed = run_match(again);
  EXPECT_EQ(resumed.games_played, 0u);
  EXPECT_NEAR(resumed.totals.clock_a.used_seconds, r.totals.clock_a.used_seconds, 0.01);
  EXPECT_NEAR(resumed.totals.clock_b.budget_seconds, r.totals.clock_b.budget_seconds, 0.01);
}

// A pondering Hub engine, seen through a wrapper that logs what the match
// sends it: after its moves it is given the position after the reply it
// expects with `go ponder`; when that reply comes the search is turned into
// the move by `ponder-hit` (nothing else sent in between), and when another
// comes it is stopped and the real position searched.  Both kinds occur in
// two games.
TEST_F(MatchRun, APonderingHubEngineHitsOrStopsItsPonderSearches) {
  const std::string log = dir_ + "sent.log", wrapper = dir_ + "logged_hub.sh";
  {
    std::ofstream script(wrapper);
    script << "#!/bin/sh\ntee -a '" << log << "' | '" << DAMA_BINARY << "' hub\n";
  }
  ASSERT_EQ(std::system(("chmod +x '" + wrapper + "'").c_str()), 0);
  MatchSettings s = tiny("ponder", 2);
  s.a = parse_player_spec("hub:" + wrapper + ",tc=1.5+0.02,ponder=true", "--a");
  s.b = parse_player_spec(std::string("hub:") + DAMA_BINARY + " hub,tc=1.5+0.02", "--b");
  const MatchOutcome r = run_match(s);
  ASSERT_EQ(r.totals.games, 2u);  // (what the clocks hold is GameClocksAreKeptAndReported's)

  std::vector<std::string> sent;
  {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) sent.push_back(line);
  }
  int ponders = 0, hits = 0, stops = 0;
  std::string pondered;  // the pos line of the running ponder search
  for (std::size_t i = 0; i < sent.size(); ++i) {
    if (sent[i] == "go ponder") {
      ++ponders;
      ASSERT_GE(i, 2u);
      pondered = sent[i - 2];
    } else if (sent[i] == "ponder-hit") {
      ++hits;
      EXPECT_EQ(sent[i - 1], "go ponder") << "line " << i;  // the hit is the very next thing sent
    } else if (sent[i] == "stop" && i > 0 && sent[i - 1] == "go ponder") {
      ++stops;
      // The opponent played another move: the position searched next is not the pondered one.
      if (i + 3 < sent.size() && sent[i + 1].rfind("pos ", 0) == 0) {  // not the game's end
        EXPECT_NE(sent[i + 1], pondered);
        EXPECT_EQ(sent[i + 3], "go think");
      }
    }
  }
  EXPECT_GT(ponders, 5);
  EXPECT_GT(hits, 0);
  EXPECT_GT(stops, 0);
  EXPECT_LE(hits + stops, ponders);

  // The table's counts are what was sent, and the journal keeps them.
  EXPECT_EQ(r.totals.clock_a.ponder_searches, static_cast<std::uint64_t>(ponders));
  // Every ponder search ends in a hit (a ponder-hit, or none needed when it
  // had ended by itself) or a stop.
  EXPECT_EQ(r.totals.clock_a.ponder_hits, static_cast<std::uint64_t>(ponders - stops));
  EXPECT_GE(r.totals.clock_a.ponder_hits, static_cast<std::uint64_t>(hits));
  EXPECT_EQ(r.totals.clock_b.ponder_searches, 0u);
  for (const auto& line : game_lines(slurp(s.journal))) EXPECT_THAT(line, HasSubstr(" ponder=")) << line;
  MatchSettings again = s;
  again.resume = true;
  const MatchOutcome resumed = run_match(again);
  EXPECT_EQ(resumed.games_played, 0u);
  EXPECT_EQ(resumed.totals.clock_a.ponder_hits, r.totals.clock_a.ponder_hits);
  EXPECT_EQ(resumed.totals.clock_a.ponder_searches, r.totals.clock_a.ponder_searches);
}

// After a ponder miss the match stops the ponder search and waits for its
// done before it sends the real position; that wait is on the engine's clock,
// so the level sent after it must say so.  The engine here answers its first
// stops a fifth of a second late (a wrapper sleeps before passing them on):
// the level after such a stop has at least that much less time than the
// level of the ponder search it ended (which was the clock at the turn's
// start), and no level after a stop has more.
TEST_F(MatchRun, APonderMissTakesTheStopsTimeOffTheLevelSentAfterIt) {
  const std::string log = dir_ + "sent.log", wrapper = dir_ + "slow_stop_hub.sh";
  {
    std::ofstream script(wrapper);
    script << "#!/bin/sh\nslow=2\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> '" << log
           << "'\n  if [ \"$line\" = stop ] && [ $slow -gt 0 ]; then sleep 0.2; slow=$((slow - 1)); fi\n"
           << "  printf '%s\\n' \"$line\"\ndone | '" << DAMA_BINARY << "' hub\n";
  }
  ASSERT_EQ(std::system(("chmod +x '" + wrapper + "'").c_str()), 0);
  MatchSettings s = tiny("slow-stop", 2);
  s.a = parse_player_spec("hub:" + wrapper + ",tc=2+0.02,ponder=true", "--a");
  s.b = parse_player_spec(std::string("hub:") + DAMA_BINARY + " hub,tc=2+0.02", "--b");
  const MatchOutcome r = run_match(s);
  ASSERT_EQ(r.totals.games, 2u);
  EXPECT_EQ(r.totals.clock_a.time_losses, 0u);

  std::vector<std::string> sent;
  {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) sent.push_back(line);
  }
  const auto seconds_in = [](const std::string& level) {
    const auto at = level.find("time=");
    return at == std::string::npos ? -1.0 : std::stod(level.substr(at + 5));
  };
  int stops = 0, misses = 0, late_misses = 0;
  for (std::size_t i = 3; i + 3 < sent.size(); ++i) {
    if (sent[i] != "stop") continue;
    const bool late = ++stops <= 2;  // the wrapper's slow ones
    if (sent[i - 1] != "go ponder" || sent[i + 1].rfind("pos ", 0) != 0) continue;  // not a miss: the game's end
    ASSERT_THAT(sent[i - 2], StartsWith("level "));
    ASSERT_THAT(sent[i + 2], StartsWith("level "));
    const double pondered = seconds_in(sent[i - 2]), searched = seconds_in(sent[i + 2]);
    ASSERT_GE(pondered, 0) << sent[i - 2];
    ++misses;
    late_misses += late;
    EXPECT_LE(searched, pondered - (late ? 0.19 : 0.0)) << "line " << i << ": " << sent[i - 2] << " then " << sent[i + 2];
  }
  EXPECT_GE(late_misses, 1);
  EXPECT_GE(misses, 3);
}

// A player with two search threads plays through the same game loop.
TEST_F(MatchRun, TwoThreadPlayerPlaysWholeGames) {
  MatchSettings s = tiny("threads", 2);
  s.a = parse_player_spec("depth=4,threads=2", "--a");
  const MatchOutcome r = run_match(s);
  EXPECT_EQ(r.totals.games, 2u);
  EXPECT_EQ(r.stop, StopReason::Completed);
}

// ---------------------------------------------------------------------------
// Vigman's double games

// A double game is two boards with the same player moving first on both;
// the next one swaps the colours on the same two openings.
TEST_F(MatchRun, DoubleGamesKeepTheColoursOnBothBoards) {
  MatchSettings s = tiny("double", 8);
  s.pairing = Pairing::DoubleGame;
  const MatchOutcome r = play_eight(s);
  const auto games = pdn_games(s.pdn_out);
  ASSERT_EQ(games.size(), 8u);
  double a_points = 0;
  std::array<double, 4> a_by_double_game{};
  for (std::size_t g = 0; g < games.size(); ++g) {
    const std::size_t pair = g / 2;
    const bool a_white = pair % 2 == 0;
    EXPECT_EQ(tag_of(games[g], "Round"), std::to_string(pair + 1) + "." + std::to_string(g % 2 + 1));
    EXPECT_EQ(tag_of(games[g], "DoubleGame"), g % 2 == 0 ? "dark" : "light, mirrored");
    EXPECT_EQ(tag_of(games[g], "White"), a_white ? "A depth=1" : "B depth=2") << games[g];
    EXPECT_EQ(tag_of(games[g], "Black"), a_white ? "B depth=2" : "A depth=1") << games[g];
    const std::string result = tag_of(games[g], "Result");
    const double white = result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
    a_points += a_white ? white : 1 - white;
    a_by_double_game[pair] += a_white ? white : 1 - white;
  }
  // Each board keeps its opening when the colours swap; the two boards have their own.
  const auto opening = [&](std::size_t g) {
    const auto words = movetext_words(games[g]);
    return std::vector<std::string>(words.begin(), words.begin() + 6);
  };
  EXPECT_EQ(opening(0), opening(2));
  EXPECT_EQ(opening(1), opening(3));
  EXPECT_EQ(opening(4), opening(6));
  EXPECT_NE(opening(0), opening(1));
  EXPECT_NE(opening(0), opening(4));
  EXPECT_DOUBLE_EQ(r.totals.a.points(), a_points);
  // The pentanomial counts double games by their sum.
  for (int cell = 0; cell < 5; ++cell) {
    std::uint64_t expected = 0;
    for (double sum : a_by_double_game) expected += sum == 0.5 * cell;
    EXPECT_EQ(r.totals.pairs.pairs[static_cast<std::size_t>(cell)], expected) << "cell " << cell;
  }
}

TEST(MatchTotalsDouble, ADoubleGameIsScoredAsTheSumOfItsBoards) {
  std::vector<GameRecord> games(4);
  const char* results[] = {"1-0", "1/2-1/2", "1-0", "1-0"};  // A first in 0 and 1, B first in 2 and 3
  for (std::size_t g = 0; g < 4; ++g) {
    games[g].index = g;
    games[g].result = results[g];
  }
  const MatchTotals t = totals_of(games, std::nullopt, Pairing::DoubleGame);
  EXPECT_EQ(t.a.wins, 1u);
  EXPECT_EQ(t.a.draws, 1u);
  EXPECT_EQ(t.a.losses, 2u);
  EXPECT_EQ(t.pairs.pairs[3], 1u);  // 1.5 of 2
  EXPECT_EQ(t.pairs.pairs[0], 1u);  // 0 of 2
  // Paired games would have read the same results with the colours swapped in games 1 and 3.
  const MatchTotals paired = totals_of(games, std::nullopt);
  EXPECT_EQ(paired.a.wins, 2u);
  EXPECT_EQ(paired.a.losses, 1u);
}

// A crash after the first board's commit: the resume plays the double game
// again and keeps only its second board, so nothing is counted twice.
TEST_F(MatchRun, ResumingADoubleGameAtItsSecondBoard) {
  MatchSettings whole = tiny("whole", 8);
  whole.pairing = Pairing::DoubleGame;
  run_match(whole);
  const auto whole_lines = game_lines(whole.journal);
  ASSERT_EQ(whole_lines.size(), 8u);

  MatchSettings parts = whole;
  parts.pdn_out = dir_ + "parts.pdn";
  parts.journal = parts.pdn_out + ".journal";
  std::atomic<bool> stop{false};
  run_match(parts, stop_after(stop, 4));
  // Keep the journal up to game 2 (the dark board of the second double game):
  // the journal's own header, and PDN bytes it does not know, are what a crash leaves.
  std::vector<std::string> kept;
  for (const auto& line : lines_of(slurp(parts.journal))) {
    if (line.rfind("game 3 ", 0) == 0) break;
    kept.push_back(line);
  }
  {
    std::ofstream out(parts.journal, std::ios::trunc);
    for (const auto& line : kept) out << line << "\n";
  }
  parts.resume = true;
  const MatchOutcome resumed = run_match(parts);
  EXPECT_EQ(resumed.games_from_journal, 3u);
  EXPECT_EQ(resumed.games_played, 5u);
  EXPECT_EQ(game_lines(parts.journal), whole_lines);
  EXPECT_EQ(pdn_games(parts.pdn_out), pdn_games(whole.pdn_out));
}

// Under clocks one clock per player serves both boards: one base for the
// pair, not two, and nobody flags.
TEST_F(MatchRun, DoubleGamesShareOneClockForBothBoards) {
  MatchSettings s = tiny("double-clock", 2);
  s.pairing = Pairing::DoubleGame;
  s.a = parse_player_spec("tc=1.5+0.01", "--a");
  s.b = parse_player_spec(std::string("hub:") + DAMA_BINARY + " hub,tc=1.5+0.01", "--b");
  const MatchOutcome r = run_match(s);
  ASSERT_EQ(r.totals.games, 2u);
  const auto records = game_lines(s.journal);
  ASSERT_EQ(records.size(), 2u);
  int plies = 0;
  for (const auto& line : records) plies += std::stoi(test::split_words(line).at(3));
  for (const ClockTotals* c : {&r.totals.clock_a, &r.totals.clock_b}) {
    EXPECT_EQ(c->time_losses, 0u);
    EXPECT_GT(c->used_share(), 0.3);
    EXPECT_LE(c->used_share(), 1.0);
    // One base of 1.5 s, and 0.01 s for each of the player's moves on either board (at most half the plies, plus one).
    EXPECT_GE(c->budget_seconds, 1.5);
    EXPECT_LE(c->budget_seconds, 1.5 + 0.01 * (plies / 2 + 2) + 1e-9);
  }
  const auto games = pdn_games(s.pdn_out);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(tag_of(games[0], "White"), tag_of(games[1], "White"));
}

TEST_F(MatchRun, DoubleGamesRefuseWhatCannotServeTwoBoards) {
  // The message a double game with these players is refused with.
  const auto refusal = [&](const std::string& name, const std::string& variant, const char* a, const char* b) {
    MatchSettings s = tiny(name, 2);
    s.pairing = Pairing::DoubleGame;
    s.variant = variant;
    if (a) s.a = parse_player_spec(a, "--a");
    if (b) s.b = parse_player_spec(b, "--b");
    try {
      run_match(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(refusal("double-refused", "russian", "tc=40/10+0.1", nullptr), HasSubstr("--double: --a 'tc=40/10+0.1'"));
  const std::string ponder = refusal("double-ponder", "russian", nullptr, "hub:/bin/scan hub,tc=10,ponder=true");
  EXPECT_THAT(ponder, HasSubstr("--double: --b"));
  EXPECT_THAT(ponder, HasSubstr("cannot ponder"));
  EXPECT_THAT(refusal("double-dxp", "international", nullptr, "dxp:127.0.0.1:27531,tc=60"), HasSubstr("--double: --b"));
}

TEST_F(MatchRun, CommandLinePlaysDoubleGames) {
  const auto r = test::run_dama_process({"match", "--variant", "russian", "--a", "depth=1", "--b", "depth=2", "--games",
                                         "4", "--random-plies", "4", "--tt-mb", "1", "--double", "--pgn-out",
                                         dir_ + "cli-double.pdn"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("games        4 of 4 (2 double games)"));
  EXPECT_THAT(r.out, HasSubstr("double W/L/D "));
  EXPECT_EQ(pdn_games(dir_ + "cli-double.pdn").size(), 4u);
}

// A player whose clock runs out loses: counted on its side, with the reason.
TEST(MatchTotalsClock, TimeLossesAreCountedForTheLoser) {
  std::vector<GameRecord> games(2);
  games[0].index = 0;
  games[0].result = "0-1";  // A moved first and lost
  games[0].reason = std::string(kLostOnTime);
  games[0].clocks = {{ClockUse{1.2, 1.1}, ClockUse{0.5, 1.1}}};
  games[1].index = 1;
  games[1].result = "0-1";  // B moved first and lost, not on time
  games[1].reason = "no legal moves";
  games[1].clocks = {{ClockUse{0.9, 1.1}, ClockUse{1.0, 1.1}}};
  const MatchTotals t = totals_of(games, std::nullopt);
  EXPECT_EQ(t.clock_a.time_losses, 1u);
  EXPECT_EQ(t.clock_b.time_losses, 0u);
  EXPECT_NEAR(t.clock_a.used_share(), 2.1 / 2.2, 1e-9);
}

TEST_F(MatchRun, RefusesOddGameCounts) { EXPECT_THROW(run_match(tiny("odd", 7)), Error); }

// ---------------------------------------------------------------------------
// The command line

std::vector<std::string> table_lines(const std::string& out, std::initializer_list<const char*> names) {
  std::vector<std::string> lines;
  for (const auto& line : lines_of(out))
    for (const char* name : names)
      if (line.rfind(name, 0) == 0) lines.push_back(line);
  return lines;
}

TEST_F(MatchRun, CommandLinePrintsTheTable) {
  const auto r = test::run_dama_process({"match", "--variant", "russian", "--a", "depth=1", "--b", "depth=2", "--games",
                                         "6", "--random-plies", "4", "--sprt", "0,10,0.05,0.05", "--tt-mb", "1",
                                         "--pgn-out", dir_ + "cli.pdn", "--concurrency", "2"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out, HasSubstr("games        6 of 6 (3 pairs)"));
  for (const char* row :
       {"A W/L/D ", "pentanomial ", "Elo A-B ", "LOS ", "SPRT         LLR ", "stop         all games played"})
    EXPECT_THAT(r.out, HasSubstr(row)) << r;
  EXPECT_EQ(pdn_games(dir_ + "cli.pdn").size(), 6u);
  EXPECT_EQ(game_lines(dir_ + "cli.pdn.journal").size(), 6u);
}

TEST_F(MatchRun, CommandLineRefusesBadInput) {
  const std::string openings = dir_ + "openings.txt";
  std::ofstream(openings) << "W:W21-32:B1-12\nnot a fen\n";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--a", "depth=x", "--b", "depth=2"}, "--a 'depth=x', depth: expected a whole number"},
      {{"--a", "depth=2", "--b", "nodes=1,speed=2"}, "--b 'nodes=1,speed=2': unknown field 'speed'"},
      {{"--a", "weights=/no/such.json,depth=2", "--b", "depth=2"}, "--a 'weights=/no/such.json,depth=2': "},
      {{"--a", "depth=2", "--b", "depth=2", "--games", "5"}, "--games: expected a positive even number"},
      {{"--a", "depth=2", "--b", "depth=2", "--openings", openings}, openings + ":2: "},
      {{"--a", "depth=2", "--b", "depth=2", "--sprt", "0,10,0.05"}, "--sprt: expected elo0,elo1,alpha,beta"},
      {{"--a", "depth=2", "--b", "depth=2", "--sprt", "10,0,0.05,0.05"}, "--sprt: elo0"},
      {{"--a", "depth=2", "--b", "depth=2", "--resume"}, "--resume needs the journal"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> argv = {"match"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = test::run_dama_process(argv);
    EXPECT_EQ(r.exit_code, 2) << r;
    EXPECT_THAT(r.err, StartsWith("dama: error: " + message)) << r;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
    EXPECT_TRUE(r.out.empty()) << r;
  }
}

// Ctrl-C in the middle, then the printed command: the same table as one
// uninterrupted run, and no game twice in the PDN file.
TEST_F(MatchRun, CommandLineInterruptAndResume) {
  const std::vector<std::string> common = {"match",          "--a", "depth=3", "--b", "depth=4",       "--games", "24",
                                           "--random-plies", "4",   "--tt-mb", "1",   "--concurrency", "2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> argv = common;
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  };
  const auto whole = test::run_dama_process(with({"--pgn-out", dir_ + "whole.pdn"}));
  ASSERT_EQ(whole.exit_code, 0) << whole;

  const std::string journal = dir_ + "parts.pdn.journal";
  const auto first = test::run_dama_process(with({"--pgn-out", dir_ + "parts.pdn"}), std::chrono::seconds(60),
                                            [&] { return game_lines(journal).size() >= 4; });
  ASSERT_TRUE(first.interrupted) << first;
  ASSERT_EQ(first.exit_code, 130) << "finished before the interruption? " << first;
  EXPECT_THAT(first.err, HasSubstr("dama: stopping: finishing the games in flight"));  // the handler's own line
  EXPECT_THAT(first.err, HasSubstr("continue with:"));
  EXPECT_THAT(first.err, HasSubstr("--resume"));
  EXPECT_THAT(first.out, HasSubstr("stop         interrupted"));

  const auto second = test::run_dama_process(with({"--pgn-out", dir_ + "parts.pdn", "--resume"}));
  ASSERT_EQ(second.exit_code, 0) << second;
  EXPECT_THAT(second.err, HasSubstr("resuming from"));
  const std::initializer_list<const char*> rows = {"A W/L/D", "pentanomial", "Elo A-B", "LOS", "stop"};
  EXPECT_EQ(table_lines(second.out, rows), table_lines(whole.out, rows)) << whole << "\n" << second;
  EXPECT_EQ(pdn_games(dir_ + "parts.pdn"), pdn_games(dir_ + "whole.pdn"));
}

}  // namespace
}  // namespace dama::eval
