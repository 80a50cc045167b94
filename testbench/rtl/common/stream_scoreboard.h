// SPDX-License-Identifier: Apache-2.0
// A scoreboard run for valid/ready stream primitives: random idle cycles and
// backpressure at rates that change by phase, and every beat checked to come
// out in the order it went in, unchanged.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>

#include "models/common/bytes.h"
#include "systemc/common/wide_bytes.h"
#include "testbench/rtl/common/random_stream.h"

namespace lq::rtl {

struct StreamRun {
  size_t beat_bytes;
  int cycles;
  int phase_cycles;  // Source and sink rates are redrawn this often.
  uint32_t seed;
};

// Offer and ready rates a phase draws from: idle-heavy to saturated.
inline constexpr std::array<double, 4> kStreamRates = {0.1, 0.5, 0.9, 1.0};

// Drives `sim`'s DUT (ports in_valid_i, in_ready_o, in_data_i, out_valid_o,
// out_ready_i, out_data_o). After each cycle's inputs settle it calls
// `check_flags(expected, cycle)` with the beats accepted and not yet
// delivered, so the caller can assert the DUT's flags against them. Counts
// the beats delivered into `delivered`; stops at the first fatal failure.
template <typename Sim, typename CheckFlags>
void RunStreamScoreboard(Sim& sim, const StreamRun& run, CheckFlags check_flags,
                         int& delivered) {
  auto& dut = sim.dut();
  std::mt19937 rng(run.seed);
  RandomSource source(run.beat_bytes, 0.5, rng());
  RandomSink sink(0.5, rng());
  std::uniform_int_distribution<size_t> pick_rate(0, kStreamRates.size() - 1);
  std::deque<Bytes> expected;
  delivered = 0;
  for (int cycle = 0; cycle < run.cycles; ++cycle) {
    if (cycle % run.phase_cycles == 0) {
      source.set_offer_rate(kStreamRates[pick_rate(rng)]);
      sink.set_ready_rate(kStreamRates[pick_rate(rng)]);
    }
    dut.in_valid_i = source.valid();
    Drive(dut.in_data_i, source.beat());
    dut.out_ready_i = sink.NextReady();
    sim.Settle();

    check_flags(expected, cycle);
    if (::testing::Test::HasFatalFailure()) {
      return;
    }
    if (dut.out_valid_o && dut.out_ready_i) {
      ASSERT_EQ(Sample(dut.out_data_o, run.beat_bytes), expected.front())
          << "beat lost, reordered or corrupted, cycle " << cycle;
      expected.pop_front();
      ++delivered;
    }
    const bool taken = dut.in_valid_i && dut.in_ready_o;
    if (taken) {
      expected.push_back(source.beat());
    }
    source.NextCycle(taken);
    sim.Tick();
  }
}

}  // namespace lq::rtl
