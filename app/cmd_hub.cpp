// dama hub: the engine side of the Hub protocol, version 2 (the protocol the
// Scan engine and the Hub GUI speak; core/hub_protocol.hpp has the syntax).
//
//   hub                          -> id, param ..., wait
//   set-param name=variant value=russian
//   init                         -> ready
//   pos pos=<33 or 51 chars> [moves="..."]
//   level depth=N | move-time=S | [moves=N] time=S [inc=S] | infinite
//   go think|ponder|analyze      -> info ..., done move=... [ponder=...]
//   stop, ponder-hit, ping (-> pong), new-game, quit
//
// The search runs on a worker thread so that stop, ping and ponder-hit are
// answered while it thinks; every line written goes through one mutex.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include "commands.hpp"
#include "hub_protocol.hpp"
#include "search.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

class Output {
 public:
  void line(const std::string& text) {
    std::lock_guard lock(mutex_);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }

 private:
  std::mutex mutex_;
};

struct Settings {
  std::string variant = "international";
  bool forced_capture = true;
  std::string draw_rules = "default";
  int tt_megabytes = static_cast<int>(kDefaultTTMegabytes);
  std::string weights_file;  // empty: the built-in defaults
};

std::string variant_names() {
  std::string names;
  for (const auto& v : kVariants) names += (names.empty() ? "" : " ") + std::string(v.name);
  return names;
}

void announce(Output& out, const Settings& s) {
  out.line(std::string("id name=dama version=") + DAMA_VERSION + " author=\"dama developers\"");
  out.line("param name=variant value=" + s.variant + " type=enum values=" + hub::quote(variant_names()));
  out.line("param name=forced-capture value=true type=bool");
  out.line("param name=draw-rules value=default type=enum values=\"default tournament\"");
  out.line("param name=tt-size value=" + std::to_string(s.tt_megabytes) + " type=int min=1 max=65536");
  out.line("param name=weights value=\"\" type=string");
  out.line("wait");
}

void set_param(Settings& s, const hub::Line& line) {
  const std::string name = line.get("name").value_or(""), value = line.get("value").value_or("");
  if (name == "variant") s.variant = std::string(find_variant(value).name);
  else if (name == "forced-capture") s.forced_capture = value != "false";
  else if (name == "draw-rules") s.draw_rules = value;
  else if (name == "tt-size") s.tt_megabytes = std::max(1, std::stoi(value));
  else if (name == "weights") s.weights_file = value;
}

// Seconds for one move under `level`: a share of the clock, never more than half of it.
double allotted_seconds(const hub::Line& level, double fallback) {
  if (level.has("move-time")) return std::stod(*level.get("move-time"));
  if (!level.has("time")) return fallback;
  const double time = std::stod(*level.get("time"));
  const double moves = level.has("moves") ? std::max(1.0, std::stod(*level.get("moves"))) : 30.0;
  const double increment = level.has("inc") ? std::stod(*level.get("inc")) : 0.0;
  return std::min(time / 2, time / moves + increment);
}

template <RuleSet R>
class Session {
 public:
  using Board = BoardFor<R>;

  Session(Output& out, const Settings& s, const Variant& variant)
      : out_(out),
        weights_(s.weights_file.empty() ? default_weights(variant) : load_weights(s.weights_file, variant)),
        draw_rules_(s.draw_rules == "tournament" ? DrawRules::Tournament : DrawRules::Default),
        searcher_(WeightsEvaluator<R>{&weights_}, static_cast<std::size_t>(s.tt_megabytes)),
        game_(Position<Board>::start(R.first_player), draw_rules_) {}

  ~Session() { finish_search(); }

  // Returns false on quit.
  bool handle(const hub::Line& line) {
    const std::string& c = line.command;
    if (c == "ping") out_.line("pong");
    else if (c == "stop") stop_ = true;
    else if (c == "ponder-hit") ponder_hit();
    else if (searching_) out_.line("error message=" + hub::quote("'" + c + "' during a search"));
    else if (c == "quit") return false;
    else if (c == "new-game") searcher_.clear();
    else if (c == "pos") set_position(line);
    else if (c == "level") level_ = line;
    else if (c == "go") go(line);
    return true;
  }

 private:
  void set_position(const hub::Line& line) {
    Game<R> game(hub::parse_position<Board>(line.get("pos").value_or("")), draw_rules_);
    std::string moves = line.get("moves").value_or("");
    for (std::size_t start = 0; start < moves.size();) {
      const std::size_t end = std::min(moves.find(' ', start), moves.size());
      if (end > start) game.play(hub::parse_move<R>(game.position(), std::string_view(moves).substr(start, end - start)));
      start = end + 1;
    }
    game_ = std::move(game);
  }

  void go(const hub::Line& line) {
    finish_search();
    const bool ponder = line.has("ponder"), analyze = line.has("analyze");
    SearchLimits limits;
    stop_ = false;
    limits.stop = &stop_;
    if (level_.has("depth")) limits.depth = std::stoi(*level_.get("depth"));
    const bool timed = !level_.has("infinite") && !level_.has("depth");
    if (timed && !ponder && !analyze) limits.movetime_ms = static_cast<std::int64_t>(allotted_seconds(level_, 5.0) * 1000);
    pondering_ = ponder;
    searching_ = true;
    worker_ = std::thread([this, limits] { run_search(limits); });
  }

  // A hit turns the ponder search into a normal one: a watchdog stops it when
  // the move's time is up (or leaves as soon as the search ends).
  void ponder_hit() {
    if (!searching_ || !pondering_ || watchdog_.joinable()) return;
    pondering_ = false;
    const auto allotted = std::chrono::duration<double>(allotted_seconds(level_, 5.0));
    watchdog_ = std::thread([this, allotted] {
      std::unique_lock lock(watch_mutex_);
      if (!search_ended_.wait_for(lock, allotted, [this] { return !searching_.load(); })) stop_ = true;
    });
  }

  void run_search(SearchLimits limits) {
    const auto result = searcher_.search(game_, limits, [this](const SearchInfo<Board>& info) {
      std::string pv;
      for (const auto& m : info.pv) pv += (pv.empty() ? "" : " ") + hub::format_move(m);
      char numbers[160];
      std::snprintf(numbers, sizeof numbers, "info depth=%d score=%.2f nodes=%llu time=%.3f nps=%.2f", info.depth,
                    info.score / 100.0, static_cast<unsigned long long>(info.nodes), info.seconds, info.nps / 1e6);
      out_.line(std::string(numbers) + " pv=" + hub::quote(pv));
    });
    std::string done = "done move=" + (result.best_move ? hub::format_move(*result.best_move) : std::string("none"));
    if (result.pv.size() > 1) done += " ponder=" + hub::format_move(result.pv[1]);
    {
      std::lock_guard lock(watch_mutex_);
      searching_ = false;
    }
    search_ended_.notify_all();
    out_.line(done);
  }

  void finish_search() {
    if (worker_.joinable()) {
      stop_ = true;
      worker_.join();
    }
    if (watchdog_.joinable()) watchdog_.join();
  }

  Output& out_;
  Weights weights_;
  DrawRules draw_rules_;
  Searcher<R, WeightsEvaluator<R>> searcher_;
  Game<R> game_;
  hub::Line level_;
  std::atomic<bool> stop_{false}, searching_{false}, pondering_{false};
  std::thread worker_, watchdog_;
  std::mutex watch_mutex_;
  std::condition_variable search_ended_;
};

void run_hub() {
  Output out;
  Settings settings;
  std::string text;
  while (std::getline(std::cin, text)) {
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
          while (std::getline(std::cin, text)) {
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

}  // namespace

void register_hub(CLI::App& app) {
  auto* cmd = app.add_subcommand("hub", "speak the Hub protocol (version 2, as Scan does) on stdin/stdout");
  cmd->callback([] { run_hub(); });
}

}  // namespace dama::cli
