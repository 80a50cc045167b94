// SPDX-License-Identifier: Apache-2.0
// Lane loss and link cut under saturated traffic, for both link controller
// fidelities side by side: a failed lane makes the link retrain to a
// narrower width and carry on (DLL-6.6, DLL-6.7, PHY-5.5); a cut takes it
// down after the Recovery timeout with the link-down interrupt (DLL-6.8,
// DLL-7.2). Nothing is delivered twice, out of order or corrupted.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <systemc>

#include "generated/cpp/lc_regs.h"
#include "models/phy/link_profile.h"
#include "testbench/systemc/common/bench_controllers.h"
#include "testbench/systemc/common/link_pair_bench.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {
namespace {

namespace regs = lq::regs::lc;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kSlots = 30000;  // Per direction: more than fits.
const sc_time kLaneFailsAt(10, SC_US);
const sc_time kCheckWidthAt(20, SC_US);
const sc_time kCutAt(30, SC_US);
constexpr uint32_t kFailedLane = 1u << 5;

struct Observed {
  std::array<uint32_t, kBenchSides> width_after_lane{}, retrains{},
      downs_after_lane{}, status_after_cut{}, irq_after_cut{}, downs{};
  std::array<uint64_t, kBenchSides> delivered_at_lane{}, delivered_at_cut{};
  bool down_irq = false;
};

// Firmware of one bench: watches the link through CSRs and interrupts.
template <typename Bench>
void Watch(Bench& bench, Observed& seen) {
  for (auto& csr : bench.masters) {
    csr->Write(regs::kIrqEnableOffset, regs::kIrqEnableLinkDown.Mask());
  }
  sc_core::wait(kCheckWidthAt - sc_core::sc_time_stamp());
  for (unsigned side = 0; side < kBenchSides; ++side) {
    CsrMaster& csr = *bench.masters[side];
    seen.width_after_lane[side] =
        regs::kStatusWidth.Read(csr.Read(regs::kStatusOffset));
    seen.retrains[side] = csr.Read(regs::kRetrainsOffset);
    seen.downs_after_lane[side] = csr.Read(regs::kLinkDownsOffset);
    seen.delivered_at_lane[side] = bench.endpoints[side]->report().delivered;
  }
  sc_core::wait(kCutAt - sc_core::sc_time_stamp());
  for (unsigned side = 0; side < kBenchSides; ++side) {
    seen.delivered_at_cut[side] = bench.endpoints[side]->report().delivered;
  }
  // Recovery.RcvrLock times out after 24 ms x 1e-4 = 2.4 us (DLL-6.8).
  sc_core::wait(sc_time(10, SC_US), bench.irqs[0]->posedge_event());
  seen.down_irq = bench.irqs[0]->read();
  sc_core::wait(sc_time(1, SC_US));
  for (unsigned side = 0; side < kBenchSides; ++side) {
    CsrMaster& csr = *bench.masters[side];
    seen.status_after_cut[side] = csr.Read(regs::kStatusOffset);
    seen.irq_after_cut[side] = csr.Read(regs::kIrqStatusOffset);
    seen.downs[side] = csr.Read(regs::kLinkDownsOffset);
  }
}

template <typename Bench>
void ExpectFaultHandled(const char* fidelity, Bench& bench,
                        const Observed& seen) {
  EXPECT_TRUE(seen.down_irq) << fidelity << ": link-down interrupt (DLL-7.2)";
  for (unsigned side = 0; side < kBenchSides; ++side) {
    const SlotReport& report = bench.endpoints[side]->report();
    EXPECT_EQ(seen.width_after_lane[side], 8u)
        << fidelity << " side " << side
        << ": one lane lost of 16, the link retrains to x8 (PHY-5.5)";
    EXPECT_GE(seen.retrains[side], 1u) << fidelity << " side " << side;
    EXPECT_EQ(seen.downs_after_lane[side], 0u)
        << fidelity << " side " << side << ": a lane loss is no link-down";
    EXPECT_GT(seen.delivered_at_cut[side], seen.delivered_at_lane[side])
        << fidelity << " side " << side << ": traffic flows at x8";
    EXPECT_EQ(regs::kStatusLinkUp.Read(seen.status_after_cut[side]), 0u)
        << fidelity << " side " << side;
    EXPECT_NE(regs::kIrqStatusLinkDown.Read(seen.irq_after_cut[side]), 0u)
        << fidelity << " side " << side;
    EXPECT_EQ(seen.downs[side], 1u) << fidelity << " side " << side;
    EXPECT_EQ(report.duplicated, 0u)
        << fidelity << " side " << side << ": nothing delivered twice";
    EXPECT_EQ(report.lost, 0u)
        << fidelity << " side " << side << ": no gap among what was delivered";
    EXPECT_EQ(report.corrupted, 0u) << fidelity << " side " << side;
    std::printf(
        "%s side %u: %llu slots delivered by 20 us (lane lost at 10 us), "
        "%llu by the cut at 30 us, %llu in all; %u retrain(s)\n",
        fidelity, side,
        static_cast<unsigned long long>(seen.delivered_at_lane[side]),
        static_cast<unsigned long long>(seen.delivered_at_cut[side]),
        static_cast<unsigned long long>(report.delivered), seen.retrains[side]);
  }
}

TEST(LinkFaults, DLL_6_7_LaneLossRetrainsNarrowerAndCutTakesTheLinkDown) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  const auto traffic =
      SymmetricTraffic(kSlots, link::RtlLinkController::kSlotBytes);
  const link::RtlLinkControllerConfig rtl_config = BenchRtlConfig();
  const link::TlLinkControllerConfig tl_config = BenchTlConfig();
  LinkPairBench<link::RtlLinkController> rtl(phy, rtl_config, traffic, "rtl_");
  LinkPairBench<link::TlLinkController> tl(phy, tl_config, traffic, "tl_");
  for (phy::PhyPort* port : {rtl.phys[0].get(), tl.phys[0].get()}) {
    port->ScheduleLaneFailure(kFailedLane, kLaneFailsAt);
  }
  for (auto* bench_phys : {&rtl.phys, &tl.phys}) {
    for (auto& port : *bench_phys) {
      port->ScheduleLaneFailure(port->AllLanes(), kCutAt);  // PHY-5.6
    }
  }

  Observed rtl_seen, tl_seen;
  ScThread rtl_firmware("rtl_firmware", [&] { Watch(rtl, rtl_seen); });
  ScThread tl_firmware("tl_firmware", [&] { Watch(tl, tl_seen); });
  sc_core::sc_start(sc_time(60, SC_US));
  ASSERT_TRUE(rtl_firmware.finished() && tl_firmware.finished());
  ExpectFaultHandled("RTL", rtl, rtl_seen);
  ExpectFaultHandled("TL", tl, tl_seen);
  EXPECT_EQ(tl_seen.retrains, rtl_seen.retrains)
      << "both fidelities retrain as often";
}

}  // namespace
}  // namespace lq::testing
