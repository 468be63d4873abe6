// Bashni as a variant of the program (docs/rules-russian-family.md): what
// towers add beyond the move generator (tower_position_test.cpp) -- the Hub's
// and PDN's tower notations, the dataset's tower columns, the replay of a
// stored capture, the evaluation's tower features, and the refusal of
// endgame tables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "egtb/tablebase.hpp"
#include "features.hpp"
#include "fen.hpp"
#include "game_record.hpp"
#include "hub_protocol.hpp"
#include "pdn/pdn_fen.hpp"
#include "pdn/pdn_game_type.hpp"
#include "reference_towers.hpp"
#include "replay.hpp"
#include "test_support.hpp"
#include "towers/rules.hpp"

namespace dama::test {
namespace {

constexpr RuleSet kBashni = kBashniRules;
using Board = BoardFor<kBashni>;
using Pos = Position<Board>;
using ::testing::HasSubstr;

// Positions of random bashni games, most with towers.
std::vector<Pos> positions_with_towers() {
  std::vector<Pos> out;
  for (const Pos& p : random_positions<Board>(kBashni, 13, 600))
    for (const auto below : p.below)
      if (towers::count(below) > 0) {
        out.push_back(p);
        break;
      }
  return out;
}

TEST(Bashni, RandomGamesReachTowers) { EXPECT_GT(positions_with_towers().size(), 300u); }

TEST(Bashni, HubPositionStringsRoundTripWithTowers) {
  for (const Pos& p : positions_with_towers()) {
    const std::string text = hub::format_position(p);
    EXPECT_EQ(hub::parse_position<Board>(text), p) << text;
  }
  const Pos p = parse_fen<Board>("W:W14wb,K17bbb,26w,28,29bb,32:B2w,3,4,5,K8www,11");
  const std::string text = hub::format_position(p);
  EXPECT_THAT(text, HasSubstr("(wwb)")) << "square 14: the top and then what is under it";
  EXPECT_THAT(text, HasSubstr("(Bwww)"));
  EXPECT_THROW(hub::parse_position<Board>("W(wb" + std::string(31, 'e')), Error);
  EXPECT_THROW(hub::parse_position<Board8>("W(wb)" + std::string(31, 'e')), Error) << "no towers in russian";
}

TEST(Bashni, HubMovesNameTheOrderJumped) {
  for (const Pos& p : positions_with_towers()) {
    MoveList<Board> moves;
    MoveGenerator<kBashni>::generate(p, moves);
    for (const auto& m : moves) {
      const auto back = hub::parse_move<kBashni>(p, hub::format_move(m));
      EXPECT_EQ(p.after(back), p.after(m)) << hub::format_move(m) << " in " << to_fen(p);
    }
  }
}

TEST(Bashni, PdnFenWritesAndReadsTowers) {
  const PdnGameType& type = pdn_game_type_of(find_variant("bashni"));
  for (const Pos& p : positions_with_towers()) EXPECT_EQ(parse_pdn_fen<Board>(to_pdn_fen(p, type), type), p);
  const Pos p = parse_fen<Board>("W:W14wb,K17bbb,26w,28,29bb,32:B2w,3,4,5,K8www,11");
  EXPECT_THAT(to_pdn_fen(p, type), HasSubstr("Kb4bbb")) << to_pdn_fen(p, type);  // square 17 is b4
  EXPECT_THROW(parse_pdn_fen<Board>("W:Wa1-c1bb:B", type), Error);
}

TEST(Bashni, DatasetRowsKeepTheTowers) {
  for (const Pos& p : positions_with_towers()) {
    const PositionRow row = side_relative_row(p);
    EXPECT_FALSE(row.towers.empty());
    EXPECT_EQ(side_relative_position<Board>(row), p.side == Color::White ? p : p.flipped()) << to_fen(p);
  }
  PositionRow bad = side_relative_row(Pos::start(Color::White));
  bad.towers = "13bx";
  EXPECT_THROW(side_relative_position<Board>(bad), Error);
}

// A stored capture is the capture played, also where another takes the same
// towers in another order: a king on c3 going round d4, f4, f2, d2 one way
// or the other takes the king on d4 first or last.
TEST(Bashni, ReplayTellsApartCapturesOfTheSameTowersInAnotherOrder) {
  std::vector<Pos> positions = positions_with_towers();
  positions.push_back(to_position(tower_board({{"c3", "W"}, {"d4", "B"}, {"f4", "b"}, {"f2", "b"}, {"d2", "b"}}, Color::White)));
  int ambiguous = 0;
  for (const Pos& p : positions) {
    MoveList<Board> moves;
    MoveGenerator<kBashni>::generate(p, moves);
    for (const auto& m : moves) {
      GameRecord record;
      record.game.start_fen = to_fen(p);
      record.moves.push_back({0, 0, short_numeric(m), square_mask<Board>(m.captured), towers::prisoner_kings(p, m)});
      const auto replayed = replay<kBashni>(record);
      ASSERT_EQ(replayed.moves.size(), 1u);
      EXPECT_EQ(p.after(replayed.moves[0]), p.after(m));
      for (const auto& other : moves) ambiguous += &other != &m && other.same_identity(m);
    }
  }
  EXPECT_GE(ambiguous, 2) << "the loop round c3 makes at least one pair";
}

TEST(Bashni, TowerFeaturesCountReserveAndPrisoners) {
  // White: 14 (w under: a reserve, then b: a prisoner), 17 (bbb: three
  // prisoners), 26 (w: a reserve), 29 (bb: two); Black: 2 (w: one
  // prisoner), 8 (www: three).  White to move: reserve 2 - 0, prisoners 6 - 4.
  const Pos p = parse_fen<Board>("W:W14wb,K17bbb,26w,28,29bb,32:B2w,3,4,5,K8www,11");
  std::vector<float> values(static_cast<std::size_t>(feature_count(feature_schema(kBashni))), 0.0f);
  struct Sink {
    std::vector<float>& v;
    void add(int f, float x) { v[static_cast<std::size_t>(f)] += x; }
  } sink{values};
  visit_features<kBashni>(p, sink);
  const auto& names = feature_names(feature_schema(kBashni));
  const auto at = [&](const char* name) {
    return values[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())];
  };
  EXPECT_EQ(at("tower.reserve"), 2);
  EXPECT_EQ(at("tower.prisoners"), 2);
  visit_features<kBashni>(p.flipped(), sink);  // the same game from the other chair: the same values again
  EXPECT_EQ(at("tower.reserve"), 4);
  EXPECT_EQ(at("tower.prisoners"), 4);
  EXPECT_NE(schema_hash(feature_schema(kBashni)), schema_hash(BoardShape{8, 8}));
}

TEST(Bashni, HasNoEndgameTables) {
  try {
    egtb::Tablebase<kBashni>::load("/nonexistent");
    ADD_FAILURE() << "tables loaded for bashni";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("bashni has no endgame tables"));
  }
}

}  // namespace
}  // namespace dama::test
