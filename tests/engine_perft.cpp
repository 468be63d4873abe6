// The facade's perft: dama::perft instantiated once for every compiled rule
// set and both counting conventions.
#include "fen.hpp"
#include "perft.hpp"
#include "test_support.hpp"

namespace dama::test {

template <class Board>
std::uint64_t perft_nodes(const RuleSet& rules, const Position<Board>& p, Counting counting, int depth) {
  return dispatch_rules<Board, std::uint64_t>(rules, counting,
                                              [&]<RuleSet R, Counting K>() { return perft<R, K>(p, depth); });
}

std::uint64_t perft_nodes(const RuleSet& rules, std::string_view fen, Counting counting, int depth) {
  return with_board_of(rules,
                    [&]<class Board>() { return perft_nodes(rules, parse_fen<Board>(fen), counting, depth); });
}

std::uint64_t perft_from_start(const RuleSet& rules, Counting counting, int depth) {
  return with_rules(rules, [&]<RuleSet R>() -> std::uint64_t {
    const auto start = Position<BoardFor<R>>::start(R.first_player);
    return counting == Counting::Paths ? perft<R, Counting::Paths>(start, depth)
                                       : perft<R, Counting::Unique>(start, depth);
  });
}

template <class Board>
std::vector<std::pair<PlainMove, std::uint64_t>> perft_divide(const RuleSet& rules, const Position<Board>& p,
                                                              Counting counting, int depth) {
  using Result = std::vector<std::pair<PlainMove, std::uint64_t>>;
  return dispatch_rules<Board, Result>(rules, counting, [&]<RuleSet R, Counting K>() {
    MoveList<Board> moves;
    Result out;
    for (const auto& [move, nodes] : dama::perft_divide<R, K>(p, depth, moves)) out.emplace_back(to_plain(move), nodes);
    return out;
  });
}

#define DAMA_TEST_INSTANTIATE(Board)                                                                   \
  template std::uint64_t perft_nodes<Board>(const RuleSet&, const Position<Board>&, Counting, int); \
  template std::vector<std::pair<PlainMove, std::uint64_t>> perft_divide<Board>(                     \
      const RuleSet&, const Position<Board>&, Counting, int);

DAMA_TEST_INSTANTIATE(Board8)
DAMA_TEST_INSTANTIATE(Board10)
DAMA_TEST_INSTANTIATE(Board10x8)
DAMA_TEST_INSTANTIATE(Towers<Board8>)
#undef DAMA_TEST_INSTANTIATE

}  // namespace dama::test
