#include "split.hpp"

#include "random.hpp"

namespace dama::train {

bool is_validation_game(std::uint64_t game_id, double validation_share, std::uint64_t seed) {
  return unit_interval(mix64(game_id ^ mix64(seed))) < validation_share;
}

Split split_by_game(const SampleSet& samples, double validation_share, std::uint64_t seed, bool quiet_only) {
  Split split;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (quiet_only && samples.capture_pending[i]) continue;
    auto& side = is_validation_game(samples.game_ids[i], validation_share, seed) ? split.validation : split.training;
    side.push_back(static_cast<std::uint32_t>(i));
  }
  return split;
}

}  // namespace dama::train
