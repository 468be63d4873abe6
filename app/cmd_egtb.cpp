// dama egtb: endgame tables -- build, verify, info, probe
// (docs/endgame-tables.md).  Each subcommand parses its flags and calls the
// library in core/egtb/.
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.hpp"
#include "egtb/builder.hpp"
#include "egtb/verify.hpp"
#include "fen.hpp"
#include "notation.hpp"
#include "options.hpp"
#include "stop_signal.hpp"

namespace dama::cli {

namespace {

struct EgtbOptions {
  GameOptions game;
  std::string dir;  // empty: egtb/<variant>[-optional-capture]
  int pieces = 4;
  int threads = 0;
};

std::string table_dir(const EgtbOptions& o, const ResolvedGame& game) {
  if (!o.dir.empty()) return o.dir;
  return "egtb/" + std::string(game.variant->name) + (game.rules.forced_capture ? "" : "-optional-capture");
}

int thread_count(int requested) {
  if (requested > 0) return requested;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void print_slice_line(const egtb::SliceReport& r, const char* note) {
  std::printf("%s  %-32s %12llu positions  win %11llu  draw %11llu  loss %11llu  %s\n", r.material.code().c_str(),
              r.material.describe().c_str(), static_cast<unsigned long long>(r.positions),
              static_cast<unsigned long long>(r.counts.wins), static_cast<unsigned long long>(r.counts.draws),
              static_cast<unsigned long long>(r.counts.losses),
              note);
  std::fflush(stdout);
}

template <RuleSet R>
void build(const EgtbOptions& o, const ResolvedGame& game) {
  const std::string dir = table_dir(o, game);
  egtb::Tablebase<R> tables;
  StopSignal stop;
  const auto start = std::chrono::steady_clock::now();
  std::printf("building %s tables to %d pieces in %s, %d threads (values for the side to move)\n",
              egtb::rules_name(R).c_str(), o.pieces, dir.c_str(), thread_count(o.threads));
  const auto report = [](const egtb::SliceReport& r) {
    print_slice_line(r, r.reused ? "(read from an earlier run)" : (std::to_string(r.seconds).substr(0, 6) + " s").c_str());
  };
  const bool done = egtb::build_tables<R>({dir, o.pieces, thread_count(o.threads)}, tables, report,
                                          [&] { return stop.requested(); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!done) {
    std::fprintf(stderr, "dama egtb build: stopped by signal %d; every slice written so far is kept (run again to go on)\n",
                 stop.signal_number());
    throw ExitCode{128 + stop.signal_number()};
  }
  std::printf("done: %d slices in %s, %.1f s\n", tables.slice_count(), dir.c_str(), seconds);
}

template <RuleSet R>
void verify(const EgtbOptions& o, const ResolvedGame& game) {
  const std::string dir = table_dir(o, game);
  const auto tables = egtb::Tablebase<R>::load(dir);
  std::uint64_t bad = 0;
  for (const auto& m : egtb::materials_in_build_order(tables.largest_pieces())) {
    if (!tables.has(m)) continue;
    const auto r = egtb::verify_slice(tables, m, thread_count(o.threads));
    std::printf("%s  %-32s %12llu positions  %s\n", m.code().c_str(), m.describe().c_str(),
                static_cast<unsigned long long>(r.positions),
                r.mismatches == 0 ? "consistent"
                                  : (std::to_string(r.mismatches) + " MISMATCHES, first at index " + std::to_string(r.first_bad)).c_str());
    std::fflush(stdout);
    bad += r.mismatches;
  }
  if (bad > 0) throw Error("egtb verify " + dir + ": " + std::to_string(bad) + " positions disagree with their successors");
  std::printf("every value agrees with its successors' values (%d slices)\n", tables.slice_count());
}

template <RuleSet R>
void info(const EgtbOptions& o, const ResolvedGame& game) {
  const std::string dir = table_dir(o, game);
  const auto tables = egtb::Tablebase<R>::load(dir);
  std::printf("%s tables in %s: %d slices, up to %d pieces%s; values for the side to move, draw counters ignored\n",
              egtb::rules_name(R).c_str(), dir.c_str(), tables.slice_count(), tables.largest_pieces(),
              tables.complete_to(tables.largest_pieces()) ? " (complete)" : " (incomplete)");
  for (int n = 2; n <= tables.largest_pieces(); ++n) {
    egtb::WdlCounts sum;
    std::uintmax_t bytes = 0;
    for (const auto& m : egtb::materials_in_build_order(n)) {
      if (m.pieces() != n || !tables.has(m)) continue;
      const auto* s = tables.slice(m);
      const auto c = s->values.counts();
      print_slice_line({m, s->index.size(), c, 0, true}, "");
      sum.wins += c.wins, sum.draws += c.draws, sum.losses += c.losses;
      bytes += std::filesystem::file_size(egtb::table_path(dir, m));
    }
    std::printf("%d pieces: %llu positions, win %llu, draw %llu, loss %llu; %.1f MB on disk\n", n,
                static_cast<unsigned long long>(sum.total()), static_cast<unsigned long long>(sum.wins),
                static_cast<unsigned long long>(sum.draws), static_cast<unsigned long long>(sum.losses),
                static_cast<double>(bytes) / 1e6);
  }
}

template <RuleSet R>
void probe(const EgtbOptions& o, const ResolvedGame& game) {
  const auto tables = egtb::Tablebase<R>::load(table_dir(o, game));
  const auto p = position_of<R>(o.game, game.notation);
  const auto entry = tables.probe_entry(p);
  std::printf("position  %s\n", to_fen(p).c_str());
  if (!entry) {
    std::printf("value     not in the tables (%d pieces; they hold up to %d)\n", popcount(p.occupied()),
                tables.largest_pieces());
    throw ExitCode{1};
  }
  const auto distance_text = [](const auto& e) {
    return e.value == egtb::Wdl::Draw ? std::string() : ", " + std::to_string(e.distance) + " plies to a conversion";
  };
  std::printf("value     %s for %s to move%s (draw counters ignored)\n", egtb::wdl_name(entry->value),
              p.side == Color::White ? "White" : "Black", distance_text(*entry).c_str());
  MoveList<BoardFor<R>> moves;
  MoveGenerator<R>::generate(p, moves);
  if (moves.empty()) return;
  const auto best = egtb::best_move<R>(tables, p, moves);
  std::printf("best      %s\n", format_move(moves[best], moves, game.notation).c_str());
  for (const auto& m : moves) {
    auto child = *tables.probe_entry(p.after(m));
    child.value = egtb::negate(child.value);
    if (m.is_capture() || m.promotes) child.distance = 0;  // the move converts
    std::printf("  %-16s %s%s\n", format_move(m, moves, game.notation).c_str(), egtb::wdl_name(child.value),
                m.is_capture() || m.promotes ? " (converts)" : distance_text(child).c_str());
  }
}

CLI::App* add_action(CLI::App& parent, const char* name, const char* what, EgtbOptions& options) {
  auto* cmd = parent.add_subcommand(name, what);
  add_game_options(*cmd, options.game, true);
  cmd->add_option("--egtb,--out,-o", options.dir, "the tables' directory (default: egtb/<variant>)");
  cmd->add_option("--threads,-t", options.threads, "threads (0: every core)")->check(CLI::NonNegativeNumber);
  return cmd;
}

}  // namespace

void register_egtb(CLI::App& app) {
  auto* cmd = app.add_subcommand("egtb", "endgame tables: build, verify, info, probe");
  cmd->require_subcommand(1);
  static EgtbOptions build_options, verify_options, info_options, probe_options;
  auto* b = add_action(*cmd, "build", "build win/draw/loss tables for every position with up to --pieces pieces (resumable)",
                       build_options);
  b->add_option("--pieces,-n", build_options.pieces, "the most pieces on the board, both sides together")
      ->check(CLI::Range(2, egtb::kMaxTablePieces))
      ->capture_default_str();
  b->callback([] {
    const auto game = resolve(build_options.game);
    with_rules(game.rules, [&]<RuleSet R>() { build<R>(build_options, game); });
  });
  add_action(*cmd, "verify", "re-derive every value from its successors' values", verify_options)->callback([] {
    const auto game = resolve(verify_options.game);
    with_rules(game.rules, [&]<RuleSet R>() { verify<R>(verify_options, game); });
  });
  add_action(*cmd, "info", "slices, positions and win/draw/loss counts per material", info_options)->callback([] {
    const auto game = resolve(info_options.game);
    with_rules(game.rules, [&]<RuleSet R>() { info<R>(info_options, game); });
  });
  add_action(*cmd, "probe", "the value of --fen and the best move by the tables", probe_options)->callback([] {
    const auto game = resolve(probe_options.game);
    with_rules(game.rules, [&]<RuleSet R>() { probe<R>(probe_options, game); });
  });
}

}  // namespace dama::cli
