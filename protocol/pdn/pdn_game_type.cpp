#include "pdn_game_type.hpp"

namespace dama {

namespace {

// The rows of the PDN 3.0 GameType table for the variants dama plays:
//   20 "20,W,10,10,N2,0"  International result type, 'x'
//   21 "21,B,8,8,N1,0"    'x'
//   22 "22,W,8,8,N2,1"    'x'  (invert flag 1: a1 is not a playing square)
//   24 "24,W,8,8,N1,1"    'x'  (square 1 at White's bottom right)
//   25 "25,W,8,8,A0,0"    ':'
//   26 "26,W,8,8,A0,0"    'x'
//   29 "29,W,8,8,A0,0"    'x'
//   41 "41,W,10,8,A0,0"   ':'  (Spantsiretti draughts: russian rules on 10x8)
constexpr PdnGameType kGameTypes[] = {
    {20, Notation::Numeric, SquareNumbering::Standard, 'x', PdnResults::International},
    {21, Notation::Numeric, SquareNumbering::Standard, 'x', PdnResults::Default},
    {22, Notation::Numeric, SquareNumbering::Italian, 'x', PdnResults::Default},
    {24, Notation::Numeric, SquareNumbering::Spanish, 'x', PdnResults::Default},
    {25, Notation::Algebraic, SquareNumbering::Standard, ':', PdnResults::Default},
    {26, Notation::Algebraic, SquareNumbering::Standard, 'x', PdnResults::Default},
    {29, Notation::Algebraic, SquareNumbering::Standard, 'x', PdnResults::Default},
    {41, Notation::Algebraic, SquareNumbering::Standard, ':', PdnResults::Default},
};

}  // namespace

const PdnGameType& pdn_game_type_of(const Variant& variant) {
  for (const auto& type : kGameTypes)
    if (type.number == variant.pdn_game_type) return type;
  throw Error("PDN: no GameType " + std::to_string(variant.pdn_game_type) + " for " + std::string(variant.name));
}

const Variant* variant_of_pdn_game_type(int number) {
  for (const auto& v : kVariants)
    if (v.pdn_game_type == number) return &v;
  return nullptr;
}

std::string pdn_result_token(std::string_view first_player_result, const PdnGameType& type) {
  const bool international = type.results == PdnResults::International;
  if (first_player_result == "1-0") return international ? "2-0" : "1-0";
  if (first_player_result == "0-1") return international ? "0-2" : "0-1";
  if (first_player_result == "1/2-1/2") return international ? "1-1" : "1/2-1/2";
  return "*";
}

std::optional<std::string> first_player_result(std::string_view token) {
  if (token == "1-0" || token == "2-0") return "1-0";
  if (token == "0-1" || token == "0-2") return "0-1";
  if (token == "1/2-1/2" || token == "1-1") return "1/2-1/2";
  if (token == "*" || token == "0-0") return "*";
  return std::nullopt;
}

}  // namespace dama
