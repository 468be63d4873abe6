// Comparing variants: statistics of each variant's self-play games, and the
// report (an HTML page with SVG plots) that puts them side by side.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dataset_io.hpp"
#include "weights.hpp"

namespace dama {

// Game phases by the material left: more than 2/3 of the pieces of the start
// is the opening, more than 1/3 the middlegame, the rest the endgame.
inline constexpr int kPhases = 3;
inline constexpr const char* kPhaseNames[kPhases] = {"opening", "middlegame", "endgame"};

struct VariantStats {
  std::string variant;
  std::string choice_rule;                  // how the variant chooses among captures
  std::int64_t games = 0, positions = 0;    // positions: every position before a move, replayed
  double first_player_score = 0;            // (wins + draws / 2) / games, first player's view
  double draw_rate = 0;
  double mean_length = 0;                   // plies
  std::vector<std::int64_t> length_histogram;  // bins of 20 plies
  double captures_per_game = 0, crownings_per_game = 0;
  std::array<double, kPhases> branching{};  // mean number of legal moves, by phase
  std::array<std::int64_t, kPhases> phase_positions{};
  std::int64_t capture_positions = 0;       // positions with a capture to make
  std::int64_t constrained = 0;             // ... where the choice rule removed some capture sequence
  double king_value_opening = 0, king_value_endgame = 0;  // material.king / material.man of the weights
  std::string weights_source;
};

// The statistics of a dataset's games (replayed move by move).
VariantStats variant_stats(const Dataset& data, const Weights& weights);

// Writes DIR/index.html and DIR/*.svg for the variants, in the given order.
// Returns the path of index.html.
std::string write_compare_report(const std::string& dir, const std::vector<VariantStats>& stats);

}  // namespace dama
