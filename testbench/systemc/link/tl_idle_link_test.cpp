// SPDX-License-Identifier: Apache-2.0
// SystemC test of an idle TL link: after a burst of traffic over a noisy
// wire the TL pair sends its closing idle fill and falls silent, scheduling
// nothing, and every credit is back with its owner (DLL-4.11, DLL-5.6).
#include <gtest/gtest.h>

#include <systemc>

#include "generated/cpp/lc_regs.h"
#include "models/phy/link_profile.h"
#include "systemc/link/tl_link_controller.h"
#include "testbench/systemc/common/expect_stat.h"
#include "testbench/systemc/common/link_pair_bench.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {
namespace {

namespace regs = lq::regs::lc;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kSlots = 2000;

TEST(TlLinkController, DLL_4_11_IdleLinkFallsSilentWithEveryCreditReturned) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  phy.errors.ber = 1e-5;  // Some NOPs carrying credits are lost.
  phy.errors.burst_rate = 1e-6;
  phy.errors.burst_bits = 40;
  link::TlLinkControllerConfig config;
  config.start_trained = true;  // DLL-6.12
  config.tx_slots_per_vc = kBenchSlotsPerVc;
  LinkPairBench<link::TlLinkController> bench(
      phy, config, SymmetricTraffic(kSlots, phy.profile.payload_bytes));
  for (auto& endpoint : bench.endpoints) {
    endpoint->ExpectSlots(kSlots);
  }

  uint64_t flits_at_idle = 0, events_at_idle = 0;
  std::array<std::array<uint32_t, 4>, kBenchSides> credit_avail{};
  ScThread firmware("firmware", [&] {
    bench.WaitForTraffic();
    sc_core::wait(5, SC_US);  // ACKs, credits and the idle fill settle.
    for (auto& controller : bench.controllers) {
      flits_at_idle += testing::ExpectStat(controller->Stats(), "tx_flits");
      events_at_idle += testing::ExpectStat(controller->Stats(), "activations");
    }
    sc_core::wait(100, SC_US);  // 50 000 flit times of idle link.
    for (unsigned side = 0; side < kBenchSides; ++side) {
      for (unsigned vc = 0; vc < 4; ++vc) {
        credit_avail[side][vc] =
            bench.masters[side]->Read(regs::CreditAvailOffset(vc));
      }
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(500, SC_US));
  ASSERT_TRUE(firmware.finished());

  uint64_t flits_after = 0, events_after = 0, idle_fill = 0;
  for (auto& controller : bench.controllers) {
    flits_after += testing::ExpectStat(controller->Stats(), "tx_flits");
    events_after += testing::ExpectStat(controller->Stats(), "activations");
    idle_fill += testing::ExpectStat(controller->Stats(), "tx_idle_fill");
  }
  EXPECT_GT(idle_fill, 0u) << "a busy period closes with idle fill";
  EXPECT_EQ(flits_after, flits_at_idle) << "an idle TL link sends nothing";
  EXPECT_LE(events_after - events_at_idle, 2u * kBenchSides)
      << "and schedules (almost) nothing: the CSR reads only";
  for (unsigned side = 0; side < kBenchSides; ++side) {
    EXPECT_EQ(bench.endpoints[side]->report().delivered, kSlots);
    for (unsigned vc = 0; vc < 4; ++vc) {
      EXPECT_EQ(credit_avail[side][vc], 64u)
          << "side " << side << " VC " << vc
          << ": every freed slot's credit came back (DLL-5.6)";
    }
  }
}

}  // namespace
}  // namespace lq::testing
