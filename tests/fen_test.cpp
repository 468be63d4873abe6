// PDN FEN (core/fen.hpp): round trips, canonical output, and every kind of bad
// input rejected with a dama::Error that names the problem.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "error.hpp"
#include "fen.hpp"
#include "test_support.hpp"

namespace dama::test {
namespace {

using ::testing::HasSubstr;

// Positions from random games of every variant survive to_fen -> parse_fen.
TEST(Fen, RoundTripsRandomPositionsOfEveryVariant) {
  for (const Variant& v : kVariants) {
    with_board_of(v.rules, [&]<class Board>() {
      for (const auto& p : test_positions<Board>(v.rules, 1000 + v.pdn_game_type, 1000)) {
        const std::string fen = to_fen(p);
        EXPECT_EQ(parse_fen<Board>(fen), p) << v.name << ": " << fen;
        EXPECT_EQ(to_fen(parse_fen<Board>(fen)), fen) << v.name;
      }
    });
  }
}

TEST(Fen, StartPositions) {
  EXPECT_EQ(to_fen(Position<Board8>::start(Color::White)),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_EQ(to_fen(Position<Board8>::start(Color::Black)),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  std::string fen = "W:W";
  for (int s = 31; s <= 50; ++s) fen.append(s > 31 ? "," : "").append(std::to_string(s));
  fen += ":B";
  for (int s = 1; s <= 20; ++s) fen.append(s > 1 ? "," : "").append(std::to_string(s));
  EXPECT_EQ(to_fen(Position<Board10>::start(Color::White)), fen);
  EXPECT_EQ(parse_fen<Board8>("W:W21-32:B1-12"), Position<Board8>::start(Color::White));
  EXPECT_EQ(parse_fen<Board8>("B:W21-32:B1-12"), Position<Board8>::start(Color::Black));
  EXPECT_EQ(parse_fen<Board10>("W:W31-50:B1-20"), Position<Board10>::start(Color::White));
  // 10x8: 15 men each on the three nearest rows.
  EXPECT_EQ(parse_fen<Board10x8>("W:W26-40:B1-15"), Position<Board10x8>::start(Color::White));
}

// What parse_fen accepts is written back in one canonical form: side, White's
// list, Black's list, squares ascending, K before kings, no ranges.
TEST(Fen, CanonicalOutput) {
  const std::pair<const char*, const char*> cases[] = {
      {"W:W21-24:B1-3", "W:W21,22,23,24:B1,2,3"},
      {"B:WK30,21:B1", "B:W21,K30:B1"},                         // kings, unsorted input
      {"W:B1,2:W30,31", "W:W30,31:B1,2"},                       // Black's list first
      {"  W : W 21 , 22 : B 1 - 3  ", "W:W21,22:B1,2,3"},      // spaces everywhere
      {"W:W21:B1.", "W:W21:B1"},                                // PDN's closing full stop
      {"\"W:W21:B1\"", "W:W21:B1"},                             // quoted, as in a PDN tag
      {"w:w21:bk5", "W:W21:BK5"},                               // lower case
      {"W:WK1-3:B25-26", "W:WK1,K2,K3:B25,26"},                 // K applies to a whole range
      {"W:W21", "W:W21:B"},                                     // a side without pieces
      {"B:W:B5", "B:W:B5"},
  };
  for (const auto& [input, canonical] : cases) {
    SCOPED_TRACE(input);
    try {
      const auto p = parse_fen<Board8>(input);
      EXPECT_EQ(to_fen(p), canonical);
      EXPECT_EQ(parse_fen<Board8>(canonical), p);
    } catch (const Error& e) {
      ADD_FAILURE() << "rejected: " << e.what();
    }
  }
}

TEST(Fen, KingsAndMenAreKept) {
  const auto p = parse_fen<Board8>("B:WK1,21:B2,K29");
  EXPECT_EQ(p.side, Color::Black);
  EXPECT_EQ(p.of(Color::White), Board8::square_bit(1) | Board8::square_bit(21));
  EXPECT_EQ(p.of(Color::Black), Board8::square_bit(2) | Board8::square_bit(29));
  EXPECT_EQ(p.kings, Board8::square_bit(1) | Board8::square_bit(29));
}

struct BadFen {
  const char* fen;
  const char* problem;  // a fragment of the message that names the problem
};

void expect_rejected(const BadFen& bad, BoardShape board) {
  SCOPED_TRACE(bad.fen);
  try {
    with_board(board, [&]<class Board>() { parse_fen<Board>(bad.fen); });
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr(bad.problem));
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a dama::Error: " << e.what();
  }
}

TEST(Fen, RejectsMalformedInput) {
  const BadFen cases[] = {
      {"", "empty"},
      {"   ", "empty"},
      {":W21:B1", "side to move"},                    // no side
      {"W21:B1", "side to move"},                     // no ':' after the side
      {"X:W21:B1", "expected W or B for the side to move, got 'X'"},
      {"WB:W21:B1", "side to move"},
      {"W:X21:B1", "expected W or B for a piece list, got 'X'"},
      {"W:W21,abc:B1", "'abc' is not a square number"},  // garbage token
      {"W:W21,2x:B1", "'2x' is not a square number"},
      {"W:W21,,22:B1", "empty entry"},
      {"W:W21::B1", "empty section"},
      {"W:W21:B1:", "empty section"},
      {"W:WK:B1", "is not a square number"},
      {"W:W21-:B1", "is not a square number"},
      {"W:W-21:B1", "is not a square number"},
      {"W:W+21:B1", "is not a square number"},
      {"W:W99999999999999999999:B1", "is not a square number"},
  };
  for (const auto& bad : cases) expect_rejected(bad, {8, 8});
}

// "W:W21,,22" is rejected for its empty entry; so is the empty entry after a
// trailing comma.
TEST(Fen, RejectsATrailingComma) {
  expect_rejected({"W:W21,:B1", "empty entry"}, {8, 8});
  expect_rejected({"W:W21:B1,", "empty entry"}, {8, 8});
}

TEST(Fen, RejectsSquaresOutOfRange) {
  expect_rejected({"W:W0:B1", "square 0 is out of range 1-32"}, {8, 8});
  expect_rejected({"W:W21:B33", "square 33 is out of range 1-32"}, {8, 8});
  expect_rejected({"W:W21-33:B1", "square 33 is out of range 1-32"}, {8, 8});
  expect_rejected({"W:W51:B1", "square 51 is out of range 1-50"}, {10, 10});
  expect_rejected({"W:W0:B1", "square 0 is out of range 1-50"}, {10, 10});
  // The same squares are fine on the bigger board.
  EXPECT_NO_THROW(parse_fen<Board10>("W:W33,50:B1"));
}

TEST(Fen, RejectsASquareGivenTwice) {
  expect_rejected({"W:W21,21:B1", "square 21 is given twice"}, {8, 8});
  expect_rejected({"W:W21-24,23:B1", "square 23 is given twice"}, {8, 8});
  expect_rejected({"W:W21:B21", "square 21 is given twice"}, {8, 8});   // across colours
  expect_rejected({"W:WK5:B5", "square 5 is given twice"}, {8, 8});
  expect_rejected({"W:W40:BK40", "square 40 is given twice"}, {10, 10});
}

// A man cannot stand on the row where it would have been crowned.
TEST(Fen, RejectsAManOnItsCrowningRow) {
  for (int s = 1; s <= 4; ++s)
    expect_rejected({("W:W" + std::to_string(s) + ":B12").c_str(), "white man on square"}, {8, 8});
  for (int s = 29; s <= 32; ++s)
    expect_rejected({("W:W21:B" + std::to_string(s)).c_str(), "black man on square"}, {8, 8});
  expect_rejected({"W:W1:B12", "white man on square 1, its crowning row"}, {8, 8});
  expect_rejected({"W:W5:B40", "white man on square 5"}, {10, 10});
  expect_rejected({"W:W40:B46", "black man on square 46"}, {10, 10});
  // Kings may stand there, and men on the other side's crowning row.
  EXPECT_NO_THROW(parse_fen<Board8>("W:WK1,K2,29,30:BK31,K32,3,4"));
  EXPECT_NO_THROW(parse_fen<Board10>("W:WK1,46:BK50,5"));
}

TEST(Fen, RejectsTooManyPieces) {
  expect_rejected({"W:W17-29:B1", "too many white pieces (13, at most 12)"}, {8, 8});
  expect_rejected({"W:W29:B1-13", "too many black pieces (13, at most 12)"}, {8, 8});
  expect_rejected({"W:W30-50:B1", "too many white pieces (21, at most 20)"}, {10, 10});
  EXPECT_NO_THROW(parse_fen<Board8>("W:W21-32:B1-12"));
  EXPECT_NO_THROW(parse_fen<Board10>("W:W31-50:B1-20"));
  expect_rejected({"W:W25-40:B1", "too many white pieces (16, at most 15)"}, {10, 8});
  expect_rejected({"W:W5:B40", "white man on square 5, its crowning row"}, {10, 8});
  expect_rejected({"W:W40:B41", "square 41 is out of range 1-40"}, {10, 8});
  EXPECT_NO_THROW(parse_fen<Board10x8>("W:W26-40:B1-15"));
}

TEST(Fen, RejectsTheSameColourListedTwice) {
  expect_rejected({"W:W21:W22", "white pieces listed twice"}, {8, 8});
  expect_rejected({"W:B1:W21:B2", "black pieces listed twice"}, {8, 8});
}

TEST(Fen, RejectsABackwardsRange) {
  expect_rejected({"W:W25-21:B1", "range 25-21 runs backwards"}, {8, 8});
}

// The message quotes the input, so a user can see which FEN was meant.
TEST(Fen, MessageQuotesTheFen) {
  expect_rejected({"W:W21,21:B1", "bad FEN 'W:W21,21:B1'"}, {8, 8});
}

}  // namespace
}  // namespace dama::test
