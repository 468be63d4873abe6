// A second move generator for bashni, written for the tests straight from
// docs/rules-russian-family.md: a board of stacks (strings of pieces), a plain
// depth-first search of capture sequences and a make-move of its own.  It
// checks MoveGenerator and Position<Towers<Board8>> (tower_position_test.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "position.hpp"

namespace dama::test {

using TowerBoard8 = Towers<Board8>;

// A bashni position as text: each square's tower from the top down, one
// letter a piece as Lasca's notation writes it (w, b: men; W, B: kings).
struct TowerBoard {
  std::array<std::string, Board8::kSquares + 1> stacks;  // by square number, [0] unused
  Color side = Color::White;
  bool operator==(const TowerBoard&) const = default;
  bool operator<(const TowerBoard& o) const { return std::tie(side, stacks) < std::tie(o.side, o.stacks); }
};

// "W a1:w c3:bW ...": the side to move, then every occupied square by name.
std::string describe(const TowerBoard& b);
// Squares by algebraic name ("c3") and their towers, top first.
TowerBoard tower_board(const std::vector<std::pair<std::string, std::string>>& towers, Color side);

TowerBoard to_tower_board(const Position<TowerBoard8>& p);
Position<TowerBoard8> to_position(const TowerBoard& b);

// The positions after each distinct legal move (a move is (from, to,
// captured squares, which of the pieces taken were kings in the order taken),
// the tuple MoveGenerator keeps), in no particular order.
std::vector<TowerBoard> reference_tower_successors(const TowerBoard& b);
std::uint64_t reference_tower_perft(const TowerBoard& b, int depth);

}  // namespace dama::test
