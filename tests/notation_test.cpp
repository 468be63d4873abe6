// Move notation (core/notation.hpp): every legal move printed in either
// notation reads back as the same move; the short numeric form only when it
// is unambiguous; square names; rejection of unreadable, illegal and
// ambiguous input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "error.hpp"
#include "fen.hpp"
#include "notation.hpp"
#include "test_support.hpp"

namespace dama::test {
namespace {

using ::testing::HasSubstr;

// Runs f.template operator()<R>(variant) for each of the seven variants (and
// no house rule, to keep this file's instantiations few).
template <std::size_t I = 0, class F>
void for_each_variant(F&& f) {
  if constexpr (I < kVariantCount) {
    f.template operator()<kVariants[I].rules>(kVariants[I]);
    for_each_variant<I + 1>(f);
  }
}

template <RuleSet R>
Move<BoardFor<R>> read(const Position<BoardFor<R>>& p, std::string_view text, Notation notation = Notation::Numeric) {
  return parse_move<R>(p, text, notation);
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

int separators(const std::string& s) {
  return static_cast<int>(std::count_if(s.begin(), s.end(), [](char c) { return c == 'x' || c == ':'; }));
}

TEST(Notation, EveryLegalMoveReadsBackInBothNotations) {
  for_each_variant([]<RuleSet R>(const Variant& v) {
    using Board = BoardFor<R>;
    int checked = 0;
    for (const auto& p : test_positions<Board>(v.rules, 2000 + v.pdn_game_type, 2000)) {
      MoveList<Board> legal;
      MoveGenerator<R>::generate(p, legal);
      for (const auto& m : legal) {
        for (Notation n : {Notation::Numeric, Notation::Algebraic}) {
          const std::string text = format_move(m, legal, n);
          try {
            const auto back = read<R>(p, text, n);
            EXPECT_TRUE(back.same_identity(m)) << v.name << " " << to_fen(p) << ": '" << text << "' read as "
                                               << to_plain(back).identity() << ", not " << to_plain(m).identity();
            EXPECT_EQ(back.promotes, m.promotes) << v.name << " " << to_fen(p) << " " << text;
          } catch (const Error& e) {
            ADD_FAILURE() << v.name << " " << to_fen(p) << ": '" << text << "' (" << to_plain(m).path()
                          << ") is not read back: " << e.what();
          }
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 1000) << v.name;
  });
}

// Every capture path (Counting::Paths) printed with all its landing squares
// reads back as its own move.
TEST(Notation, EveryFullCapturePathReadsBack) {
  for_each_variant([]<RuleSet R>(const Variant& v) {
    using Board = BoardFor<R>;
    for (const auto& p : test_positions<Board>(v.rules, 3000 + v.pdn_game_type, 2000)) {
      MoveList<Board> paths;
      MoveGenerator<R, Counting::Paths>::generate(p, paths);
      for (const auto& m : paths) {
        if (!m.is_capture()) continue;
        const std::string text = to_plain(m).path();
        try {
          EXPECT_TRUE(read<R>(p, text).same_identity(m)) << v.name << " " << to_fen(p) << " " << text;
        } catch (const Error& e) {
          ADD_FAILURE() << v.name << " " << to_fen(p) << ": '" << text << "' is not read back: " << e.what();
        }
      }
    }
  });
}

// The short numeric form FROMxTO is printed exactly when no other legal move
// goes from FROM to TO; otherwise every landing square is given.  Algebraic
// always gives every landing square.
TEST(Notation, ShortNumericFormOnlyWhenUnambiguous) {
  for_each_variant([]<RuleSet R>(const Variant& v) {
    using Board = BoardFor<R>;
    for (const auto& p : test_positions<Board>(v.rules, 4000 + v.pdn_game_type, 2000)) {
      MoveList<Board> legal;
      MoveGenerator<R>::generate(p, legal);
      for (const auto& m : legal) {
        if (!m.is_capture()) continue;
        const bool shared = std::count_if(legal.begin(), legal.end(), [&](const auto& o) {
                              return o.from == m.from && o.to == m.to;
                            }) > 1;
        const std::string numeric = format_move(m, legal, Notation::Numeric);
        EXPECT_EQ(separators(numeric), shared ? m.landing_count + 1 : 1) << v.name << " " << to_fen(p) << " " << numeric;
        EXPECT_EQ(separators(format_move(m, legal, Notation::Algebraic)), m.landing_count + 1);
      }
    }
  });
}

TEST(Notation, StepsAndCapturesUseTheirSeparators) {
  constexpr RuleSet R = variant_rules("russian");
  const auto start = Position<Board8>::start(Color::White);
  MoveList<Board8> legal;
  MoveGenerator<R>::generate(start, legal);
  std::vector<std::string> numeric, algebraic;
  for (const auto& m : legal) {
    numeric.push_back(format_move(m, legal, Notation::Numeric));
    algebraic.push_back(format_move(m, legal, Notation::Algebraic));
  }
  // The seven opening moves of White: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4.
  EXPECT_THAT(numeric, ::testing::UnorderedElementsAre("21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"));
  EXPECT_THAT(algebraic,
              ::testing::UnorderedElementsAre("a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"));

  // After c3-d4 f6-e5 the only move is the capture d4:f6 (22-18 11-15, 18x11).
  const auto p = start.after(read<R>(start, "c3-d4", Notation::Algebraic));
  const auto q = p.after(read<R>(p, "f6-e5", Notation::Algebraic));
  MoveGenerator<R>::generate(q, legal);
  ASSERT_EQ(legal.size(), 1);
  EXPECT_EQ(format_move(legal[0], legal, Notation::Numeric), "18x11");
  EXPECT_EQ(format_move(legal[0], legal, Notation::Algebraic), "d4:f6");
  EXPECT_TRUE(read<R>(q, "d4:f6", Notation::Algebraic).same_identity(legal[0]));
  EXPECT_TRUE(read<R>(q, "18x11").same_identity(legal[0]));
  EXPECT_TRUE(read<R>(q, "D4xF6").same_identity(legal[0]));  // upper case, either separator
  EXPECT_TRUE(read<R>(q, "18:11!").same_identity(legal[0]));  // annotation suffix
}

template <class Board>
void expect_square_names() {
  for (int s = 1; s <= Board::kSquares; ++s) {
    const int bit = Board::kBitOfSquare[s];
    const std::string name = square_name<Board>(bit, Notation::Algebraic);
    // The 10x8 board's columns are a-h, i, k (no j: the encyclopedia seed).
    const char* letters = Board::kHeight == 8 && Board::kWidth == 10 ? "abcdefghik" : "abcdefghij";
    const std::string expected =
        std::string(1, letters[Board::x_of_square(s)]) + std::to_string(Board::y_of_square(s) + 1);
    EXPECT_EQ(name, expected);
    EXPECT_EQ(square_name<Board>(bit, Notation::Numeric), std::to_string(s));
    EXPECT_EQ(read_square<Board>(name), bit) << name;
    EXPECT_EQ(read_square<Board>(std::to_string(s)), bit) << s;
  }
  // Light squares, squares off the board and junk are no squares.
  for (const char* junk : {"a2", "b1", "h1", "", "0", "x", "a", "a0", "3c", "c3c", "100", "-1", "z9"})
    EXPECT_EQ(read_square<Board>(junk), std::nullopt) << junk;
  EXPECT_EQ(read_square<Board>(std::to_string(Board::kSquares + 1)), std::nullopt);
}

TEST(Notation, SquareNames) {
  expect_square_names<Board8>();
  expect_square_names<Board10>();
  EXPECT_EQ(read_square<Board8>("i1"), std::nullopt);
  EXPECT_EQ(read_square<Board8>("a9"), std::nullopt);
  EXPECT_EQ(read_square<Board10>("j10"), Board10::kBitOfSquare[5]);
  EXPECT_EQ(read_square<Board10>("a1"), Board10::kBitOfSquare[46]);
  EXPECT_EQ(read_square<Board10>("k1"), std::nullopt);
  EXPECT_EQ(read_square<Board8>("C3"), Board8::kBitOfSquare[22]);
  // 10x8: 1 = b8, 5 = k8 (also read as j8, how programs that letter every
  // column write it), 36 = a1, 40 = i1; there is no row 9.
  expect_square_names<Board10x8>();
  EXPECT_EQ(square_name<Board10x8>(Board10x8::kBitOfSquare[5], Notation::Algebraic), "k8");
  EXPECT_EQ(read_square<Board10x8>("b8"), Board10x8::kBitOfSquare[1]);
  EXPECT_EQ(read_square<Board10x8>("k8"), Board10x8::kBitOfSquare[5]);
  EXPECT_EQ(read_square<Board10x8>("j8"), Board10x8::kBitOfSquare[5]);
  EXPECT_EQ(read_square<Board10x8>("a1"), Board10x8::kBitOfSquare[36]);
  EXPECT_EQ(read_square<Board10x8>("i1"), Board10x8::kBitOfSquare[40]);
  EXPECT_EQ(read_square<Board10x8>("b10"), std::nullopt);
  EXPECT_EQ(read_square<Board10x8>("l2"), std::nullopt);
}

TEST(Notation, RejectsUnreadableInput) {
  constexpr RuleSet R = variant_rules("russian");
  const auto start = Position<Board8>::start(Color::White);
  for (const char* text : {"", "hello", "22", "22-", "-18", "22--18", "22-18-", "x", "22_18", "22 18", "33-29",
                           "0-4", "a2-b3", "c3-d9", "i3-h4", "c3-d4x"}) {
    const std::string message = error_of([&] { read<R>(start, text); });
    EXPECT_THAT(message, HasSubstr("cannot read move")) << "'" << text << "'";
  }
  // A light square is named as the problem.
  EXPECT_THAT(error_of([&] { read<R>(start, "a2-b3"); }), HasSubstr("'a2' is not a square of the 8x8 board"));
}

TEST(Notation, RejectsIllegalMoves) {
  constexpr RuleSet R = variant_rules("russian");
  const auto start = Position<Board8>::start(Color::White);
  // Not adjacent, backwards, onto an occupied square, the other side's man,
  // a capture that is not there.
  for (const char* text : {"21-18", "c3-e5", "22-26", "26-22", "9-13", "b6-a5", "22x15", "22x13x6"}) {
    const std::string message = error_of([&] { read<R>(start, text); });
    EXPECT_THAT(message, HasSubstr("illegal")) << "'" << text << "'";
  }
  // A step where a capture is compulsory (after c3-d4 f6-e5).
  const auto q = parse_fen<Board8>("W:W18,21,23-32:B1-10,12,15");
  EXPECT_THAT(error_of([&] { read<R>(q, "a3-b4", Notation::Algebraic); }), HasSubstr("illegal"));
  EXPECT_THAT(error_of([&] { read<R>(q, "a3-b4", Notation::Algebraic); }), HasSubstr("d4:f6"));  // lists the legal move
  // With no legal move at all.
  EXPECT_THAT(error_of([&] { read<R>(parse_fen<Board8>("W:W:B1"), "21-17"); }), HasSubstr("illegal"));
}

// Two captures with the same from and to but different pieces taken.
// american (men capture forwards only): the white man on c1 (30) takes d2 (26)
// landing on e3 (23) and then d4 (18) landing on c5 (14), or takes b2 (25)
// landing on a3 (21) and then b4 (17) landing on c5 (14).  On c5 neither can
// go on (b6, d6 are empty and men do not capture backwards in american).
TEST(Notation, ReportsAmbiguityAndAcceptsLandingSquares) {
  constexpr RuleSet R = variant_rules("american");
  const auto p = parse_fen<Board8>("W:W30:B17,18,25,26");
  MoveList<Board8> legal;
  MoveGenerator<R>::generate(p, legal);
  EXPECT_EQ(identities(to_plain(legal)), (std::vector<std::string>{"30x14[17,25]", "30x14[18,26]"}));
  std::vector<std::string> printed;
  for (const auto& m : legal) printed.push_back(format_move(m, legal, Notation::Numeric));
  EXPECT_THAT(printed, ::testing::UnorderedElementsAre("30x21x14", "30x23x14"));

  const std::string message = error_of([&] { read<R>(p, "30x14"); });
  EXPECT_THAT(message, HasSubstr("ambiguous"));
  EXPECT_THAT(message, HasSubstr("30x21x14"));  // shows the way to say it
  EXPECT_EQ(to_plain(read<R>(p, "30x23x14")).identity(), "30x14[18,26]");
  EXPECT_EQ(to_plain(read<R>(p, "30x21x14")).identity(), "30x14[17,25]");
  EXPECT_EQ(to_plain(read<R>(p, "c1:a3:c5", Notation::Algebraic)).identity(), "30x14[17,25]");
  EXPECT_THAT(error_of([&] { read<R>(p, "30x22x14"); }), HasSubstr("illegal"));  // no such landing
}

// russian, Black to move: the king d4 (18) can take e3 (23) alone, landing on
// f2 (27) or g1 (32) (from neither can it go on), or take e5 (15), e7 (7), c7
// (6) and then e3 (23) via f6 (11), d8 (2), b6 (9) -- from d8 only b6 lets
// it go on -- landing on the same f2 or g1.  The one-piece captures, written
// with every landing square, are "18x27" and "18x32" (what `dama moves`
// prints), and must read as themselves: the longer captures have other
// landing squares, so the text names exactly one move.
TEST(Notation, ACaptureWithEveryLandingSquareGivenIsNotAmbiguous) {
  constexpr RuleSet R = variant_rules("russian");
  const auto p = parse_fen<Board8>("B:W6,7,K15,23,26,K28,29,30:B4,16,17,K18,21");
  MoveList<Board8> legal;
  MoveGenerator<R>::generate(p, legal);
  EXPECT_EQ(identities(to_plain(legal)),
            (std::vector<std::string>{"18x27[23]", "18x27[6,7,15,23]", "18x32[23]", "18x32[6,7,15,23]"}));
  EXPECT_EQ(to_plain(read<R>(p, "18x11x2x9x32")).identity(), "18x32[6,7,15,23]");
  EXPECT_EQ(to_plain(read<R>(p, "d4:f6:d8:b6:f2", Notation::Algebraic)).identity(), "18x27[6,7,15,23]");
  for (const char* text : {"18x32", "d4:g1"}) {
    SCOPED_TRACE(text);
    try {
      EXPECT_EQ(to_plain(read<R>(p, text, Notation::Algebraic)).identity(), "18x32[23]");
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// Sequences that differ only in their landing squares are one move: the short
// form is not ambiguous (brazilian T11 of rule_cases.tsv: the man goes round
// the four black men either way).
TEST(Notation, SameIdentityDifferentPathsIsNotAmbiguous) {
  constexpr RuleSet R = variant_rules("brazilian");
  const auto p = parse_fen<Board8>("W:W23:B10,11,18,19");
  const auto m = read<R>(p, "23x23");
  EXPECT_EQ(to_plain(m).identity(), "23x23[10,11,18,19]");
  EXPECT_TRUE(read<R>(p, "23x14x7x16x23").same_identity(m));
  EXPECT_TRUE(read<R>(p, "23x16x7x14x23").same_identity(m));
  MoveList<Board8> legal;
  MoveGenerator<R>::generate(p, legal);
  ASSERT_EQ(legal.size(), 1);
  EXPECT_EQ(format_move(legal[0], legal, Notation::Numeric), "23x23");
}

}  // namespace
}  // namespace dama::test
