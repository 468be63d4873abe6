// Reading PDN: a stream of games of any GameType dama writes (and the files
// of other programs in the same forms), every move replayed through dama's
// move generator.
//
// Two steps, so that the text is read once whatever the variant:
//  * split_pdn_games cuts the text into games: the tag pairs, the moves with
//    their lines, and the result token ending the movetext.  It skips what a
//    reader may skip -- {comments}, ';' and '%' line comments, (variations)
//    however nested, NAGs ($3), move numbers ("12." and "12..."), "...", and
//    move strengths ("!", "?!", "*" glued to a move, "(?)").
//  * replay_pdn_game plays the moves of one game from its FEN tag (or the
//    start) in the GameType's notation (pdn_game_type.hpp): numeric or
//    algebraic squares, '-' ':' 'x' between them, a capture by its first and
//    last squares or with intermediate squares, which pick the paths that
//    visit them in that order (notation.hpp, moves_described).
// Anything it cannot read or replay is one dama::Error naming the source, the
// line and the move: "games.pdn:12: move 7 '23-18': not legal in this position
// (legal: ...)".  Reading takes text; files are opened by the caller.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "move.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama {

struct PdnToken {
  std::string text;
  int line = 0;
};

struct PdnTag {
  std::string name, value;
  int line = 0;
};

struct PdnGameText {
  int line = 0;  // where the game begins
  std::vector<PdnTag> tags;
  std::vector<PdnToken> moves;
  std::optional<PdnToken> terminator;  // the result token that ended the movetext, if any

  const PdnTag* tag(std::string_view name) const;
};

// The games of `text`; `source` (a file name) prefixes every error.  Throws
// dama::Error for text that is not PDN: a tag, comment or variation never
// closed, a ')' with no '(', a malformed tag.
std::vector<PdnGameText> split_pdn_games(std::string_view text, std::string_view source);

// The variant of a game: the one whose GameType its GameType tag names (the
// number before any ',' of PDN 3.0's long form), or `fallback` when it has no
// GameType tag.  Where variants share a GameType (poddavki writes 25), a
// [Variant "..."] tag naming one of them decides, else `fallback` when it is
// one of them, else the GameType's first (russian).  Throws for a GameType
// dama does not play, or for no tag and no fallback.
const Variant& pdn_game_variant(const PdnGameText& game, const Variant* fallback, std::string_view source);

template <RuleSet R>
struct PdnGame {
  Position<BoardFor<R>> start;
  std::vector<Move<BoardFor<R>>> moves;
  std::string result;  // from the first player's view: "1-0", "0-1", "1/2-1/2" or "*"
};

// Replays `game`, written in the notation of `variant`'s GameType, under the
// rules R (the variant's, or its house rule).  The result is the Result tag's
// or else the movetext's; both present and different is an error.
template <RuleSet R>
PdnGame<R> replay_pdn_game(const PdnGameText& game, const Variant& variant, std::string_view source);

}  // namespace dama
