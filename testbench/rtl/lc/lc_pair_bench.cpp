// SPDX-License-Identifier: Apache-2.0
// Google Benchmark of the Verilated back-to-back link controller pair
// (lc_link_pair.h): simulated cycles and delivered payload per wall second.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "testbench/rtl/lc/lc_link_pair.h"

namespace lq::rtl {
namespace {

constexpr uint64_t kSeed = 20261130;
constexpr uint64_t kTrainCycles = 20000;  // Scaled LTSSM, as in lc_top_test.
constexpr uint64_t kWarmupCycles = 2000;  // Credits and queues settle first.
constexpr uint64_t kCyclesPerIteration = 1000;
constexpr double kSlotBits = 236 * 8;  // The model is built for pcie6.
constexpr double kClockHz = 1e9;       // lc_top's clock (DESIGN §5).
constexpr double kBitsPerGigabit = 1e9;

// The error channel of lc_top_test's 10^7-flit acceptance run.
constexpr double kBitErrorRate = 1e-6;
constexpr double kBurstPerFlit = 2e-4;
constexpr double kDropPerFlit = kBurstPerFlit / 2;
constexpr double kStallPerCycle = 0.05;
constexpr double kDrainPerCycle = 0.9;

uint64_t Delivered(const LinkPair& pair) {
  return pair.report(0).delivered + pair.report(1).delivered;
}

bool Intact(const LinkPair& pair) {
  for (unsigned side = 0; side < kSides; ++side) {
    const SideReport& r = pair.report(side);
    if (r.lost != 0 || r.duplicated != 0 || r.corrupted != 0) {
      return false;
    }
  }
  return true;
}

// Times whole batches of Step() on a trained pair and reports the rates per
// wall second; the training and warm-up before the loop are not timed.
void Measure(benchmark::State& state, LinkPair& pair) {
  // The tests check every wire flit against models/flit's encoder and
  // decoder; timing the RTL, the pair leaves that cross-check out.
  pair.set_check_model(false);
  if (!pair.RunUntilLinkUp(kTrainCycles)) {
    state.SkipWithError("link never reached L0");
    return;
  }
  for (uint64_t i = 0; i < kWarmupCycles; ++i) {
    pair.Step();
  }
  const uint64_t start_cycles = pair.cycles();
  const uint64_t start_delivered = Delivered(pair);
  for (auto _ : state) {
    for (uint64_t i = 0; i < kCyclesPerIteration; ++i) {
      pair.Step();
    }
  }
  if (!Intact(pair)) {
    state.SkipWithError("scoreboard saw lost, duplicated or corrupted slots");
    return;
  }
  const double cycles = static_cast<double>(pair.cycles() - start_cycles);
  const double delivered =
      static_cast<double>(Delivered(pair) - start_delivered);
  // Rates are per wall second (UseRealTime): Google Benchmark appends "/s".
  using benchmark::Counter;
  state.counters["cycles"] = Counter(cycles, Counter::kIsRate);
  // Both directions' payload slots, delivered intact and in order.
  state.counters["payload_Gbit"] =
      Counter(delivered * kSlotBits / kBitsPerGigabit, Counter::kIsRate);
  // Simulated seconds at the 1 GHz link clock per wall second.
  state.counters["simulated_s"] = Counter(cycles / kClockHz, Counter::kIsRate);
  state.counters["slots/cycle/dir"] = delivered / (kSides * cycles);
}

void BM_LcPair_CleanFullLoad(benchmark::State& state) {
  LinkPair pair(kSeed);
  Measure(state, pair);
}

void BM_LcPair_Ber1e6WithBursts(benchmark::State& state) {
  LinkPair pair(kSeed + 1);
  for (unsigned side = 0; side < kSides; ++side) {
    ChannelConfig& channel = pair.channel(side);
    channel.bit_error_rate = kBitErrorRate;
    channel.burst_per_flit = kBurstPerFlit;
    channel.drop_per_flit = kDropPerFlit;
    channel.stall_per_cycle = kStallPerCycle;
    pair.traffic(side).drain_per_cycle = kDrainPerCycle;
  }
  Measure(state, pair);
}

// Link up, no payload: NOP flits only, the floor of the model's cost.
void BM_LcPair_IdleLink(benchmark::State& state) {
  LinkPair pair(kSeed + 2);
  pair.set_sending(false);
  Measure(state, pair);
}

BENCHMARK(BM_LcPair_CleanFullLoad)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LcPair_Ber1e6WithBursts)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LcPair_IdleLink)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lq::rtl
