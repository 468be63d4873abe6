#include "time_control.hpp"

#include <algorithm>
#include <cmath>

namespace dama {

TimeBudget allocate_time(const GameClock& clock, const TimeSettings& settings) {
  const double remaining_ms = std::max(0.0, clock.remaining_seconds * 1000);
  const double increment_ms = std::max(0.0, clock.increment_seconds * 1000);
  const int horizon = std::max(1, clock.moves_to_go > 0 ? settings.control_horizon : settings.planning_horizon);
  const int moves = clock.moves_to_go > 0 ? std::min(clock.moves_to_go, horizon) : horizon;
  const double overhead = static_cast<double>(settings.move_overhead_ms);

  // Never plan on more than the clock holds, less what the protocol costs on
  // every move still to be made before the clock is refilled.
  const double usable = std::max(0.0, remaining_ms - overhead);
  // The moves after this one bring their increments (this one's is in `remaining`).
  const double pool = usable + (increment_ms - overhead) * (moves - 1);
  double optimum = std::max(0.0, pool) / moves;
  // Near a control the share of one move grows to all of it on the last move.
  const double share =
      clock.moves_to_go > 0 ? std::max(settings.maximum_share, 1.0 / clock.moves_to_go) : settings.maximum_share;
  double maximum = std::min({optimum * settings.maximum_ratio, usable * share + increment_ms * 0.9, usable});
  optimum = std::min(optimum, maximum);
  // Rounded down, and at least a millisecond so that even a flagging engine searches depth 1.
  return {std::max<std::int64_t>(1, static_cast<std::int64_t>(optimum)),
          std::max<std::int64_t>(1, static_cast<std::int64_t>(maximum))};
}

}  // namespace dama
