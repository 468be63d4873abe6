// The PDN reader (protocol/pdn/pdn_reader.hpp) and the notation of each GameType
// (pdn_game_type.hpp, pdn_squares.hpp, pdn_fen.hpp, pdn_moves.hpp):
//  * every variant: random games written by the writer, concatenated into one
//    stream, read back and replayed move by move to the same game;
//  * each GameType's own notation: algebraic squares and separators, the
//    Italian and Spanish numbering of the mirror-image board, the FEN tag,
//    the result tokens (English checkers' "1-0" is Black's win);
//  * published games (tests/data/pdn/, the source named in each file)
//    replayed legally;
//  * what the reader skips, and one clear error for everything it cannot read.
#include "pdn/pdn_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fen.hpp"
#include "pdn/pdn.hpp"
#include "pdn/pdn_fen.hpp"
#include "pdn/pdn_game_type.hpp"
#include "pdn/pdn_squares.hpp"
#include "test_support.hpp"

namespace dama {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr RuleSet kRussian = test::variant_rules("russian");
constexpr RuleSet kCzech = test::variant_rules("czech");
constexpr RuleSet kBrazilian = test::variant_rules("brazilian");
constexpr RuleSet kSpanish = test::variant_rules("spanish");
constexpr RuleSet kItalian = test::variant_rules("italian");
constexpr RuleSet kAmerican = test::variant_rules("american");
constexpr RuleSet kInternational = test::variant_rules("international");
constexpr RuleSet kPoddavki = test::variant_rules("poddavki");

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The game text, replayed with the variant of its GameType tag.
template <RuleSet R>
PdnGame<R> replay_one(const std::string& text, const char* variant, const std::string& source = "g.pdn") {
  const auto games = split_pdn_games(text, source);
  if (games.size() != 1) throw std::runtime_error("expected one game, read " + std::to_string(games.size()));
  return replay_pdn_game<R>(games.front(), find_variant(variant), source);
}

// The error replaying `text` gives, or "(none)".
template <RuleSet R>
std::string error_of(const std::string& text, const char* variant = "american") {
  try {
    const auto games = split_pdn_games(text, "g.pdn");
    for (const auto& game : games) {
      const Variant& v = pdn_game_variant(game, &find_variant(variant), "g.pdn");
      if (v.name != find_variant(variant).name) return "variant " + std::string(v.name);
      replay_pdn_game<R>(game, v, "g.pdn");
    }
  } catch (const Error& e) {
    return e.what();
  }
  return "(none)";
}

// ---------------------------------------------------------------------------
// Every variant: what the writer writes, the reader reads back.

struct RandomGameStats {
  int plies = 0, captures = 0, multi_captures = 0, promotions = 0;
};

template <RuleSet R>
void check_variant_round_trip(const char* name, std::uint64_t seeds) {
  using Board = BoardFor<R>;
  const Variant& variant = find_variant(name);
  std::vector<Game<R>> written;
  std::string stream;
  RandomGameStats stats;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    // Every third game from a position after some moves: a FEN tag to read.
    Game<R> game = test::random_game<R>(Game<R>(), seed, 300);
    if (seed % 3 == 0 && game.plies() > 10) {
      Game<R> tail(game.positions()[7]);
      for (std::size_t i = 7; i < game.moves().size(); ++i) tail.play(game.moves()[i]);
      game = tail;
    }
    PdnTags tags;
    tags.round = std::to_string(seed);
    stream += write_pdn_game<R>(variant, tags, game);
    for (std::size_t i = 0; i < game.moves().size(); ++i) {
      const auto& m = game.moves()[i];
      stats.captures += m.is_capture();
      stats.multi_captures += popcount(m.captured) > 1;
      stats.promotions += m.promotes;
    }
    stats.plies += game.plies();
    written.push_back(std::move(game));
  }
  const auto games = split_pdn_games(stream, std::string(name) + ".pdn");
  ASSERT_EQ(games.size(), written.size()) << name;
  for (std::size_t g = 0; g < games.size(); ++g) {
    const Game<R>& expected = written[g];
    EXPECT_EQ(pdn_game_variant(games[g], nullptr, "x").name, variant.name);
    const PdnGame<R> read = replay_pdn_game<R>(games[g], variant, std::string(name) + ".pdn");
    ASSERT_EQ(read.start, expected.positions().front()) << name << " game " << g;
    ASSERT_EQ(read.moves.size(), expected.moves().size()) << name << " game " << g;
    Position<Board> position = read.start;
    for (std::size_t i = 0; i < read.moves.size(); ++i) {
      ASSERT_TRUE(read.moves[i].same_identity(expected.moves()[i])) << name << " game " << g << " ply " << i;
      position = position.after(read.moves[i]);
      ASSERT_EQ(position, expected.positions()[i + 1]);
    }
    EXPECT_EQ(read.result, expected.result().text()) << name << " game " << g;
  }
  EXPECT_GT(stats.captures, 20) << name;
  EXPECT_GT(stats.multi_captures, 0) << name;
  EXPECT_GT(stats.promotions, 0) << name;
  EXPECT_GE(stats.plies, 30 * static_cast<int>(seeds)) << name << ": the games are too short to test much";
}

TEST(PdnReader, EveryVariantReadsBackWhatTheWriterWrote) {
  check_variant_round_trip<kRussian>("russian", 15);
  check_variant_round_trip<kCzech>("czech", 15);
  check_variant_round_trip<kBrazilian>("brazilian", 15);
  check_variant_round_trip<kSpanish>("spanish", 15);
  check_variant_round_trip<kItalian>("italian", 15);
  check_variant_round_trip<kAmerican>("american", 15);
  check_variant_round_trip<kInternational>("international", 8);
  check_variant_round_trip<kPoddavki>("poddavki", 15);
}

// ---------------------------------------------------------------------------
// Each GameType's notation.

template <RuleSet R>
std::vector<std::string> first_moves(const PdnGameType& type) {
  MoveList<BoardFor<R>> legal;
  MoveGenerator<R>::generate(Position<BoardFor<R>>::start(R.first_player), legal);
  std::vector<std::string> out;
  for (const auto& m : legal) out.push_back(pdn_move_text(m, legal, type));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PdnNotation, EveryVariantHasItsGameTypeAndNotation) {
  for (const Variant& v : kVariants) {
    const PdnGameType& type = pdn_game_type_of(v);
    EXPECT_EQ(type.number, v.pdn_game_type) << v.name;
    EXPECT_EQ(type.notation, v.native_notation) << v.name << ": the notation `dama variants` announces";
    // poddavki has no GameType of its own and shares russian's.
    EXPECT_EQ(variant_of_pdn_game_type(v.pdn_game_type)->name, v.name == "poddavki" || v.name == "bashni" ? "russian" : v.name) << v.name;
  }
  EXPECT_EQ(variant_of_pdn_game_type(23), nullptr);  // american pool checkers: not played
}

// Poddavki is written as GameType 25 (its moves are Russian moves) with a
// private [Variant "poddavki"] tag, which decides when the game is read.
TEST(PdnNotation, PoddavkiSharesGameType25AndIsNamedByAVariantTag) {
  Game<kPoddavki> game;
  for (const char* m : {"c3-d4", "f6-e5"}) game.play(parse_move<kPoddavki>(game.position(), m));
  const std::string text = write_pdn_game<kPoddavki>(find_variant("poddavki"), PdnTags{}, game);
  EXPECT_THAT(text, HasSubstr("[GameType \"25\"]"));
  EXPECT_THAT(text, HasSubstr("[Variant \"poddavki\"]"));
  EXPECT_THAT(text, HasSubstr("1. c3-d4 f6-e5 *"));
  EXPECT_THAT(write_pdn_game<kRussian>(find_variant("russian"), PdnTags{}, Game<kRussian>{}), Not(HasSubstr("Variant")));
  const auto read_as = [](const std::string& pdn, const Variant* expected) {
    return std::string(pdn_game_variant(split_pdn_games(pdn, "g.pdn").front(), expected, "g.pdn").name);
  };
  EXPECT_EQ(read_as(text, nullptr), "poddavki");
  EXPECT_EQ(read_as(text, &find_variant("russian")), "poddavki") << "the tag decides";
  const std::string untagged = "[GameType \"25\"]\n1. c3-d4 f6-e5 *\n";
  EXPECT_EQ(read_as(untagged, nullptr), "russian");
  EXPECT_EQ(read_as(untagged, &find_variant("poddavki")), "poddavki") << "a GameType 25 collection read as poddavki";
  EXPECT_EQ(read_as(untagged, &find_variant("czech")), "russian");
  EXPECT_EQ(read_as("[GameType \"25\"]\n[Variant \"Poddavki\"]\n1. c3-d4 *\n", nullptr), "poddavki");
  EXPECT_EQ(read_as("[GameType \"25\"]\n[Variant \"shashki\"]\n1. c3-d4 *\n", &find_variant("poddavki")), "russian")
      << "a Variant tag naming no variant of the GameType leaves the GameType's own";
}

TEST(PdnNotation, AlgebraicGameTypesWriteSquaresAndTheirSeparator) {
  // PDN 3.0 GameType table: 25 russian ':', 26 brazilian and 29 czech 'x'.
  EXPECT_THAT(first_moves<kRussian>(pdn_game_type_of(find_variant("russian"))),
              ElementsAre("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"));
  Game<kRussian> game;
  for (const char* m : {"c3-d4", "f6-e5"}) game.play(parse_move<kRussian>(game.position(), m));
  const std::string russian = write_pdn_game<kRussian>(find_variant("russian"), PdnTags{}, game);
  EXPECT_THAT(russian, HasSubstr("1. c3-d4 f6-e5 *"));
  Game<kBrazilian> brazilian;
  for (const char* m : {"c3-d4", "f6-e5", "d4xf6"}) brazilian.play(parse_move<kBrazilian>(brazilian.position(), m));
  EXPECT_THAT(write_pdn_game<kBrazilian>(find_variant("brazilian"), PdnTags{}, brazilian),
              HasSubstr("1. c3-d4 f6-e5 2. d4xf6 *"));
  Game<kCzech> czech;
  for (const char* m : {"c3-d4", "f6-e5", "d4xf6"}) czech.play(parse_move<kCzech>(czech.position(), m));
  EXPECT_THAT(write_pdn_game<kCzech>(find_variant("czech"), PdnTags{}, czech), HasSubstr("[GameType \"29\"]"));
  EXPECT_THAT(write_pdn_game<kCzech>(find_variant("czech"), PdnTags{}, czech), HasSubstr("2. d4xf6 *"));
}

TEST(PdnNotation, ItalianAndSpanishNumberTheMirrorImageBoard) {
  // RULES.md: the Italian square of dama's square n is 4*((n-1)/4) + 4 - (n-1)%4.
  for (int n = 1; n <= 32; ++n) {
    EXPECT_EQ(native_square_number<Board8>(n, SquareNumbering::Italian), 4 * ((n - 1) / 4) + 4 - (n - 1) % 4) << n;
    EXPECT_EQ(dama_square_number<Board8>(native_square_number<Board8>(n, SquareNumbering::Italian),
                                         SquareNumbering::Italian), n);
    EXPECT_EQ(dama_square_number<Board8>(native_square_number<Board8>(n, SquareNumbering::Spanish),
                                         SquareNumbering::Spanish), n);
  }
  // Spanish numbers from White's bottom right, row by row from right to left
  // (PDN 3.0 "24,W,8,8,N1,1"): White's men stand on 1-12, and 32 is the top
  // left corner square -- the Italian number turned half round.
  EXPECT_EQ(native_square_number<Board8>(29, SquareNumbering::Spanish), 1);   // a1 of dama = h1 of the mirror board
  EXPECT_EQ(native_square_number<Board8>(4, SquareNumbering::Spanish), 32);   // h8 of dama = a8
  EXPECT_EQ(native_square_number<Board8>(1, SquareNumbering::Italian), 4);    // b8 of dama = g8
  EXPECT_EQ(native_square_number<Board8>(29, SquareNumbering::Italian), 32);  // a1 of dama = h1
  for (int n = 1; n <= 32; ++n)
    EXPECT_EQ(native_square_number<Board8>(n, SquareNumbering::Spanish),
              33 - native_square_number<Board8>(n, SquareNumbering::Italian));

  // White's first moves, from 21-24 to 17-20 (Italian) and from 9-12 to 13-16 (Spanish).
  EXPECT_THAT(first_moves<kItalian>(pdn_game_type_of(find_variant("italian"))),
              ElementsAre("21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"));
  EXPECT_THAT(first_moves<kSpanish>(pdn_game_type_of(find_variant("spanish"))),
              ElementsAre("10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"));
  const auto start = Position<Board8>::start(Color::White);
  EXPECT_EQ(to_pdn_fen(start, pdn_game_type_of(find_variant("italian"))),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_EQ(to_pdn_fen(start, pdn_game_type_of(find_variant("spanish"))),
            "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32");
  // A FEN tag in Spanish numbers is read in Spanish numbers.
  EXPECT_EQ(parse_pdn_fen<Board8>("W:W1-12:B21-32", pdn_game_type_of(find_variant("spanish"))), start);
  EXPECT_EQ(parse_pdn_fen<Board8>("W:WK1:B32", pdn_game_type_of(find_variant("spanish"))),
            parse_fen<Board8>("W:WK29:B4"));
}

TEST(PdnNotation, FenTagOfTheAlgebraicGameTypes) {
  const PdnGameType& russian = pdn_game_type_of(find_variant("russian"));
  const auto start = Position<Board8>::start(Color::White);
  EXPECT_EQ(to_pdn_fen(start, russian), "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6");
  EXPECT_EQ(parse_pdn_fen<Board8>(to_pdn_fen(start, russian), russian), start);
  EXPECT_EQ(parse_pdn_fen<Board8>("B:WKa1:Bh8,Kb8", russian), parse_fen<Board8>("B:WK29:B4,K1"));
  // Numeric FEN tags are read in any GameType (PDN files of russian games often have them).
  EXPECT_EQ(parse_pdn_fen<Board8>("W:W21-32:B1-12.", russian), start);
  EXPECT_THROW(parse_pdn_fen<Board8>("W:Wi9:B1", russian), Error);
  EXPECT_THROW(parse_pdn_fen<Board8>("W:Wa2:B1", russian), Error);  // a light square
}

TEST(PdnNotation, AmbiguousCapturesGiveTheirIntermediateSquares) {
  // An american man on 30 takes 25 and 17 by 21, or 26 and 18 by 23: both end on 14.
  const auto start = parse_fen<Board8>("W:W30:B17,18,25,26");
  Game<kAmerican> game(start);
  game.play(parse_move<kAmerican>(start, "30x21x14"));
  const std::string text = write_pdn_game<kAmerican>(find_variant("american"), PdnTags{}, game);
  EXPECT_THAT(text, HasSubstr("1... 30x21x14 "));
  const std::string ambiguous = error_of<kAmerican>("[FEN \"W:W30:B17,18,25,26\"]\n1... 30x14 *");
  EXPECT_THAT(ambiguous, StartsWith("g.pdn:2: move 1... '30x14': ambiguous: give the intermediate squares ("));
  EXPECT_THAT(ambiguous, HasSubstr("30x21x14"));
  EXPECT_THAT(ambiguous, HasSubstr("30x23x14"));
  // Read back, the full form picks the move.
  const auto read = replay_one<kAmerican>(text, "american");
  ASSERT_EQ(read.moves.size(), 1u);
  EXPECT_TRUE(read.moves[0].same_identity(game.moves()[0]));

}

// PDN 3.0 restriction 9: where a piece goes straight on between two of its
// victims, the intermediate square of a written-out capture is the square
// just behind the first.  The writer writes the generator's landing squares,
// so they must be those: checked on every capture of many positions of the
// flying-king variants, whose kings may stop anywhere behind a victim.
template <RuleSet R>
void check_straight_landings_are_just_behind(std::uint64_t seed) {
  using Board = BoardFor<R>;
  auto xy = [](int bit) {
    const int square = Board::kSquareOfBit[bit];
    return std::pair{Board::x_of_square(square), Board::y_of_square(square)};
  };
  auto sign = [](int v) { return (v > 0) - (v < 0); };
  int straight = 0;
  for (const auto& p : test::test_positions<Board>(R, seed, 400)) {
    MoveList<Board> paths;
    MoveGenerator<R, Counting::Paths>::generate(p, paths);
    for (const auto& m : paths)
      for (int i = 0; i < m.landing_count; ++i) {
        const auto [px, py] = xy(i == 0 ? m.from : m.landings[i - 1]);
        const auto [x, y] = xy(m.landings[i]);
        const auto [nx, ny] = xy(i + 1 == m.landing_count ? m.to : m.landings[i + 1]);
        const int dx = sign(x - px), dy = sign(y - py);
        if (dx != sign(nx - x) || dy != sign(ny - y)) continue;
        ++straight;
        const int behind = Board::kBitOfSquare[Board::square_of_xy(x - dx, y - dy)];
        ASSERT_TRUE((m.captured >> behind) & 1) << to_fen(p) << ": landing " << Board::kSquareOfBit[m.landings[i]];
      }
  }
  EXPECT_GT(straight, 0);
}

TEST(PdnNotation, StraightOnTheIntermediateSquareIsJustBehindTheVictim) {
  // The russian king on a1 takes c3 (22) and f6 (11): d4 is named, not e5.
  const auto king = parse_fen<Board8>("W:WK29:B22,11");
  MoveList<Board8> paths;
  MoveGenerator<kRussian, Counting::Paths>::generate(king, paths);
  ASSERT_EQ(paths.size(), 2);
  for (const auto& m : paths) {
    ASSERT_EQ(m.landing_count, 1);
    EXPECT_EQ(Board8::kSquareOfBit[m.landings[0]], 18);  // d4
  }
  check_straight_landings_are_just_behind<kRussian>(5);
  check_straight_landings_are_just_behind<kBrazilian>(6);
  check_straight_landings_are_just_behind<kInternational>(7);
}

TEST(PdnNotation, ResultTokensOfEachGameType) {
  // English checkers, Black to move with nothing left: White has won.  PDN
  // 2.0 writes "0-1" (its "1-0" is a win for Black, the side that moves
  // first); dama's own result is from the first player's view, the same.
  Game<kAmerican> white_won(parse_fen<Board8>("B:W18:B"));
  ASSERT_TRUE(white_won.over());
  EXPECT_EQ(white_won.result().text(), "0-1");
  const std::string american = write_pdn_game<kAmerican>(find_variant("american"), PdnTags{}, white_won);
  EXPECT_THAT(american, HasSubstr("[Result \"0-1\"]"));
  EXPECT_THAT(american, HasSubstr("[SetUp \"1\"]\n[FEN \"B:W18:B\"]"));
  EXPECT_THAT(american, HasSubstr("\n\n0-1\n\n"));
  EXPECT_EQ(replay_one<kAmerican>(american, "american").result, "0-1");

  // International draughts writes PDN 3.0's International result type.
  Game<kInternational> black_lost(parse_fen<Board10>("B:W28:B"));
  ASSERT_TRUE(black_lost.over());
  const std::string international = write_pdn_game<kInternational>(find_variant("international"), PdnTags{}, black_lost);
  EXPECT_THAT(international, HasSubstr("[Result \"2-0\"]"));
  EXPECT_EQ(replay_one<kInternational>(international, "international").result, "1-0");
  const PdnGameType& type20 = pdn_game_type_of(find_variant("international"));
  EXPECT_EQ(pdn_result_token("0-1", type20), "0-2");
  EXPECT_EQ(pdn_result_token("1/2-1/2", type20), "1-1");
  EXPECT_EQ(pdn_result_token("*", type20), "*");
  EXPECT_EQ(pdn_result_token("1/2-1/2", pdn_game_type_of(find_variant("russian"))), "1/2-1/2");
  // Read in either spelling.
  EXPECT_EQ(first_player_result("1-1"), "1/2-1/2");
  EXPECT_EQ(first_player_result("0-2"), "0-1");
  EXPECT_EQ(first_player_result("0-0"), "*");
  EXPECT_EQ(first_player_result("1-18"), std::nullopt);
}

// ---------------------------------------------------------------------------
// Published games, replayed.

template <RuleSet R>
std::vector<PdnGame<R>> replay_file(const std::string& file, const char* variant) {
  const std::string path = std::string(DAMA_TEST_DATA_DIR) + "/pdn/" + file;
  std::vector<PdnGame<R>> out;
  for (const auto& game : split_pdn_games(read_file(path), file))
    out.push_back(replay_pdn_game<R>(game, pdn_game_variant(game, nullptr, file), file));
  if (std::string(pdn_game_variant(split_pdn_games(read_file(path), file).front(), nullptr, file).name) != variant)
    ADD_FAILURE() << file << " is not " << variant;
  return out;
}

template <RuleSet R>
std::vector<std::string> results(const std::vector<PdnGame<R>>& games) {
  std::vector<std::string> out;
  for (const auto& g : games) out.push_back(g.result);
  return out;
}

template <RuleSet R>
std::vector<std::size_t> lengths(const std::vector<PdnGame<R>>& games) {
  std::vector<std::size_t> out;
  for (const auto& g : games) out.push_back(g.moves.size());
  return out;
}

// In the decisive published games the winner made the last move (the loser
// resigned): so they agree with reading "1-0" as a win for the first player
// -- White, and in English checkers Black, as PDN 2.0 defines it.
template <RuleSet R>
void expect_winners_moved_last(const std::vector<PdnGame<R>>& games, const char* file) {
  for (std::size_t g = 0; g < games.size(); ++g) {
    const auto& game = games[g];
    if (game.result != "1-0" && game.result != "0-1") continue;
    ASSERT_FALSE(game.moves.empty());
    const Color last_mover = game.moves.size() % 2 == 1 ? game.start.side : ~game.start.side;
    const Color winner = game.result == "1-0" ? R.first_player : ~R.first_player;
    EXPECT_EQ(last_mover, winner) << file << " game " << g + 1;
  }
}

TEST(PdnReader, PublishedGamesReplayLegally) {
  // Italian numbering on the mirror-image board: a wrong mapping would stop these on move 1.
  const auto italian = replay_file<kItalian>("italian.pdn", "italian");
  EXPECT_THAT(results(italian), ElementsAre("1/2-1/2", "0-1", "1-0"));
  EXPECT_THAT(lengths(italian), ElementsAre(36u, 36u, 25u));

  const auto american = replay_file<kAmerican>("american.pdn", "american");
  EXPECT_THAT(results(american), ElementsAre("1-0", "0-1", "0-1"));  // PDN 2.0: "1-0" is Black's win
  EXPECT_THAT(lengths(american), ElementsAre(27u, 54u, 30u));

  const auto russian = replay_file<kRussian>("russian.pdn", "russian");
  EXPECT_THAT(results(russian), ElementsAre("1-0", "1/2-1/2", "0-1"));
  EXPECT_THAT(lengths(russian), ElementsAre(61u, 69u, 72u));

  const auto international = replay_file<kInternational>("international.pdn", "international");
  EXPECT_THAT(results(international), ElementsAre("0-1", "1-0"));
  EXPECT_THAT(lengths(international), ElementsAre(126u, 117u));

  const auto brazilian = replay_file<kBrazilian>("brazilian.pdn", "brazilian");
  // The blog prints Black's 14th move of game 1 as d8:d6, which no piece can
  // play; the file has d8:d4, the one legal capture (White's 15. e3:c5 then
  // takes the man on d4).  As printed, it is refused by name:
  const std::string path = std::string(DAMA_TEST_DATA_DIR) + "/pdn/brazilian.pdn";
  std::string as_printed = read_file(path);
  as_printed.replace(as_printed.find("d8:d4  15."), 5, "d8:d6");
  EXPECT_THAT(error_of<kBrazilian>(as_printed, "brazilian"),
              "g.pdn:23: move 14... 'd8:d6': not legal in this position (legal: d8xd4)");
  EXPECT_THAT(results(brazilian), ElementsAre("1/2-1/2", "*"));
  EXPECT_THAT(lengths(brazilian), ElementsAre(47u, 34u));

  // Spanish numbering (White's men on 1-12, the mirror-image board), leading zeros as printed.
  const auto spanish = replay_file<kSpanish>("spanish.pdn", "spanish");
  EXPECT_THAT(results(spanish), ElementsAre("1-0"));
  EXPECT_THAT(lengths(spanish), ElementsAre(49u));

  expect_winners_moved_last(spanish, "spanish.pdn");
  expect_winners_moved_last(american, "american.pdn");
  expect_winners_moved_last(italian, "italian.pdn");
  expect_winners_moved_last(russian, "russian.pdn");
  expect_winners_moved_last(international, "international.pdn");
}

// ---------------------------------------------------------------------------
// What the reader skips.

TEST(PdnReader, SkipsCommentsVariationsNagsAndMoveNumbers) {
  const std::string text =
      "% a line comment of PDN 3.0\n"
      "[Event \"Skips \\\"everything\\\"\"]\n"
      "[GameType \"25,W,8,8,A0,0\"]\n"
      "{ a comment before the moves }\n"
      "1.c3-d4 $1 f6-g5! (1... f6-e5 2. d4xf6 {a variation} (2. d4:f6 (nested))) 2. b2-c3 ; to the end of the line\n"
      "2... g7-f6(?) 3. c3b4 {multi\nline} 3... b6-a5 4. b4-c5 4. ... d6xb4 5. a3:c5!? 1/2-1/2\n";
  const auto games = split_pdn_games(text, "s.pdn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].tag("Event")->value, "Skips \"everything\"");
  std::vector<std::string> moves;
  for (const auto& m : games[0].moves) moves.push_back(m.text);
  EXPECT_THAT(moves, ElementsAre("c3-d4", "f6-g5", "b2-c3", "g7-f6", "c3b4", "b6-a5", "b4-c5", "d6xb4", "a3:c5"));
  EXPECT_EQ(games[0].moves[4].line, 6);
  EXPECT_EQ(games[0].moves[5].line, 7);
  const auto game = replay_pdn_game<kRussian>(games[0], pdn_game_variant(games[0], nullptr, "s.pdn"), "s.pdn");
  EXPECT_EQ(game.moves.size(), 9u);
  EXPECT_EQ(game.result, "1/2-1/2");
}

TEST(PdnReader, GamesWithoutMovesOrTagsOrTerminators) {
  // CheckerBoard's ballot files: a FEN tag and "*", twice on one line.
  const std::string ballots = "[FEN \"W:W24,23,22,21:B4,3\"] * [FEN \"B:W24:B4\"] *\n";
  const auto games = split_pdn_games(ballots, "b.pdn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(games[1].moves.empty());
  const auto second = replay_pdn_game<kItalian>(games[1], find_variant("italian"), "b.pdn");
  EXPECT_EQ(second.start, parse_fen<Board8>("B:W21:B1"));  // Italian 24 and 4 are dama's 21 and 1

  // Movetext alone, and a game cut short by the next one's tags.
  const auto bare = split_pdn_games("11-15 23-19 1-0\n9-13 *\n[Event \"a\"]\n1. 11-15\n[Event \"b\"]\n", "c.pdn");
  ASSERT_EQ(bare.size(), 4u);
  EXPECT_EQ(bare[0].moves.size(), 2u);
  EXPECT_EQ(bare[2].moves.size(), 1u);
  EXPECT_FALSE(bare[2].terminator.has_value());
  EXPECT_EQ(replay_pdn_game<kAmerican>(bare[2], find_variant("american"), "c.pdn").result, "*");
}

// ---------------------------------------------------------------------------
// Errors: one line naming the file, the line and the move.

TEST(PdnReader, ErrorsNameTheFileTheLineAndTheMove) {
  EXPECT_THAT(error_of<kAmerican>("[GameType \"21\"]\n\n1. 11-15 23-19\n2. 8-11 23-18 *\n"),
              StartsWith("g.pdn:4: move 2... '23-18': not legal in this position (legal: "));
  EXPECT_THAT(error_of<kAmerican>("1. 11-15 23-99 *"),
              "g.pdn:1: move 1... '23-99': '99' is not a square of the 8x8 board");
  EXPECT_THAT(error_of<kAmerican>("1. 11-15 23- *"), "g.pdn:1: move 1... '23-': a square is missing");
  EXPECT_THAT(error_of<kAmerican>("1. 11-15 hello *"), "g.pdn:1: move 1... 'hello': 'h' is not a square of the 8x8 board");
  EXPECT_THAT(error_of<kRussian>("1. c3-d4 f6-e5 2. d4-c5 *", "russian"),
              "g.pdn:1: move 2 'd4-c5': not legal in this position (legal: d4:f6)");
  // The game over: nothing is legal.
  EXPECT_THAT(error_of<kAmerican>("[FEN \"B:W18:B\"]\n1. 11-15 *"),
              "g.pdn:2: move 1 '11-15': not legal in this position (legal: none)");
  // Moves after a FEN with the second player to move are numbered "1...".
  EXPECT_THAT(error_of<kAmerican>("[FEN \"W:W21-32:B1-12\"]\n1... 11-15 *"), StartsWith("g.pdn:2: move 1... '11-15'"));
  EXPECT_THAT(error_of<kAmerican>("[FEN \"B:W21-32:B1-12\"]\n1. 11-15 22-18 2. 23-19 *"),
              StartsWith("g.pdn:2: move 2 '23-19'"));
}

TEST(PdnReader, ErrorsForTextThatIsNotPdn) {
  // Truncated input.
  EXPECT_EQ(error_of<kAmerican>("[Event \"cut"), "g.pdn:1: tag Event: its value is never closed");
  EXPECT_EQ(error_of<kAmerican>("[Event \"cut\n1. 11-15 *"), "g.pdn:1: tag Event: its value is never closed on its line");
  EXPECT_EQ(error_of<kAmerican>("[Event \"x\""), "g.pdn:1: tag Event: expected ']' after the value");
  EXPECT_EQ(error_of<kAmerican>("1. 11-15\n{ never closed\n"), "g.pdn:2: comment '{' never closed");
  EXPECT_EQ(error_of<kAmerican>("1. 11-15 (1. 9-13\n"), "g.pdn:1: variation '(' never closed");
  EXPECT_EQ(error_of<kAmerican>("1. 11-15 ) 22-18"), "g.pdn:1: ')' closes no variation");
  // Garbage tags.
  EXPECT_THAT(error_of<kAmerican>("[Event]\n1. 11-15 *"), StartsWith("g.pdn:1: bad tag '[Event]': expected [Name \"value\"]"));
  EXPECT_THAT(error_of<kAmerican>("[\"x\"]"), StartsWith("g.pdn:1: bad tag"));
  EXPECT_EQ(error_of<kAmerican>("[Event \"x\" junk]"), "g.pdn:1: tag Event: expected ']' after the value");
  EXPECT_THAT(error_of<kAmerican>("[Event \"x\"]\n[FEN \"W:W99:B1\"]\n1. 11-15 *"),
              StartsWith("g.pdn:2: FEN tag: bad FEN 'W:W99:B1': '99' is not a square"));
  EXPECT_THAT(error_of<kAmerican>("[FEN \"nonsense\"]\n*"), StartsWith("g.pdn:1: FEN tag: bad FEN 'nonsense'"));
  EXPECT_EQ(error_of<kAmerican>("[Result \"1-0\"]\n1. 11-15 0-1"),
            "g.pdn:2: the Result tag '1-0' and the result '0-1' ending the moves disagree");
  EXPECT_EQ(error_of<kAmerican>("1. 11-15 /FEN \"W:W1:B2\"/ *"),
            "g.pdn:1: setup commands inside the movetext (/FEN .../) are not supported");
  // Unknown GameType, no GameType and no default.
  EXPECT_THAT(error_of<kAmerican>("[GameType \"40\"]\n1. 32-28 *"),
              StartsWith("g.pdn:1: GameType '40' is not a game dama plays (known: 25 russian, "));
  EXPECT_THAT(error_of<kAmerican>("[GameType \"twenty\"]\n*"), StartsWith("g.pdn:1: GameType 'twenty' is not"));
  const auto untyped = split_pdn_games("\n\n1. 11-15 *", "u.pdn");
  ASSERT_EQ(untyped.size(), 1u);
  try {
    pdn_game_variant(untyped[0], nullptr, "u.pdn");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "u.pdn:3: the game has no GameType tag (give the variant)");
  }
}

// Fuzz-like: every prefix of a real file, and the same text with bytes
// changed at random, is read or refused with dama::Error -- nothing else.
TEST(PdnReader, TruncatedAndGarbledInputIsReadOrRefusedCleanly) {
  const std::string text = read_file(std::string(DAMA_TEST_DATA_DIR) + "/pdn/russian.pdn").substr(0, 2500);
  auto survive = [](const std::string& input) {
    try {
      for (const auto& game : split_pdn_games(input, "f.pdn")) {
        const Variant& v = pdn_game_variant(game, &find_variant("russian"), "f.pdn");
        if (v.rules == kRussian) replay_pdn_game<kRussian>(game, v, "f.pdn");
      }
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), StartsWith("f.pdn:")) << input;
    }
  };
  for (std::size_t n = 0; n <= text.size(); n += 7) survive(text.substr(0, n));
  test::Random random(3);
  const std::string alphabet = "[]{}()\"\\;%$*.-x:0123456789abcdefghK \n";
  for (int round = 0; round < 300; ++round) {
    std::string garbled = text;
    for (int k = 0; k < 4; ++k) garbled[random.below(static_cast<int>(garbled.size()))] = alphabet[random.below(static_cast<int>(alphabet.size()))];
    survive(garbled);
  }
  std::string bytes(400, ' ');
  for (int round = 0; round < 200; ++round) {
    for (auto& c : bytes) c = static_cast<char>(random.below(256));
    survive(bytes);
  }
}

}  // namespace
}  // namespace dama
