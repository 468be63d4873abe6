// What an endgame table is about: a material signature seen from the side to
// move (its men and kings, the opponent's men and kings), and the value a
// table holds for each position of it.
//
// Only positions with the side to move's pieces as "own" are stored: a
// position with Black to move is the same game as the position turned 180
// degrees with the colours swapped (Position::flipped), which every rule set
// respects.  So one slice holds, for one signature, every placement with
// White to move; Black-to-move positions are looked up flipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dama::egtb {

// Win, draw or loss for the side to move, the game's draw counters ignored.
enum class Wdl : std::uint8_t { Unknown = 0, Win = 1, Loss = 2, Draw = 3 };

inline const char* wdl_name(Wdl v) {
  switch (v) {
    case Wdl::Win: return "win";
    case Wdl::Loss: return "loss";
    case Wdl::Draw: return "draw";
    default: return "unknown";
  }
}
// Distances (plies to a capture, a crowning or the end of the game) are
// stored in a byte; this one stands for itself or more.
inline constexpr int kFarDistance = 255;

// The value for the other side.
constexpr Wdl negate(Wdl v) { return v == Wdl::Win ? Wdl::Loss : v == Wdl::Loss ? Wdl::Win : v; }

// The value of a position whose side to move has no legal move: a loss, a
// win in poddavki (pass no_move_wins(rules)).
constexpr Wdl no_move_value(bool no_move_wins) { return no_move_wins ? Wdl::Win : Wdl::Loss; }

struct Material {
  int own_men = 0, own_kings = 0, other_men = 0, other_kings = 0;

  constexpr int own() const { return own_men + own_kings; }
  constexpr int other() const { return other_men + other_kings; }
  constexpr int pieces() const { return own() + other(); }
  constexpr int men() const { return own_men + other_men; }
  // The signature after the move, seen from the new side to move.
  constexpr Material swapped() const { return {other_men, other_kings, own_men, own_kings}; }
  constexpr bool operator==(const Material&) const = default;

  // "2110": own men, own kings, other men, other kings (file names, `egtb info`).
  std::string code() const {
    return std::to_string(own_men) + std::to_string(own_kings) + std::to_string(other_men) + std::to_string(other_kings);
  }
  // "2 men 1 king v 1 man" for people.
  std::string describe() const;
};

// Every signature with 2 to max_pieces pieces, both sides with a piece, in
// build order: fewer pieces first (a capture leads there), and among equal
// counts fewer men first (a crowning turns a man into a king).  A signature
// and its swap are adjacent (they are built together: a quiet move leads
// from one to the other).
std::vector<Material> materials_in_build_order(int max_pieces);

// Parses a code as written by Material::code; nothing on a malformed one.
bool parse_material(const std::string& code, Material& out);

}  // namespace dama::egtb
