// SystemC testbench of two TL link controllers over two PHY ports: the
// bring-up and goodput scenario (link_bringup.h), trained from Detect at
// LTSSM_TIME_SCALE 1e-4 as the RTL is, for the profile named by
// LQ_TEST_PROFILE (one executable per profile: SystemC elaborates once).
#include <gtest/gtest.h>

#include "systemc/link/tl_link_controller.h"
#include "testbench/systemc/link/link_bringup.h"

namespace lq::testing {
namespace {

TEST(TlLinkController, PHY_1_5_BringUpOverCsrThenSaturatedLinkRunsAtGoodput) {
  phy::PhyPortConfig phy;
  phy.profile = phy::FindLinkProfile(LQ_TEST_PROFILE).value();
  phy.tx_pipeline_ps = phy.profile.tx_pipeline_ps;
  phy.rx_pipeline_ps = phy.profile.rx_pipeline_ps;
  link::TlLinkControllerConfig controller;
  controller.profile = phy.profile;
  controller.tx_slots_per_vc = 32;  // Enough to cover the credit loop.
  controller.ltssm_time_scale = 1e-4;
  RunBringUpAndSaturate<link::TlLinkController>(
      phy, controller, phy.profile.payload_bytes, 6000);
}

}  // namespace
}  // namespace lq::testing
