// The engine side of the Hub protocol, version 2 (the protocol the Scan
// engine and the Hub GUI speak; hub_protocol.hpp has the syntax), as `dama
// hub` serves it on standard input and output.
//
//   hub                          -> id, param ..., wait
//   set-param name=variant value=russian
//   init                         -> ready
//   pos pos=<33 or 51 chars> [moves="..."]
//   level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite
//   go think|ponder|analyze      -> info ..., done move=... [ponder=...]
//   stop, ponder-hit, ping (-> pong), new-game, quit (also during a search)
//
// The search runs on a worker thread so that stop, ping, ponder-hit and quit
// are answered while it thinks; every line written goes through one mutex.
// Under `level time=...` the move's time comes from core/time_control.hpp;
// `go ponder` searches with the same budget, its clock held until
// ponder-hit.  A bad line is answered `error message="..."` and changes
// nothing, except a rejected `pos`, which leaves no position at all.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <istream>
#include <optional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hub_server.hpp"

#include "build_info.hpp"
#include "error.hpp"
#include "hub_protocol.hpp"
#include "parallel_search.hpp"
#include "time_control.hpp"
#include "weights.hpp"

namespace dama {

namespace {

class Output {
 public:
  explicit Output(std::FILE* file) : file_(file) {}
  void line(const std::string& text) {
    std::lock_guard lock(mutex_);
    std::fwrite(text.data(), 1, text.size(), file_);
    std::fputc('\n', file_);
    std::fflush(file_);
  }

 private:
  std::FILE* file_;
  std::mutex mutex_;
};

struct Settings {
  std::string variant = "international";
  bool forced_capture = true;
  std::string draw_rules = "default";
  int tt_megabytes = static_cast<int>(kDefaultTTMegabytes);
  std::string weights_file;  // empty: the built-in defaults
  std::string tables_dir;    // endgame tables (dama egtb build); empty: none
  SearchOptions search;
  TimeSettings time;
  int threads = 1;
  int ponder_threads = 0;  // threads searching while pondering; 0: all (the rest join at ponder-hit)
};

std::string hub_variant_values() {
  std::string names;
  for (const auto& v : kVariants) names += (names.empty() ? "" : " ") + std::string(v.name);
  return names;
}

void announce(Output& out, const Settings& s) {
  out.line("id name=dama version=" + std::string(build_version()) + " author=\"dama developers\"");
  out.line("param name=variant value=" + s.variant + " type=enum values=" + hub::quote(hub_variant_values()));
  out.line(std::string("param name=forced-capture value=") + (s.forced_capture ? "true" : "false") + " type=bool");
  out.line("param name=draw-rules value=" + s.draw_rules + " type=enum values=\"default tournament\"");
  out.line("param name=tt-size value=" + std::to_string(s.tt_megabytes) + " type=int min=1 max=65536");
  out.line("param name=weights value=" + hub::quote(s.weights_file) + " type=string");
  out.line("param name=egtb value=" + hub::quote(s.tables_dir) + " type=string");
  for (const auto& sw : kSearchSwitches)
    out.line(std::string("param name=") + sw.name + " value=" + (s.search.*sw.member ? "true" : "false") + " type=bool");
  for (const auto& n : kSearchNumbers)
    out.line(std::string("param name=") + n.name + " value=" + std::to_string(s.search.*n.member) +
             " type=int min=" + std::to_string(n.min) + " max=" + std::to_string(n.max));
  out.line("param name=move-overhead value=" + std::to_string(s.time.move_overhead_ms) + " type=int min=0 max=10000");
  out.line("param name=planning-horizon value=" + std::to_string(s.time.planning_horizon) +
           " type=int min=1 max=200");
  out.line("param name=control-horizon value=" + std::to_string(s.time.control_horizon) +
           " type=int min=1 max=200");
  out.line("param name=threads value=" + std::to_string(s.threads) + " type=int min=1 max=" +
           std::to_string(kMaxSearchThreads));
  out.line("param name=ponder-threads value=" + std::to_string(s.ponder_threads) + " type=int min=0 max=" +
           std::to_string(kMaxSearchThreads));
  out.line("wait");
}

const SearchSwitch* search_switch(const std::string& name) {
  for (const auto& sw : kSearchSwitches)
    if (name == sw.name) return &sw;
  return nullptr;
}

const SearchNumber* search_number(const std::string& name) {
  for (const auto& n : kSearchNumbers)
    if (name == n.name) return &n;
  return nullptr;
}

bool bool_value(const std::string& name, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  throw Error("set-param " + name + ": expected true or false, got '" + value + "'");
}

int int_value(const std::string& name, const std::string& value, int min, int max) {
  int n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || n < min || n > max)
    throw Error("set-param " + name + ": expected a whole number from " + std::to_string(min) + " to " +
                std::to_string(max) + ", got '" + value + "'");
  return n;
}

void set_param(Settings& s, const hub::Line& line) {
  const std::string name = line.get("name").value_or(""), value = line.get("value").value_or("");
  // Scan calls international draughts "normal"; its other variants (killer,
  // bt, frisian, losing) are not dama's and are refused by find_variant.
  if (name == "variant") s.variant = std::string(find_variant(value == "normal" ? "international" : value).name);
  else if (name == "forced-capture") s.forced_capture = bool_value(name, value);
  else if (name == "draw-rules") {
    if (value != "default" && value != "tournament")
      throw Error("set-param draw-rules: expected default or tournament, got '" + value + "'");
    s.draw_rules = value;
  } else if (name == "tt-size") s.tt_megabytes = int_value(name, value, 1, 65536);
  else if (name == "weights") s.weights_file = value;
  else if (name == "egtb") s.tables_dir = value;
  else if (const SearchSwitch* sw = search_switch(name)) s.search.*sw->member = bool_value(name, value);
  else if (const SearchNumber* n = search_number(name)) s.search.*n->member = int_value(name, value, n->min, n->max);
  else if (name == "move-overhead") s.time.move_overhead_ms = int_value(name, value, 0, 10000);
  else if (name == "planning-horizon") s.time.planning_horizon = int_value(name, value, 1, 200);
  else if (name == "control-horizon") s.time.control_horizon = int_value(name, value, 1, 200);
  else if (name == "threads") s.threads = int_value(name, value, 1, kMaxSearchThreads);
  else if (name == "ponder-threads") s.ponder_threads = int_value(name, value, 0, kMaxSearchThreads);
  else throw Error("set-param: unknown parameter '" + name + "'");
}

// A non-negative number of `level`: seconds, plies, nodes or moves.
double level_number(const hub::Line& level, std::string_view name) {
  const std::string text = *level.get(name);
  double x = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !(x >= 0) || x > 1e12)
    throw Error("level " + std::string(name) + ": expected a number >= 0, got '" + text + "'");
  return x;
}

// What `level` asks for, checked when it arrives (Scan's protocol.txt:
// depth=, move-time=, [moves=] time= [inc=], infinite; nodes= as Scan 3.1).
struct Level {
  int depth = 0;
  std::uint64_t nodes = 0;
  double move_time = 0;            // seconds; 0: none
  std::optional<GameClock> clock;  // time= [moves=] [inc=]
  bool infinite = false;
  bool given = false;              // no level yet: kDefaultMoveSeconds a move
};

constexpr double kDefaultMoveSeconds = 5;

Level parse_level(const hub::Line& line) {
  Level level;
  level.given = true;
  if (line.has("depth")) level.depth = static_cast<int>(std::clamp(level_number(line, "depth"), 1.0, double(kMaxDepth)));
  if (line.has("nodes")) level.nodes = static_cast<std::uint64_t>(std::max(1.0, level_number(line, "nodes")));
  if (line.has("move-time")) level.move_time = level_number(line, "move-time");
  if (line.has("time")) {
    GameClock clock;
    clock.remaining_seconds = level_number(line, "time");
    if (line.has("moves")) clock.moves_to_go = static_cast<int>(level_number(line, "moves"));
    if (line.has("inc")) clock.increment_seconds = level_number(line, "inc");
    level.clock = clock;
  } else if (line.has("moves") || line.has("inc")) {
    throw Error("level: moves= and inc= need time= (the time left on the clock)");
  }
  level.infinite = line.has("infinite");
  return level;
}

// The search limits for `go think` or `go ponder` (the same: pondering only
// holds the clock back until ponder-hit); `go analyze` keeps the depth,
// nodes and move time but no game clock.
SearchLimits limits_for(const Level& level, bool analyze, const TimeSettings& time) {
  SearchLimits limits;
  limits.depth = level.depth;
  limits.nodes = level.nodes;
  if (level.infinite) return limits;
  if (level.move_time > 0) {
    limits.movetime_ms = std::max<std::int64_t>(1, std::llround(level.move_time * 1000));
  } else if (level.clock && !analyze) {
    const TimeBudget budget = allocate_time(*level.clock, time);
    limits.movetime_ms = budget.maximum_ms;
    limits.optimum_ms = budget.optimum_ms;
  } else if (!level.given && !analyze) {
    limits.movetime_ms = static_cast<std::int64_t>(kDefaultMoveSeconds * 1000);
  }
  return limits;
}

template <RuleSet R>
class Session {
 public:
  using Board = BoardFor<R>;

  Session(Output& out, const Settings& s, const Variant& variant)
      : out_(out),
        weights_(s.weights_file.empty() ? default_weights(variant) : load_weights(s.weights_file, variant)),
        draw_rules_(s.draw_rules == "tournament" ? DrawRules::Tournament : DrawRules::Default),
        time_settings_(s.time),
        searcher_(WeightsEvaluator<R>{&weights_}, static_cast<std::size_t>(s.tt_megabytes), s.threads),
        game_(Game<R>(Position<Board>::start(R.first_player), draw_rules_)) {
    searcher_.set_options(s.search);
    searcher_.set_ponder_threads(s.ponder_threads);
    if (!s.tables_dir.empty()) {
      tables_ = egtb::Tablebase<R>::load(s.tables_dir, "egtb");
      searcher_.set_tables(&*tables_);
    }
  }

  ~Session() { finish_search(); }

  // Returns false on quit.
  bool handle(const hub::Line& line) {
    const std::string& c = line.command;
    if (c == "ping") out_.line("pong");
    else if (c == "stop") stop_ = true;
    else if (c == "ponder-hit") pondering_ = false;  // the search's clock starts now
    else if (c == "quit") return false;              // the destructor stops the search
    else if (searching_) out_.line("error message=" + hub::quote("'" + c + "' during a search (stop it first)"));
    else if (c == "new-game") searcher_.clear();
    else if (c == "pos") set_position(line);
    else if (c == "level") level_ = parse_level(line);
    else if (c == "go") go(line);
    else if (c == "set-param") set_param_live(line);
    return true;
  }

 private:
  // A rejected position leaves none: the next `go` is an error rather than
  // a move for a position the GUI no longer has.
  void set_position(const hub::Line& line) {
    finish_search();
    game_.reset();
    Game<R> game(hub::parse_position<Board>(line.get("pos").value_or("")), draw_rules_);
    std::string moves = line.get("moves").value_or("");
    for (std::size_t start = 0; start < moves.size();) {
      const std::size_t end = std::min(moves.find(' ', start), moves.size());
      if (end > start) game.play(hub::parse_move<R>(game.position(), std::string_view(moves).substr(start, end - start)));
      start = end + 1;
    }
    game_ = std::move(game);
  }

  // Only the search features apply to a running session; the rest is read at init.
  void set_param_live(const hub::Line& line) {
    const std::string name = line.get("name").value_or("");
    if (!search_switch(name) && !search_number(name) && name != "move-overhead" && name != "planning-horizon" &&
        name != "control-horizon" && name != "threads" && name != "ponder-threads")
      throw Error("set-param " + name + " after init: parameters are read at init (send them before it)");
    Settings s;
    s.search = searcher_.options();
    s.time = time_settings_;
    s.threads = searcher_.threads();
    s.ponder_threads = searcher_.ponder_threads();
    set_param(s, line);
    searcher_.set_options(s.search);
    if (s.threads != searcher_.threads()) searcher_.set_threads(s.threads);
    searcher_.set_ponder_threads(s.ponder_threads);
    time_settings_ = s.time;
  }

  void go(const hub::Line& line) {
    finish_search();
    if (!game_) throw Error("go: no position (the last pos was rejected, or none was given)");
    if (game_->over()) throw Error("go: the game is over in this position (" + std::string(game_->result().text()) + ")");
    const bool ponder = line.has("ponder"), analyze = line.has("analyze");
    SearchLimits limits = limits_for(level_, analyze, time_settings_);
    stop_ = false;
    pondering_ = ponder;
    limits.stop = &stop_;
    limits.pondering = &pondering_;
    searching_ = true;
    worker_ = std::thread([this, limits] { run_search(limits); });
  }

  void run_search(SearchLimits limits) {
    const auto result = searcher_.search(*game_, limits, [this](const SearchInfo<Board>& info) {
      std::string pv;
      for (const auto& m : info.pv) pv += (pv.empty() ? "" : " ") + hub::format_move(m);
      char numbers[160];
      std::snprintf(numbers, sizeof numbers, "info depth=%d score=%.2f nodes=%llu time=%.3f nps=%.2f", info.depth,
                    info.score / 100.0, static_cast<unsigned long long>(info.nodes), info.seconds, info.nps / 1e6);
      const std::string hits = tables_ ? " tbhits=" + std::to_string(info.table_hits) : "";
      out_.line(std::string(numbers) + hits + " pv=" + hub::quote(pv));
    });
    std::string done = "done move=" + (result.best_move ? hub::format_move(*result.best_move) : std::string("none"));
    if (result.pv.size() > 1) done += " ponder=" + hub::format_move(result.pv[1]);
    searching_ = false;
    out_.line(done);
  }

  void finish_search() {
    if (worker_.joinable()) {
      stop_ = true;
      worker_.join();
    }
  }

  Output& out_;
  Weights weights_;
  DrawRules draw_rules_;
  TimeSettings time_settings_;
  std::optional<egtb::Tablebase<R>> tables_;  // before the searcher, which points at it
  ParallelSearcher<R, WeightsEvaluator<R>> searcher_;
  std::optional<Game<R>> game_;
  Level level_;
  std::atomic<bool> stop_{false}, searching_{false}, pondering_{false};
  std::thread worker_;
};

// `--param name=value`: as `set-param` before `init`, for a GUI or match
// runner that can only pass arguments (the values are announced as current).
Settings preset_settings(const std::vector<std::string>& params) {
  Settings settings;
  for (const auto& p : params) {
    const std::size_t equals = p.find('=');
    if (equals == std::string::npos || equals == 0)
      throw Error("--param '" + p + "': expected NAME=VALUE (e.g. aspiration=false)");
    hub::Line line;
    line.command = "set-param";
    line.args = {{"name", p.substr(0, equals)}, {"value", p.substr(equals + 1)}};
    try {
      set_param(settings, line);
    } catch (const Error& e) {
      throw Error("--param '" + p + "': " + e.what());
    }
  }
  return settings;
}

}  // namespace

void serve_hub(std::istream& in, std::FILE* out_file, const std::vector<std::string>& params) {
  Output out(out_file);
  Settings settings = preset_settings(params);
  std::string text;
  while (std::getline(in, text)) {
    try {
      const hub::Line line = hub::parse_line(text);
      if (line.command == "hub") announce(out, settings);
      else if (line.command == "set-param") set_param(settings, line);
      else if (line.command == "ping") out.line("pong");
      else if (line.command == "quit") return;
      else if (line.command == "init") {
        const Variant& variant = find_variant(settings.variant);
        const RuleSet rules = settings.forced_capture ? variant.rules : variant.rules.without_forced_capture();
        with_rules(rules, [&]<RuleSet R>() {
          Session<R> session(out, settings, variant);
          out.line("ready");
          while (std::getline(in, text)) {
            try {
              if (!session.handle(hub::parse_line(text))) return;
            } catch (const std::exception& e) {
              out.line("error message=" + hub::quote(e.what()));
            }
          }
        });
        return;
      }
    } catch (const std::exception& e) {
      out.line("error message=" + hub::quote(e.what()));
    }
  }
}

}  // namespace dama
