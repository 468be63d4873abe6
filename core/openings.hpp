// An openings file: one PDN FEN per line ("W:W21-32:B1-12", or the tag form
// [FEN "W:W21-32:B1-12"]); blank lines and lines starting with '#' are
// skipped.  Here the file is only read and split; the positions are parsed
// and checked (legal, game not over) by the match, which knows the board.
#pragma once

#include <string>
#include <vector>

namespace dama {

struct OpeningLine {
  int line = 0;     // 1-based, for messages
  std::string fen;  // the FEN text, tag and quotes removed
};

struct OpeningsFile {
  std::string path;
  std::vector<OpeningLine> openings;
  std::string digest;  // of the file's bytes: a journal notices an edited file
};

// Throws dama::Error when the file cannot be read, a line is a malformed
// [FEN ...] tag, or the file holds no opening.
OpeningsFile read_openings(const std::string& path);

// A 16-hex-digit FNV-1a digest, the same on every platform.
std::string text_digest(const std::string& bytes);

}  // namespace dama
