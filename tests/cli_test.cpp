// The dama program, run as a child process: its output, and its handling of
// bad input (exit code 2, one line on stderr beginning "dama: error:").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "build_info.hpp"
#include "pdn/pdn_reader.hpp"
#include "run_dama.hpp"
#include "test_support.hpp"

#ifndef DAMA_BINARY
#error "DAMA_BINARY must name the dama program"
#endif

namespace dama {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// A finished dama process (tests/run_dama.hpp), with its output in lines.
struct Outcome : test::DamaRun {
  std::vector<std::string> out_lines() const { return lines(out); }
  std::vector<std::string> err_lines() const { return lines(err); }
  static std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) result.push_back(line);
    return result;
  }
};

Outcome run_dama(const std::vector<std::string>& args, std::chrono::seconds timeout = std::chrono::seconds(60)) {
  Outcome run;
  static_cast<test::DamaRun&>(run) = test::run_dama_process(args, timeout);
  return run;
}

// The node counts of "perft D N ..." lines, by depth from 1.
std::vector<std::string> perft_counts(const Outcome& r) {
  std::vector<std::string> counts;
  for (const auto& line : r.out_lines()) {
    std::istringstream words(line);
    std::string perft, depth, nodes;
    if (words >> perft >> depth >> nodes && perft == "perft") {
      EXPECT_EQ(depth, std::to_string(counts.size() + 1)) << line;
      counts.push_back(nodes);
    }
  }
  return counts;
}

// Nothing a crashing, aborting or sanitizer-stopped program would print.
void expect_no_crash(const Outcome& r) {
  EXPECT_FALSE(r.timed_out) << r;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2) << r;
  for (const char* sign : {"internal error", "terminate called", "Sanitizer", "runtime error", "Segmentation",
                           "Aborted", "core dumped", "overflow"})
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr(sign))) << r;
}

// What `git rev-parse --short=12 HEAD` prints in the source tree; empty
// when git or the checkout is missing.
std::string source_head() {
  int status = 0;
  std::string head =
      test::command_output(std::string("git -C '") + DAMA_SOURCE_DIR + "' rev-parse --short=12 HEAD 2>/dev/null", &status);
  if (status != 0) return "";
  while (!head.empty() && (head.back() == '\n' || head.back() == '\r')) head.pop_back();
  return head;
}

// The commit is stamped at build time (cmake/BuildInfo.cmake): a build
// directory configured at an older commit must not report that one.
TEST(Cli, VersionNamesTheCommitTheProgramWasBuiltFrom) {
  const Outcome r = run_dama({"--version"});
  ASSERT_EQ(r.exit_code, 0) << r;
  const std::string commit(build_commit());
  EXPECT_EQ(r.out, "dama " + std::string(build_version()) + " (" + commit + ")\n");
  EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{12}(-dirty)?|unknown"))) << commit;
  if (const std::string head = source_head(); !head.empty()) {
    EXPECT_THAT(commit, StartsWith(head)) << "built from another commit than the source tree's (rebuild)";
  }
}

TEST(Cli, PerftPrintsThePublishedCounts) {
  const Outcome r = run_dama({"perft", "--variant", "russian", "--depth", "3"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.err, "");
  const auto lines = r.out_lines();
  ASSERT_EQ(lines.size(), 3u) << r;
  EXPECT_THAT(lines[0], StartsWith("perft 1 7 "));
  EXPECT_THAT(lines[1], StartsWith("perft 2 49 "));
  EXPECT_THAT(lines[2], StartsWith("perft 3 302 "));
}

TEST(Cli, PerftDefaultsToRussianAndCountsPaths) {
  // start.tsv russian: depth 8 is 929899 moves and 929905 paths.
  EXPECT_EQ(perft_counts(run_dama({"perft", "--depth", "8"})).back(), "929899");
  EXPECT_EQ(perft_counts(run_dama({"perft", "--depth", "8", "--counting", "paths"})).back(), "929905");
  EXPECT_EQ(perft_counts(run_dama({"perft", "--depth", "8", "--counting", "unique"})).back(), "929899");
}

// --divide: one line per legal move at the root, "move nodes", summing to the total.
void expect_divide_adds_up(const std::vector<std::string>& args) {
  SCOPED_TRACE(::testing::PrintToString(args));
  const Outcome r = run_dama(args);
  ASSERT_EQ(r.exit_code, 0) << r;
  const auto counts = perft_counts(r);
  ASSERT_FALSE(counts.empty()) << r;
  std::uint64_t sum = 0;
  std::set<std::string> moves;
  int divide_lines = 0;
  for (const auto& line : r.out_lines()) {
    if (line.rfind("perft ", 0) == 0) continue;
    std::istringstream words(line);
    std::string move, extra;
    std::uint64_t nodes = 0;
    ASSERT_TRUE(words >> move >> nodes) << line;
    EXPECT_FALSE(words >> extra) << line;
    EXPECT_TRUE(moves.insert(move).second) << move << " printed twice";
    sum += nodes;
    ++divide_lines;
  }
  EXPECT_EQ(std::to_string(divide_lines), counts.front()) << "one line per move";
  EXPECT_EQ(std::to_string(sum), counts.back());
}

TEST(Cli, DivideSumsToTheTotal) {
  expect_divide_adds_up({"perft", "--variant", "russian", "--depth", "4", "--divide"});
  expect_divide_adds_up({"perft", "--variant", "international", "--depth", "3", "--divide"});
  expect_divide_adds_up({"perft", "--variant", "czech", "--depth", "3", "--divide", "--play", "c3-d4 f6-e5"});
  // rule_cases.tsv T11: two paths of one move; with --counting paths each path is a line.
  expect_divide_adds_up({"perft", "--variant", "brazilian", "--fen", "W:W23:B10,11,18,19", "--depth", "1",
                         "--divide", "--counting", "paths", "--notation", "numeric"});
}

TEST(Cli, MovesFromTheStart) {
  const Outcome r = run_dama({"moves"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out_lines(),
              ::testing::UnorderedElementsAre("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"));
}

TEST(Cli, MovesAfterPlayedMoves) {
  // After c3-d4 f6-e5 White must take: d4:f6 (18x11).
  Outcome r = run_dama({"moves", "--play", "c3-d4 f6-e5"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out_lines(), ::testing::ElementsAre("d4:f6"));
  r = run_dama({"moves", "--play", "c3-d4 f6-e5", "--notation", "numeric"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out_lines(), ::testing::ElementsAre("18x11"));
  r = run_dama({"moves", "--play", "22-18 11-15", "--notation", "algebraic"});  // numeric input is read too
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out_lines(), ::testing::ElementsAre("d4:f6"));
  // House rule: the capture and the seven steps.
  r = run_dama({"moves", "--play", "c3-d4 f6-e5", "--no-forced-capture"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out_lines(), ::testing::UnorderedElementsAre("d4:f6", "d4-c5", "a3-b4", "e3-f4", "g3-f4", "g3-h4",
                                                            "b2-c3", "d2-c3"));
}

TEST(Cli, MovesFromAFen) {
  const Outcome r = run_dama({"moves", "--variant", "american", "--fen", "W:W30:B17,18,25,26"});
  ASSERT_EQ(r.exit_code, 0) << r;
  EXPECT_THAT(r.out_lines(), ::testing::UnorderedElementsAre("30x21x14", "30x23x14"));
}

TEST(Cli, VariantsListsAllTen) {
  const Outcome r = run_dama({"variants"});
  ASSERT_EQ(r.exit_code, 0) << r;
  std::set<std::string> listed;
  for (const auto& line : r.out_lines()) {
    if (line.empty() || line[0] == ' ') continue;
    listed.insert(line.substr(0, line.find_first_of(" :")));
  }
  EXPECT_THAT(listed, ::testing::UnorderedElementsAre("russian", "czech", "brazilian", "spanish", "italian",
                                                      "american", "international", "poddavki", "russian10x8", "bashni"));
  EXPECT_THAT(r.out, HasSubstr("american (alias english)"));
  EXPECT_THAT(r.out, HasSubstr("board=10x8 "));
  EXPECT_THAT(r.out, HasSubstr("forced-capture=yes no-move=wins"));  // poddavki, and only it
  EXPECT_EQ(r.out.find("no-move="), r.out.rfind("no-move="));
}

TEST(Cli, EnglishIsAmerican) {
  const Outcome english = run_dama({"moves", "--variant", "english"});
  const Outcome american = run_dama({"moves", "--variant", "american"});
  ASSERT_EQ(english.exit_code, 0) << english;
  EXPECT_EQ(english.out, american.out);
  // Black moves first: 9-13 9-14 10-14 10-15 11-15 11-16 12-16.
  EXPECT_THAT(english.out_lines(),
              ::testing::UnorderedElementsAre("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"));
  EXPECT_EQ(perft_counts(run_dama({"perft", "--variant", "english", "--depth", "6"})),
            perft_counts(run_dama({"perft", "--variant", "american", "--depth", "6"})));
}

// ---------------------------------------------------------------------------
// Bad input: exit code 2, nothing on stdout, one line on stderr that begins
// "dama: error:" and names the problem.

struct BadInput {
  std::string name;
  std::vector<std::string> args;
  std::string problem;  // a fragment of the message
};

class CliRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliRejects, WithExitCode2AndOneLine) {
  const BadInput& bad = GetParam();
  const Outcome r = run_dama(bad.args);
  EXPECT_EQ(r.exit_code, 2) << r;
  EXPECT_EQ(r.out, "") << r;
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  EXPECT_THAT(r.err, StartsWith("dama: error: ")) << r;
  EXPECT_THAT(r.err, HasSubstr(bad.problem)) << r;
  EXPECT_EQ(r.err.back(), '\n');
  expect_no_crash(r);
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, CliRejects,
    ::testing::Values(
        BadInput{"MalformedFen", {"moves", "--fen", "X:W21:B1"}, "side to move"},
        BadInput{"GarbageInFen", {"moves", "--fen", "W:W21,abc:B1"}, "'abc' is not a square number"},
        BadInput{"EmptyFenEntry", {"perft", "--depth", "1", "--fen", "W:W21,,22:B1"}, "empty entry"},
        BadInput{"BlankFen", {"moves", "--fen", "   "}, "empty"},
        BadInput{"SquareOutOfRange", {"moves", "--fen", "W:W33:B1"}, "square 33 is out of range"},
        BadInput{"SquareOutOfRange10x10", {"moves", "--variant", "international", "--fen", "W:W51:B1"},
                 "square 51 is out of range"},
        BadInput{"ManOnCrowningRow", {"moves", "--fen", "W:W1:B12"}, "crowning row"},
        BadInput{"TwoPiecesOnASquare", {"moves", "--fen", "W:W21:B21"}, "square 21 is given twice"},
        BadInput{"TooManyPieces", {"perft", "--depth", "1", "--fen", "W:W17-29:B1"}, "too many white pieces"},
        BadInput{"UnknownVariant", {"moves", "--variant", "chess"}, "unknown variant 'chess'"},
        BadInput{"IllegalPlayedMove", {"moves", "--play", "c3-d4 c3-d4"}, "illegal move 'c3-d4'"},
        BadInput{"UnreadablePlayedMove", {"perft", "--depth", "1", "--play", "c3-d4 zz"}, "move 2"},
        BadInput{"HouseRuleOnInternational", {"moves", "--variant", "international", "--no-forced-capture"}, "8x8"},
        BadInput{"UnknownNotation", {"moves", "--notation", "foo"}, "--notation"},
        BadInput{"UnknownCounting", {"perft", "--depth", "2", "--counting", "foo"}, "--counting"},
        BadInput{"MissingDepth", {"perft"}, "--depth"},
        BadInput{"DepthZero", {"perft", "--depth", "0"}, "--depth"},
        BadInput{"DepthNotANumber", {"perft", "--depth", "three"}, "--depth"},
        BadInput{"UnknownSubcommand", {"frobnicate"}, "subcommand"},
        BadInput{"NoSubcommand", {}, "subcommand"},
        BadInput{"UnknownOption", {"moves", "--colour", "red"}, "--colour"},
        BadInput{"DxpOn8x8", {"dxp", "--variant", "russian", "--listen", "0"}, "10x10"},
        BadInput{"DxpWithoutAnEndpoint", {"dxp"}, "one of --listen and --connect"},
        BadInput{"DxpBadPort", {"dxp", "--connect", "localhost:70000"}, "the port must be a number"},
        BadInput{"DxpPlayerOn8x8", {"match", "--variant", "russian", "--a", "depth=1", "--b", "dxp:127.0.0.1:1,tc=60"},
                 "10x10"},
        BadInput{"DxpPlayerWithAnIncrement",
                 {"match", "--variant", "international", "--a", "depth=1", "--b", "dxp:127.0.0.1:1,tc=60+1"},
                 "whole minutes"},
        BadInput{"DxpPlayerTwoAtATime",
                 {"match", "--variant", "international", "--a", "depth=1", "--b", "dxp:127.0.0.1:1,tc=60", "-t", "2"},
                 "one game at a time"}),
    [](const ::testing::TestParamInfo<BadInput>& param_info) { return param_info.param.name; });

// Arbitrary bytes as a FEN or as moves: an answer or a clean error, quickly.
TEST(Cli, WeirdBytesNeitherHangNorCrash) {
  std::vector<std::string> inputs = {
      std::string("\xff\xfe:W\x01\x02:B\x7f", 9),
      "W:W" + std::string(100000, ','),
      "W:W" + std::string(100000, '9'),
      "W:W1-99999999999999999999",
      "W:WK" + std::string(5000, 'K'),
      std::string(70000, ':'),
      "W:W21-32:B1-12" + std::string(1000, '.'),
      "\"",
      "\"\"",
      "W:W\t21\r,\v22:B\f1",
      "W:W21:B1\xc3\xa9",
      "B:WK1-12:BK21-32",  // 24 kings
  };
  test::Random random(12345);
  for (int i = 0; i < 10; ++i) {
    std::string bytes;
    const int length = 1 + random.below(60);
    for (int j = 0; j < length; ++j) bytes += static_cast<char>(1 + random.below(255));
    inputs.push_back(bytes);
    inputs.push_back("W:W" + bytes);
  }
  for (const auto& input : inputs) {
    SCOPED_TRACE(::testing::PrintToString(input.substr(0, 80)));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"moves", "--fen", input}, {"perft", "--depth", "2", "--fen", input},
          {"moves", "--play", input}, {"moves", "--variant", "international", "--fen", input}}) {
      const Outcome r = run_dama(args, std::chrono::seconds(30));
      expect_no_crash(r);
      if (r.exit_code == 2) {
        EXPECT_THAT(r.err, StartsWith("dama: error: ")) << r;
      }
    }
  }
}

// The message quotes the input; a control character in it must not split the
// one-line message (a newline inside a bad square token).
TEST(Cli, ErrorMessageStaysOneLineWhenTheInputHasANewline) {
  const Outcome r = run_dama({"moves", "--fen", "W:W2\n1:B1"});
  EXPECT_EQ(r.exit_code, 2) << r;
  EXPECT_EQ(r.err_lines().size(), 1u) << r;
}

// dama egtb: build, probe, verify, info, and a corrupt file refused with one
// line; an interrupted build keeps its finished slices and goes on.
TEST(Cli, EgtbBuildProbeVerifyAndRefuseACorruptFile) {
  const std::string dir = ::testing::TempDir() + "dama_egtb_cli_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const Outcome build = run_dama({"egtb", "build", "--variant", "czech", "--pieces", "3", "--out", dir, "--threads", "2"});
  ASSERT_EQ(build.exit_code, 0) << build;
  EXPECT_THAT(build.out, HasSubstr("0201  2 kings v 1 king"));
  const Outcome probe = run_dama({"egtb", "probe", "--variant", "czech", "--egtb", dir, "--fen", "W:WK29:BK4"});
  ASSERT_EQ(probe.exit_code, 0) << probe;
  EXPECT_THAT(probe.out, HasSubstr("value     loss for White to move"));
  const Outcome verify = run_dama({"egtb", "verify", "--variant", "czech", "--egtb", dir});
  EXPECT_EQ(verify.exit_code, 0) << verify;
  EXPECT_THAT(verify.out, HasSubstr("every value agrees"));
  const Outcome info = run_dama({"egtb", "info", "--variant", "czech", "--egtb", dir});
  EXPECT_THAT(info.out, HasSubstr("3 pieces:"));
  const Outcome search = run_dama({"search", "--variant", "czech", "--fen", "W:WK30,K31,K32:BK1", "--depth", "4", "--egtb", dir});
  EXPECT_EQ(search.exit_code, 0) << search;
  EXPECT_THAT(search.out, HasSubstr("tbhits"));
  {
    std::fstream f(dir + "/0101.wdl", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-12, std::ios::end);
    f.put('\x55');
  }
  const Outcome refused = run_dama({"egtb", "probe", "--variant", "czech", "--egtb", dir, "--fen", "W:WK29:BK4"});
  EXPECT_EQ(refused.exit_code, 2) << refused;
  ASSERT_EQ(refused.err_lines().size(), 1u) << refused;
  EXPECT_THAT(refused.err, HasSubstr("0101.wdl: checksum"));
  const Outcome other_rules = run_dama({"egtb", "probe", "--variant", "russian", "--egtb", dir, "--fen", "W:WK29:BK4"});
  EXPECT_EQ(other_rules.exit_code, 2) << other_rules;
  EXPECT_THAT(other_rules.err, HasSubstr("\"variant\""));
  std::filesystem::remove_all(dir);
}

// kill -9 in the middle of a build loses at most the pair in progress: the
// next run reads the finished slices back (checked) and builds the rest.
TEST(Cli, EgtbBuildKilledResumesWithTheSlicesItFinished) {
  const std::string dir = ::testing::TempDir() + "dama_egtb_kill_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const auto files = [&] {
    int n = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) n += e.path().extension() == ".wdl";
    return n;
  };
  const test::DamaRun killed = test::run_dama_process({"egtb", "build", "--variant", "russian", "--pieces", "4", "--out", dir, "--threads", "1"},
                                                std::chrono::seconds(120), [&] { return files() >= 12; }, 9 /* SIGKILL */);
  ASSERT_TRUE(killed.interrupted) << killed;
  const int kept = files();
  EXPECT_GE(kept, 12);
  const Outcome resumed = run_dama({"egtb", "build", "--variant", "russian", "--pieces", "4", "--out", dir});
  ASSERT_EQ(resumed.exit_code, 0) << resumed;
  int reused = 0;
  for (const auto& line : resumed.out_lines()) reused += line.find("(read from an earlier run)") != std::string::npos;
  EXPECT_GE(reused, 12);
  EXPECT_EQ(files(), 41);
  EXPECT_EQ(run_dama({"egtb", "verify", "--variant", "russian", "--egtb", dir}).exit_code, 0);
  std::filesystem::remove_all(dir);
}

// A port nobody listens on at the moment (the kernel's choice, released).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    ADD_FAILURE() << "no free port";
  ::close(fd);
  return ntohs(a.sin_port);
}

// Two dama processes play whole games over DXP on the loopback: one listens
// and follows, the other connects and initiates; the games they write agree
// and replay through dama's PDN reader.
TEST(Cli, DxpPlaysFullGamesBetweenTwoDamaProcesses) {
  const std::string endpoint = "127.0.0.1:" + std::to_string(free_port());
  const std::string pdn = ::testing::TempDir() + "dama_dxp_" + std::to_string(::getpid()) + ".pdn";
  std::filesystem::remove(pdn);
  Outcome follower;
  std::thread serving([&] {
    follower = run_dama({"dxp", "--listen", endpoint, "--once", "--depth", "2", "--name", "follower"},
                        std::chrono::seconds(120));
  });
  const Outcome initiator = run_dama({"dxp", "--connect", endpoint, "--games", "2", "--depth", "3", "--minutes", "1",
                                      "--pdn-out", pdn, "--name", "initiator"},
                                     std::chrono::seconds(120));
  serving.join();
  ASSERT_EQ(initiator.exit_code, 0) << initiator;
  ASSERT_EQ(follower.exit_code, 0) << follower;
  EXPECT_THAT(follower.out, HasSubstr("game 1 against initiator, dama black"));
  EXPECT_THAT(follower.out, HasSubstr("game 2 against initiator, dama white"));
  // What one side won the other lost.
  const auto totals = [](const Outcome& r) {
    const auto lines = r.out_lines();
    return lines.empty() ? std::string() : lines.back();
  };
  int iw = -1, il = -1, id = -1, fw = -1, fl = -1, fd = -1;
  ASSERT_EQ(std::sscanf(totals(initiator).c_str(), "dxp: 2 games, dama won %d, lost %d, drew %d", &iw, &il, &id), 3)
      << initiator;
  ASSERT_EQ(std::sscanf(totals(follower).c_str(), "dxp: 2 games, dama won %d, lost %d, drew %d", &fw, &fl, &fd), 3)
      << follower;
  EXPECT_EQ(iw, fl);
  EXPECT_EQ(il, fw);
  EXPECT_EQ(id, fd);
  std::ifstream in(pdn);
  std::stringstream text;
  text << in.rdbuf();
  const auto games = split_pdn_games(text.str(), pdn);
  ASSERT_EQ(games.size(), 2u);
  for (const auto& g : games) {
    const auto replayed = replay_pdn_game<test::variant_rules("international")>(g, pdn_game_variant(g, nullptr, pdn), pdn);
    EXPECT_NE(replayed.result, "*");
    EXPECT_GT(replayed.moves.size(), 10u);
  }
  std::filesystem::remove(pdn);
}

// american's matches play the three-move ballots and russian's the FMJD
// table unless told otherwise; variants without a set play random openings.
TEST(Cli, AmericanMatchesPlayTheThreeMoveBallotsByDefault) {
  const Outcome deck = run_dama({"match", "--variant", "american", "--a", "depth=1", "--b", "depth=1", "--games", "2"});
  ASSERT_EQ(deck.exit_code, 0) << deck;
  EXPECT_THAT(deck.err, HasSubstr("openings: builtin:american"));
  const Outcome random = run_dama({"match", "--variant", "american", "--a", "depth=1", "--b", "depth=1", "--games",
                                   "2", "--random-plies", "4"});
  ASSERT_EQ(random.exit_code, 0) << random;
  EXPECT_THAT(random.err, Not(HasSubstr("openings:")));
  const Outcome russian = run_dama({"match", "--variant", "russian", "--a", "depth=1", "--b", "depth=1", "--games", "2"});
  ASSERT_EQ(russian.exit_code, 0) << russian;
  EXPECT_THAT(russian.err, HasSubstr("openings: builtin:russian"));
  const Outcome czech = run_dama({"match", "--variant", "czech", "--a", "depth=1", "--b", "depth=1", "--games", "2"});
  ASSERT_EQ(czech.exit_code, 0) << czech;
  EXPECT_THAT(czech.err, Not(HasSubstr("openings:")));
  // Bad input gets its one line, without the note about the openings first.
  const Outcome bad = run_dama({"match", "--variant", "russian", "--a", "depth=x", "--b", "depth=1", "--games", "2"});
  EXPECT_EQ(bad.exit_code, 2) << bad;
  EXPECT_THAT(bad.err, Not(HasSubstr("openings:")));
}

// dama match plays a DXP engine as a player (here another dama, listening).
TEST(Cli, MatchPlaysADxpEngine) {
  const std::string endpoint = "127.0.0.1:" + std::to_string(free_port());
  Outcome follower;
  std::thread serving([&] {
    follower = run_dama({"dxp", "--listen", endpoint, "--once", "--depth", "1"}, std::chrono::seconds(120));
  });
  const Outcome match = run_dama({"match", "--variant", "international", "--a", "depth=2", "--b",
                                  "dxp:" + endpoint + ",tc=60", "--games", "2", "--random-plies", "4"},
                                 std::chrono::seconds(120));
  serving.join();
  ASSERT_EQ(match.exit_code, 0) << match;
  EXPECT_THAT(match.out, HasSubstr("games        2 of 2"));
  EXPECT_EQ(follower.exit_code, 0) << follower;
  EXPECT_THAT(follower.out, HasSubstr("game 2: "));
  EXPECT_THAT(follower.out, HasSubstr("dxp: 2 games"));
}

}  // namespace
}  // namespace dama
