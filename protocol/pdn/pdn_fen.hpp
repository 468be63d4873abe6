// The FEN tag in a GameType's own squares: "W:W21,22,K30:B1,2,3" with the
// GameType's numbers, or "W:Wa1,c1:Bb8" for the algebraic GameTypes (PDN 3.0
// "FEN tag": the alphanumeric form has no ranges).  Read in either form,
// ranges of numbers allowed; dama's own FEN (fen.hpp) does the checking.
#pragma once

#include <string>
#include <string_view>

#include "pdn_game_type.hpp"
#include "position.hpp"

namespace dama {

template <class Board>
std::string to_pdn_fen(const Position<Board>& p, const PdnGameType& type);

// Throws dama::Error naming what is wrong.
template <class Board>
Position<Board> parse_pdn_fen(std::string_view fen, const PdnGameType& type);

}  // namespace dama
