// SPDX-License-Identifier: Apache-2.0
// RunWithin: a run of boards in windows stops at a simulated-time limit at
// the limit, when the boards are done or nothing is left at the end of
// the window in which that happened, when the model stops the kernel where
// it stopped, and at the wall-time limit at a window's end.
#include "systemc/app/run_limits.h"

#include <gtest/gtest.h>

#include <systemc>

#include "systemc/parallel/rank_world.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::app {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

TEST(RunLimits, StopsAtTheTimeLimitThenAtTheEndOfTheLastEventsWindow) {
  // Events every 3 us until 123 us, then none.
  testing::ScThread ticker("ticker", [] {
    while (sc_core::sc_time_stamp() < sc_time(123, SC_US)) {
      sc_core::wait(sc_time(3, SC_US));
    }
  });
  parallel::WindowSync sync(parallel::RankWorld::Get(), sc_time(10, SC_US));
  unsigned windows = 0;
  const auto never = [] { return false; };
  const auto count = [&windows] { ++windows; };
  const RunEnd limited = RunWithin({50, 0}, sync, never, count);
  EXPECT_EQ(limited.reason, RunEnd::Reason::kTimeLimit);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(50, SC_US)) << "at the limit";
  EXPECT_EQ(windows, 6u) << "ends at 0, 10, 20, 30, 40 and 50 us";

  const RunEnd starved = RunWithin({0, 0}, sync, never, count);
  EXPECT_EQ(starved.reason, RunEnd::Reason::kEnded);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(130, SC_US))
      << "at the end of the window of the last event";
  EXPECT_TRUE(ticker.finished());
}

TEST(RunLimits, EndsAtTheEndOfTheWindowInWhichTheBoardsWereDone) {
  bool done = false;
  testing::ScThread finisher("finisher", [&done] {
    sc_core::wait(sc_time(41, SC_US));
    done = true;
  });
  testing::ScThread busy("busy", [] {
    while (true) {
      sc_core::wait(sc_time(1, SC_US));
    }
  });
  parallel::WindowSync sync(parallel::RankWorld::Get(), sc_time(10, SC_US));
  const RunEnd end = RunWithin(
      {1000, 0}, sync, [&done] { return done; }, [] {});
  EXPECT_EQ(end.reason, RunEnd::Reason::kEnded);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(50, SC_US));
}

TEST(RunLimits, ReturnsWhenTheModelStopsTheKernel) {
  testing::ScThread stopper("stopper", [] {
    sc_core::wait(sc_time(37, SC_US));
    sc_core::sc_stop();
  });
  testing::ScThread busy("busy", [] {
    while (true) {
      sc_core::wait(sc_time(1, SC_US));
    }
  });
  parallel::WindowSync sync(parallel::RankWorld::Get(), sc_time(10, SC_US));
  const RunEnd end = RunWithin(
      {1000, 0}, sync, [] { return false; }, [] {});
  EXPECT_EQ(end.reason, RunEnd::Reason::kStopped);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(37, SC_US));
}

TEST(RunLimits, StopsAtTheWallTimeLimit) {
  testing::ScThread busy("busy", [] {
    while (true) {
      sc_core::wait(sc_time(1, SC_US));
    }
  });
  parallel::WindowSync sync(parallel::RankWorld::Get(), sc_time(10, SC_US));
  const RunEnd end = RunWithin(
      {0, 0.05}, sync, [] { return false; }, [] {});
  EXPECT_EQ(end.reason, RunEnd::Reason::kWallLimit);
  EXPECT_EQ(sc_core::sc_time_stamp().value() % sc_time(10, SC_US).value(), 0u)
      << "at a window's end";
}

}  // namespace
}  // namespace lq::app
