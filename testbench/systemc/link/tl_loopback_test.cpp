// SPDX-License-Identifier: Apache-2.0
// SystemC test of a TL link controller in loopback (DLL-6.11): firmware sets
// CTRL.LOOPBACK and retrains over TLM; the controller trains against itself
// on every lane, comes up at TARGET_WIDTH and delivers its own slots back,
// while its PHY stays silent.
#include <gtest/gtest.h>

#include <systemc>

#include "generated/cpp/lc_regs.h"
#include "models/phy/link_profile.h"
#include "systemc/link/lc_rtl_model.h"
#include "systemc/link/slot_endpoint.h"
#include "systemc/link/tl_link_controller.h"
#include "systemc/phy/phy_port.h"
#include "testbench/systemc/common/csr_master.h"
#include "testbench/systemc/common/link_pair_bench.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {
namespace {

namespace regs = lq::regs::lc;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kSlots = 500;

TEST(TlLinkController, DLL_6_11_LoopbackTrainsAgainstItselfAndReturnsSlots) {
  phy::PhyPortConfig phy_config;
  phy_config.profile = phy::FindLinkProfile("pcie6").value();
  link::TlLinkControllerConfig config;
  config.ltssm_time_scale = link::kLcRtlLtssmTimeScale;  // as the RTL is built
  link::TlLinkController controller("lc", config);
  phy::PhyPort near("near", phy_config), far("far", phy_config);
  SlotEndpointConfig traffic;
  traffic.side = 0;
  traffic.peer_side = 0;  // It receives what it sent.
  traffic.slots = kSlots;
  traffic.start = sc_time(20, SC_US);
  SlotEndpoint endpoint("net", traffic);
  CsrMaster csr("csr");
  sc_core::sc_signal<bool> irq("irq");
  Connect(controller.phy, near.link);
  Connect(near.cable, far.cable);
  // The far end of the cable: a controller that never hears from us.
  link::TlLinkController partner("partner", config);
  SlotEndpoint partner_net("partner_net", SlotEndpointConfig{});
  CsrMaster partner_csr("partner_csr");
  sc_core::sc_signal<bool> partner_irq("partner_irq");
  Connect(partner.phy, far.link);
  Connect(partner.network, partner_net.socket);
  partner_csr.socket.bind(partner.csr);
  partner.irq(partner_irq);
  Connect(controller.network, endpoint.socket);
  Pair(endpoint, endpoint);
  csr.socket.bind(controller.csr);
  controller.irq(irq);
  endpoint.ExpectSlots(kSlots);

  uint32_t status = 0;
  ScThread firmware("firmware", [&] {
    // Hold the link down, switch to loopback at x4, let it train.
    const uint32_t ctrl = csr.Read(regs::kCtrlOffset);
    const uint32_t loop =
        (ctrl & ~regs::kCtrlTargetWidth.Mask() & ~regs::kCtrlEnable.Mask()) |
        regs::kCtrlLoopback.Mask() | (4u << regs::kCtrlTargetWidth.lsb);
    csr.Write(regs::kCtrlOffset, loop);
    csr.Write(regs::kCtrlOffset, loop | regs::kCtrlEnable.Mask());
    sc_core::wait(15, SC_US);
    status = csr.Read(regs::kStatusOffset);
    endpoint.WaitForExpected();
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(200, SC_US));

  ASSERT_TRUE(firmware.finished()) << "slots did not come back";
  EXPECT_NE(regs::kStatusLinkUp.Read(status), 0u);
  EXPECT_EQ(regs::kStatusWidth.Read(status), 4u) << "CTRL.TARGET_WIDTH";
  const SlotReport& report = endpoint.report();
  EXPECT_EQ(report.delivered, kSlots);
  EXPECT_EQ(report.lost + report.duplicated + report.corrupted, 0u);
  EXPECT_EQ(near.stats().tx_flits + near.stats().tx_training_flits, 0u)
      << "in loopback nothing reaches the PHY";
}

}  // namespace
}  // namespace lq::testing
