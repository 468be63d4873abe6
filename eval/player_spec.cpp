#include "player_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <set>

#include "error.hpp"
#include "parallel_search.hpp"

namespace dama::eval {

namespace {

constexpr std::string_view kExpected =
    "expected e.g. depth=4, nodes=20000, movetime=100, tc=10+0.1 or weights=FILE,depth=4";

// A whole number in [min, max]; nothing else (no sign, no suffix, no blanks).
std::uint64_t whole_number(std::string_view value, std::uint64_t min, std::uint64_t max, const std::string& where) {
  std::uint64_t n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || n < min || n > max)
    throw Error(where + ": expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                ", got '" + std::string(value) + "'");
  return n;
}

// A number of seconds: digits with an optional fraction, nothing else.
double seconds_of(std::string_view text, const std::string& where, std::string_view what) {
  double x = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos;
  if (!plain || error != std::errc() || end != text.data() + text.size() || x > 1e7)
    throw Error(where + ": expected " + std::string(what) + " in seconds (e.g. tc=10+0.1 or tc=40/60), got '" +
                std::string(text) + "'");
  return x;
}

}  // namespace

TimeControl parse_time_control(std::string_view text, const std::string& where) {
  TimeControl tc;
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos) {
    tc.moves = static_cast<int>(whole_number(text.substr(0, slash), 1, 1000, where + " (moves before /)"));
    text = text.substr(slash + 1);
  }
  const std::size_t plus = text.find('+');
  tc.base_seconds = seconds_of(text.substr(0, plus), where, "the time for the game");
  if (plus != std::string_view::npos)
    tc.increment_seconds = seconds_of(text.substr(plus + 1), where, "the increment");
  if (tc.base_seconds <= 0 && tc.increment_seconds <= 0)
    throw Error(where + ": a clock with no time (give the base or the increment above 0)");
  return tc;
}

int moves_to_go(const TimeControl& tc, int moves_made) {
  return tc.moves > 0 ? tc.moves - moves_made % tc.moves : 0;
}

std::string hub_level_for(const TimeControl& tc, double remaining_seconds, int moves_made) {
  char text[96];
  std::string level;
  if (tc.moves > 0) level += "moves=" + std::to_string(moves_to_go(tc, moves_made)) + " ";
  std::snprintf(text, sizeof text, "time=%.3f", std::max(0.0, remaining_seconds));
  level += text;
  if (tc.increment_seconds > 0) {
    std::snprintf(text, sizeof text, " inc=%.3f", tc.increment_seconds);
    level += text;
  }
  return level;
}

PlayerSpec parse_player_spec(std::string_view text, std::string_view option) {
  const std::string context = std::string(option) + " '" + std::string(text) + "'";
  PlayerSpec spec;
  spec.text = std::string(text);
  if (text.empty()) throw Error(context + ": empty player (" + std::string(kExpected) + ")");
  std::set<std::string, std::less<>> seen;
  std::size_t start = 0;
  if (text.rfind("hub:", 0) == 0) {
    start = std::min(text.find(','), text.size());
    spec.hub_command = std::string(text.substr(4, start - 4));
    if (spec.hub_command.find_first_not_of(' ') == std::string::npos)
      throw Error(context + ": expected hub:PROGRAM [ARGUMENTS],depth=N, ,nodes=N, ,movetime=MS or ,tc=BASE+INC");
    if (start == text.size()) throw Error(context + ": no search limit: add ,depth=N, ,nodes=N, ,movetime=MS or ,tc=BASE+INC");
    ++start;
  } else if (text.rfind("dxp:", 0) == 0) {
    start = std::min(text.find(','), text.size());
    spec.dxp_address = std::string(text.substr(4, start - 4));
    if (spec.dxp_address.empty()) throw Error(context + ": expected dxp:HOST:PORT,tc=SECONDS");
    if (start == text.size()) throw Error(context + ": no game clock: add ,tc=SECONDS (whole minutes, e.g. tc=300)");
    ++start;
  }
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view field = text.substr(start, comma - start);
    start = comma + 1;
    const std::size_t equals = field.find('=');
    const std::string_view key = field.substr(0, equals);
    if (field.empty()) throw Error(context + ": empty field (" + std::string(kExpected) + ")");
    if (equals == std::string_view::npos) {
      if (field != "default")
        throw Error(context + ": field '" + std::string(field) + "' is not key=value (" + std::string(kExpected) + ")");
    }
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view("default") : field.substr(equals + 1);
    const std::string_view name = equals == std::string_view::npos ? std::string_view("weights") : key;
    if (!seen.insert(std::string(name)).second) throw Error(context + ": '" + std::string(name) + "' given twice");
    const std::string where = context + ", " + std::string(name);
    if (name == "weights") {
      if (value.empty()) throw Error(where + ": expected a weights file or 'default'");
      spec.weights_file = value == "default" ? "" : std::string(value);
    } else if (name == "depth") {
      spec.limits.depth = static_cast<int>(whole_number(value, 1, kMaxDepth, where));
    } else if (name == "nodes") {
      spec.limits.nodes = whole_number(value, 1, UINT64_MAX, where);
    } else if (name == "movetime") {
      spec.limits.movetime_ms = static_cast<std::int64_t>(whole_number(value, 1, INT64_MAX, where));
    } else if (name == "tc") {
      spec.clock = parse_time_control(value, where);
    } else if (name == "threads") {
      spec.threads = static_cast<int>(whole_number(value, 1, kMaxSearchThreads, where));
    } else if (name == "ponder") {
      if (value != "true" && value != "false") throw Error(where + ": expected true or false, got '" + std::string(value) + "'");
      spec.ponder = value == "true";
    } else {
      throw Error(context + ": unknown field '" + std::string(name) +
                  "' (known: weights, depth, nodes, movetime, tc, threads, ponder)");
    }
  }
  const int limits = (spec.limits.depth != 0) + (spec.limits.nodes != 0) + (spec.limits.movetime_ms != 0);
  if (spec.clock && limits > 0) throw Error(context + ": tc= is a game clock and takes no depth, nodes or movetime");
  if (!spec.hub_command.empty() && (seen.count("weights") || seen.count("threads")))
    throw Error(context + ": a Hub engine takes depth, nodes, movetime or tc only (its own weights and threads: "
                          "hub:PROGRAM hub --param weights=FILE)");
  // Pondering needs the opponent's time to be its own (a clock) and a
  // process of its own to search in while the match waits for the opponent.
  if (spec.ponder && (spec.hub_command.empty() || !spec.clock))
    throw Error(context + ": ponder=true: only a Hub engine under a game clock ponders (hub:PROGRAM,tc=BASE+INC,ponder=true)");
  if (!spec.hub_command.empty() && limits > 1)
    throw Error(context + ": a Hub engine takes one of depth, nodes and movetime");
  if (!spec.dxp_address.empty()) {
    // DXP's GAMEREQ gives each side whole minutes for the game, and nothing else.
    const bool minutes = spec.clock && spec.clock->moves == 0 && spec.clock->increment_seconds == 0 &&
                         spec.clock->base_seconds >= 60 && std::fmod(spec.clock->base_seconds, 60) == 0;
    if (!minutes || seen.size() != 1)
      throw Error(context + ": a DXP engine takes tc=SECONDS only, whole minutes with no increment (e.g. tc=300): "
                            "that is all DXP can tell it");
  }
  if (limits == 0 && !spec.clock)
    throw Error(context + ": no search limit: give depth=N, nodes=N, movetime=MS or tc=BASE+INC");
  return spec;
}

}  // namespace dama::eval
