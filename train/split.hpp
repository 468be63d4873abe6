// The split into training and validation samples, by game: a game's
// positions are strongly correlated, so a game on both sides would let the
// validation loss flatter the fit.  Whether a game is held out depends only on
// a hash of (seed, game_id), so the same game lands on the same side in every
// file and every run with that seed.
#pragma once

#include <cstdint>
#include <vector>

#include "samples.hpp"

namespace dama::train {

struct Split {
  std::vector<std::uint32_t> training;    // sample indices, ascending
  std::vector<std::uint32_t> validation;  // sample indices, ascending
};

bool is_validation_game(std::uint64_t game_id, double validation_share, std::uint64_t seed);

// validation_share in [0, 1): the expected share of games held out.
// quiet_only: positions with a capture pending are on neither side.
Split split_by_game(const SampleSet& samples, double validation_share, std::uint64_t seed, bool quiet_only = false);

}  // namespace dama::train
