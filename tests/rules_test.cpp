// The rule switches of RULES.md, one targeted position each, with the legal
// moves worked out by hand from RULES.md (the reasoning is in the comments).
// Squares: 8x8 PDN numbers; a1 = 29, c3 = 22, d4 = 18, e5 = 15, h8 = 4.
#include <gmock/gmock.h>
#include <gtest/gtest.h>


#include "error.hpp"
#include "fen.hpp"
#include "test_support.hpp"

namespace dama::test {
namespace {

using ::testing::HasSubstr;

// The variant table of RULES.md, switch by switch.
TEST(Variants, MatchTheRulesTable) {
  struct Row {
    const char* name;
    BoardShape board;
    Color first;
    bool backwards, flying, men_take_kings;
    CaptureChoice choice;
    CrowningInCapture crowning;
    Removal removal;
    Goal goal = Goal::NoMoveLoses;
    Prisoners prisoners = Prisoners::Removed;
  };
  using enum CaptureChoice;
  using enum CrowningInCapture;
  const Row table[] = {
      {"russian", {8, 8}, Color::White, true, true, true, Any, ContinueAsKing, Removal::AtEnd},
      {"czech", {8, 8}, Color::White, false, true, true, KingFirst, EndsMove, Removal::AtEnd},
      {"brazilian", {8, 8}, Color::White, true, true, true, MostPieces, OnlyIfEnds, Removal::AtEnd},
      {"spanish", {8, 8}, Color::White, false, true, true, MostPiecesThenKings, EndsMove, Removal::AtEnd},
      {"italian", {8, 8}, Color::White, false, false, false, Italian, EndsMove, Removal::AtEnd},
      {"american", {8, 8}, Color::Black, false, false, true, Any, EndsMove, Removal::AtOnce},
      {"international", {10, 10}, Color::White, true, true, true, MostPieces, OnlyIfEnds, Removal::AtEnd},
      {"poddavki", {8, 8}, Color::White, true, true, true, Any, ContinueAsKing, Removal::AtEnd, Goal::NoMoveWins},
      {"russian10x8", {10, 8}, Color::White, true, true, true, Any, ContinueAsKing, Removal::AtEnd},
      {"bashni", {8, 8}, Color::White, true, true, true, Any, ContinueAsKing, Removal::AtEnd, Goal::NoMoveLoses,
       Prisoners::UnderCapturer},
  };
  ASSERT_EQ(kVariantCount, std::size(table));
  for (const Row& row : table) {
    SCOPED_TRACE(row.name);
    const RuleSet& r = find_variant(row.name).rules;
    EXPECT_EQ(r.board, row.board);
    EXPECT_EQ(r.first_player, row.first);
    EXPECT_EQ(r.men_capture_backwards, row.backwards);
    EXPECT_EQ(r.flying_kings, row.flying);
    EXPECT_EQ(r.men_capture_kings, row.men_take_kings);
    EXPECT_EQ(r.choice, row.choice);
    EXPECT_EQ(r.crowning, row.crowning);
    EXPECT_EQ(r.removal, row.removal);
    EXPECT_EQ(r.goal, row.goal);
    EXPECT_EQ(r.prisoners, row.prisoners);
    EXPECT_TRUE(r.forced_capture);
  }
  EXPECT_EQ(&find_variant("english"), &find_variant("american"));
  EXPECT_THROW(find_variant("chess"), Error);
}

// A position and, per variant, its legal moves in rule_cases.tsv's format.
struct SwitchCase {
  const char* what;
  const char* fen;
  std::map<std::string, std::string> legal;  // variant -> legal moves
};

const std::vector<SwitchCase>& switch_cases() {
  static const std::vector<SwitchCase> cases = {
      // White man d4 (18), black man c3 (22) behind it, b2 (25) empty.
      {"men capture backwards: White", "W:W18:B22",
       {{"russian", "18x25[22]"}, {"brazilian", "18x25[22]"}, {"czech", "18-14 18-15"}, {"spanish", "18-14 18-15"},
        {"italian", "18-14 18-15"}, {"american", "18-14 18-15"}}},
      // Black man e5 (15), white man f6 (11) behind it (north), g7 (8) empty.
      {"men capture backwards: Black", "B:W11:B15",
       {{"russian", "15x8[11]"}, {"brazilian", "15x8[11]"}, {"czech", "15-18 15-19"}, {"spanish", "15-18 15-19"},
        {"italian", "15-18 15-19"}, {"american", "15-18 15-19"}}},
      // King a1 (29), black man e5 (15) on the long diagonal, f6 g7 h8 empty:
      // a flying king takes it from afar and lands on any of them (none goes
      // on capturing); a short king only steps to b2.  A king never "promotes".
      {"flying kings", "W:WK29:B15",
       {{"russian", "29x11[15] 29x8[15] 29x4[15]"}, {"czech", "29x11[15] 29x8[15] 29x4[15]"},
        {"brazilian", "29x11[15] 29x8[15] 29x4[15]"}, {"spanish", "29x11[15] 29x8[15] 29x4[15]"},
        {"italian", "29-25"}, {"american", "29-25"}}},
      // White man c3 (22), black king d4 (18), e5 (15) empty: italian men may
      // not take kings, so the man steps to b4 (17); d4 is occupied.
      {"men capture kings", "W:W22:BK18",
       {{"russian", "22x15[18]"}, {"czech", "22x15[18]"}, {"brazilian", "22x15[18]"}, {"spanish", "22x15[18]"},
        {"italian", "22-17"}, {"american", "22x15[18]"}}},
      // White man c3 (22): over d4 (18) to e5 (15), where nothing more is
      // takeable; or over b4 (17) to a5 (13), then over b6 (9) to c7 (6), not
      // the last row.  "any" keeps both, "most pieces" only the longer.
      {"which capture: any or most pieces", "W:W22:B9,17,18",
       {{"russian", "22x15[18] 22x6[9,17]"}, {"czech", "22x15[18] 22x6[9,17]"}, {"american", "22x15[18] 22x6[9,17]"},
        {"brazilian", "22x6[9,17]"}, {"spanish", "22x6[9,17]"}, {"italian", "22x6[9,17]"}}},
      // King a1 (29) can take e5 (15) from afar; man a3 (21) can take b4 (17)
      // landing on c5 (14).  czech: a king can capture, so only king captures.
      // Short kings cannot reach e5, so only the man's capture is left.
      {"which capture: a king's first (czech)", "W:WK29,21:B15,17",
       {{"czech", "29x11[15] 29x8[15] 29x4[15]"}, {"russian", "29x11[15] 29x8[15] 29x4[15] 21x14[17]"},
        {"brazilian", "29x11[15] 29x8[15] 29x4[15] 21x14[17]"}, {"spanish", "29x11[15] 29x8[15] 29x4[15] 21x14[17]"},
        {"italian", "21x14[17]"}, {"american", "21x14[17]"}}},
      // King d2 (26) can take c3 (22) landing on b4 (17) (a flying king also
      // on a5 (13), and can take f4 (19) landing on g5 (16) or h6 (12)); man g3
      // (24) can take f4 (19) landing on e5 (15).  Italian order: equal
      // numbers, so the king's capture.
      {"which capture: italian order prefers the king", "W:WK26,24:B19,22",
       {{"italian", "26x17[22]"}, {"american", "26x17[22] 24x15[19]"},
        {"russian", "26x17[22] 26x13[22] 26x16[19] 26x12[19] 24x15[19]"},
        {"brazilian", "26x17[22] 26x13[22] 26x16[19] 26x12[19] 24x15[19]"},
        {"spanish", "26x17[22] 26x13[22] 26x16[19] 26x12[19] 24x15[19]"},
        {"czech", "26x17[22] 26x13[22] 26x16[19] 26x12[19]"}}},
      // Two men's single jumps: a3 (21) over the man b4 (17) to c5 (14), and
      // g3 (24) over the king f4 (19) to e5 (15); neither man can go on.
      // spanish: equal numbers, then the most kings; italian: a man may not
      // take a king.
      {"which capture: most pieces, then most kings (spanish)", "W:W21,24:B17,K19",
       {{"spanish", "24x15[19]"}, {"italian", "21x14[17]"}, {"russian", "21x14[17] 24x15[19]"},
        {"czech", "21x14[17] 24x15[19]"}, {"brazilian", "21x14[17] 24x15[19]"}, {"american", "21x14[17] 24x15[19]"}}},
      // Man c7 (6) steps to b8 (1) or d8 (2) and is crowned.
      {"crowning by a step: White", "W:W6:B28",
       {{"russian", "6-1 (king) 6-2 (king)"}, {"czech", "6-1 (king) 6-2 (king)"},
        {"brazilian", "6-1 (king) 6-2 (king)"}, {"spanish", "6-1 (king) 6-2 (king)"},
        {"italian", "6-1 (king) 6-2 (king)"}, {"american", "6-1 (king) 6-2 (king)"}}},
      {"crowning by a step: Black", "B:W5:B27",
       {{"russian", "27-31 (king) 27-32 (king)"}, {"czech", "27-31 (king) 27-32 (king)"},
        {"brazilian", "27-31 (king) 27-32 (king)"}, {"spanish", "27-31 (king) 27-32 (king)"},
        {"italian", "27-31 (king) 27-32 (king)"}, {"american", "27-31 (king) 27-32 (king)"}}},
      // Man b6 (9) takes c7 (6) and ends on d8 (2): crowned in every variant
      // (russian: as a king it could go on, but nothing is left to take).
      {"crowning at the end of a capture", "W:W9:B6",
       {{"russian", "9x2[6] (king)"}, {"czech", "9x2[6] (king)"}, {"brazilian", "9x2[6] (king)"},
        {"spanish", "9x2[6] (king)"}, {"italian", "9x2[6] (king)"}, {"american", "9x2[6] (king)"}}},
      // 10x10: man d8 (12) takes e9 (8) landing on f10 (3), its last row, and
      // as a man (international crowns only where the capture ends) takes g9
      // (9) backwards, ending on h8 (14) uncrowned.  The one-piece 12x3 is no
      // move: a capture is completed.
      {"crowning only where the capture ends (international)", "W:W12:B8,9", {{"international", "12x14[8,9]"}}},
      {"crowning where the capture ends (international)", "W:W12:B8", {{"international", "12x3[8] (king)"}}},
      // 10x10, most pieces: man c5 (27) takes d6 (22) and f8 (13), landing on
      // e7 (18) and g9 (9); man h2 (44) takes i3 (40) landing on j4 (35).
      {"which capture: most pieces (international)", "W:W27,44:B13,22,40", {{"international", "27x9[13,22]"}}},
  };
  return cases;
}

TEST(RuleSwitches, HandCheckedPositions) {
  for (const SwitchCase& c : switch_cases()) {
    for (const auto& [variant, expected] : c.legal) {
      SCOPED_TRACE(std::string(c.what) + ", " + variant + ", " + c.fen);
      const RuleSet& rules = find_variant(variant).rules;
      EXPECT_EQ(identities(legal_moves(rules, c.fen, Counting::Unique)), parse_legal_moves_column(expected));
    }
  }
}

// ---------------------------------------------------------------------------
// Removal of captured pieces.  The switch is generic, so it is tested on rule
// sets built for the purpose (the generator is a template over any RuleSet).

constexpr RuleSet with_removal(RuleSet r, Removal removal) {
  r.removal = removal;
  return r;
}
constexpr RuleSet kRussianAtOnce = with_removal(variant_rules("russian"), Removal::AtOnce);
constexpr RuleSet kBrazilianAtOnce = with_removal(variant_rules("brazilian"), Removal::AtOnce);
constexpr RuleSet kAmericanAtEnd = with_removal(variant_rules("american"), Removal::AtEnd);

template <RuleSet R, Counting K = Counting::Unique>
std::vector<PlainMove> moves_of(const Position<BoardFor<R>>& p) {
  using Generator = MoveGenerator<R, K>;
  MoveList<BoardFor<R>> list;
  Generator::generate(p, list);
  EXPECT_EQ(Generator::count(p), list.size()) << "count() disagrees with generate()";
  return to_plain(list);
}

// rule_cases.tsv T1 (W:WK32:B9,10,11,18,19): with end-of-move removal the king
// g1 (32) takes d4 (18) landing on c5 (14) and then either b6 (9) to a7 (5),
// or d6 (10), f6 (11), f4 (19) via e7 (7), g5 (16) to e3 (23), d2 (26) or c1
// (30), where d4 -- taken, still on the board -- blocks the way back to b6.
// With immediate removal d4 is empty at once, so from e3 the king slides
// through d4 and c5 and takes b6 too, landing on a7: a 5-piece capture.
// e3 is then the only landing after f4 (the king must land where it can go
// on capturing), and from a7 nothing is left to take.  The 2-piece 32x5
// stays legal (from a7 the diagonal back to g1 is empty).
TEST(RemovalSwitch, ImmediateRemovalLetsAFlyingKingPassItsVictimsSquares) {
  const auto p = parse_fen<Board8>("W:WK32:B9,10,11,18,19");
  EXPECT_EQ(identities(moves_of<kRussianAtOnce>(p)),
            (std::vector<std::string>{"32x5[9,10,11,18,19]", "32x5[9,18]"}));
  const auto all_paths = moves_of<kRussianAtOnce, Counting::Paths>(p);
  EXPECT_EQ(paths(all_paths), (std::vector<std::string>{"32x14x5", "32x14x7x16x23x5"}));
  // Most pieces: only the long one.
  EXPECT_EQ(identities(moves_of<kBrazilianAtOnce>(p)), (std::vector<std::string>{"32x5[9,10,11,18,19]"}));
  // And end-of-move removal, for contrast (rule_cases.tsv T1).
  EXPECT_EQ(identities(moves_of<variant_rules("russian")>(p)),
            (std::vector<std::string>{"32x23[10,11,18,19]", "32x26[10,11,18,19]", "32x30[10,11,18,19]",
                                      "32x5[9,18]"}));
}

// The generator agrees with the independent implementation of RULES.md in
// reference_movegen.cpp under immediate removal too.
template <RuleSet R>
void expect_reference_moves(std::uint64_t seed) {
  for (const auto& p : random_setups<BoardFor<R>>(seed, 3000))
    ASSERT_EQ(identities(moves_of<R>(p)), identities(reference_moves(R, p))) << to_fen(p);
}

TEST(RemovalSwitch, ImmediateRemovalAgreesWithTheReference) {
  expect_reference_moves<kRussianAtOnce>(71);
  expect_reference_moves<kBrazilianAtOnce>(72);
  expect_reference_moves<kAmericanAtEnd>(73);
}

// american removes captured pieces at once, but its pieces are short-range:
// a man or short king jumps from a square to the square two steps away, so
// the squares it lands on all have the same colour parity of (x, y) as its
// start, and the squares it jumps over the other one.  It can never land on
// a square it emptied, and it cannot jump an empty square, so removal at once
// and at the end give the same moves.  The generator must agree.
TEST(RemovalSwitch, MakesNoDifferenceToShortRangePieces) {
  int captures = 0, king_captures = 0;
  for (const auto& p : test_positions<Board8>(variant_rules("american"), 51, 3000)) {
    const auto at_once = moves_of<variant_rules("american"), Counting::Paths>(p);
    const auto at_end = moves_of<kAmericanAtEnd, Counting::Paths>(p);
    ASSERT_EQ(paths(at_once), paths(at_end)) << to_fen(p);
    for (const auto& m : at_once) {
      captures += m.is_capture();
      king_captures += m.is_capture() && (p.kings & Board8::square_bit(m.from)) != 0;
    }
  }
  EXPECT_GT(captures, 300);
  EXPECT_GT(king_captures, 10) << "the random games should include captures by kings";
}

// ---------------------------------------------------------------------------
// House rule: capture not compulsory.

// The steps of the side to move, worked out independently of the generator
// from square coordinates; " (king)" for a man reaching its last row.
template <class Board>
std::vector<std::string> reference_steps(const Position<Board>& p, bool flying_kings) {
  std::vector<std::string> steps;
  const Color side = p.side;
  const int forward = side == Color::White ? +1 : -1;
  const int last_row = side == Color::White ? Board::kHeight - 1 : 0;
  for (int s = 1; s <= Board::kSquares; ++s) {
    const auto bit = Board::square_bit(s);
    if (!(p.of(side) & bit)) continue;
    const bool king = p.kings & bit;
    for (int dx : {-1, +1}) {
      for (int dy : {-1, +1}) {
        if (!king && dy != forward) continue;
        int x = Board::x_of_square(s) + dx, y = Board::y_of_square(s) + dy;
        while (Board::on_board(x, y) && !(p.occupied() & Board::square_bit(Board::square_of_xy(x, y)))) {
          steps.push_back(std::to_string(s) + "-" + std::to_string(Board::square_of_xy(x, y)) +
                          (!king && y == last_row ? " (king)" : ""));
          if (!king || !flying_kings) break;
          x += dx;
          y += dy;
        }
      }
    }
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

// After c3-d4 f6-e5 (W:W18,21,23-32:B1-10,12,15) White must take e5: 18x11.
// Under the house rule the seven steps are legal as well: d4-c5 (18-14),
// a3-b4 (21-17), e3-f4 (23-19), g3-f4 (24-19), g3-h4 (24-20), b2-c3 (25-22),
// d2-c3 (26-22).  The capture is the same in every 8x8 variant (from f6 the
// man finds e7 d8 and g7 h8 occupied).
TEST(HouseRule, AddsEveryStepToTheCaptures) {
  const char* fen = "W:W18,21,23-32:B1-10,12,15";
  for (const Variant& v : kVariants) {
    if (!has_house_rule(v.rules)) continue;
    SCOPED_TRACE(v.name);
    EXPECT_EQ(identities(legal_moves(v.rules, fen, Counting::Unique)), (std::vector<std::string>{"18x11[15]"}));
    EXPECT_EQ(identities(legal_moves(v.rules.without_forced_capture(), fen, Counting::Unique)),
              parse_legal_moves_column("18x11[15] 18-14 21-17 23-19 24-19 24-20 25-22 26-22"));
  }
}

// In random positions of every 8x8 variant: legal moves under the house rule =
// the variant's legal captures (chosen by its rules) + every step.
TEST(HouseRule, LegalMovesAreTheVariantsCapturesPlusAllSteps) {
  for (const Variant& v : kVariants) {
    if (!has_house_rule(v.rules)) continue;  // 10x10 and poddavki have none
    SCOPED_TRACE(v.name);
    const RuleSet house = v.rules.without_forced_capture();
    int positions_with_captures = 0;
    for (const auto& p : test_positions<Board8>(house, 60 + v.pdn_game_type, 2000)) {
      const auto forced = legal_moves(v.rules, p, Counting::Unique);
      std::vector<PlainMove> expected;
      for (const auto& m : forced)
        if (m.is_capture()) expected.push_back(m);
      positions_with_captures += !expected.empty();
      auto expected_ids = identities(expected);
      for (auto& s : reference_steps(p, v.rules.flying_kings)) expected_ids.push_back(s);
      std::sort(expected_ids.begin(), expected_ids.end());
      EXPECT_EQ(identities(legal_moves(house, p, Counting::Unique)), expected_ids) << to_fen(p);
      EXPECT_EQ(count_moves(house, p, Counting::Unique), static_cast<int>(expected_ids.size())) << to_fen(p);
      // Without a capture on the board the two rule sets agree.
      if (!has_capture(v.rules, p)) {
        EXPECT_EQ(identities(forced), expected_ids) << to_fen(p);
      }
    }
    EXPECT_GT(positions_with_captures, 20);
  }
}

TEST(HouseRule, NotForInternational) {
  const RuleSet house = find_variant("international").rules.without_forced_capture();
  EXPECT_FALSE(is_compiled(house));
  try {
    with_rules(house, []<RuleSet>() {});
    ADD_FAILURE() << "with_rules accepted international without forced capture";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("8x8"));
  }
  EXPECT_THROW(legal_moves(house, "W:W31-50:B1-20", Counting::Unique), Error);
  for (const Variant& v : kVariants)
    if (v.rules.board == BoardShape{8, 8}) {
      // Every 8x8 variant has the house rule but poddavki, whose game is
      // compulsory capture, and bashni, whose sources know none.
      EXPECT_EQ(is_compiled(v.rules.without_forced_capture()), v.name != "poddavki" && v.name != "bashni") << v.name;
    }
}

}  // namespace
}  // namespace dama::test
