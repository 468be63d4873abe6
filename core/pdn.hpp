// Writing games in PDN 3.0 (Portable Draughts Notation, the draughts form of
// chess's PGN): a tag section, a blank line, the movetext ending in the
// result token, a blank line -- so written games can simply be concatenated.
//
//   [Event "dama match"]
//   [Site "?"]
//   [Date "2026.11.30"]
//   [Round "1"]
//   [White "A"]
//   [Black "B"]
//   [Result "1-0"]
//   [GameType "25"]
//   [FEN "B:W18,21-32:B1-12"]        only when the game does not start at the variant's start
//
//   1... 11-15 2. 22-18 15x22 3. 25x18 ... 1-0
//
// Moves are in numeric notation (squares numbered 1..32 or 1..50, 'x' for a
// capture, every landing square only when the short form would be
// ambiguous), as format_move writes them, so parse_move reads them back.  A
// move number counts a move of each side, starting at 1 with the first
// player; a game whose first move is the second player's opens with "1...".
// Lines are wrapped at 80 characters.
//
// Results, in the Result tag and the movetext, are from the FIRST player's
// view, as GameResult::text() gives them: "1-0" means the side that moves
// first won (Black in american, White elsewhere).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fen.hpp"
#include "game.hpp"
#include "movegen.hpp"
#include "notation.hpp"
#include "variant.hpp"

namespace dama {

// The seven standard tags; "?" (and "????.??.??") stand for unknown values.
struct PdnTags {
  std::string event = "?";
  std::string site = "?";
  std::string date = "????.??.??";  // YYYY.MM.DD
  std::string round = "?";
  std::string white = "?";
  std::string black = "?";
  std::vector<std::pair<std::string, std::string>> extra;  // written after the standard ones, in order
};

// "YYYY.MM.DD" of `when`, in UTC.
std::string pdn_date(std::chrono::system_clock::time_point when);

inline constexpr std::size_t kPdnLineWidth = 80;

namespace detail {

// The tag section and its blank line.  `fen` empty: no FEN tag.
std::string pdn_tag_section(const Variant& variant, const PdnTags& tags, std::string_view result, std::string_view fen);
// Tokens joined by spaces, no line longer than `width` (a longer token gets a line of its own).
std::string wrap_tokens(const std::vector<std::string>& tokens, std::size_t width);

}  // namespace detail

// One game from `start`; `moves` must be legal in turn (each is looked up
// among the legal moves, so a bad record throws dama::Error rather than
// writing nonsense).  `result` is "1-0", "0-1", "1/2-1/2" or "*".
template <RuleSet R>
std::string write_pdn_game(const Variant& variant, const PdnTags& tags, const Position<BoardFor<R>>& start,
                           const std::vector<Move<BoardFor<R>>>& moves, std::string_view result) {
  using Board = BoardFor<R>;
  const bool standard_start = start == Position<Board>::start(R.first_player);
  std::vector<std::string> tokens;
  Position<Board> position = start;
  MoveList<Board> legal;
  int move_number = 1;
  for (std::size_t ply = 0; ply < moves.size(); ++ply) {
    MoveGenerator<R>::generate(position, legal);
    const Move<Board>* listed = nullptr;
    for (const auto& candidate : legal)
      if (candidate.same_identity(moves[ply])) listed = &candidate;
    if (!listed) throw Error("PDN: move " + std::to_string(ply + 1) + " of the game is not legal in its position");
    const bool first_player_moves = position.side == R.first_player;
    if (first_player_moves)
      tokens.push_back(std::to_string(move_number) + ".");
    else if (ply == 0)
      tokens.push_back(std::to_string(move_number) + "...");
    tokens.push_back(format_move(*listed, legal, Notation::Numeric));
    if (!first_player_moves) ++move_number;
    position = position.after(*listed);
  }
  tokens.emplace_back(result);
  return detail::pdn_tag_section(variant, tags, result, standard_start ? "" : to_fen(start)) +
         detail::wrap_tokens(tokens, kPdnLineWidth) + "\n\n";
}

// A whole game record; `result` overrides the game's own (an adjudicated
// game is not over by the rules), else "*" stands for a game still going on.
template <RuleSet R>
std::string write_pdn_game(const Variant& variant, const PdnTags& tags, const Game<R>& game,
                           std::optional<std::string_view> result = std::nullopt) {
  return write_pdn_game<R>(variant, tags, game.positions().front(), game.moves(),
                           result ? *result : game.result().text());
}

}  // namespace dama
