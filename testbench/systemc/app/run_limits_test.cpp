// RunWithin: a run in slices stops where an unsliced sc_start would, at a
// simulated-time limit at the limit, on starvation at the last event.
#include "systemc/app/run_limits.h"

#include <gtest/gtest.h>

#include <systemc>

#include "testbench/systemc/common/sc_thread.h"

namespace lq::app {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

TEST(RunLimits, StopsAtTheTimeLimitThenAtTheLastEvent) {
  // Events every 3 us until 123 us, then none.
  testing::ScThread ticker("ticker", [] {
    while (sc_core::sc_time_stamp() < sc_time(123, SC_US)) {
      sc_core::wait(sc_time(3, SC_US));
    }
  });
  const RunEnd limited = RunWithin({50, 0});
  EXPECT_EQ(limited.reason, RunEnd::Reason::kTimeLimit);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(50, SC_US)) << "at the limit";

  const RunEnd starved = RunWithin({0, 0});
  EXPECT_EQ(starved.reason, RunEnd::Reason::kNoEvents);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(123, SC_US))
      << "at the last event, not at a slice's end";
  EXPECT_TRUE(ticker.finished());
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
  const RunEnd end = RunWithin({1000, 0});
  EXPECT_EQ(end.reason, RunEnd::Reason::kStopped);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(37, SC_US));
}

}  // namespace
}  // namespace lq::app
