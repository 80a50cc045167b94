// SPDX-License-Identifier: Apache-2.0
// SystemC testbench of two RTL link controllers over two PHY ports: the
// bring-up and goodput scenario (link_bringup.h) for profile pcie6, the one
// the Verilated controller is built for.
#include <gtest/gtest.h>

#include "testbench/systemc/common/bench_controllers.h"
#include "testbench/systemc/link/link_bringup.h"

namespace lq::testing {
namespace {

TEST(RtlLinkController, PHY_1_5_BringUpOverCsrThenSaturatedLinkRunsAtGoodput) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  const link::RtlLinkControllerConfig controller = BenchRtlConfig();
  RunBringUpAndSaturate<link::RtlLinkController>(
      phy, controller, link::RtlLinkController::kSlotBytes, 6000);
}

}  // namespace
}  // namespace lq::testing
