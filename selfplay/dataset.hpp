// The position dataset: what self-play writes and the tuner reads.
//
// The HDF5 layout (docs/dataset.md is the user-facing description):
//   /positions/<column>  one 1-D dataset per field of PositionRow, all of length N
//   /games/<column>      one 1-D dataset per field of GameRow, all of length G
//   file attributes      schema version, variant, rules, engine, weights hash, config, seed, ...
// Boards are side-relative: the position is turned (Position::flipped) when
// Black is to move, so the "own" pieces always play up the board like White
// does, and bit s-1 of a board column is PDN square s of that turned board.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "board.hpp"
#include "error.hpp"
#include "fen.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama {

inline constexpr int kDatasetSchemaVersion = 1;

// PositionRow::score of a position no search scored (games imported from
// PDN): the tuner fits such rows to the game result alone, whatever lambda.
inline constexpr std::int16_t kNoSearchScore = INT16_MIN;

struct PositionRow {
  std::uint64_t own_men = 0, own_kings = 0, opp_men = 0, opp_kings = 0;  // bit s-1 = square s
  std::uint8_t side_to_move = 0;  // the real colour: 0 white, 1 black
  std::uint16_t ply = 0;          // plies played before this position (0 = the start)
  std::uint16_t quiet_plies = 0;  // plies since the last capture or crowning
  std::uint64_t game_id = 0;
  std::int16_t score = 0;         // the search score, side to move's view, centi-men (wins: +-(30000 - n));
                                  // kNoSearchScore: none (an imported game)
  std::string best_move;          // the move played (the search's choice in self-play), numeric PDN from and to: "22-18", "22x13"
  std::uint64_t best_captured = 0;  // its captured squares, bit s-1 = square s
  std::int8_t result = 0;         // the game's result for the side to move: +1 win, 0 draw, -1 loss
  std::string towers;             // bashni only: the pieces under each top of the turned board, top down,
                                  // as FEN's tower suffix ("21bw,26W"; w/W own); empty elsewhere
};

struct GameRow {
  std::uint64_t game_id = 0;
  std::string start_fen;       // PDN FEN where the game's moves begin (the variant's start, or an opening-file line)
  std::uint16_t opening_plies = 0;  // how many of the moves were the random opening
  std::string opening;         // PDN FEN of the position the engines started from
  std::int8_t result = 0;      // for the first player (White; Black in american): +1, 0, -1
  std::string result_text;     // "1-0", "0-1" or "1/2-1/2", the first player's view
  std::string reason;          // why it ended, e.g. "no legal moves", "adjudicated: draw"
  std::uint16_t length = 0;    // plies in the game, opening included
  std::uint64_t seed = 0;      // the game's own seed, derived from (job seed, game id)
};

// Every move of every game, so that the games can be replayed and exported.
struct MoveRow {
  std::uint64_t game_id = 0;
  std::uint16_t ply = 0;        // 0 = the first move from start_fen
  std::string move;             // numeric PDN, from and to only: "22-18", "22x13"
  std::uint64_t captured = 0;   // bit s-1 = square s captured (tells apart two paths with the same ends)
  std::uint32_t prisoner_kings = 0;  // bashni only: bit i set, the i-th top taken was a king (tells apart two
                                     // captures of the same towers in another order)
};

// One finished game: what a writer stores and a reader returns, together.
struct GameRecord {
  GameRow game;
  std::vector<PositionRow> positions;
  std::vector<MoveRow> moves;
};

// Side-relative boards of p (see the top of the file).
template <class Board>
PositionRow side_relative_row(const Position<Board>& p) {
  const Position<Board> q = p.side == Color::White ? p : p.flipped();
  PositionRow row;
  for (int s = 1; s <= Board::kSquares; ++s) {
    const auto b = Board::square_bit(s);
    const std::uint64_t bit = std::uint64_t{1} << (s - 1);
    if (q.pieces[0] & b) ((q.kings & b) ? row.own_kings : row.own_men) |= bit;
    if (q.pieces[1] & b) ((q.kings & b) ? row.opp_kings : row.opp_men) |= bit;
    if constexpr (kHoldsTowers<Board>) {
      const std::string under = tower_suffix(q, Board::kBitOfSquare[s]);
      if (!under.empty()) row.towers += (row.towers.empty() ? "" : ",") + std::to_string(s) + under;
    }
  }
  row.side_to_move = static_cast<std::uint8_t>(index(p.side));
  return row;
}

// The towers column of a row put back under the top pieces of p; throws
// dama::Error for text that is not a list of "<square><pieces>".
template <class Board>
void put_towers(Position<Board>& p, const std::string& towers) {
  if (towers.empty()) return;
  if constexpr (!kHoldsTowers<Board>) {
    throw Error("positions/towers '" + towers + "': this variant has no towers");
  } else {
    for (std::size_t start = 0; start <= towers.size();) {
      const std::size_t comma = std::min(towers.find(',', start), towers.size());
      const std::string_view item = std::string_view(towers).substr(start, comma - start);
      start = comma + 1;
      const std::size_t at = tower_suffix_start(item);
      int square = 0;
      const auto parsed = std::from_chars(item.data(), item.data() + (at == std::string_view::npos ? 0 : at), square);
      if (at == std::string_view::npos || parsed.ec != std::errc{} || parsed.ptr != item.data() + at || square < 1 ||
          square > Board::kSquares || !(p.occupied() & Board::square_bit(square)))
        throw Error("positions/towers '" + towers + "': '" + std::string(item) + "' is not a square with a top piece and pieces under it");
      const int bit = Board::kBitOfSquare[square];
      for (const char c : item.substr(at)) {
        if (std::string_view("wbWB").find(c) == std::string_view::npos || towers::count(p.below[bit]) == Position<Board>::kMaxBelow)
          throw Error("positions/towers '" + towers + "': bad tower '" + std::string(item) + "'");
        p.below[bit] = towers::with_bottom(p.below[bit], {c == 'w' || c == 'W' ? Color::White : Color::Black, c == 'W' || c == 'B'});
      }
    }
  }
}

// The position of a row as the side to move sees it: its own pieces as White,
// White to move.  The evaluation is the same for a position and its turned
// copy, so this is what the tuner evaluates.
template <class Board>
Position<Board> side_relative_position(const PositionRow& row) {
  Position<Board> p;
  for (int s = 1; s <= Board::kSquares; ++s) {
    const std::uint64_t bit = std::uint64_t{1} << (s - 1);
    const auto b = Board::square_bit(s);
    if ((row.own_men | row.own_kings) & bit) p.pieces[0] |= b;
    if ((row.opp_men | row.opp_kings) & bit) p.pieces[1] |= b;
    if ((row.own_kings | row.opp_kings) & bit) p.kings |= b;
  }
  p.side = Color::White;
  put_towers(p, row.towers);
  return p;
}

}  // namespace dama
