// SPDX-License-Identifier: Apache-2.0
// Tests of ScenarioLossless: the PFC thresholds, TRN-8.8's headroom and the
// ECN profile a scenario's keys describe, and the VC size that follows
// (TRN-8.5, TRN-8.8, TRN-8.9, TRN-9.3).
#include "systemc/app/scenario_lossless.h"

#include <gtest/gtest.h>

#include "models/roce/addressing.h"
#include "testbench/app/scenario_params.h"

namespace lq::app {
namespace {

constexpr uint8_t kDataPriority = roce::PriorityOfDscp(roce::kDscpData);

phy::LinkProfile Pcie6() { return phy::FindLinkProfile("pcie6").value(); }

TEST(ScenarioLossless, TRN_8_8_DefaultsGiveTheTransportStudysHeadroom) {
  const auto plan =
      ScenarioLossless(ScenarioParams({}), Pcie6(), 4096, "lqcc").value();
  EXPECT_EQ(plan.flow.pfc_params.xoff_bytes, 65536u);
  EXPECT_EQ(plan.flow.pfc_params.xon_bytes, 49152u);
  EXPECT_EQ(plan.headroom_bytes, 14082u)
      << "2 m of pcie6 at 4 KiB PMTU, as incast_4x4x4.yaml reports";
  EXPECT_EQ(plan.VcBufferSlots(236), (65536u + 14082u + 235u) / 236u);
  EXPECT_EQ(plan.marking, "lqcc") << "ecn.profile auto follows the control";
  EXPECT_GT(plan.flow.ecn[kDataPriority].kmin_bytes, 0u);
  EXPECT_EQ(plan.flow.line_rate_bps, 1'024'000'000'000u)
      << "pause quanta at the raw rate (TRN-8.6)";
}

TEST(ScenarioLossless, TRN_9_3_NamedProfileOverridesAuto) {
  const auto plan = ScenarioLossless(ScenarioParams({{"ecn.profile", "none"}}),
                                     Pcie6(), 4096, "dcqcn")
                        .value();
  EXPECT_EQ(plan.marking, "none");
  EXPECT_EQ(plan.flow.ecn[kDataPriority].kmin_bytes, 0u);
}

TEST(ScenarioLossless, TRN_8_5_XonMustBeBelowXoff_fail) {
  const auto plan = ScenarioLossless(
      ScenarioParams({{"pfc.xon_bytes", "65536"}}), Pcie6(), 4096, "none");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().reason.find("pfc.xon_bytes"), std::string::npos);
}

TEST(ScenarioLossless, TRN_8_9_HeadroomAboveTheLimitIsRefused_fail) {
  const auto plan = ScenarioLossless(ScenarioParams({{"link.cable_m", "500"}}),
                                     Pcie6(), 4096, "none");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().reason.find("TRN-8.9"), std::string::npos);
}

}  // namespace
}  // namespace lq::app
