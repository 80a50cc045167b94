// SPDX-License-Identifier: Apache-2.0
// Failover per flow (NET-7.9): the interval runs from the ejection of the
// last packet sent before the failure to the ejection of the first packet
// of the new epoch; unaffected flows are left out and one-sided flows are
// unmeasured. With a transport (NET-7.13): per connection, the longest
// wait a message landing after the failure had past it.
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

TEST(Failover, NET_7_13_AConnectionsLongestWaitPastTheFailure) {
  const std::vector<MessageTimes> messages = {
      {0, 1, 900, 950},    // landed before the failure: not counted
      {0, 1, 990, 2300},   // in flight at the failure: waited 1300 past it
      {0, 1, 1200, 2400},  // posted after it: waited 1200 from its posting
      {0, 1, 2500, 2550},
      {2, 3, 500, 520},           // affected, nothing after: unmeasured
      {2, 3, 990, std::nullopt},  // did not land: nothing to measure
      {4, 5, 990, 5000},          // not affected
  };
  const FailoverReport report = MeasureMessageFailover(
      messages, kFailure, [](uint32_t src, uint32_t) { return src < 4; });
  ASSERT_EQ(report.flows.size(), 2u) << "connection 4->5 crossed nothing";
  const FlowFailover& flow = report.flows[0];
  EXPECT_TRUE(flow.measured);
  EXPECT_DOUBLE_EQ(flow.before_ns, kFailure) << "from the failure";
  EXPECT_DOUBLE_EQ(flow.after_ns, 2300);
  EXPECT_DOUBLE_EQ(flow.failover_ns(), 1300);
  EXPECT_FALSE(report.flows[1].measured);
  EXPECT_EQ(report.unmeasured, 1u);
  EXPECT_DOUBLE_EQ(report.max_ns, 1300);
}

}  // namespace
}  // namespace lq::net
