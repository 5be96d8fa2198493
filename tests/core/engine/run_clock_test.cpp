// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include "core/engine/run_clock.h"

namespace crucible::engine_detail {
namespace {

// A clock the test moves by hand.
struct ManualTime {
  RunClock::TimePoint now{};
  void advance(double seconds) {
    now += std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  }
  RunClock::Now source() {
    return [this] { return now; };
  }
};

TEST(RunClock, AddsThisSessionToWhatEarlierSessionsUsed) {
  ManualTime time;
  RunClock clock(100.0, time.source());
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 100.0);
  time.advance(2.5);
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 102.5);
}

TEST(RunClock, APausedRunSpendsNoWallTime) {
  ManualTime time;
  RunClock clock(0, time.source());
  time.advance(10);
  clock.pause();
  EXPECT_TRUE(clock.paused());
  time.advance(30);
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 10) << "frozen while paused";
  clock.resume();
  EXPECT_FALSE(clock.paused());
  time.advance(5);
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 15);
  clock.pause();
  time.advance(7);
  clock.resume();
  time.advance(1);
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 16) << "every pause of the session is left out";
}

TEST(RunClock, PauseAndResumeAreIdempotent) {
  ManualTime time;
  RunClock clock(0, time.source());
  time.advance(4);
  clock.resume();   // not paused: nothing to end
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 4);
  clock.pause();
  time.advance(3);
  clock.pause();    // keeps the first pause's start
  time.advance(3);
  clock.resume();
  clock.resume();
  EXPECT_DOUBLE_EQ(clock.wallUsed(), 4);
}

TEST(RunClock, RunsOnTheSteadyClockByDefault) {
  RunClock clock(1.0);
  EXPECT_GE(clock.wallUsed(), 1.0);
}

}  // namespace
}  // namespace crucible::engine_detail
