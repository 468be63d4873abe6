// The PDN writer (protocol/pdn/pdn.hpp): the tag section, move numbers, the result,
// line wrapping, the FEN tag only away from the start -- and every written
// game read back with parse_move and replayed to the same positions.  The
// notation of each GameType and the reader: pdn_reader_test.cpp.
#include "pdn/pdn.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "fen.hpp"
#include "pdn/pdn_fen.hpp"
#include "test_support.hpp"
#include "utc_time.hpp"

namespace dama {
namespace {

constexpr RuleSet kRussian = test::variant_rules("russian");
constexpr RuleSet kAmerican = test::variant_rules("american");
constexpr RuleSet kInternational = test::variant_rules("international");


struct ReadPdn {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::string> movetext_lines;
  std::vector<std::string> tokens;  // the movetext, move numbers included

  std::string tag(const std::string& name) const {
    for (const auto& [n, v] : tags)
      if (n == name) return v;
    return "(absent)";
  }
};

// A reader just strict enough for what the writer emits: tags, one blank
// line, the movetext, one blank line.
ReadPdn read_pdn(const std::string& text) {
  ReadPdn out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && !line.empty()) {
    EXPECT_EQ(line.front(), '[') << line;
    EXPECT_EQ(line.substr(line.size() - 2), "\"]") << line;
    const auto space = line.find(' ');
    out.tags.emplace_back(line.substr(1, space - 1), line.substr(space + 2, line.size() - space - 4));
  }
  while (std::getline(in, line) && !line.empty()) {
    out.movetext_lines.push_back(line);
    for (const auto& word : test::split_words(line)) out.tokens.push_back(word);
  }
  EXPECT_FALSE(std::getline(in, line)) << "nothing may follow the blank line after the movetext";
  EXPECT_EQ(text.substr(text.size() - 2), "\n\n");
  return out;
}

// Replays the movetext with parse_move from `start`; checks the move numbers
// on the way and returns the game.
template <RuleSet R>
Game<R> replay(const ReadPdn& pdn, const Position<BoardFor<R>>& start) {
  Game<R> game(start);
  int expected_number = 1;
  for (std::size_t i = 0; i + 1 < pdn.tokens.size(); ++i) {
    const std::string& token = pdn.tokens[i];
    if (token.back() == '.') {
      const bool continuation = token.size() > 3 && token.substr(token.size() - 3) == "...";
      EXPECT_EQ(token, std::to_string(expected_number) + (continuation ? "..." : ".")) << "token " << i;
      EXPECT_EQ(game.position().side == R.first_player, !continuation) << token;
      continue;
    }
    if (game.position().side != R.first_player) ++expected_number;
    game.play(parse_move<R>(game.position(), token, Notation::Numeric));
  }
  return game;
}

TEST(Pdn, TagSectionMovetextAndResult) {
  Game<kRussian> game;
  for (const char* m : {"c3-d4", "f6-e5", "d4xf6"}) game.play(parse_move<kRussian>(game.position(), m));
  PdnTags tags;
  tags.event = "Test \"quoted\" event";
  tags.date = "2026.11.30";
  tags.round = "7";
  tags.white = "A depth=2";
  tags.black = "B depth=3";
  const std::string text = write_pdn_game<kRussian>(find_variant("russian"), tags, game);
  EXPECT_EQ(text,
            "[Event \"Test \\\"quoted\\\" event\"]\n"
            "[Site \"?\"]\n"
            "[Date \"2026.11.30\"]\n"
            "[Round \"7\"]\n"
            "[White \"A depth=2\"]\n"
            "[Black \"B depth=3\"]\n"
            "[Result \"*\"]\n"
            "[GameType \"25\"]\n"
            "\n"
            "1. c3-d4 f6-e5 2. d4:f6 *\n"
            "\n");
}

TEST(Pdn, GameTypeOfEveryVariant) {
  const std::pair<const char*, const char*> expected[] = {
      {"international", "20"}, {"american", "21"},  {"italian", "22"}, {"spanish", "24"},
      {"russian", "25"},       {"brazilian", "26"}, {"czech", "29"}};
  for (const auto& [name, type] : expected) {
    const std::string section = detail::pdn_tag_section(find_variant(name), PdnTags{}, "*", "");
    EXPECT_NE(section.find("[GameType \"" + std::string(type) + "\"]\n"), std::string::npos) << name << "\n" << section;
    EXPECT_EQ(section.find("[FEN"), std::string::npos);
  }
}

TEST(Pdn, ResultOverrideAndFinishedGames) {
  // White to move with nothing left to move: the game is over, 0-1.
  Game<kRussian> lost(parse_fen<Board8>("W:W29:B22,25"));
  ASSERT_TRUE(lost.over());
  const auto text = write_pdn_game<kRussian>(find_variant("russian"), PdnTags{}, lost);
  EXPECT_NE(text.find("[Result \"0-1\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[SetUp \"1\"]\n[FEN \"W:Wa1:Bc3,b2\"]"), std::string::npos) << text;
  EXPECT_EQ(read_pdn(text).tokens, std::vector<std::string>{"0-1"});

  Game<kRussian> ongoing;
  const auto adjudicated = write_pdn_game<kRussian>(find_variant("russian"), PdnTags{}, ongoing, "1/2-1/2");
  EXPECT_NE(adjudicated.find("[Result \"1/2-1/2\"]"), std::string::npos);
  EXPECT_EQ(read_pdn(adjudicated).tokens, std::vector<std::string>{"1/2-1/2"});
}

TEST(Pdn, SecondPlayerToMoveOpensWithEllipsis) {
  const std::string fen = "B:W21-32:B1-12";
  const auto start = parse_fen<Board8>(fen);
  Game<kRussian> game = test::random_game<kRussian>(Game<kRussian>(start), 11, 5);
  const auto pdn = read_pdn(write_pdn_game<kRussian>(find_variant("russian"), PdnTags{}, game));
  EXPECT_EQ(pdn.tag("FEN"), to_pdn_fen(start, pdn_game_type_of(find_variant("russian"))));  // no ranges
  EXPECT_EQ(pdn.tag("FEN"), "B:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6");
  ASSERT_GE(pdn.tokens.size(), 4u);
  EXPECT_EQ(pdn.tokens[0], "1...");
  EXPECT_EQ(pdn.tokens[2], "2.");
  EXPECT_EQ(replay<kRussian>(pdn, start).positions(), game.positions());
}

TEST(Pdn, AmericanCountsMovesFromBlack) {
  Game<kAmerican> game = test::random_game<kAmerican>(Game<kAmerican>(Position<Board8>::start(Color::Black)), 5, 4);
  const auto pdn = read_pdn(write_pdn_game<kAmerican>(find_variant("american"), PdnTags{}, game));
  EXPECT_EQ(pdn.tag("GameType"), "21");
  EXPECT_EQ(pdn.tag("FEN"), "(absent)");  // Black to move is american's start
  ASSERT_GE(pdn.tokens.size(), 5u);
  EXPECT_EQ(pdn.tokens[0], "1.");
  EXPECT_EQ(pdn.tokens[3], "2.");
}

// Long random games in three variants: captures written with the
// GameType's separator, lines of at most 80 characters, and the moves read
// back to the very same game.
template <RuleSet R>
void check_round_trip(const char* variant, std::uint64_t seeds) {
  const auto start = Position<BoardFor<R>>::start(R.first_player);
  bool saw_capture = false;
  int plies = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const Game<R> game = test::random_game<R>(Game<R>(start), seed, 300);
    plies += game.plies();
    const std::string text = write_pdn_game<R>(find_variant(variant), PdnTags{}, game);
    const auto pdn = read_pdn(text);
    for (const auto& line : pdn.movetext_lines) EXPECT_LE(line.size(), kPdnLineWidth) << line;
    const PdnGameType& type = pdn_game_type_of(find_variant(variant));
    EXPECT_EQ(pdn.tokens.back(), pdn_result_token(game.result().text(), type));
    EXPECT_EQ(pdn.tag("Result"), pdn_result_token(game.result().text(), type));
    for (const auto& token : pdn.tokens)
      saw_capture |= token.find(type.capture_separator) != std::string::npos && token.back() != '.';
    const Game<R> replayed = replay<R>(pdn, start);
    ASSERT_EQ(replayed.positions(), game.positions()) << variant << " seed " << seed << "\n" << text;
    EXPECT_EQ(replayed.result().text(), game.result().text());
  }
  EXPECT_TRUE(saw_capture) << variant;
  EXPECT_GE(plies, 30 * static_cast<int>(seeds)) << variant << ": the games are too short to test much";
}

TEST(Pdn, RandomGamesReadBackMoveForMove) {
  check_round_trip<kRussian>("russian", 20);
  check_round_trip<kAmerican>("american", 20);
  check_round_trip<kInternational>("international", 10);
}

TEST(Pdn, RefusesAMoveThatIsNotLegal) {
  Game<kRussian> game;
  auto moves = std::vector<Move<Board8>>{parse_move<kRussian>(game.position(), "c3-d4")};
  moves.push_back(moves.front());  // the same man cannot move from c3 again
  EXPECT_THROW(write_pdn_game<kRussian>(find_variant("russian"), PdnTags{}, game.position(), moves, "*"), Error);
}

TEST(Pdn, WrapsLongMovetext) {
  const std::vector<std::string> tokens(30, "12x34");
  const std::string text = detail::wrap_tokens(tokens, 80);
  std::istringstream lines(text);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    EXPECT_LE(line.size(), 80u);
    EXPECT_NE(line.front(), ' ');
    EXPECT_NE(line.back(), ' ');
  }
  EXPECT_EQ(count, 3);  // 13 tokens of 5 with spaces make 77 characters
}

TEST(Pdn, DateIsUtcYearMonthDay) {
  // 2026-11-30 23:59:59 UTC
  const auto when = std::chrono::system_clock::time_point(std::chrono::seconds(1796083199));
  EXPECT_EQ(pdn_date(when), "2026.11.30");
}

// The creation time of datasets and weight files: ISO 8601 in UTC, the
// format h5py and pandas users parse without a format string.
TEST(UtcTime, FormatsAnyPointInUtc) {
  const auto when = std::chrono::system_clock::time_point(std::chrono::seconds(1796083199));
  EXPECT_EQ(utc_text(when, "%Y-%m-%dT%H:%M:%SZ"), "2026-11-30T23:59:59Z");
  EXPECT_EQ(utc_text(when + std::chrono::seconds(1), "%Y-%m-%dT%H:%M:%SZ"), "2026-12-01T00:00:00Z");
  const std::string now = utc_timestamp_now();
  ASSERT_EQ(now.size(), 20u) << now;
  EXPECT_EQ(now[10], 'T');
  EXPECT_EQ(now.back(), 'Z');
}

}  // namespace
}  // namespace dama
