// core/stop_signal: the one SIGINT/SIGTERM handler of the long jobs.  The
// signals are raised in this process: the handler runs synchronously on
// raise(), so every expectation below holds right after it.
#include <gtest/gtest.h>

#include <csignal>

#include "error.hpp"
#include "stop_signal.hpp"

namespace dama {
namespace {

volatile std::sig_atomic_t g_previous_calls = 0;
extern "C" void previous_handler(int) { g_previous_calls = g_previous_calls + 1; }

using Handler = void (*)(int);
Handler current_handler(int signal_number) {
  struct sigaction now {};
  ::sigaction(signal_number, nullptr, &now);
  return now.sa_handler;
}

TEST(StopSignal, FirstSignalAsksSecondIsCountedAndThePreviousHandlersComeBack) {
  std::signal(SIGINT, previous_handler);
  std::signal(SIGTERM, previous_handler);
  {
    const StopSignal stop({SecondSignal::Counted});
    EXPECT_FALSE(stop.requested());
    EXPECT_FALSE(stop.flag()->load());
    std::raise(SIGTERM);
    EXPECT_TRUE(stop.requested());
    EXPECT_TRUE(stop.flag()->load());
    EXPECT_FALSE(stop.second_flag()->load());
    EXPECT_EQ(stop.signal_number(), SIGTERM);
    std::raise(SIGINT);
    EXPECT_TRUE(stop.second_flag()->load());
    EXPECT_EQ(stop.requests(), 2);
    EXPECT_EQ(stop.counter()->load(), 2);
    EXPECT_EQ(stop.signal_number(), SIGTERM) << "the first signal's number";
    EXPECT_EQ(g_previous_calls, 0);
  }
  EXPECT_EQ(current_handler(SIGINT), &previous_handler);
  EXPECT_EQ(current_handler(SIGTERM), &previous_handler);
  std::raise(SIGINT);
  EXPECT_EQ(g_previous_calls, 1);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

TEST(StopSignal, AFreshOneStartsFromNothing) {
  {
    const StopSignal first({SecondSignal::Counted});
    std::raise(SIGINT);
    EXPECT_TRUE(first.requested());
  }
  const StopSignal second({SecondSignal::Counted});
  EXPECT_FALSE(second.requested());
  EXPECT_EQ(second.requests(), 0);
  EXPECT_FALSE(second.flag()->load());
  EXPECT_THROW(StopSignal{}, Error) << "one at a time";
}

TEST(StopSignal, EndsProgramLeavesTheDefaultActionForTheSecond) {
  const StopSignal stop({SecondSignal::EndsProgram});
  EXPECT_NE(current_handler(SIGINT), SIG_DFL);
  std::raise(SIGINT);
  EXPECT_TRUE(stop.requested());
  EXPECT_EQ(current_handler(SIGINT), SIG_DFL);
  EXPECT_EQ(current_handler(SIGTERM), SIG_DFL);
}

TEST(StopSignalDeathTest, ExitsNowEndsTheProcessWith130AtTheSecondSignal) {
  EXPECT_EXIT(
      {
        const StopSignal stop({SecondSignal::ExitsNow, "first\n", "second\n"});
        std::raise(SIGINT);
        if (!stop.requested()) std::_Exit(1);
        std::raise(SIGTERM);
        std::_Exit(2);  // not reached
      },
      ::testing::ExitedWithCode(130), "first\nsecond\n");
}

TEST(StopSignalDeathTest, EndsProgramDiesOfTheSecondSignal) {
  EXPECT_EXIT(
      {
        const StopSignal stop({SecondSignal::EndsProgram});
        std::raise(SIGTERM);
        std::raise(SIGTERM);
        std::_Exit(2);  // not reached
      },
      ::testing::KilledBySignal(SIGTERM), "");
}

}  // namespace
}  // namespace dama
