// The Hub protocol: its line syntax, position strings and move format, and a
// scripted conversation with `dama hub` over pipes.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "fen.hpp"
#include "hub_protocol.hpp"
#include "search.hpp"

#ifndef DAMA_BINARY
#error "DAMA_BINARY must name the dama program"
#endif

namespace dama {
namespace {

constexpr RuleSet kRussian = kVariants[0].rules;
constexpr RuleSet kInternational = kVariants[6].rules;

TEST(HubLine, CommandArgumentsFlagsAndQuotes) {
  const hub::Line line = hub::parse_line(R"(pos pos=Wbbbe moves="32-28 17-22" ponder)");
  EXPECT_EQ(line.command, "pos");
  ASSERT_EQ(line.args.size(), 3u);
  EXPECT_EQ(line.get("pos"), "Wbbbe");
  EXPECT_EQ(line.get("moves"), "32-28 17-22");
  EXPECT_TRUE(line.has("ponder"));
  EXPECT_EQ(line.get("ponder"), "");
  EXPECT_FALSE(line.get("depth").has_value());
}

TEST(HubLine, UnterminatedQuoteIsAnError) {
  EXPECT_THROW(hub::parse_line(R"(pos moves="32-28)"), Error);
}

TEST(HubLine, QuoteOnlyWhenNeeded) {
  EXPECT_EQ(hub::quote("russian"), "russian");
  EXPECT_EQ(hub::quote("a b"), "\"a b\"");
  EXPECT_EQ(hub::quote(""), "\"\"");
}

TEST(HubPosition, StartPositionsInBothSizes) {
  const auto start8 = Position<Board8>::start(Color::White);
  const std::string text8 = hub::format_position(start8);
  EXPECT_EQ(text8, "W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w'));
  EXPECT_EQ(hub::parse_position<Board8>(text8), start8);
  const auto start10 = Position<Board10>::start(Color::White);
  const std::string text10 = hub::format_position(start10);
  EXPECT_EQ(text10.size(), 51u);
  EXPECT_EQ(hub::parse_position<Board10>(text10), start10);
}

TEST(HubPosition, KingsAndBadInput) {
  const auto p = parse_fen<Board8>("B:WK30,21:B1,K12");
  EXPECT_EQ(hub::parse_position<Board8>(hub::format_position(p)), p);
  EXPECT_THROW(hub::parse_position<Board8>("W"), Error);                                 // too short
  EXPECT_THROW(hub::parse_position<Board8>("X" + std::string(32, 'e')), Error);          // side
  EXPECT_THROW(hub::parse_position<Board8>("W" + std::string(31, 'e') + "q"), Error);    // piece
  EXPECT_THROW(hub::parse_position<Board8>("Ww" + std::string(31, 'e')), Error);         // white man on 1
}

TEST(HubMove, CapturesListTheCapturedSquares) {
  // The king on 32 takes 18 and 26... (rule case T1): 32x23 takes 10, 11, 18 and 19.
  const auto p = parse_fen<Board8>("W:WK32:B9,10,11,18,19");
  const auto m = hub::parse_move<kRussian>(p, "32x23x19x11x10x18");
  EXPECT_EQ(Board8::kSquareOfBit[m.from], 32);
  EXPECT_EQ(Board8::kSquareOfBit[m.to], 23);
  EXPECT_EQ(popcount(m.captured), 4);
  const std::string text = hub::format_move(m);
  EXPECT_EQ(text.substr(0, 6), "32x23x");
  EXPECT_TRUE(hub::parse_move<kRussian>(p, text).same_identity(m));
  EXPECT_THROW(hub::parse_move<kRussian>(p, "32x23x19"), Error);  // not the captured set of any move
  EXPECT_THROW(hub::parse_move<kRussian>(p, "32-28"), Error);
  EXPECT_THROW(hub::parse_move<kRussian>(p, "32x99"), Error);
}

TEST(HubMove, QuietMoveOn10x10) {
  const auto start = Position<Board10>::start(Color::White);
  const auto m = hub::parse_move<kInternational>(start, "32-28");
  EXPECT_EQ(hub::format_move(m), "32-28");
}

// A conversation with the program over pipes, line by line.
class HubProcess {
 public:
  HubProcess() {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      execl(DAMA_BINARY, DAMA_BINARY, "hub", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~HubProcess() {
    close(to_);
    close(from_);
    if (exited_) return;
    int status = 0;
    for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i) usleep(20000);
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
  }
  // True when the program has exited within `seconds`.
  bool exits_within(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return true;
      }
      usleep(10000);
    }
    return false;
  }
  void send(const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(write(to_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  // Lines up to and including the first that starts with `prefix` (10 s at most).
  std::vector<std::string> read_until(const std::string& prefix) {
    std::vector<std::string> lines;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      const auto newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        lines.push_back(buffer_.substr(0, newline));
        buffer_.erase(0, newline + 1);
        if (lines.back().rfind(prefix, 0) == 0) return lines;
        continue;
      }
      pollfd fd{from_, POLLIN, 0};
      if (poll(&fd, 1, 100) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) break;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
    lines.push_back("<no line starting '" + prefix + "'>");
    return lines;
  }

 private:
  pid_t pid_;
  bool exited_ = false;
  int to_, from_;
  std::string buffer_;
};

TEST(HubSession, ScriptedGameOn8x8) {
  HubProcess engine;
  engine.send("hub");
  const auto intro = engine.read_until("wait");
  ASSERT_EQ(intro.back(), "wait");
  EXPECT_EQ(intro.front().rfind("id name=dama", 0), 0u) << intro.front();
  const auto announced = [&](const std::string& name) {
    for (const auto& l : intro)
      if (l.rfind("param name=" + name + " ", 0) == 0) return true;
    return false;
  };
  EXPECT_TRUE(announced("variant"));
  EXPECT_TRUE(announced("planning-horizon"));
  EXPECT_TRUE(announced("control-horizon"));
  EXPECT_TRUE(announced("ponder-threads"));
  for (const auto& sw : kSearchSwitches) EXPECT_TRUE(announced(sw.name)) << sw.name;
  for (const auto& n : kSearchNumbers) EXPECT_TRUE(announced(n.name)) << n.name;

  engine.send("set-param name=variant value=russian");
  engine.send("init");
  EXPECT_EQ(engine.read_until("ready").back(), "ready");
  engine.send("ping");
  EXPECT_EQ(engine.read_until("pong").back(), "pong");

  // The start, then White plays 22-17 and Black answers 11-15.
  engine.send("pos pos=W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w') + " moves=\"22-17 11-15\"");
  engine.send("level depth=4");
  engine.send("go think");
  const auto search = engine.read_until("done");
  ASSERT_EQ(search.back().rfind("done move=", 0), 0u) << search.back();
  EXPECT_GE(search.size(), 2u);  // at least one info line
  EXPECT_EQ(search.front().rfind("info depth=1", 0), 0u) << search.front();

  // The move it chose is legal in the position after 22-17 11-15.
  const std::string move = hub::parse_line(search.back()).get("move").value_or("");
  auto p = Position<Board8>::start(Color::White);
  p = p.after(hub::parse_move<kRussian>(p, "22-17"));
  p = p.after(hub::parse_move<kRussian>(p, "11-15"));
  EXPECT_NO_THROW(hub::parse_move<kRussian>(p, move)) << move;

  // An illegal move is answered with an error line, and the engine goes on.
  engine.send("pos pos=W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w') + " moves=\"22-10\"");
  EXPECT_EQ(engine.read_until("error").back().rfind("error message=", 0), 0u);
  engine.send("ping");
  EXPECT_EQ(engine.read_until("pong").back(), "pong");

  // An infinite search ends on stop with a move.
  engine.send("pos pos=W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w'));
  engine.send("level infinite");
  engine.send("go analyze");
  usleep(200000);
  engine.send("stop");
  EXPECT_EQ(engine.read_until("done").back().rfind("done move=", 0), 0u);
  engine.send("quit");
}

// Scan's name for international draughts is accepted.
TEST(HubSession, ScansVariantNameNormal) {
  HubProcess engine;
  engine.send("hub");
  engine.read_until("wait");
  engine.send("set-param name=variant value=normal");
  engine.send("init");
  ASSERT_EQ(engine.read_until("ready").back(), "ready");
  engine.send("pos pos=W" + std::string(20, 'b') + std::string(10, 'e') + std::string(20, 'w'));
  engine.send("level depth=3");
  engine.send("go think");
  EXPECT_EQ(engine.read_until("done").back().rfind("done move=", 0), 0u);
  engine.send("quit");
}

std::string start8() { return "W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w'); }

// Time control, pondering and the faults a real client hit: a timed search
// stays within its share of the clock, ponder searches until ponder-hit and
// then plays within the clock, a rejected pos leaves no position, level
// nodes= bounds the search, set-param after init is answered, and quit
// ends a running search.
TEST(HubSession, ClockPonderAndFaults) {
  HubProcess engine;
  engine.send("hub");
  engine.read_until("wait");
  engine.send("set-param name=variant value=russian");
  engine.send("init");
  ASSERT_EQ(engine.read_until("ready").back(), "ready");

  // Sudden death with 2 s left: the move comes well within the clock.
  engine.send("pos pos=" + start8());
  engine.send("level time=2");
  auto started = std::chrono::steady_clock::now();
  engine.send("go think");
  auto lines = engine.read_until("done");
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(lines.back().rfind("done move=", 0), 0u) << lines.back();
  EXPECT_LT(took, 2.0 * 0.35 + 0.3);
  EXPECT_GE(lines.size(), 2u);

  // Ponder: no move before ponder-hit, however long; then one within the budget.
  const auto ponder_until_the_hit = [&](useconds_t pondering) {
    engine.send("level time=1");
    engine.send("go ponder");
    usleep(pondering);
    engine.send("ping");
    for (const auto& l : engine.read_until("pong")) EXPECT_NE(l.rfind("done", 0), 0u) << "moved while pondering: " << l;
    const auto hit = std::chrono::steady_clock::now();
    engine.send("ponder-hit");
    const auto answer = engine.read_until("done");
    ASSERT_EQ(answer.back().rfind("done move=", 0), 0u) << answer.back();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - hit).count(), 0.35 + 0.3);
  };
  engine.send("pos pos=" + start8() + " moves=\"22-17\"");
  ponder_until_the_hit(1200000);  // longer than the whole clock

  // Stop ends a ponder search at once, with a move.
  engine.send("go ponder");
  usleep(100000);
  started = std::chrono::steady_clock::now();
  engine.send("stop");
  EXPECT_EQ(engine.read_until("done").back().rfind("done move=", 0), 0u);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 0.5);

  // level nodes=N: no iteration reports more than N nodes (plus one check interval).
  engine.send("level nodes=5000");
  engine.send("go think");
  lines = engine.read_until("done");
  ASSERT_EQ(lines.back().rfind("done move=", 0), 0u);
  for (const auto& l : lines) {
    if (l.rfind("info", 0) == 0) {
      EXPECT_LE(std::stoull(*hub::parse_line(l).get("nodes")), 5000u) << l;
    }
  }

  // A rejected pos leaves no position: go is an error, not a move for the old one.
  engine.send("pos pos=" + start8() + " moves=\"22-18 11-15 18x9\"");
  EXPECT_EQ(engine.read_until("error").back().rfind("error message=", 0), 0u);
  engine.send("level depth=2");
  engine.send("go think");
  lines = engine.read_until("error");
  EXPECT_EQ(lines.back().rfind("error message=", 0), 0u) << lines.back();
  EXPECT_NE(lines.back().find("no position"), std::string::npos) << lines.back();

  // set-param after init: applied when it can be, an error when it cannot.
  engine.send("set-param name=threads value=2");
  engine.send("pos pos=" + start8());
  engine.send("level depth=6");
  engine.send("go think");
  lines = engine.read_until("done");
  EXPECT_EQ(lines.back().rfind("done move=", 0), 0u) << lines.back();
  EXPECT_EQ(lines.end()[-2].rfind("info depth=6", 0), 0u) << lines.end()[-2];
  // Two threads, one of them pondering: the move still comes after ponder-hit, within the budget.
  engine.send("set-param name=ponder-threads value=1");
  ponder_until_the_hit(300000);
  engine.send("set-param name=ponder-threads value=-1");
  EXPECT_NE(engine.read_until("error").back().find("ponder-threads: expected a whole number from 0 to"),
            std::string::npos);
  engine.send("set-param name=aspiration value=false");
  engine.send("set-param name=variant value=czech");
  lines = engine.read_until("error");
  EXPECT_NE(lines.back().find("after init"), std::string::npos) << lines.back();
  engine.send("set-param name=aspiration value=maybe");
  EXPECT_NE(engine.read_until("error").back().find("true or false"), std::string::npos);
  engine.send("set-param name=probcut value=false");
  engine.send("set-param name=probcut-margin value=12");
  engine.send("set-param name=probcut-margin value=0");
  EXPECT_NE(engine.read_until("error").back().find("probcut-margin: expected a whole number from 1 to 1000"),
            std::string::npos);
  engine.send("set-param name=planning-horizon value=12");
  engine.send("set-param name=planning-horizon value=0");
  EXPECT_NE(engine.read_until("error").back().find("planning-horizon: expected a whole number from 1 to 200"),
            std::string::npos);
  engine.send("level time=abc");
  EXPECT_NE(engine.read_until("error").back().find("level time"), std::string::npos);

  // quit during an infinite search ends the search and the program.
  engine.send("pos pos=" + start8());
  engine.send("level infinite");
  engine.send("go analyze");
  usleep(100000);
  started = std::chrono::steady_clock::now();
  engine.send("quit");
  EXPECT_TRUE(engine.exits_within(2.0));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 2.0);
}

}  // namespace
}  // namespace dama
