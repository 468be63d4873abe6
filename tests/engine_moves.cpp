// The facade's move generation: MoveGenerator instantiated once for every
// compiled rule set and both counting conventions.
#include "fen.hpp"
#include "test_support.hpp"

namespace dama::test {

template <class Board>
std::vector<Successor<Board>> successors(const RuleSet& rules, const Position<Board>& p, Counting counting) {
  return dispatch_rules<Board, std::vector<Successor<Board>>>(rules, counting, [&]<RuleSet R, Counting K>() {
    MoveList<Board> list;
    MoveGenerator<R, K>::generate(p, list);
    std::vector<Successor<Board>> out;
    for (const auto& m : list) out.push_back({to_plain(m), p.after(m)});
    return out;
  });
}

template <class Board>
std::vector<PlainMove> legal_moves(const RuleSet& rules, const Position<Board>& p, Counting counting) {
  std::vector<PlainMove> moves;
  for (const auto& s : successors(rules, p, counting)) moves.push_back(s.move);
  return moves;
}

std::vector<PlainMove> legal_moves(const RuleSet& rules, std::string_view fen, Counting counting) {
  return with_board_of(rules,
                    [&]<class Board>() { return legal_moves(rules, parse_fen<Board>(fen), counting); });
}

template <class Board>
int count_moves(const RuleSet& rules, const Position<Board>& p, Counting counting) {
  return dispatch_rules<Board, int>(rules, counting, [&]<RuleSet R, Counting K>() { return MoveGenerator<R, K>::count(p); });
}

template <class Board>
bool has_capture(const RuleSet& rules, const Position<Board>& p) {
  return dispatch_rules<Board, bool>(rules, Counting::Unique,
                               [&]<RuleSet R, Counting K>() { return MoveGenerator<R, K>::has_capture(p); });
}

template <class Board>
std::vector<Position<Board>> random_positions(const RuleSet& rules, std::uint64_t seed, int count) {
  return dispatch_rules<Board, std::vector<Position<Board>>>(rules, Counting::Unique, [&]<RuleSet R, Counting K>() {
    constexpr int kMaxPlies = 200;
    Random random(seed);
    std::vector<Position<Board>> out;
    MoveList<Board> list;
    while (static_cast<int>(out.size()) < count) {
      auto p = Position<Board>::start(R.first_player);
      for (int ply = 0; ply <= kMaxPlies && static_cast<int>(out.size()) < count; ++ply) {
        if (random.below(4) == 0) out.push_back(p);
        MoveGenerator<R, K>::generate(p, list);
        if (list.empty()) break;
        p = p.after(list[random.below(list.size())]);
      }
    }
    return out;
  });
}

#define DAMA_TEST_INSTANTIATE(Board)                                                                        \
  template std::vector<Successor<Board>> successors<Board>(const RuleSet&, const Position<Board>&, Counting); \
  template std::vector<PlainMove> legal_moves<Board>(const RuleSet&, const Position<Board>&, Counting);       \
  template int count_moves<Board>(const RuleSet&, const Position<Board>&, Counting);                          \
  template bool has_capture<Board>(const RuleSet&, const Position<Board>&);                                   \
  template std::vector<Position<Board>> random_positions<Board>(const RuleSet&, std::uint64_t, int);

DAMA_TEST_INSTANTIATE(Board8)
DAMA_TEST_INSTANTIATE(Board10)
DAMA_TEST_INSTANTIATE(Board10x8)
DAMA_TEST_INSTANTIATE(Towers<Board8>)
#undef DAMA_TEST_INSTANTIATE

}  // namespace dama::test
