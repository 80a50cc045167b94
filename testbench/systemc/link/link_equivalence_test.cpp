// SPDX-License-Identifier: Apache-2.0
// Equivalence of the link controller's two fidelities: an RTL pair and a TL
// pair in one simulation, trained from Detect, carry the same seeded traffic
// with the same payload flits damaged. Both must deliver the identical
// payload stream, end with identical counter registers, and deliver every
// slot within max(2 cycles, 5 %) of the RTL's latency
// (docs/link-calibration.md); control messages (dll.md §11) likewise.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>
#include <systemc>
#include <vector>

#include "generated/cpp/lc_regs.h"
#include "models/phy/link_profile.h"
#include "testbench/systemc/common/bench_controllers.h"
#include "testbench/systemc/common/link_pair_bench.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::testing {
namespace {

namespace regs = lq::regs::lc;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kSlots = 3000;  // Per direction.
// New PAYLOAD flits damaged on the wire, far enough apart that each is
// recovered (one selective NAK, one resend) before the next.
const std::set<uint64_t> kDamaged = {150, 700, 1333, 2001, 2750};
constexpr double kToleranceCycles = 2.0;  // 1 GHz: 2 ns.
constexpr double kToleranceShare = 0.05;

// The counter registers, in register order (DLL-8.6).
struct CounterRegister {
  const char* name;
  uint32_t offset;
  bool wide;
};
constexpr std::array<CounterRegister, 11> kCounters{{
    {"TX_FLITS", regs::kTxFlitsLoOffset, true},
    {"RX_FLITS", regs::kRxFlitsLoOffset, true},
    {"CRC_ERRORS", regs::kCrcErrorsOffset, false},
    {"FEC_CORRECTED", regs::kFecCorrectedOffset, false},
    {"NAKS_SENT", regs::kNaksSentOffset, false},
    {"NAKS_RECEIVED", regs::kNaksReceivedOffset, false},
    {"REPLAYS", regs::kReplaysOffset, false},
    {"RETRAINS", regs::kRetrainsOffset, false},
    {"LINK_DOWNS", regs::kLinkDownsOffset, false},
    {"PROTOCOL_ERRORS", regs::kProtocolErrorsOffset, false},
    {"LOST_ON_DOWN", regs::kLostOnDownOffset, false},
}};
using Counters = std::array<uint64_t, kCounters.size()>;

template <typename Bench>
Counters ReadCounters(Bench& bench, unsigned side) {
  Counters values{};
  for (size_t i = 0; i < kCounters.size(); ++i) {
    CsrMaster& csr = *bench.masters[side];
    values[i] = kCounters[i].wide ? csr.ReadCounter64(kCounters[i].offset)
                                  : csr.Read(kCounters[i].offset);
  }
  return values;
}

TEST(LinkEquivalence, DLL_3_8_RtlAndTlDeliverTheSameStreamCountersAndTiming) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  // Half load after both links are up: one slot per 4 ns each way.
  auto traffic = SymmetricTraffic(kSlots, link::RtlLinkController::kSlotBytes);
  for (SlotEndpointConfig& side : traffic) {
    side.start = sc_time(20, SC_US);
    side.interval = sc_time(4, SC_NS);
  }
  const link::RtlLinkControllerConfig rtl_config = BenchRtlConfig();
  const link::TlLinkControllerConfig tl_config = BenchTlConfig();
  LinkPairBench<link::RtlLinkController> rtl(phy, rtl_config, traffic, "rtl_");
  LinkPairBench<link::TlLinkController> tl(phy, tl_config, traffic, "tl_");
  for (unsigned side = 0; side < kBenchSides; ++side) {
    rtl.taps[side]->CorruptNewPayloads(kDamaged);
    tl.taps[side]->CorruptNewPayloads(kDamaged);
    rtl.endpoints[side]->ExpectSlots(kSlots);
    tl.endpoints[side]->ExpectSlots(kSlots);
  }

  std::array<Counters, kBenchSides> rtl_counters{}, tl_counters{};
  // What a run's report reads, through the controller's interface.
  std::array<std::optional<link::LinkCounters>, kBenchSides> rtl_reported{},
      tl_reported{};
  ScThread firmware("firmware", [&] {
    rtl.WaitForTraffic();
    tl.WaitForTraffic();
    sc_core::wait(1, SC_US);  // Let the last ACKs settle.
    for (unsigned side = 0; side < kBenchSides; ++side) {
      rtl_counters[side] = ReadCounters(rtl, side);
      tl_counters[side] = ReadCounters(tl, side);
      rtl_reported[side] = rtl.controllers[side]->Counters();
      tl_reported[side] = tl.controllers[side]->Counters();
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(200, SC_US));
  ASSERT_TRUE(firmware.finished()) << "traffic did not complete in time";

  for (unsigned side = 0; side < kBenchSides; ++side) {
    const SlotReport& r = rtl.endpoints[side]->report();
    const SlotReport& t = tl.endpoints[side]->report();
    EXPECT_EQ(rtl.taps[side]->corrupted(), kDamaged.size());
    EXPECT_EQ(tl.taps[side]->corrupted(), kDamaged.size());
    EXPECT_EQ(r.delivered, kSlots) << "RTL side " << side;
    EXPECT_EQ(t.delivered, kSlots) << "TL side " << side;
    EXPECT_EQ(r.lost + r.duplicated + r.corrupted, 0u) << "RTL side " << side;
    EXPECT_EQ(t.lost + t.duplicated + t.corrupted, 0u) << "TL side " << side;
    EXPECT_TRUE(r.arrivals == t.arrivals)
        << "side " << side << ": the payload streams differ in order";

    for (size_t i = 0; i < kCounters.size(); ++i) {
      EXPECT_EQ(tl_counters[side][i], rtl_counters[side][i])
          << "side " << side << " counter " << kCounters[i].name;
    }
    EXPECT_EQ(rtl_counters[side][2], kDamaged.size())
        << "every damaged flit is one CRC error (DLL-3.2)";
    for (const auto* reported : {&rtl_reported[side], &tl_reported[side]}) {
      const char* fidelity = reported == &rtl_reported[side] ? "RTL" : "TL";
      ASSERT_TRUE(reported->has_value()) << fidelity << " side " << side;
      EXPECT_EQ((*reported)->tx_payload_flits, rtl_counters[side][0])
          << fidelity << " side " << side << ": TX_FLITS";
      EXPECT_EQ((*reported)->crc_errors, rtl_counters[side][2])
          << fidelity << " side " << side << ": CRC_ERRORS";
      EXPECT_EQ((*reported)->replays, rtl_counters[side][6])
          << fidelity << " side " << side << ": REPLAYS";
    }
    std::printf("side %u counters (RTL = TL):", side);
    for (size_t i = 0; i < kCounters.size(); ++i) {
      std::printf(" %s %llu", kCounters[i].name,
                  static_cast<unsigned long long>(rtl_counters[side][i]));
    }
    std::printf("\n");

    ASSERT_EQ(r.latency_ns.size(), t.latency_ns.size());
    double worst = 0, sum_rtl = 0, sum_tl = 0;
    size_t outside = 0, worst_index = 0;
    for (size_t i = 0; i < r.latency_ns.size(); ++i) {
      const double diff = std::fabs(t.latency_ns[i] - r.latency_ns[i]);
      const double allowed =
          std::max(kToleranceCycles, kToleranceShare * r.latency_ns[i]);
      outside += diff > allowed ? 1 : 0;
      if (diff > worst) {
        worst = diff;
        worst_index = i;
      }
      sum_rtl += r.latency_ns[i];
      sum_tl += t.latency_ns[i];
    }
    std::printf(
        "side %u: mean latency RTL %.2f ns, TL %.2f ns; worst difference "
        "%.1f ns (slot %zu: RTL %.1f, TL %.1f); %zu of %zu outside "
        "max(2 cycles, 5 %%)\n",
        side, sum_rtl / r.latency_ns.size(), sum_tl / t.latency_ns.size(),
        worst, worst_index, r.latency_ns[worst_index],
        t.latency_ns[worst_index], outside, r.latency_ns.size());
    EXPECT_EQ(outside, 0u) << "side " << side
                           << ": per-slot latency beyond the tolerance";
  }
}

// Both fidelities carry link control messages (dll.md §11) beside half-load
// traffic: each arrives once, intact, at the same time within the latency
// tolerance, and the payload streams stay identical.
TEST(LinkEquivalence, DLL_11_4_RtlAndTlCarryControlMessagesAlike) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  constexpr uint64_t kControlSlots = 1000;
  auto traffic =
      SymmetricTraffic(kControlSlots, link::RtlLinkController::kSlotBytes);
  for (SlotEndpointConfig& side : traffic) {
    side.start = sc_time(20, SC_US);
    side.interval = sc_time(4, SC_NS);
  }
  LinkPairBench<link::RtlLinkController> rtl(phy, BenchRtlConfig(), traffic,
                                             "rtl_");
  LinkPairBench<link::TlLinkController> tl(phy, BenchTlConfig(), traffic,
                                           "tl_");
  for (unsigned side = 0; side < kBenchSides; ++side) {
    rtl.endpoints[side]->ExpectSlots(kControlSlots);
    tl.endpoints[side]->ExpectSlots(kControlSlots);
  }
  // A PFC-sized message per side and time, announced as far ahead as the
  // slots are (the RTL wrapper runs ahead of the kernel).
  auto message = [](unsigned side, unsigned k) {
    Bytes bytes(60);
    for (size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] = static_cast<uint8_t>(side * 101 + k * 17 + i);
    }
    return bytes;
  };
  constexpr unsigned kMessages = 3;
  const sc_time lead = traffic[0].lead;
  ScThread sender("sender", [&] {
    sc_core::wait(sc_time(22, SC_US));
    for (unsigned k = 0; k < kMessages; ++k) {
      for (unsigned side = 0; side < kBenchSides; ++side) {
        rtl.endpoints[side]->SendControl(message(side, k), lead);
        tl.endpoints[side]->SendControl(message(side, k), lead);
      }
      sc_core::wait(sc_time(1, SC_US));
    }
    rtl.WaitForTraffic();
    tl.WaitForTraffic();
    sc_core::wait(1, SC_US);
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(200, SC_US));
  ASSERT_TRUE(sender.finished()) << "traffic did not complete in time";

  for (unsigned side = 0; side < kBenchSides; ++side) {
    const SlotReport& r = rtl.endpoints[side]->report();
    const SlotReport& t = tl.endpoints[side]->report();
    EXPECT_EQ(r.delivered, kControlSlots);
    EXPECT_EQ(t.delivered, kControlSlots);
    EXPECT_TRUE(r.arrivals == t.arrivals) << "side " << side;
    ASSERT_EQ(r.controls.size(), kMessages) << "RTL side " << side;
    ASSERT_EQ(t.controls.size(), kMessages) << "TL side " << side;
    for (unsigned k = 0; k < kMessages; ++k) {
      EXPECT_EQ(r.controls[k].second, message(1 - side, k));
      EXPECT_EQ(t.controls[k].second, message(1 - side, k));
      const double rtl_ns = r.controls[k].first.to_seconds() * 1e9;
      const double tl_ns = t.controls[k].first.to_seconds() * 1e9;
      std::printf("side %u message %u: RTL %.1f ns, TL %.1f ns\n", side, k,
                  rtl_ns, tl_ns);
      EXPECT_LE(std::fabs(rtl_ns - tl_ns), kToleranceCycles)
          << "side " << side << " message " << k;
    }
  }
}

// The states of `entered` that last longer than one clock cycle: the RTL
// spends a cycle in a state whose exit condition already holds (say
// Detect.Active with the partner's receivers present), which the TL model
// passes through in zero time.
template <typename Entered>
std::vector<Entered> Lasting(const std::vector<Entered>& entered) {
  constexpr uint64_t kCyclePs = 1000;
  std::vector<Entered> lasting;
  for (size_t i = 0; i < entered.size(); ++i) {
    if (i + 1 == entered.size() ||
        entered[i + 1].at_ps - entered[i].at_ps > kCyclePs) {
      lasting.push_back(entered[i]);
    }
  }
  return lasting;
}

// Both fidelities train through the same states of the LTSSM (the diagram
// of DLL-6.1), each entered at the same time within the latency tolerance,
// and report them alike to an observer (LinkController): the RTL's from its
// state register, the TL model's from its state machine.
TEST(LinkEquivalence, DLL_6_1_RtlAndTlTrainThroughTheSameStates) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  const auto idle = SymmetricTraffic(0, link::RtlLinkController::kSlotBytes);
  LinkPairBench<link::RtlLinkController> rtl(phy, BenchRtlConfig(), idle,
                                             "rtl_");
  LinkPairBench<link::TlLinkController> tl(phy, BenchTlConfig(), idle, "tl_");
  struct Entered {
    link::LtssmState state;
    uint64_t at_ps;
  };
  std::array<std::vector<Entered>, kBenchSides> rtl_states, tl_states;
  for (unsigned side = 0; side < kBenchSides; ++side) {
    rtl.controllers[side]->set_state_observer(
        [&rtl_states, side](link::LtssmState state, uint64_t at_ps) {
          rtl_states[side].push_back({state, at_ps});
        });
    tl.controllers[side]->set_state_observer(
        [&tl_states, side](link::LtssmState state, uint64_t at_ps) {
          tl_states[side].push_back({state, at_ps});
        });
  }
  sc_core::sc_start(sc_time(20, SC_US));

  for (unsigned side = 0; side < kBenchSides; ++side) {
    for (const auto& [name, states] :
         {std::make_pair("RTL", &rtl_states[side]),
          std::make_pair("TL", &tl_states[side])}) {
      std::printf("side %u %s:", side, name);
      for (const Entered& entered : *states) {
        std::printf(" %s@%.1f", link::LtssmStateName(entered.state),
                    static_cast<double>(entered.at_ps) / 1000);
      }
      std::printf("\n");
    }
    EXPECT_EQ(rtl.controllers[side]->ltssm_state(), link::LtssmState::kL0);
    EXPECT_EQ(tl.controllers[side]->ltssm_state(), link::LtssmState::kL0);
    const auto rtl_lasting = Lasting(rtl_states[side]);
    const auto tl_lasting = Lasting(tl_states[side]);
    ASSERT_EQ(rtl_lasting.size(), tl_lasting.size())
        << "side " << side << ": the fidelities pass through different states";
    ASSERT_GE(rtl_lasting.size(), 5u)
        << "Polling, Configuration and L0 are all reported";
    for (size_t i = 0; i < rtl_lasting.size(); ++i) {
      const Entered& r = rtl_lasting[i];
      const Entered& t = tl_lasting[i];
      const double rtl_ns = static_cast<double>(r.at_ps) / 1000;
      const double tl_ns = static_cast<double>(t.at_ps) / 1000;
      EXPECT_EQ(r.state, t.state) << "side " << side << " change " << i;
      EXPECT_LE(std::fabs(rtl_ns - tl_ns),
                std::max(kToleranceCycles, kToleranceShare * rtl_ns))
          << "side " << side << " change " << i;
    }
  }
}

}  // namespace
}  // namespace lq::testing
