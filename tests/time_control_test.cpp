// Time management (core/time_control): the budget as a pure function of the
// clock -- within the clock in every case, all of it on the last move of a
// control, front-loaded so that most of a long control is used by the time
// games end, and never flagging in sudden death even when every move spends
// its whole maximum.
#include "time_control.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace dama {
namespace {

TEST(TimeControl, SuddenDeathSpreadsTheClockOverTheHorizon) {
  const TimeSettings s;
  const TimeBudget b = allocate_time({60.0, 0, 0.0}, s);
  // The overhead is kept back for every move planned.
  EXPECT_NEAR(static_cast<double>(b.optimum_ms), (60000.0 - s.move_overhead_ms * s.planning_horizon) / s.planning_horizon,
              1.0);
  EXPECT_GT(b.maximum_ms, b.optimum_ms);
  EXPECT_LE(static_cast<double>(b.maximum_ms), 60000.0 * s.maximum_share);
}

// A control of moves plans on its own horizon; here a shorter one, so more a move.
TEST(TimeControl, AControlOfMovesPlansOnItsOwnHorizon) {
  TimeSettings s;
  s.control_horizon = 12;
  ASSERT_LT(s.control_horizon, s.planning_horizon);
  const TimeBudget control = allocate_time({60.0, 100, 0.0}, s);
  EXPECT_NEAR(static_cast<double>(control.optimum_ms),
              (60000.0 - s.move_overhead_ms * s.control_horizon) / s.control_horizon, 1.0);
  const TimeBudget sudden_death = allocate_time({60.0, 0, 0.0}, s);
  EXPECT_GT(control.optimum_ms, sudden_death.optimum_ms);
  // Fewer moves to the control than either horizon: those moves.
  const TimeBudget near = allocate_time({6.0, 5, 0.0}, s);
  EXPECT_NEAR(static_cast<double>(near.optimum_ms), (6000.0 - 5.0 * s.move_overhead_ms) / 5, 1.0);
}

TEST(TimeControl, TheLastMoveOfAControlMayUseTheWholeClock) {
  const TimeSettings s;
  const TimeBudget b = allocate_time({3.0, 1, 0.0}, s);
  EXPECT_EQ(b.maximum_ms, 3000 - s.move_overhead_ms);
  EXPECT_EQ(b.optimum_ms, b.maximum_ms);
  // Two moves to go: about half each.
  const TimeBudget two = allocate_time({3.0, 2, 0.0}, s);
  EXPECT_NEAR(static_cast<double>(two.optimum_ms), (3000.0 - 2 * s.move_overhead_ms) / 2, 1.0);
}

TEST(TimeControl, IncrementsAndMoreTimeGiveMore) {
  const TimeSettings s;
  const double h = s.planning_horizon;
  const TimeBudget plain = allocate_time({10.0, 0, 0.0});
  const TimeBudget with_increment = allocate_time({10.0, 0, 0.1});
  const TimeBudget more_time = allocate_time({20.0, 0, 0.0});
  EXPECT_GT(with_increment.optimum_ms, plain.optimum_ms);
  EXPECT_GT(more_time.optimum_ms, plain.optimum_ms);
  // With an increment the per-move share is about the increment plus the spread base.
  EXPECT_NEAR(static_cast<double>(with_increment.optimum_ms), plain.optimum_ms + 100.0 * (h - 1) / h, 2.0);
}

TEST(TimeControl, NeverMoreThanTheClockHolds) {
  const TimeSettings s;
  for (double remaining : {0.0, 0.001, 0.01, 0.02, 0.1, 0.5, 1.0, 7.0, 60.0, 900.0})
    for (int moves : {0, 1, 2, 5, 25, 40, 100})
      for (double increment : {0.0, 0.01, 0.1, 2.0}) {
        const double clock = remaining + increment;  // the protocol's time includes this move's increment
        const TimeBudget b = allocate_time({clock, moves, increment}, s);
        SCOPED_TRACE(::testing::Message() << clock << " s, " << moves << " moves, +" << increment);
        EXPECT_GE(b.optimum_ms, 1);
        EXPECT_LE(b.optimum_ms, b.maximum_ms);
        EXPECT_LE(static_cast<double>(b.maximum_ms), std::max(1.0, clock * 1000 - s.move_overhead_ms + 1e-6));
      }
}

// A game in sudden death where every move takes 2.5 optimums (the most the
// search stretches a move to; core/search.hpp) and 2 ms of protocol still
// has time left after 120 moves, longer than games get in practice (no
// sudden death lasts for ever: once the clock is down to the overhead kept
// back, every move costs its minimum); with moves taking their optimum, a
// control of 100 moves is mostly used by move 60.
TEST(TimeControl, SimulatedGamesKeepTimeAndUseMostOfIt) {
  const TimeSettings s;
  double clock = 10.0;
  for (int move = 0; move < 120; ++move) {
    const TimeBudget b = allocate_time({clock, 0, 0.0}, s);
    clock -= (std::min(2.5 * static_cast<double>(b.optimum_ms), static_cast<double>(b.maximum_ms)) + 2) / 1000;
    ASSERT_GT(clock, 0.0) << "flagged on move " << move;
  }

  clock = 60.0;
  for (int move = 0; move < 60; ++move) {
    const TimeBudget b = allocate_time({clock, 100 - move, 0.0}, s);
    clock -= static_cast<double>(b.optimum_ms) / 1000;
  }
  EXPECT_LT(clock, 60.0 * 0.2) << "less than 80% of a 100-move control used by move 60";
  EXPECT_GT(clock, 0.0);
}

}  // namespace
}  // namespace dama
