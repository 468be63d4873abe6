// Endgame tables (core/egtb): the index, the retrograde builder against an
// independent forward solver for every rule switch, positions with known
// values, agreement with search, the file format's refusals and the search's
// use of the tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <unistd.h>

#include "egtb/builder.hpp"
#include "egtb/verify.hpp"
#include "fen.hpp"
#include "referee.hpp"
#include "search.hpp"
#include "test_support.hpp"

namespace dama::egtb {
namespace {

namespace fs = std::filesystem;

fs::path scratch_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dama-egtb-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  return dir;
}

template <RuleSet R>
Tablebase<R> built(const fs::path& dir, int pieces) {
  Tablebase<R> tables;
  EXPECT_TRUE(build_tables<R>({dir.string(), pieces, 2}, tables, {}, {}));
  return tables;
}

// Every index of a slice decodes to a position of that material that
// indexes back to it, or is a hole; the holes are few.
template <class Board>
void expect_round_trip(const Material& m) {
  SliceIndex<Board> index(m);
  std::uint64_t holes = 0;
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    Position<Board> p;
    if (!index.decode(i, p)) {
      ++holes;
      continue;
    }
    ASSERT_EQ(material_of(p), m) << i;
    ASSERT_EQ(p.men(Color::White) & Board::kCrowningRow[0], 0u);
    ASSERT_EQ(p.men(Color::Black) & Board::kCrowningRow[1], 0u);
    ASSERT_EQ(index.index(p), i) << m.code() << " " << to_fen(p);
  }
  EXPECT_LT(holes, index.size() / 4 + 1) << m.code();
}

TEST(SliceIndexTest, EveryIndexRoundTripsOnEveryBoard) {
  for (const Material m : {Material{0, 1, 0, 1}, Material{2, 1, 1, 0}, Material{1, 1, 1, 1}, Material{0, 3, 0, 1}, Material{3, 0, 1, 0}}) {
    expect_round_trip<Board8>(m);
    if (m.pieces() <= 3) expect_round_trip<Board10>(m);
    if (m.pieces() <= 3) expect_round_trip<Board10x8>(m);
  }
}

TEST(MaterialTest, BuildOrderPutsEverySuccessorSliceFirst) {
  const auto order = materials_in_build_order(5);
  const auto position_of = [&](const Material& m) { return std::find(order.begin(), order.end(), m) - order.begin(); };
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Material m = order[k];
    EXPECT_EQ(std::count(order.begin(), order.end(), m), 1);
    EXPECT_LE(std::abs(position_of(m.swapped()) - static_cast<long>(k)), 1) << "a slice and its swap are built together";
    if (m.own_men > 0) {  // a crowning
      const Material crowned{m.own_men - 1, m.own_kings + 1, m.other_men, m.other_kings};
      EXPECT_LT(position_of(crowned.swapped()), static_cast<long>(std::min(k, static_cast<std::size_t>(position_of(m.swapped())))));
    }
  }
  EXPECT_EQ(materials_in_build_order(2).size(), 4u);  // K v K, K v M, M v K, M v M
}

// An independent solver: values by forward iteration to a fixed point with
// the move generator only (no predecessors, no counters).
template <RuleSet R>
std::map<std::string, std::vector<Wdl>> forward_solution(int pieces) {
  using Board = BoardFor<R>;
  std::map<std::string, std::vector<Wdl>> values;
  const Wdl no_move = no_move_wins(R) ? Wdl::Win : Wdl::Loss;  // written out: independent of the builder
  const auto value_of = [&](Position<Board> p) {
    if (p.of(p.side) == 0) return no_move;
    if (p.side == Color::Black) p = p.flipped();
    const Material m = material_of(p);
    return values.at(m.code())[SliceIndex<Board>(m).index(p)];
  };
  for (const Material& m : materials_in_build_order(pieces)) values[m.code()].assign(SliceIndex<Board>(m).size(), Wdl::Unknown);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Material& m : materials_in_build_order(pieces)) {
      const SliceIndex<Board> index(m);
      auto& slice = values[m.code()];
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        Position<Board> p;
        if (slice[i] != Wdl::Unknown || !index.decode(i, p)) continue;
        MoveList<Board> moves;
        MoveGenerator<R>::generate(p, moves);
        if (moves.empty()) {
          slice[i] = no_move;
          changed = true;
          continue;
        }
        bool win = false, all_won = true;
        for (const auto& mv : moves) {
          const Wdl v = value_of(p.after(mv));
          win |= v == Wdl::Loss;
          all_won &= v == Wdl::Win;
        }
        if (win || all_won) {
          slice[i] = win ? Wdl::Win : Wdl::Loss;
          changed = true;
        }
      }
    }
  }
  for (auto& [code, slice] : values)
    for (auto& v : slice)
      if (v == Wdl::Unknown) v = Wdl::Draw;
  return values;
}

template <RuleSet R>
void expect_same_as_forward_solution(const std::string& name, int pieces) {
  const fs::path dir = scratch_dir("forward-" + name);
  const auto tables = built<R>(dir, pieces);
  const auto expected = forward_solution<R>(pieces);
  for (const Material& m : materials_in_build_order(pieces)) {
    const auto* slice = tables.slice(m);
    ASSERT_NE(slice, nullptr) << m.code();
    WdlCounts counts;
    for (std::uint64_t i = 0; i < slice->index.size(); ++i) {
      Position<BoardFor<R>> p;
      if (!slice->index.decode(i, p)) {
        ASSERT_EQ(slice->values.get(i), Wdl::Unknown);
        continue;
      }
      ASSERT_EQ(slice->values.get(i), expected.at(m.code())[i])
          << name << " " << m.describe() << " " << to_fen(p);
    }
  }
  fs::remove_all(dir);
}

// One rule set per switch of RULES.md: backward captures and flying kings
// (russian), king-first (czech), most pieces and crowning only at the end
// (brazilian), most kings (spanish), the Italian order and short kings,
// removal at once (american), the house rule, the 10x10 and 10x8 boards,
// and the give-away goal (poddavki).
#if !DAMA_SLOW_SUITE
TEST(TableBuildTest, RetrogradeEqualsForwardIterationForEveryRuleSwitch) {
  expect_same_as_forward_solution<test::variant_rules("poddavki")>("poddavki", 3);
  expect_same_as_forward_solution<test::variant_rules("russian")>("russian", 3);
  expect_same_as_forward_solution<test::variant_rules("russian").without_forced_capture()>("russian-free", 3);
  expect_same_as_forward_solution<test::variant_rules("czech")>("czech", 3);
  expect_same_as_forward_solution<test::variant_rules("brazilian")>("brazilian", 3);
  expect_same_as_forward_solution<test::variant_rules("spanish")>("spanish", 3);
  expect_same_as_forward_solution<test::variant_rules("italian")>("italian", 3);
  expect_same_as_forward_solution<test::variant_rules("american")>("american", 3);
  expect_same_as_forward_solution<test::variant_rules("international")>("international", 3);
  expect_same_as_forward_solution<test::variant_rules("russian10x8")>("russian10x8", 3);
}
#endif

// Minutes: the slow suite (ctest -L slow).
#if DAMA_SLOW_SUITE
TEST(TableBuildTest, FourPiecesOfRussianEqualForwardIteration) {
  expect_same_as_forward_solution<test::variant_rules("russian")>("russian4", 4);
}
#else

constexpr RuleSet kRussian = test::variant_rules("russian");
constexpr RuleSet kAmerican = test::variant_rules("american");

class RussianTables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(scratch_dir("russian4"));
    tables_ = new Tablebase<kRussian>(built<kRussian>(*dir_, 4));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete tables_;
    delete dir_;
  }
  static Wdl value(const char* fen) { return *tables_->probe(parse_fen<Board8>(fen)); }
  static fs::path* dir_;
  static Tablebase<kRussian>* tables_;
};
fs::path* RussianTables::dir_ = nullptr;
Tablebase<kRussian>* RussianTables::tables_ = nullptr;

// Positions whose values follow from the rules by a line or two of play,
// checked by hand (the issue's own example first).
TEST_F(RussianTables, KnownPositions) {
  // King a1 against king h8 on the long diagonal: the side to move must step
  // along it (a1 has no other diagonal) and is taken.
  EXPECT_EQ(value("W:WK29:BK4"), Wdl::Loss);
  EXPECT_EQ(value("B:WK29:BK4"), Wdl::Loss);
  // Three kings against a lone king that holds the long diagonal a1-h8: a
  // draw (the encyclopedia seed; Petrov's triangle wins only off it) ...
  EXPECT_EQ(value("W:WK30,K31,K32:BK29"), Wdl::Draw);
  // ... and a win when the strong side, to move, takes the diagonal first
  // (g1-d4 is safe: the king on b8 cannot reach it).
  EXPECT_EQ(value("W:WK30,K31,K32:BK1"), Wdl::Win);
  // The king on a1 steps along the diagonal and is taken: the loss comes at
  // the capture, two plies away.
  EXPECT_EQ(tables_->probe_entry(parse_fen<Board8>("W:WK29:BK4"))->distance, 2);
  // A man takes the last piece: c3xe5 for White, d4xb2 for Black.
  EXPECT_EQ(value("W:W22:B18"), Wdl::Win);
  EXPECT_EQ(value("B:W22:B18"), Wdl::Win);
}

// Poddavki: the same positions as russian, the other way round where the
// game ends, checked by hand.
TEST(PoddavkiTables, KnownPositionsAndTheVerifier) {
  constexpr RuleSet kPoddavki = test::variant_rules("poddavki");
  const fs::path dir = scratch_dir("poddavki3");
  const auto tables = built<kPoddavki>(dir, 3);
  const auto value = [&](const char* fen) { return *tables.probe(parse_fen<Board8>(fen)); };
  // c3xe5 is forced and takes Black's last piece: Black, left without a
  // move, wins (in russian the capture wins for White).
  EXPECT_EQ(value("W:W22:B18"), Wdl::Loss);
  EXPECT_EQ(value("B:W22:B18"), Wdl::Loss);
  // c3-d4 gives the man away (e5xc3 is forced): White wins two plies on.
  EXPECT_EQ(value("W:W22:B15"), Wdl::Win);
  EXPECT_EQ(tables.probe_entry(parse_fen<Board8>("W:W22:B15"))->distance, 2);
  // White's man on a7 (5) has its one step, b8 (1), taken by a Black man it
  // cannot jump (the board ends behind it): blocked, White wins at once.
  EXPECT_EQ(value("W:W5:B1"), Wdl::Win);
  EXPECT_EQ(tables.probe_entry(parse_fen<Board8>("W:W5:B1"))->distance, 0);
  // The verifier re-derives every value the same way.
  for (const Material& m : materials_in_build_order(3)) EXPECT_EQ(verify_slice(tables, m, 2).mismatches, 0u) << m.code();
  fs::remove_all(dir);
}

TEST_F(RussianTables, VerifierFindsEveryValueConsistentAndAFlippedOneNot) {
  for (const Material& m : materials_in_build_order(3)) EXPECT_EQ(verify_slice(*tables_, m, 2).mismatches, 0u) << m.code();
  // A copy of 3 kings v 1 with one value changed must be caught.
  Tablebase<kRussian> broken;
  for (const Material& m : materials_in_build_order(4)) broken.load_slice(dir_->string(), m);
  const Material m{0, 3, 0, 1};
  const auto* slice = broken.slice(m);
  PackedValues values = slice->values;
  std::vector<std::uint8_t> distances = slice->distances;
  const std::uint64_t i = slice->index.index(parse_fen<Board8>("W:WK30,K31,K32:BK1"));
  values.set(i, Wdl::Draw);
  broken.add(m, values, distances);
  EXPECT_GE(verify_slice(broken, m, 2).mismatches, 1u);
  // ... and so must a distance one ply off.
  values.set(i, Wdl::Win);
  ++distances[i];
  broken.add(m, values, distances);
  EXPECT_GE(verify_slice(broken, m, 2).mismatches, 1u);
}

// A position the search proves won (or lost) without tables must have that
// value in the tables; draws by the tables are never proven otherwise.
TEST_F(RussianTables, DeepSearchNeverProvesTheOpposite) {
  std::mt19937_64 rng(7);
  const Weights weights = default_weights(find_variant("russian"));
  int proven = 0;
  for (const Material& m : materials_in_build_order(4)) {
    if (m.pieces() < 3) continue;
    const auto* slice = tables_->slice(m);
    for (int k = 0; k < 6; ++k) {
      Position<Board8> p;
      if (!slice->index.decode(rng() % slice->index.size(), p)) continue;
      Searcher<kRussian, WeightsEvaluator<kRussian>> searcher(WeightsEvaluator<kRussian>{&weights}, 1);
      SearchLimits limits;
      limits.depth = 9;
      const auto result = searcher.search(p, limits);
      const Wdl table = slice->values.get(slice->index.index(p));
      if (result.score > kWinBound) {
        EXPECT_EQ(table, Wdl::Win) << to_fen(p);
        ++proven;
      }
      if (result.score < -kWinBound) {
        EXPECT_EQ(table, Wdl::Loss) << to_fen(p);
        ++proven;
      }
    }
  }
  EXPECT_GT(proven, 10);  // the test saw proven results, not only open ones
}

TEST_F(RussianTables, SearchScoresATableWinAndCountsTheHits) {
  const Weights weights = default_weights(find_variant("russian"));
  Searcher<kRussian, WeightsEvaluator<kRussian>> with(WeightsEvaluator<kRussian>{&weights}, 1);
  with.set_tables(tables_);
  SearchLimits limits;
  limits.depth = 6;
  const auto result = with.search(parse_fen<Board8>("W:WK30,K31,K32:BK1"), limits);
  EXPECT_TRUE(is_table_win_or_loss(result.score)) << result.score;
  EXPECT_GT(result.score, 0);
  EXPECT_GT(result.table_hits, 0u);
  // The root is played from the tables: the move nearest the conversion.
  const auto root = parse_fen<Board8>("W:WK30,K31,K32:BK1");
  const auto child = tables_->probe_entry(root.after(*result.best_move));
  EXPECT_EQ(child->value, Wdl::Loss);
  EXPECT_EQ(child->distance + 1, tables_->probe_entry(root)->distance);
  Searcher<kRussian, WeightsEvaluator<kRussian>> without(WeightsEvaluator<kRussian>{&weights}, 1);
  const auto plain = without.search(parse_fen<Board8>("W:WK30,K31,K32:BK1"), limits);
  EXPECT_FALSE(is_table_win_or_loss(plain.score));
  EXPECT_EQ(plain.table_hits, 0u);
}

// Self-play's referee: a game that reaches the tables ends there, with
// their result and the reason "tablebase".
TEST_F(RussianTables, RefereeEndsAGameInTheTablesWithTheirResult) {
  const Weights weights = default_weights(find_variant("russian"));
  PlayerSettings player{&weights, {}};
  player.limits.depth = 4;
  for (const char* fen : {"B:WK30,K31,K32:BK1", "W:WK29:BK4", "W:W22:B18", "W:W21,22,K32:B17,1"}) {
    Referee<kRussian> referee(player, player, 1);
    referee.set_tables(tables_, true);
    Game<kRussian> game(parse_fen<Board8>(fen), DrawRules::Default);
    GameRng rng(1);
    const auto played = referee.play(game, Adjudication{}, EarlyRandomness{}, rng);
    EXPECT_EQ(played.result.reason, "tablebase") << fen;
    const auto& end = game.position();
    const Wdl value = *tables_->probe(end);
    const Outcome expected = value == Wdl::Draw ? Outcome::Draw
                             : (end.side == Color::White) == (value == Wdl::Win) ? Outcome::FirstPlayerWins
                                                                                  : Outcome::SecondPlayerWins;
    EXPECT_EQ(played.result.outcome, expected) << fen;
    if (popcount(parse_fen<Board8>(fen).occupied()) <= 4) EXPECT_EQ(game.plies(), 0) << fen;
    else EXPECT_GT(game.plies(), 0) << fen;  // five pieces: a3xc5 is forced and brings it into the tables
  }
}

TEST_F(RussianTables, ResumedBuildRebuildsOnlyTheMissingSlice) {
  const fs::path copy = scratch_dir("resume");
  fs::copy(*dir_, copy);
  fs::remove(table_path(copy.string(), Material{1, 1, 1, 0}));
  fs::remove(table_path(copy.string(), Material{1, 0, 1, 1}));
  Tablebase<kRussian> tables;
  std::vector<SliceReport> reports;
  ASSERT_TRUE(build_tables<kRussian>({copy.string(), 4, 1}, tables, [&](const SliceReport& r) { reports.push_back(r); }, {}));
  int rebuilt = 0;
  for (const auto& r : reports) rebuilt += !r.reused;
  EXPECT_EQ(rebuilt, 2);
  for (const Material m : {Material{1, 1, 1, 0}, Material{1, 0, 1, 1}})
    EXPECT_EQ(tables.slice(m)->values.bytes(), tables_->slice(m)->values.bytes()) << m.code();
  fs::remove_all(copy);
}

TEST_F(RussianTables, LoaderRefusesACorruptTruncatedOrForeignFile) {
  const std::string path = table_path(dir_->string(), Material{0, 1, 0, 1});
  const std::string bytes = read_whole_file(path);
  const TableIdentity id = identity_of<kRussian>(Material{0, 1, 0, 1});
  const std::uint64_t n = SliceIndex<Board8>(Material{0, 1, 0, 1}).size();
  EXPECT_NO_THROW(parse_table_file(bytes, path, id, n));
  const auto refusal = [&](const std::string& b, const TableIdentity& expect) {
    try {
      parse_table_file(b, path, expect, n);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::string corrupt = bytes;
  corrupt[bytes.size() - 20] ^= 1;
  EXPECT_NE(refusal(corrupt, id).find("checksum"), std::string::npos);
  EXPECT_NE(refusal(bytes.substr(0, bytes.size() - 9), id).find("truncated"), std::string::npos);
  EXPECT_NE(refusal("DAMAPATW" + bytes.substr(8), id).find("magic"), std::string::npos);
  TableIdentity czech = id;
  czech.variant = "czech";
  EXPECT_NE(refusal(bytes, czech).find(path + ": \"variant\""), std::string::npos);
  TableIdentity other_slice = id;
  other_slice.material = Material{0, 1, 1, 0};
  EXPECT_NE(refusal(bytes, other_slice).find("\"material\""), std::string::npos);
}

// English checkers: two kings against one win almost always; a lone king
// that is to move and can take a king, or sits in a double corner..., is
// not the rule.  The count is checked against the forward solver above;
// here the share.
TEST(AmericanTables, TwoKingsAgainstOneMostlyWin) {
  const fs::path dir = scratch_dir("american");
  const auto tables = built<kAmerican>(dir, 3);
  const auto c = tables.slice(Material{0, 2, 0, 1})->values.counts();
  EXPECT_GT(c.wins, 20 * (c.draws + c.losses)) << c.wins << " " << c.draws << " " << c.losses;
  fs::remove_all(dir);
}

#endif  // DAMA_SLOW_SUITE

}  // namespace
}  // namespace dama::egtb
