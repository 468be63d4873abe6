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

#include <cstdint>
#include <string>
#include <vector>

#include "board.hpp"
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
  }
  row.side_to_move = static_cast<std::uint8_t>(index(p.side));
  return row;
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
  return p;
}

}  // namespace dama
