// DXP's board: positions as GAMEREQ writes them, moves as MOVE writes them,
// for dama's 10x10 rule sets.  DXP numbers the squares as PDN and the Hub
// protocol do (1-50, black's men start on 1-20), which is dama's numbering.
#pragma once

#include <string>

#include "dxp/dxp_message.hpp"
#include "error.hpp"
#include "movegen.hpp"

namespace dama::dxp {

template <class Board>
constexpr bool kSpeaksDxp = Board::kSquares == kSquares;

// The 50 characters of a GAMEREQ position.
template <class Board>
  requires kSpeaksDxp<Board>
std::string format_squares(const Position<Board>& p) {
  std::string s;
  for (int sq = 1; sq <= kSquares; ++sq) {
    const auto bit = Board::square_bit(sq);
    const bool king = p.kings & bit;
    if (p.pieces[0] & bit) s += king ? 'W' : 'w';
    else if (p.pieces[1] & bit) s += king ? 'Z' : 'z';
    else s += 'e';
  }
  return s;
}

// The position a GAMEREQ asks for (the usual start when it gives none).
template <class Board>
  requires kSpeaksDxp<Board>
Position<Board> request_position(const GameRequest& r) {
  if (r.squares.empty()) return Position<Board>::start(Color::White);
  Position<Board> p;
  p.side = r.to_move;
  for (int sq = 1; sq <= kSquares; ++sq) {
    const auto bit = Board::square_bit(sq);
    switch (r.squares[static_cast<std::size_t>(sq - 1)]) {
      case 'w': p.pieces[0] |= bit; break;
      case 'z': p.pieces[1] |= bit; break;
      case 'W': p.pieces[0] |= bit; p.kings |= bit; break;
      case 'Z': p.pieces[1] |= bit; p.kings |= bit; break;
      default: break;
    }
  }
  for (Color c : {Color::White, Color::Black})
    if (p.men(c) & Board::kCrowningRow[index(c)])
      throw Error(std::string("DXP GAMEREQ position: a ") + (c == Color::White ? "white" : "black") +
                  " man on its crowning row");
  return p;
}

// The GAMEREQ for a game from `start` (the usual start is sent as such, any
// other position in full).
template <class Board>
  requires kSpeaksDxp<Board>
GameRequest game_request(const std::string& initiator, const Position<Board>& start, Color follower, int minutes,
                         int moves) {
  GameRequest r;
  r.initiator_name = initiator;
  r.follower_color = follower;
  r.minutes = minutes;
  r.moves = moves;
  if (start != Position<Board>::start(Color::White)) {
    r.squares = format_squares(start);
    r.to_move = start.side;
  }
  return r;
}

template <class Board>
  requires kSpeaksDxp<Board>
MoveMessage to_message(const Move<Board>& m, int seconds) {
  MoveMessage out;
  out.seconds = seconds;
  out.from = Board::kSquareOfBit[m.from];
  out.to = Board::kSquareOfBit[m.to];
  for_each_bit(m.captured, [&](int b) { out.captured.push_back(Board::kSquareOfBit[b]); });
  return out;
}

// The legal move a MOVE names (from, to and the set of captured squares, a
// move's identity); throws dama::Error when there is none.
template <RuleSet R>
  requires kSpeaksDxp<BoardFor<R>>
Move<BoardFor<R>> find_move(const Position<BoardFor<R>>& p, const MoveMessage& m) {
  using Board = BoardFor<R>;
  typename Board::Bitboard captured = 0;
  for (int sq : m.captured) captured |= Board::square_bit(sq);
  MoveList<Board> legal;
  MoveGenerator<R>::generate(p, legal);
  for (const auto& candidate : legal)
    if (Board::kSquareOfBit[candidate.from] == m.from && Board::kSquareOfBit[candidate.to] == m.to &&
        candidate.captured == captured)
      return candidate;
  throw Error("DXP MOVE '" + format(Message{m}) + "' is not a legal move here");
}

}  // namespace dama::dxp
