// An openings file: one PDN FEN per line ("W:W21-32:B1-12", or the tag form
// [FEN "W:W21-32:B1-12"]); blank lines and lines starting with '#' are
// skipped.  Here the file is only read and split; the positions are parsed
// (opening_position) and checked (legal, game not over) by the match and the
// self-play job, which know the board.
//
// A bare FEN is dama's own, as --fen takes it.  The tag form is a FEN tag as
// dama's PDN writes it, in the squares of the variant's GameType (algebraic
// for russian, brazilian, czech; the Italian and Spanish numbering of their
// board; docs/pdn.md), so that the FEN tags of dama's games can be pasted in.
#pragma once

#include <string>
#include <vector>

#include "position.hpp"
#include "variant.hpp"

namespace dama {

struct OpeningLine {
  int line = 0;     // 1-based, for messages
  std::string fen;  // the FEN text, tag and quotes removed
  bool pdn_tag = false;  // given as [FEN "..."]: in the GameType's squares
};

struct OpeningsFile {
  std::string path;
  std::vector<OpeningLine> openings;
  std::string digest;  // of the file's bytes: a journal notices an edited file
};

// Throws dama::Error when the file cannot be read, a line is a malformed
// [FEN ...] tag, or the file holds no opening.
OpeningsFile read_openings(const std::string& path);

// The position of one line, read as its form says (see the top).  Throws
// dama::Error naming what is wrong (without the file and line).
template <class Board>
Position<Board> opening_position(const OpeningLine& line, const Variant& variant);

// A 16-hex-digit FNV-1a digest, the same on every platform.
std::string text_digest(const std::string& bytes);

}  // namespace dama
