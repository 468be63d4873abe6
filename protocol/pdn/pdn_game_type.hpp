// What the PDN 3.0 standard says about each draughts GameType dama plays:
// how its squares are named and numbered, how captures are written and which
// result tokens it uses.  These are facts of the file format, kept apart from
// the rules of play (variant.hpp): a variant names its GameType, this table
// says how that GameType is written.
//
// Sources (docs/pdn.md): the GameType table of the PDN 3.0 standard
// (pdn.fmjd.org, "GameType tag"), its Result tag section, and the PDN 2.0
// draft for English checkers (Murray Cash, 2003).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "variant.hpp"

namespace dama {

// How a GameType numbers the 32 or 50 playing squares, against dama's own
// numbering (RULES.md "Notation": 1 at the top left as White sees the board,
// a1 dark).
enum class SquareNumbering : std::uint8_t {
  Standard,  // dama's: international, american, russian, brazilian, czech
  Italian,   // mirror-image board (a1 light), 1 at the top left, rows left to right
  Spanish,   // mirror-image board (a1 light), 1 at the bottom right, rows right to left
};

// Which tokens stand for a win, a loss and a draw.
enum class PdnResults : std::uint8_t {
  Default,        // 1-0, 0-1, 1/2-1/2
  International,  // 2-0, 0-2, 1-1 (GameType 20)
};

struct PdnGameType {
  int number;
  Notation notation;  // numeric squares or algebraic (a1..h8)
  SquareNumbering numbering;
  char capture_separator;  // 'x' or ':' between the squares of a capture
  PdnResults results;
};

// The GameType `variant` is written in (its pdn_game_type); every variant of
// kVariants has one.
const PdnGameType& pdn_game_type_of(const Variant& variant);

// The variant whose GameType is `number`, or nothing when dama plays none.
const Variant* variant_of_pdn_game_type(int number);

// The token for a result given from the first player's view ("1-0", "0-1",
// "1/2-1/2", "*", as GameResult::text() gives them).  PDN's "1-0" is a win
// for the side that moves first in every GameType dama writes: White, and in
// English checkers (21) Black, where PDN 2.0 reads "1-0" as a win for Black.
std::string pdn_result_token(std::string_view first_player_result, const PdnGameType& type);

// The first player's view ("1-0", "0-1", "1/2-1/2" or "*") of a result token
// in any of PDN's forms; "0-0" (both lost) and "*" give "*"; nothing for a
// token that is no result.
std::optional<std::string> first_player_result(std::string_view token);

}  // namespace dama
