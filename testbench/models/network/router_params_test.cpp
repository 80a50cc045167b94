// SPDX-License-Identifier: Apache-2.0
// Tests of the router parameters both network kernels take: the checks
// that refuse a router no kernel could build (NET-3.1, NET-3.2, NET-8.4),
// naming the scenario key, the names of the choices, and what
// router.vc_reuse and router.eject_vc mean for a VC (NET-8.3).
#include "models/network/router_params.h"

#include <gtest/gtest.h>

namespace lq::net {
namespace {

std::string Problem(const RouterParams& params, unsigned routing_classes = 2) {
  return RouterParamsProblem(params, routing_classes, "dor").value_or("");
}

TEST(RouterParams, NET_3_1_NET_8_4_ProblemsNameTheirKey) {
  RouterParams params;
  EXPECT_EQ(Problem(params), "") << "the defaults make a router";
  EXPECT_NE(Problem(params, 3).find("net.vc_classes is 2 (NET-3.2)"),
            std::string::npos);
  params.vc_sets = 3;
  EXPECT_NE(Problem(params).find("1 to 4 VCs (NET-3.1)"), std::string::npos);
  params = RouterParams{};
  params.va_cycles = 0;
  EXPECT_NE(Problem(params).find("router.rc_cycles to router.st_cycles"),
            std::string::npos);
  params = RouterParams{};
  params.vc_buffer_flits = 0;
  EXPECT_NE(Problem(params).find("router.vc_buffer_flits"), std::string::npos);
  params = RouterParams{};
  params.output_buffer_flits = 0;
  EXPECT_NE(Problem(params).find("router.output_buffer_flits"),
            std::string::npos);
}

TEST(RouterParams, ChoicesParseByTheirScenarioNames) {
  EXPECT_EQ(ParseSwitchAllocator("islip"), SwitchAllocator::kIslip);
  EXPECT_EQ(ParseSwitchAllocator("rr"), SwitchAllocator::kRoundRobin);
  EXPECT_FALSE(ParseSwitchAllocator("wavefront"));
  EXPECT_EQ(ParseVcReuse("after_tail"), VcReuse::kAfterTail);
  EXPECT_EQ(ParseVcReuse("same_cycle"), VcReuse::kSameCycle);
  EXPECT_FALSE(ParseVcReuse("never"));
}

TEST(RouterParams, NET_8_3_VcReuseOrdersTheStagesAndRestartsTheHead) {
  RouterParams params;
  params.rc_cycles = 2;
  EXPECT_FALSE(params.allocates_vcs_first());
  EXPECT_EQ(params.head_restart_cycles(), 0u);
  params.vc_reuse = VcReuse::kAfterTail;
  EXPECT_TRUE(params.allocates_vcs_first());
  EXPECT_EQ(params.head_restart_cycles(), 3u) << "the next cycle, then RC";
}

TEST(RouterParams, NET_8_3_EjectionTakesAFreeVcOfTheSameSet) {
  RouterParams params;  // 2 sets of 2 classes: VCs 0-1 and 2-3
  const auto only = [](unsigned free) {
    return [free](unsigned vc) { return vc == free; };
  };
  EXPECT_EQ(EjectionVc(params, 2, only(3)), 2u) << "eject_vc same";
  params.eject_any_vc = true;
  EXPECT_EQ(EjectionVc(params, 2, only(3)), 3u);
  EXPECT_EQ(EjectionVc(params, 3, only(2)), 2u) << "round from the routed VC";
  EXPECT_EQ(EjectionVc(params, 2, only(0)), 2u) << "never another set";
}

}  // namespace
}  // namespace lq::net
