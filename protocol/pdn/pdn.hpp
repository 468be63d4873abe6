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
//   [SetUp "1"]                          with the FEN tag, only when the game
//   [FEN "B:Wa1,c1,...:Bb8,..."]         does not start at the variant's start
//
//   1... f6-e5 2. c3-d4 e5:c3 3. b2:d4 ... 1-0
//
// Everything is written the way the variant's GameType is (pdn_game_type.hpp,
// docs/pdn.md): numeric squares for 20, 21, 22 and 24 -- in the Italian and
// Spanish numbering of their mirror-image board for 22 and 24 -- and
// algebraic squares for 25, 26 and 29, in the moves and in the FEN tag; 'x'
// between the squares of a capture, ':' in russian; every intermediate square
// of a capture only when the short form would be ambiguous (pdn_moves.hpp).
// A move number counts a move of each side, starting at 1 with the first
// player; a game whose first move is the second player's opens with "1...".
// Lines are wrapped at 80 characters.
//
// Results come in from the FIRST player's view, as GameResult::text() gives
// them ("1-0": the side that moves first won).  That is also what PDN's "1-0"
// means in every GameType written here -- White, or in English checkers Black,
// which PDN 2.0 defines "1-0" to be -- so only the spelling changes:
// international draughts writes 2-0, 0-2 and 1-1, the result type PDN 3.0
// gives GameType 20.
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
#include "pdn_fen.hpp"
#include "pdn_game_type.hpp"
#include "pdn_moves.hpp"
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

// The tag section and its blank line; `result` is the token as written.
// `fen` empty: no SetUp and FEN tags.
std::string pdn_tag_section(const Variant& variant, const PdnTags& tags, std::string_view result, std::string_view fen);
// Tokens joined by spaces, no line longer than `width` (a longer token gets a line of its own).
std::string wrap_tokens(const std::vector<std::string>& tokens, std::size_t width);

}  // namespace detail

// One game from `start`; `moves` must be legal in turn (each is looked up
// among the legal moves, so a bad record throws dama::Error rather than
// writing nonsense).  `result` is "1-0", "0-1", "1/2-1/2" or "*", from the
// first player's view.
template <RuleSet R>
std::string write_pdn_game(const Variant& variant, const PdnTags& tags, const Position<BoardFor<R>>& start,
                           const std::vector<Move<BoardFor<R>>>& moves, std::string_view result) {
  using Board = BoardFor<R>;
  const PdnGameType& type = pdn_game_type_of(variant);
  const std::string result_token = pdn_result_token(result, type);
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
    tokens.push_back(pdn_move_text(*listed, legal, type));
    if (!first_player_moves) ++move_number;
    position = position.after(*listed);
  }
  tokens.push_back(result_token);
  return detail::pdn_tag_section(variant, tags, result_token, standard_start ? "" : to_pdn_fen(start, type)) +
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
