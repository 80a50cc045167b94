// Failover per flow (NET-7.9): the interval runs from the ejection of the
// last packet sent before the failure to the ejection of the first packet
// of the new epoch; unaffected flows are left out and one-sided flows are
// unmeasured.
#include "models/network/failover.h"

#include <gtest/gtest.h>

namespace lq::net {
namespace {

constexpr double kFailure = 1000;

TEST(Failover, NET_7_9_LastBeforeToFirstOfTheNewEpoch) {
  const std::vector<FlowDelivery> deliveries = {
      {0, 1, 0, 900, 950, 0},    // before
      {0, 1, 0, 990, 1010, 0},   // last sent before: ejected at 1010
      {0, 1, 0, 1005, 1400, 0},  // after the failure, old epoch: not it
      {0, 1, 0, 2100, 2150, 1},  // first of the new epoch... by sending
      {0, 1, 0, 2000, 2200, 1},  // ...this one was sent first
      {2, 3, 0, 500, 520, 0},    // affected, nothing after: unmeasured
      {4, 5, 0, 500, 520, 0},    // not affected
      {4, 5, 0, 2000, 2020, 1},
  };
  const FailoverReport report = MeasureFailover(
      deliveries, kFailure, 1, [](uint32_t src, uint32_t) { return src < 4; });
  ASSERT_EQ(report.flows.size(), 2u) << "flow 4->5 did not cross the failure";
  const FlowFailover& flow = report.flows[0];
  EXPECT_EQ(flow.src, 0u);
  EXPECT_TRUE(flow.measured);
  EXPECT_DOUBLE_EQ(flow.before_ns, 1010)
      << "the last packet injected before the failure, by send time";
  EXPECT_DOUBLE_EQ(flow.after_ns, 2200)
      << "the first packet injected in the new epoch, by send time";
  EXPECT_DOUBLE_EQ(flow.failover_ns(), 1190);
  EXPECT_FALSE(report.flows[1].measured) << "no packet after the repair";
  EXPECT_EQ(report.unmeasured, 1u);
  EXPECT_DOUBLE_EQ(report.max_ns, 1190);
}

TEST(Failover, NET_7_9_TrafficClassesAreSeparateFlows) {
  const std::vector<FlowDelivery> deliveries = {{0, 1, 0, 900, 950, 0},
                                                {0, 1, 0, 2000, 2050, 1},
                                                {0, 1, 6, 800, 820, 0},
                                                {0, 1, 6, 3000, 3020, 1}};
  const FailoverReport report = MeasureFailover(
      deliveries, kFailure, 1, [](uint32_t, uint32_t) { return true; });
  ASSERT_EQ(report.flows.size(), 2u);
  EXPECT_DOUBLE_EQ(report.flows[0].failover_ns(), 1100);
  EXPECT_DOUBLE_EQ(report.flows[1].failover_ns(), 2200);
  EXPECT_DOUBLE_EQ(report.max_ns, 2200) << "the worst affected flow";
}

}  // namespace
}  // namespace lq::net
