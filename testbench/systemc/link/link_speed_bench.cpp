// SPDX-License-Identifier: Apache-2.0
// Timed runs of the link controller at its three costs, each in a process
// of its own (SystemC elaborates once per process), with the figures
// issue 43 sets as goals (docs/performance.md):
//   raw  the Verilated controller pair stepped in a plain C++ loop
//        (LcRtlModel, an ideal channel), the cost floor of the RTL;
//   rtl  two RtlLinkControllers over PhyPorts in SystemC;
//   tl   two TlLinkControllers over the same PhyPorts.
// All three carry saturated traffic both ways on a trained pcie6 link.
// raw and rtl are measured in turns, three times each, and the fastest of
// each is kept: a machine whose speed drifts between two single windows
// would otherwise move their ratio by more than the wrapper costs.
//   link_speed_bench [--quick]
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <systemc>
#include <utility>

#include "models/flit/dlp.h"
#include "models/flit/flit_codec.h"
#include "models/phy/link_profile.h"
#include "systemc/link/lc_rtl_model.h"
#include "testbench/systemc/common/bench_controllers.h"
#include "testbench/systemc/common/link_pair_bench.h"

namespace lq::testing {
namespace {

using Clock = std::chrono::steady_clock;
using link::kLcSlotBytes;
using link::kLcVcs;
using link::LcInputs;
using link::LcOutputs;
using link::LcRtlModel;

// What one measurement found over its timed window.
struct Rates {
  double wall_s = 0;
  double cycles = 0;  // Controller clock cycles simulated (one side).
  double slots = 0;   // Payload slots delivered, both directions.
  bool intact = true;
};

constexpr uint64_t kWarmupPs = 20'000'000;  // Training and queues settle.
constexpr unsigned kPhyLatencyCycles = 32;  // pcie6 x16 on 2 m (PHY-4.6).
constexpr unsigned kFlitCycles = 2;         // pcie6 x16 flit time.
constexpr unsigned kTrainingCycles = 32;    // One lane's flit time.

// ---------------------------------------------------------------------------
// raw: two LcRtlModels and an ideal channel, no SystemC.

struct Wire {
  uint64_t due;
  Bytes content;
  unsigned lane;
};

Rates MeasureRaw(uint64_t window_cycles) {
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  LcRtlModel models[2];
  std::deque<Wire> wire[2];  // Towards side i.
  uint64_t phy_free[2] = {0, 0};
  // Each side's next slot per VC; every slot taken is replaced by a new
  // one, so the model sees changing data as it does behind the wrapper.
  Bytes slots_waiting[2][kLcVcs];
  uint64_t numbered = 0;
  auto refill = [&](Bytes& slot) {
    slot.assign(kLcSlotBytes, 0);
    StoreBigEndian(slot.data(), sizeof(numbered), ++numbered);
    for (size_t i = sizeof(numbered); i < slot.size(); ++i) {
      slot[i] = static_cast<uint8_t>(numbered * 31 + i);
    }
  };
  LcInputs in[2];
  LcOutputs out[2];
  for (unsigned s = 0; s < 2; ++s) {
    in[s].phy_receivers = (1u << profile.max_lanes) - 1;
    in[s].tx_valid = (1u << kLcVcs) - 1;
    for (unsigned vc = 0; vc < kLcVcs; ++vc) {
      refill(slots_waiting[s][vc]);
      in[s].tx_slots[vc] = &slots_waiting[s][vc];
    }
    in[s].rx_ready = true;
  }
  uint64_t slots = 0;
  auto step = [&](uint64_t cycle) {
    for (unsigned s = 0; s < 2; ++s) {
      in[s].phy_tx_ready = cycle >= phy_free[s];
      in[s].phy_rx_valid = !wire[s].empty() && wire[s].front().due <= cycle;
      if (in[s].phy_rx_valid) {
        in[s].phy_rx_flit = &wire[s].front().content;
        in[s].phy_rx_lane = wire[s].front().lane;
      }
      models[s].Cycle(in[s], out[s]);
      if (in[s].phy_rx_valid) {
        wire[s].pop_front();
      }
    }
    for (unsigned s = 0; s < 2; ++s) {
      slots += out[s].rx ? 1 : 0;
      for (unsigned vc = 0; vc < kLcVcs; ++vc) {
        if ((out[s].tx_taken >> vc) & 1u) {
          refill(slots_waiting[s][vc]);
        }
      }
      if (!out[s].phy_tx) {
        continue;
      }
      std::deque<Wire>& far = wire[1 - s];
      const bool training =
          flit::PeekFlitType(out[s].phy_tx_flit[flit::DlpOffset(profile)]) ==
          flit::FlitType::kTraining;
      if (training) {  // A copy per lane, one per cycle (PHY-4.7).
        phy_free[s] = cycle + kTrainingCycles;
        for (unsigned lane = 0; lane < profile.max_lanes; ++lane) {
          far.push_back(
              {cycle + kPhyLatencyCycles + lane, out[s].phy_tx_flit, lane});
        }
      } else {
        phy_free[s] = cycle + kFlitCycles;
        far.push_back(
            {cycle + kPhyLatencyCycles, std::move(out[s].phy_tx_flit), 0});
      }
    }
  };
  const uint64_t warmup = kWarmupPs / 1000;
  for (uint64_t cycle = 0; cycle < warmup; ++cycle) {
    step(cycle);
  }
  const uint64_t slots_before = slots;
  const auto start = Clock::now();
  for (uint64_t cycle = warmup; cycle < warmup + window_cycles; ++cycle) {
    step(cycle);
  }
  Rates rates;
  rates.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  rates.cycles = static_cast<double>(window_cycles);
  rates.slots = static_cast<double>(slots - slots_before);
  return rates;
}

// ---------------------------------------------------------------------------
// rtl and tl: a LinkPairBench in SystemC.

template <typename Controller, typename Config>
Rates MeasureSystemC(const Config& config, uint64_t window_ps,
                     uint64_t (*cycles_of)(const Controller&)) {
  phy::PhyPortConfig phy =
      phy::PhyPortConfig::ForProfile(phy::FindLinkProfile("pcie6").value());
  // More slots than the run can carry: the link stays saturated.
  const uint64_t slots = (kWarmupPs + window_ps) / 1000;
  // Counts only, as the raw loop keeps: no per-slot records growing with
  // the run.
  auto traffic = SymmetricTraffic(slots, phy.profile.payload_bytes);
  for (SlotEndpointConfig& side : traffic) {
    side.per_slot_records = false;
  }
  LinkPairBench<Controller> bench(phy, config, traffic);
  auto delivered = [&] {
    return static_cast<double>(bench.endpoints[0]->report().delivered +
                               bench.endpoints[1]->report().delivered);
  };
  sc_core::sc_start(
      sc_core::sc_time(static_cast<double>(kWarmupPs), sc_core::SC_PS));
  const double cycles_before =
      static_cast<double>(cycles_of(*bench.controllers[0]));
  const double slots_before = delivered();
  const auto start = Clock::now();
  sc_core::sc_start(
      sc_core::sc_time(static_cast<double>(window_ps), sc_core::SC_PS));
  Rates rates;
  rates.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  rates.cycles =
      static_cast<double>(cycles_of(*bench.controllers[0])) - cycles_before;
  rates.slots = delivered() - slots_before;
  for (auto& endpoint : bench.endpoints) {
    const SlotReport& r = endpoint->report();
    rates.intact &= r.lost == 0 && r.duplicated == 0 && r.corrupted == 0;
  }
  return rates;
}

uint64_t RtlCycles(const link::RtlLinkController& controller) {
  return controller.cycles();
}

uint64_t TlCycles(const link::TlLinkController&) {
  // No cycles are stepped: count the kernel's time in link clock cycles.
  return static_cast<uint64_t>(sc_core::sc_time_stamp().value()) / 1000;
}

// Runs `measure` in a child process and returns what it found.
template <typename Measure>
Rates InChild(Measure measure) {
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("pipe");
    std::exit(2);
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const Rates rates = measure();
    const ssize_t written = write(fds[1], &rates, sizeof(rates));
    _exit(written == sizeof(rates) ? 0 : 1);
  }
  close(fds[1]);
  Rates rates;
  const ssize_t got = read(fds[0], &rates, sizeof(rates));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != sizeof(rates) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "a measurement process failed\n");
    std::exit(1);
  }
  return rates;
}

// The faster of two measurements of one kind, by cycles per wall second;
// data lost in either one is kept.
Rates Faster(const Rates& a, const Rates& b) {
  const bool a_faster =
      a.wall_s > 0 &&
      (b.wall_s == 0 || a.cycles / a.wall_s > b.cycles / b.wall_s);
  Rates faster = a_faster ? a : b;
  faster.intact = a.intact && b.intact;
  return faster;
}

void PrintRow(const char* name, const Rates& r) {
  std::printf("%-4s %10.0f cycles/s %12.0f slots/s %8.3f wall s %s\n", name,
              r.cycles / r.wall_s, r.slots / r.wall_s, r.wall_s,
              r.intact ? "" : "DATA LOST");
}

int Main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const uint64_t rtl_window_ns = quick ? 5'000 : 100'000;
  const uint64_t tl_window_ns = rtl_window_ns * 20;

  const link::RtlLinkControllerConfig rtl_config = BenchRtlConfig();
  const unsigned turns = quick ? 1 : 3;
  Rates raw;
  Rates rtl;
  for (unsigned turn = 0; turn < turns; ++turn) {
    raw = Faster(raw, InChild([&] { return MeasureRaw(rtl_window_ns); }));
    rtl = Faster(rtl, InChild([&] {
                   return MeasureSystemC<link::RtlLinkController>(
                       rtl_config, rtl_window_ns * 1000, &RtlCycles);
                 }));
  }
  const link::TlLinkControllerConfig tl_config = BenchTlConfig();
  const Rates tl = InChild([&] {
    return MeasureSystemC<link::TlLinkController>(
        tl_config, tl_window_ns * 1000, &TlCycles);
  });

  std::printf(
      "saturated pcie6 link pair, both directions, after training; raw and "
      "rtl: fastest of %u turns\n",
      turns);
  PrintRow("raw", raw);
  PrintRow("rtl", rtl);
  PrintRow("tl", tl);
  const double wrapper_ratio =
      (rtl.cycles / rtl.wall_s) / (raw.cycles / raw.wall_s);
  const double tl_ratio = (tl.slots / tl.wall_s) / (rtl.slots / rtl.wall_s);
  std::printf("raw Verilated pair: %.0f k cycles per wall s (goal >= 300 k)\n",
              raw.cycles / raw.wall_s / 1000);
  std::printf(
      "RTL wrapper / raw Verilated (cycles per wall s): %.2f (goal >= 0.9)\n",
      wrapper_ratio);
  // Issue 4 asked for >= 20 against the RTL of then, 3.6 times slower.
  std::printf("TL / RTL wrapper (payload flits per wall s): %.1f\n", tl_ratio);
  return raw.intact && rtl.intact && tl.intact ? 0 : 1;
}

}  // namespace
}  // namespace lq::testing

int sc_main(int argc, char** argv) { return lq::testing::Main(argc, argv); }
