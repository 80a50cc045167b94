// SPDX-License-Identifier: Apache-2.0
// Unit tests of the run report's arithmetic: latency percentiles, aggregate
// bandwidth and the integrity verdict that decides exit status 1.
#include "systemc/app/run_report.h"

#include "gtest/gtest.h"

namespace lq::app {
namespace {

TEST(RunReport, PercentilesAreNearestRank) {
  std::vector<double> samples;
  for (int i = 100; i >= 1; --i) {
    samples.push_back(i);  // Unsorted on purpose.
  }
  const LatencySummary summary = Summarise(samples);
  EXPECT_DOUBLE_EQ(summary.mean, 50.5);
  EXPECT_DOUBLE_EQ(summary.p50, 50) << "nearest rank: ceil(0.50 * 100) = 50";
  EXPECT_DOUBLE_EQ(summary.p99, 99) << "nearest rank: ceil(0.99 * 100) = 99";
  EXPECT_DOUBLE_EQ(summary.max, 100);
}

TEST(RunReport, PercentilesOfTinySamples) {
  const LatencySummary one = Summarise({7});
  EXPECT_DOUBLE_EQ(one.p50, 7);
  EXPECT_DOUBLE_EQ(one.p99, 7);
  const LatencySummary none = Summarise({});
  EXPECT_DOUBLE_EQ(none.mean, 0) << "no deliveries: zeros, not a crash";
  EXPECT_DOUBLE_EQ(none.max, 0);
}

RunReport CleanReport() {
  RunReport report;
  report.expected = 10;
  report.outcome.posted = 10;
  report.outcome.delivered = 10;
  report.outcome.payload_bytes = 1280;
  report.sim_time_ns = 640;
  return report;
}

TEST(RunReport, AggregateBandwidthIsBytesPerNanosecond) {
  EXPECT_DOUBLE_EQ(AggregateGBps(CleanReport()), 2.0);
  RunReport idle = CleanReport();
  idle.sim_time_ns = 0;
  EXPECT_DOUBLE_EQ(AggregateGBps(idle), 0) << "no division by zero";
}

TEST(RunReport, IntegrityFailsOnEveryKindOfDamage) {
  EXPECT_TRUE(CleanReport().IntegrityOk());
  RunReport lost = CleanReport();
  lost.outcome.delivered = 9;
  EXPECT_EQ(lost.Lost(), 1u);
  EXPECT_FALSE(lost.IntegrityOk()) << "a lost message fails the run";
  RunReport failed = CleanReport();
  failed.outcome.delivered = 9;
  failed.outcome.failed = 1;
  EXPECT_EQ(failed.Lost(), 1u) << "a SEND that completed in error is lost";
  EXPECT_FALSE(failed.IntegrityOk());
  RunReport corrupted = CleanReport();
  corrupted.outcome.delivered = 9;
  corrupted.outcome.corrupted = 1;
  EXPECT_EQ(corrupted.Lost(), 0u) << "a corrupted message is not also lost";
  EXPECT_FALSE(corrupted.IntegrityOk());
  RunReport duplicated = CleanReport();
  duplicated.outcome.duplicated = 1;
  EXPECT_FALSE(duplicated.IntegrityOk());
  RunReport reordered = CleanReport();
  reordered.outcome.delivered = 9;
  reordered.outcome.reordered = 1;
  EXPECT_EQ(reordered.Lost(), 0u) << "a reordered message is not also lost";
  EXPECT_FALSE(reordered.IntegrityOk());
  RunReport with_failed_node = CleanReport();
  with_failed_node.outcome.delivered = 7;
  with_failed_node.outcome.posted = 9;
  with_failed_node.outcome.unposted = 1;
  with_failed_node.outcome.failed = 3;
  with_failed_node.outcome.endpoint_failed = 3;
  EXPECT_EQ(with_failed_node.Lost(), 0u)
      << "messages to or from a failed node are failed, each counted";
  EXPECT_TRUE(with_failed_node.IntegrityOk());
  with_failed_node.outcome.endpoint_failed = 2;
  EXPECT_EQ(with_failed_node.Lost(), 1u) << "one failed between working nodes";
  RunReport unsent = CleanReport();
  unsent.outcome.posted = 9;
  unsent.outcome.delivered = 9;
  EXPECT_FALSE(unsent.IntegrityOk()) << "every expected message must be sent";
}

TEST(RunReport, IntegrityCountsFailOnAnyLossAndRenderEveryCount) {
  const IntegrityCounts clean{5, 5, 0, 0, 0};
  EXPECT_TRUE(clean.Ok());
  EXPECT_EQ(clean.Line(),
            "sent 5, delivered 5, lost 0, duplicated 0, corrupted 0");
  for (uint64_t IntegrityCounts::*count :
       {&IntegrityCounts::lost, &IntegrityCounts::duplicated,
        &IntegrityCounts::corrupted}) {
    IntegrityCounts bad = clean;
    bad.*count = 1;
    EXPECT_FALSE(bad.Ok());
  }
  IntegrityCounts mixed{9, 6, 1, 2, 3};
  mixed.endpoint_failed = 4;
  EXPECT_TRUE((IntegrityCounts{9, 5, 0, 0, 0, 4}.Ok()))
      << "messages to or from a failed node are failed, not lost";
  EXPECT_EQ(mixed.Line(),
            "sent 9, delivered 6, failed 4 (to or from the failed node), "
            "lost 1, duplicated 2, corrupted 3");
  EXPECT_EQ(mixed.Json().dump(),
            R"({"sent":9,"delivered":6,"endpoint_failed":4,"lost":1,)"
            R"("duplicated":2,"corrupted":3})");
}

}  // namespace
}  // namespace lq::app
