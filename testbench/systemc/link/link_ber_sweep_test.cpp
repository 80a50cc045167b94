// SPDX-License-Identifier: Apache-2.0
// BER sweep of both link controller fidelities (issue 4): at every bit error
// rate from 1e-12 to 1e-5, with bursts long enough to defeat the FEC, a
// saturated link delivers every slot once, in order and intact; the FEC
// corrects what it can and replays recover the rest (DLL-3, DLL-4, PHY-3).
// All points run side by side in one simulation.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
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
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint64_t kSlots = 5000;  // Per direction and point.
const std::vector<double> kBers = {1e-12, 1e-10, 1e-8, 1e-7, 1e-6, 1e-5};
// Bursts of 40 bits put two bad symbols into one RS codeword: uncorrectable
// (PHY-3.4), so the DLL must replay.
constexpr double kBurstShare = 0.1;
constexpr unsigned kBurstBits = 40;

struct PointResult {
  uint64_t bit_errors = 0;  // Flipped by the BER process, both directions.
  uint64_t fec_corrected = 0, crc_errors = 0, replays = 0, retrains = 0;
  uint64_t delivered = 0, lost = 0, duplicated = 0, corrupted = 0;
};

phy::PhyPortConfig PhyAt(double ber, uint64_t seed) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  phy.errors.ber = ber;
  phy.errors.burst_rate = ber * kBurstShare;
  phy.errors.burst_bits = kBurstBits;
  phy.seed = seed;
  return phy;
}

template <typename Bench>
void Collect(Bench& bench, PointResult& result) {
  for (unsigned side = 0; side < kBenchSides; ++side) {
    CsrMaster& csr = *bench.masters[side];
    result.fec_corrected += csr.Read(regs::kFecCorrectedOffset);
    result.crc_errors += csr.Read(regs::kCrcErrorsOffset);
    result.replays += csr.Read(regs::kReplaysOffset);
    result.retrains += csr.Read(regs::kRetrainsOffset);
    result.bit_errors += bench.phys[side]->stats().bit_errors;
    const SlotReport& report = bench.endpoints[side]->report();
    result.delivered += report.delivered;
    result.lost += report.lost;
    result.duplicated += report.duplicated;
    result.corrupted += report.corrupted;
  }
}

void Print(const char* fidelity, double ber, const PointResult& r) {
  std::printf(
      "%-3s BER %-7.0e bit errors %6llu  FEC corrected %5llu  CRC errors "
      "%4llu  replays %4llu  retrains %llu  delivered %llu  lost %llu  "
      "duplicated %llu  corrupted %llu\n",
      fidelity, ber, static_cast<unsigned long long>(r.bit_errors),
      static_cast<unsigned long long>(r.fec_corrected),
      static_cast<unsigned long long>(r.crc_errors),
      static_cast<unsigned long long>(r.replays),
      static_cast<unsigned long long>(r.retrains),
      static_cast<unsigned long long>(r.delivered),
      static_cast<unsigned long long>(r.lost),
      static_cast<unsigned long long>(r.duplicated),
      static_cast<unsigned long long>(r.corrupted));
}

void ExpectIntact(const char* fidelity, double ber, const PointResult& r) {
  EXPECT_EQ(r.delivered, kBenchSides * kSlots) << fidelity << " BER " << ber;
  EXPECT_EQ(r.lost, 0u) << fidelity << " BER " << ber;
  EXPECT_EQ(r.duplicated, 0u) << fidelity << " BER " << ber;
  EXPECT_EQ(r.corrupted, 0u) << fidelity << " BER " << ber;
}

TEST(LinkBerSweep, DLL_4_3_EveryPointDeliversEverySlotOnceInOrder) {
  const auto traffic =
      SymmetricTraffic(kSlots, link::RtlLinkController::kSlotBytes);
  const link::RtlLinkControllerConfig rtl_config = BenchRtlConfig();
  const link::TlLinkControllerConfig tl_config = BenchTlConfig();
  std::vector<std::unique_ptr<LinkPairBench<link::RtlLinkController>>> rtl;
  std::vector<std::unique_ptr<LinkPairBench<link::TlLinkController>>> tl;
  for (size_t point = 0; point < kBers.size(); ++point) {
    const phy::PhyPortConfig phy = PhyAt(kBers[point], 11 + point);
    const std::string n = std::to_string(point);
    rtl.push_back(std::make_unique<LinkPairBench<link::RtlLinkController>>(
        phy, rtl_config, traffic, "rtl" + n + "_"));
    tl.push_back(std::make_unique<LinkPairBench<link::TlLinkController>>(
        phy, tl_config, traffic, "tl" + n + "_"));
    for (unsigned side = 0; side < kBenchSides; ++side) {
      rtl.back()->endpoints[side]->ExpectSlots(kSlots);
      tl.back()->endpoints[side]->ExpectSlots(kSlots);
    }
  }

  std::vector<PointResult> rtl_results(kBers.size()), tl_results(kBers.size());
  ScThread firmware("firmware", [&] {
    for (size_t point = 0; point < kBers.size(); ++point) {
      rtl[point]->WaitForTraffic();
      tl[point]->WaitForTraffic();
    }
    for (size_t point = 0; point < kBers.size(); ++point) {
      Collect(*rtl[point], rtl_results[point]);
      Collect(*tl[point], tl_results[point]);
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_time(200, SC_US));  // A hung link fails.
  ASSERT_TRUE(firmware.finished()) << "a point did not complete in time";

  for (size_t point = 0; point < kBers.size(); ++point) {
    Print("RTL", kBers[point], rtl_results[point]);
    Print("TL", kBers[point], tl_results[point]);
    ExpectIntact("RTL", kBers[point], rtl_results[point]);
    ExpectIntact("TL", kBers[point], tl_results[point]);
  }
  // The top point must exercise both kinds of recovery, or the sweep proves
  // nothing about them.
  for (const PointResult* top : {&rtl_results.back(), &tl_results.back()}) {
    EXPECT_GT(top->fec_corrected, 0u) << "the FEC corrects single errors";
    EXPECT_GT(top->crc_errors, 0u) << "bursts defeat the FEC";
    EXPECT_GT(top->replays, 0u) << "and the DLL replays what was lost";
  }
}

}  // namespace
}  // namespace lq::testing
