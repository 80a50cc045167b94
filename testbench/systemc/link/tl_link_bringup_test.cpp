// SPDX-License-Identifier: Apache-2.0
// SystemC testbench of two TL link controllers over two PHY ports: the
// bring-up and goodput scenario (link_bringup.h), trained from Detect at
// LTSSM_TIME_SCALE 1e-4 as the RTL is, for the profile named by
// LQ_TEST_PROFILE (one executable per profile: SystemC elaborates once).
#include <gtest/gtest.h>

#include "testbench/systemc/common/bench_controllers.h"
#include "testbench/systemc/link/link_bringup.h"

namespace lq::testing {
namespace {

TEST(TlLinkController, PHY_1_5_BringUpOverCsrThenSaturatedLinkRunsAtGoodput) {
  phy::PhyPortConfig phy = phy::PhyPortConfig::ForProfile(
      phy::FindLinkProfile(LQ_TEST_PROFILE).value());
  link::TlLinkControllerConfig controller = BenchTlConfig();
  controller.profile = phy.profile;
  RunBringUpAndSaturate<link::TlLinkController>(
      phy, controller, phy.profile.payload_bytes, 6000);
}

}  // namespace
}  // namespace lq::testing
