// dama match: two players, paired games, Elo and SPRT.  The terminal side
// only: options, signals, the progress line and the final table.  The match
// itself is eval/match.cpp.
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "stop_signal.hpp"
#include "openings.hpp"
#include "error.hpp"
#include "match.hpp"

namespace dama::cli {

namespace {

struct MatchOptions {
  std::string variant = "russian";
  bool no_forced_capture = false;
  std::string a, b;
  std::uint64_t games = 100;
  bool double_game = false;
  std::string openings;
  bool openings_by_default = false;  // openings is the variant's shipped set, not asked for
  int random_plies = 6;
  int max_imbalance = 100;
  int concurrency = 1;
  std::string sprt;
  std::string pdn_out;
  std::string journal;
  std::uint64_t seed = 1;
  bool resume = false;
  std::size_t tt_megabytes = 16;
  std::string draw_rules = "default";
};

// "0,10,0.05,0.05" -> elo0, elo1, alpha, beta.
eval::SprtSettings parse_sprt(const std::string& text) {
  std::istringstream in(text);
  eval::SprtSettings s;
  char c1 = 0, c2 = 0, c3 = 0;
  if (!(in >> s.elo0 >> c1 >> s.elo1 >> c2 >> s.alpha >> c3 >> s.beta) || c1 != ',' || c2 != ',' || c3 != ',' ||
      !(in >> std::ws).eof())
    throw Error("--sprt: expected elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05), got '" + text + "'");
  eval::check_sprt_settings(s);
  return s;
}

eval::MatchSettings settings_of(const MatchOptions& o) {
  eval::MatchSettings s;
  s.variant = o.variant;
  s.no_forced_capture = o.no_forced_capture;
  s.draw_rules = parse_draw_rules(o.draw_rules);
  s.a = eval::parse_player_spec(o.a, "--a");
  s.b = eval::parse_player_spec(o.b, "--b");
  s.games = o.games;
  s.pairing = o.double_game ? eval::Pairing::DoubleGame : eval::Pairing::ColoursSwapped;
  s.concurrency = o.concurrency;
  s.seed = o.seed;
  s.openings.file = o.openings;
  s.openings.variant_default = o.openings_by_default;
  s.openings.random_plies = o.random_plies;
  s.openings.max_imbalance = o.max_imbalance;
  if (!o.sprt.empty()) s.sprt = parse_sprt(o.sprt);
  s.pdn_out = o.pdn_out;
  s.journal = !o.journal.empty() ? o.journal : o.pdn_out.empty() ? "" : o.pdn_out + ".journal";
  s.resume = o.resume;
  s.tt_megabytes = o.tt_megabytes;
  return s;
}

std::string quoted(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=,./_-:") ==
          std::string::npos)
    return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command that continues this match.
std::string resume_command(const MatchOptions& o) {
  std::string cmd = "dama match --variant " + quoted(o.variant) + (o.no_forced_capture ? " --no-forced-capture" : "") +
                    " --a " + quoted(o.a) + " --b " + quoted(o.b) + " --games " + std::to_string(o.games);
  if (o.double_game) cmd += " --double";
  if (!o.openings.empty())
    cmd += " --openings " + quoted(o.openings);
  else
    cmd += " --random-plies " + std::to_string(o.random_plies) + " --max-imbalance " + std::to_string(o.max_imbalance);
  if (!o.sprt.empty()) cmd += " --sprt " + quoted(o.sprt);
  if (!o.pdn_out.empty()) cmd += " --pgn-out " + quoted(o.pdn_out);
  if (!o.journal.empty()) cmd += " --journal " + quoted(o.journal);
  cmd += " --seed " + std::to_string(o.seed) + " --tt-mb " + std::to_string(o.tt_megabytes);
  if (o.draw_rules != "default") cmd += " --draw-rules " + o.draw_rules;
  cmd += " --concurrency " + std::to_string(o.concurrency) + " --resume";
  return cmd;
}

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[128];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

// Rounds away the sign of a figure that prints as zero ("-0.0").
double printable(double x) { return std::abs(x) < 0.05 ? 0.0 : x; }

std::string progress_line(const eval::MatchTotals& t, std::uint64_t games) {
  const auto elo = eval::estimate_elo(t.pairs);
  std::string line = "games " + std::to_string(t.games) + "/" + std::to_string(games) + "  A +" +
                     std::to_string(t.a.wins) + " -" + std::to_string(t.a.losses) + " =" + std::to_string(t.a.draws) +
                     "  Elo " + format("%+.1f ± %.1f", printable(elo.elo), elo.elo_error95);
  if (t.llr) line += "  LLR " + format("%.2f", *t.llr);
  return line;
}

void print_table(std::ostream& out, const eval::MatchSettings& s, const eval::MatchOutcome& r) {
  const auto& t = r.totals;
  const auto elo = eval::estimate_elo(t.pairs);
  const auto& p = t.pairs.pairs;
  const bool double_games = s.pairing == eval::Pairing::DoubleGame;
  out << "match        " << s.variant << (s.no_forced_capture ? " (capture not compulsory)" : "")
      << (double_games ? ", double games" : "") << ": A = " << s.a.text << ", B = " << s.b.text << "\n"
      << "games        " << t.games << " of " << s.games << " (" << t.pairs.total_pairs()
      << (double_games ? " double games" : " pairs");
  if (r.games_from_journal > 0) out << ", " << r.games_from_journal << " from the journal";
  out << ")\n"
      << "A W/L/D      " << t.a.wins << " / " << t.a.losses << " / " << t.a.draws << "  score "
      << format("%.1f%%", t.a.games() ? 100.0 * t.a.points() / static_cast<double>(t.a.games()) : 50.0) << "\n"
      << "pentanomial  " << p[0] << " / " << p[1] << " / " << p[2] << " / " << p[3] << " / " << p[4]
      << (double_games ? "  (double games in which A scored 0 / 0.5 / 1 / 1.5 / 2)\n"
                       : "  (pairs in which A scored 0 / 0.5 / 1 / 1.5 / 2)\n");
  if (double_games)
    out << "double W/L/D " << p[3] + p[4] << " / " << p[0] + p[1] << " / " << p[2]
        << "  (A's double games: more than 1 point of 2 / less / 1)\n";
  out
      << "Elo A-B      " << format("%+.1f ± %.1f (95%%)", printable(elo.elo), elo.elo_error95) << "\n"
      << "LOS          " << format("%.1f%%", 100 * elo.los) << "\n";
  if (s.sprt) {
    const auto bounds = eval::sprt_bounds(*s.sprt);
    out << "SPRT         LLR " << format("%.2f", t.llr.value_or(0)) << " in "
        << format("(%.2f, %.2f)", bounds.lower, bounds.upper) << " for elo0 " << format("%g", s.sprt->elo0) << ", elo1 "
        << format("%g", s.sprt->elo1) << " (alpha " << format("%g", s.sprt->alpha) << ", beta "
        << format("%g", s.sprt->beta) << "): " << eval::sprt_decision_text(t.decision) << "\n";
  }
  const auto clock_line = [&](const char* name, const eval::ClockTotals& c) {
    if (c.games == 0) return;
    out << "clock " << name << "      "
        << format("used %.1f%% of its time (%.2f of %.2f s a game), ", 100 * c.used_share(),
                  c.used_seconds / static_cast<double>(c.games), c.budget_seconds / static_cast<double>(c.games))
        << c.time_losses << (c.time_losses == 1 ? " loss" : " losses") << " on time";
    if (c.ponder_searches > 0)
      out << ", ponder hits " << c.ponder_hits << " of " << c.ponder_searches
          << format(" (%.0f%%)", 100.0 * static_cast<double>(c.ponder_hits) / static_cast<double>(c.ponder_searches));
    out << "\n";
  };
  clock_line("A", t.clock_a);
  clock_line("B", t.clock_b);
  out << "stop         " << eval::stop_reason_text(r.stop) << "\n";
  if (!s.pdn_out.empty()) out << "games in     " << s.pdn_out << "\n";
}

void run(const MatchOptions& options) {
  const eval::MatchSettings settings = settings_of(options);
  const bool terminal = ::isatty(STDERR_FILENO);
  const std::uint64_t plain_step = std::max<std::uint64_t>(2, settings.games / 10 / 2 * 2);

  // The first Ctrl-C or SIGTERM stops new games, the second drops those in flight.
  std::optional<StopSignal> stop(std::in_place,
                                 StopSignalOptions{SecondSignal::Counted,
                                                   "\ndama: stopping: finishing the games in flight (again to drop them)\n",
                                                   "\ndama: dropping the games in flight\n"});
  eval::MatchControl control;
  control.stop_new_games = stop->flag();
  control.abort_games = stop->second_flag();
  control.on_note = [](const std::string& note) { std::cerr << "dama: " << note << "\n"; };
  control.on_game = [&](const eval::MatchTotals& t, const eval::GameRecord&) {
    if (terminal)
      std::cerr << "\r" << progress_line(t, settings.games) << "\033[K" << std::flush;
    else if (t.games % plain_step == 0 || t.games == settings.games)
      std::cerr << progress_line(t, settings.games) << "\n";
  };
  const eval::MatchOutcome outcome = eval::run_match(settings, control);
  stop.reset();
  if (terminal && outcome.games_played > 0) std::cerr << "\n";

  print_table(std::cout, settings, outcome);
  if (outcome.stop == eval::StopReason::Interrupted) {
    std::cout.flush();
    if (settings.journal.empty())
      std::cerr << "dama: interrupted; the match cannot be resumed (give --pgn-out or --journal to keep a journal)\n";
    else
      std::cerr << "dama: interrupted after " << outcome.totals.games << " games (journal " << settings.journal
                << "); continue with:\n  " << resume_command(options) << "\n";
    throw ExitCode{130};
  }
}

}  // namespace

void register_match(CLI::App& app) {
  auto options = std::make_shared<MatchOptions>();
  CLI::App* cmd = app.add_subcommand("match", "play two players against each other in paired games: Elo, SPRT");
  cmd->add_option("--variant,-v", options->variant,
                  "rules: " + variant_names() + " (english for american)")
      ->capture_default_str();
  cmd->add_flag("--no-forced-capture", options->no_forced_capture,
                "house rule: capturing is not compulsory (8x8 only)");
  cmd->add_option("--a", options->a,
                  "player A: depth=N, nodes=N, movetime=MS or tc=BASE+INC (a game clock, e.g. tc=10+0.1), with weights=FILE|default; "
                  "or hub:PROGRAM ARGS,depth=N|nodes=N|movetime=MS|tc=BASE+INC[,ponder=true] (an external Hub engine; "
                  "ponder=true: it ponders on the opponent's time), "
                  "or dxp:HOST:PORT,tc=SECONDS (a DXP engine listening there, 10x10)")
      ->required();
  cmd->add_option("--b", options->b, "player B, as --a")->required();
  cmd->add_option("--games,-g", options->games, "games to play, even (each opening twice, colours swapped)")
      ->capture_default_str();
  cmd->add_flag("--double", options->double_game,
                "Vigman's double game: each pair of games is one game on two boards (dark and light squares), the "
                "same player moving first on both, one clock per player for both; scored as the sum");
  auto* openings = cmd->add_option("--openings", options->openings,
                                   "file of PDN FENs, one per line, or a PDN file of opening games (used in turn), or "
                                   "builtin:american (the three-move ballots, american's default), builtin:russian (the FMJD drawing table, "
                                   "russian's default), builtin:international (Moby Dam's two-move ballots, international's "
                                   "default)");
  auto* random =
      cmd->add_option("--random-plies", options->random_plies, "random openings: this many random plies from the start")
          ->capture_default_str();
  openings->excludes(random);
  cmd->add_option("--max-imbalance", options->max_imbalance,
                  "random openings: redraw until the static evaluation is within this many centi-men (0: any)")
      ->capture_default_str();
  cmd->add_option("--concurrency,-t", options->concurrency, "games played at once")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--sprt", options->sprt, "elo0,elo1,alpha,beta: stop when the SPRT decides (e.g. 0,10,0.05,0.05)");
  cmd->add_option("--pgn-out", options->pdn_out, "append the games to this PDN file (journal: FILE.journal)");
  cmd->add_option("--journal", options->journal,
                  "the journal of finished games (default: the --pgn-out file + .journal)");
  cmd->add_option("--seed", options->seed, "seed of the random openings")->capture_default_str();
  cmd->add_flag("--resume", options->resume, "continue the match recorded in the journal");
  cmd->add_option("--tt-mb", options->tt_megabytes, "transposition table per engine, MB (4 engines per game thread)")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--draw-rules", options->draw_rules, "default, or tournament (russian only)")
      ->check(CLI::IsMember({"default", "tournament"}))
      ->capture_default_str();
  cmd->callback([options, cmd] {
    // A variant with a shipped set of standard openings plays them unless told otherwise.
    MatchOptions o = *options;
    if (o.openings.empty() && !o.no_forced_capture && cmd->count("--random-plies") == 0 &&
        cmd->count("--max-imbalance") == 0)
      o.openings = shipped_openings(find_variant(o.variant)).value_or("");
    o.openings_by_default = !o.openings.empty() && o.openings != options->openings;
    run(o);
  });
}

}  // namespace dama::cli
