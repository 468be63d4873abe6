// An openings file, in one of two forms:
//  * one PDN FEN per line ("W:W21-32:B1-12", or the tag form
//    [FEN "W:W21-32:B1-12"]); blank lines and lines starting with '#' are
//    skipped;
//  * a PDN file of games (it has an [Event], [GameType] or [Result] tag, or a
//    line of movetext beginning "1."): each game is an opening, the position
//    after its moves from its FEN tag or the start -- e.g. the three-move
//    ballots of English checkers written as three-move games.  Here the file is only read and split; the positions are parsed
// (opening_position) and checked (legal, game not over) by the match and the
// self-play job, which know the board.
//
// A bare FEN is dama's own, as --fen takes it.  The tag form is a FEN tag as
// dama's PDN writes it, in the squares of the variant's GameType (algebraic
// for russian, brazilian, czech; the Italian and Spanish numbering of their
// board; docs/pdn.md), so that the FEN tags of dama's games can be pasted in.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pdn/pdn_reader.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama {

struct OpeningLine {
  int line = 0;     // 1-based, for messages
  std::string fen;  // the FEN text, tag and quotes removed
  bool pdn_tag = false;  // given as [FEN "..."]: in the GameType's squares
  std::optional<PdnGameText> game;  // a PDN file's game: its moves lead to the opening
};

struct OpeningsFile {
  std::string path;
  std::vector<OpeningLine> openings;
  std::string digest;  // of the file's bytes: a journal notices an edited file
};

// "builtin:NAME": the openings dama ships for variant NAME (configs/openings/NAME.pdn,
// compiled in), e.g. builtin:american, the three-move ballots.
inline constexpr std::string_view kBuiltinPrefix = "builtin:";
// The built-in openings of `variant`, when dama ships a set: the default of `dama match`.
std::optional<std::string> shipped_openings(const Variant& variant);

// Throws dama::Error when the file cannot be read, a line is a malformed
// [FEN ...] tag, or the file holds no opening.
OpeningsFile read_openings(const std::string& path);

// The position of one line, read as its form says (see the top).  Throws
// dama::Error naming what is wrong (without the file and line).
template <class Board>
Position<Board> opening_position(const OpeningLine& line, const Variant& variant);

// The position of any line, a PDN game's included (its moves replayed under
// R, the variant's rules or its house rule).
template <RuleSet R>
Position<BoardFor<R>> opening_start(const OpeningLine& line, const Variant& variant) {
  if (!line.game) return opening_position<BoardFor<R>>(line, variant);
  const PdnGame<R> game = replay_pdn_game<R>(*line.game, variant, "the opening");
  Position<BoardFor<R>> p = game.start;
  for (const auto& m : game.moves) p = p.after(m);
  return p;
}

// A 16-hex-digit FNV-1a digest, the same on every platform.
std::string text_digest(const std::string& bytes);

}  // namespace dama
