// SPDX-License-Identifier: Apache-2.0
// The bring-up and goodput scenario every link controller fidelity runs:
// two controllers over two PHY ports, firmware waiting over TLM for the
// link-up interrupt, then both sides saturating the link. Checks bring-up
// (DLL-6, DLL-7.1), delivery (DLL-3.8) and the goodput arithmetic of
// PHY-1.5 for the PHY's profile.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <systemc>

#include "generated/cpp/lc_regs.h"
#include "models/phy/link_profile.h"
#include "testbench/systemc/common/link_pair_bench.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {

// Runs the scenario with `slots` per direction; call once per process.
template <typename Controller, typename ControllerConfig>
void RunBringUpAndSaturate(const phy::PhyPortConfig& phy,
                           const ControllerConfig& controller,
                           size_t slot_bytes, uint64_t slots) {
  namespace regs = lq::regs::lc;
  using sc_core::SC_NS;
  using sc_core::sc_time;
  using sc_core::SC_US;
  LinkPairBench<Controller> bench(phy, controller,
                                  SymmetricTraffic(slots, slot_bytes));
  for (auto& endpoint : bench.endpoints) {
    endpoint->ExpectSlots(slots);
  }

  uint32_t status = 0, irq_status = 0;
  sc_time link_up_at;
  uint64_t tx_flits = 0, rx_flits = 0, crc_errors = 0, replays = 0;
  ScThread firmware("firmware", [&] {
    CsrMaster& csr = *bench.masters[0];
    csr.Write(regs::kIrqEnableOffset,
              regs::kIrqEnableLinkUp.Mask() | regs::kIrqEnableLinkDown.Mask());
    sc_core::wait(bench.irqs[0]->posedge_event() |
                  bench.endpoints[0]->all_arrived());
    link_up_at = sc_core::sc_time_stamp();
    irq_status = csr.Read(regs::kIrqStatusOffset);
    status = csr.Read(regs::kStatusOffset);
    csr.Write(regs::kIrqStatusOffset, irq_status);  // W1C: acknowledge.
    sc_core::wait(10, SC_NS);  // The line follows the register's cycle.
    EXPECT_FALSE(bench.irqs[0]->read()) << "acknowledged interrupt stays low";
    bench.WaitForTraffic();
    tx_flits = csr.ReadCounter64(regs::kTxFlitsLoOffset);
    rx_flits = csr.ReadCounter64(regs::kRxFlitsLoOffset);
    crc_errors = csr.Read(regs::kCrcErrorsOffset);
    replays = csr.Read(regs::kReplaysOffset);
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(200, SC_US));  // A hung link fails, not hangs.

  ASSERT_TRUE(firmware.finished()) << "traffic did not complete in time";
  EXPECT_NE(regs::kIrqStatusLinkUp.Read(irq_status), 0u)
      << "the link-up interrupt must name its cause (DLL-7.1)";
  EXPECT_NE(regs::kStatusLinkUp.Read(status), 0u);
  EXPECT_EQ(regs::kStatusWidth.Read(status), phy.profile.max_lanes)
      << "a clean link trains to the profile's widest width";
  EXPECT_LT(link_up_at, sc_time(20, SC_US))
      << "training at LTSSM_TIME_SCALE 1e-4 takes microseconds";

  for (unsigned side = 0; side < kBenchSides; ++side) {
    const SlotReport& report = bench.endpoints[side]->report();
    EXPECT_EQ(report.delivered, slots) << "side " << side;
    EXPECT_EQ(report.lost, 0u) << "side " << side;
    EXPECT_EQ(report.duplicated, 0u) << "side " << side;
    EXPECT_EQ(report.corrupted, 0u) << "side " << side;
    // Goodput over the steady part of the run, against PHY-1.5.
    const double seconds =
        (report.last_arrival - report.first_arrival).to_seconds();
    const double gbps = (report.delivered - 1) * phy.profile.payload_bytes *
                        8.0 / seconds / 1e9;
    const double expected =
        phy::PayloadGoodputGbps(phy.profile, phy.profile.max_lanes);
    EXPECT_GT(gbps, 0.95 * expected)
        << "side " << side << ": a saturated clean link carries payload in "
        << "at least 95 % of its flits (DLL-4.8)";
    EXPECT_LE(gbps, expected * 1.001) << "no faster than the wire";
    const double min_latency =
        *std::min_element(report.latency_ns.begin(), report.latency_ns.end());
    EXPECT_GE(min_latency,
              phy::OneWayLatencyPs(phy.profile, phy.profile.max_lanes,
                                   phy.cable_metres) /
                  1e3)
        << "no slot beats the PHY's one-way latency (PHY-4.6)";
    std::printf(
        "side %u: %.1f Gb/s payload (PHY-1.5: %.1f), latency min %.1f "
        "mean %.1f ns\n",
        side, gbps, expected, min_latency,
        std::accumulate(report.latency_ns.begin(), report.latency_ns.end(),
                        0.0) /
            report.latency_ns.size());
  }
  EXPECT_EQ(crc_errors, 0u) << "a clean wire makes no bad flits";
  EXPECT_EQ(replays, 0u);
  EXPECT_GE(tx_flits, slots) << "every slot left in a flit";
  EXPECT_GE(rx_flits, slots);
  for (auto& controller : bench.controllers) {
    for (const Stat& stat : controller->Stats()) {
      if (stat.name.find("late_inputs") != std::string::npos) {
        EXPECT_EQ(stat.value, 0u)
            << "no input may arrive after the model ran its cycle";
      }
    }
  }
}

}  // namespace lq::testing
