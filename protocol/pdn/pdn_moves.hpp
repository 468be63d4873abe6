// A move as PDN movetext writes it in a GameType's notation.
//
// PDN 3.0 ("PDN 3.0 Restrictions", grammar section): a capture is written
// with only its first and last squares unless that is ambiguous; an ambiguous
// one gives every intermediate square -- where the piece turns, or, where it
// goes straight on, the square just behind the piece it took.  Those are the
// landing squares the move generator records: a flying king going straight on
// carries the sequence on from the first square behind its victim only
// (movegen.hpp, continue_as_king).  Steps use '-', captures the GameType's
// separator ('x', or ':' in russian).
#pragma once

#include <string>

#include "notation.hpp"
#include "pdn_squares.hpp"

namespace dama {

// m, one of `legal`, in the notation of GameType `type`.
template <class Board>
std::string pdn_move_text(const Move<Board>& m, const MoveList<Board>& legal, const PdnGameType& type) {
  auto name = [&](int bit) { return pdn_square_name<Board>(bit, type); };
  if (!m.is_capture()) return name(m.from) + "-" + name(m.to);
  std::string text = name(m.from);
  if (needs_landings(m, legal))
    for (int i = 0; i < m.landing_count; ++i) text += type.capture_separator + name(m.landings[i]);
  return text + type.capture_separator + name(m.to);
}

}  // namespace dama
