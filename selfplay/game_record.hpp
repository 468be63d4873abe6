// A finished game as dataset rows (selfplay/dataset.hpp): the one place that
// turns a Game into a GameRecord, for self-play and for imported PDN games.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "dataset.hpp"
#include "fen.hpp"
#include "game.hpp"

namespace dama {

template <class Board>
std::uint64_t square_mask(typename Board::Bitboard b) {
  std::uint64_t mask = 0;
  for_each_bit(b, [&](int bit) { mask |= std::uint64_t{1} << (Board::kSquareOfBit[bit] - 1); });
  return mask;
}

template <class Board>
std::string short_numeric(const Move<Board>& m) {
  return std::to_string(Board::kSquareOfBit[m.from]) + (m.is_capture() ? "x" : "-") +
         std::to_string(Board::kSquareOfBit[m.to]);
}

// Which positions of a game become rows.
struct RecordFilter {
  int opening_plies = 0;     // the opening's positions are not recorded
  int from_ply = 0;          // nor those before this ply
  bool quiet_only = false;   // nor those with a capture to make
};

// `scores[i]` is the search score of the position after opening_plies + i
// plies; without scores (imported games) every row has kNoSearchScore.
// best_move is the move played there.
template <RuleSet R>
GameRecord game_record(const Game<R>& game, const GameResult& result, std::uint64_t game_id, std::uint64_t seed,
                       const RecordFilter& filter, std::optional<std::span<const std::int32_t>> scores) {
  using Board = BoardFor<R>;
  GameRecord record;
  GameRow& row = record.game;
  row.game_id = game_id;
  row.start_fen = to_fen(game.positions().front());
  row.opening_plies = static_cast<std::uint16_t>(filter.opening_plies);
  row.opening = to_fen(game.positions()[static_cast<std::size_t>(filter.opening_plies)]);
  row.result = result.outcome == Outcome::FirstPlayerWins ? 1 : result.outcome == Outcome::SecondPlayerWins ? -1 : 0;
  row.result_text = std::string(result.text());
  row.reason = result.reason;
  row.length = static_cast<std::uint16_t>(game.plies());
  row.seed = seed;
  for (int ply = 0; ply < game.plies(); ++ply) {
    const auto& m = game.moves()[static_cast<std::size_t>(ply)];
    MoveRow move_row{game_id, static_cast<std::uint16_t>(ply), short_numeric(m), square_mask<Board>(m.captured)};
    if constexpr (kHoldsTowers<Board>) move_row.prisoner_kings = towers::prisoner_kings(game.positions()[static_cast<std::size_t>(ply)], m);
    record.moves.push_back(std::move(move_row));
    if (ply < filter.opening_plies || ply < filter.from_ply) continue;
    const auto& p = game.positions()[static_cast<std::size_t>(ply)];
    if (filter.quiet_only && MoveGenerator<R>::has_capture(p)) continue;
    PositionRow pr = side_relative_row(p);
    pr.ply = static_cast<std::uint16_t>(ply);
    pr.quiet_plies = static_cast<std::uint16_t>(game.counters_at(ply).quiet_plies);
    pr.game_id = game_id;
    pr.score = scores ? static_cast<std::int16_t>((*scores)[static_cast<std::size_t>(ply - filter.opening_plies)])
                      : kNoSearchScore;
    pr.best_move = short_numeric(m);
    pr.best_captured = square_mask<Board>(m.captured);
    pr.result = static_cast<std::int8_t>(p.side == R.first_player ? row.result : -row.result);
    record.positions.push_back(std::move(pr));
  }
  return record;
}

}  // namespace dama
