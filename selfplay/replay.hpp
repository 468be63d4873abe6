// Turning a stored game back into moves: each stored move (from, to and the
// captured squares) is looked up among the legal moves of its position, so a
// damaged record is an error, never a different game.
#pragma once

#include <charconv>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "fen.hpp"
#include "movegen.hpp"

namespace dama {

template <RuleSet R>
struct ReplayedGame {
  Position<BoardFor<R>> start;
  std::vector<Move<BoardFor<R>>> moves;
};

template <RuleSet R>
ReplayedGame<R> replay(const GameRecord& record) {
  using Board = BoardFor<R>;
  const std::string where = "game " + std::to_string(record.game.game_id);
  ReplayedGame<R> out;
  try {
    out.start = parse_fen<Board>(record.game.start_fen);
  } catch (const Error& e) {
    throw Error(where + ": start_fen: " + e.what());
  }
  Position<Board> p = out.start;
  for (const MoveRow& row : record.moves) {
    const auto separator = row.move.find_first_of("-x");
    int from = 0, to = 0;
    if (separator == std::string::npos ||
        std::from_chars(row.move.data(), row.move.data() + separator, from).ec != std::errc{} ||
        std::from_chars(row.move.data() + separator + 1, row.move.data() + row.move.size(), to).ec != std::errc{})
      throw Error(where + ", ply " + std::to_string(row.ply) + ": unreadable move '" + row.move + "'");
    MoveList<Board> legal;
    MoveGenerator<R>::generate(p, legal);
    const Move<Board>* found = nullptr;
    for (const auto& m : legal) {
      std::uint64_t captured = 0;
      for_each_bit(m.captured, [&](int bit) { captured |= std::uint64_t{1} << (Board::kSquareOfBit[bit] - 1); });
      if (Board::kSquareOfBit[m.from] != from || Board::kSquareOfBit[m.to] != to || captured != row.captured) continue;
      if constexpr (kHoldsTowers<Board>)
        if (towers::prisoner_kings(p, m) != row.prisoner_kings) continue;
      found = &m;
    }
    if (!found) throw Error(where + ", ply " + std::to_string(row.ply) + ": move " + row.move + " is not legal there");
    out.moves.push_back(*found);
    p = p.after(*found);
  }
  return out;
}

}  // namespace dama
