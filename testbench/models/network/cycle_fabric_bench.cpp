// SPDX-License-Identifier: Apache-2.0
// Benchmarks of the flit-level cycle kernel (decision 0025) for issue 39's
// goals in docs/performance.md: simulated flit-hops per wall second with
// BookSim2's router (testbench/scenarios/comparability_8x8x8.yaml: dor with
// a dateline per dimension, 2 VCs x 8 flits, 1-cycle stages, iSLIP,
// 2-cycle links, 1-cycle interface channels), single-flit packets of
// uniform random traffic including the source itself. 8x8x8 at 0.2
// flits/node/cycle is the configuration the BookSim2 reference figure was
// measured on; 8x8x8 and 16x16x32 at 0.02 show whether cost follows
// activity rather than the network's size.
#include <benchmark/benchmark.h>

#include <memory>

#include "models/network/cycle_fabric.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::net {
namespace {

// Runs `cycles` cycles per iteration after a warm-up of as many, and
// reports flit-hops per second as the items processed.
void RunTorus(benchmark::State& state, const char* dims, double load) {
  auto topology = topo::CreateTopology("torus", {{"dims", dims}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology,
                          {{"dateline", "per_dimension"}, {"tie", "parity"}})
          .value();
  auto pattern = std::shared_ptr<const TrafficPattern>(
      CreateTrafficPattern("uniform", topology->EndpointCount(),
                           {{"self", "1"}})
          .value());
  CycleFabricConfig config;
  config.vc_classes = 2;
  config.vc_sets = 1;
  config.vc_buffer_flits = 8;
  config.allocator = SwitchAllocator::kIslip;
  config.islip_iterations = 1;
  config.vc_reuse = VcReuse::kAfterTail;
  config.credit_cycles = 1;
  config.eject_any_vc = true;
  config.link_cycles = 2;
  config.interface_cycles = 1;
  config.packets_per_cycle = load;
  CycleFabric fabric(routing, pattern, config);
  constexpr uint64_t kCycles = 1000;
  fabric.RunUntil(kCycles);
  uint64_t hops = 0;
  for (auto _ : state) {
    const uint64_t before = fabric.flit_hops();
    fabric.RunUntil(fabric.now() + kCycles);
    hops += fabric.flit_hops() - before;
  }
  if (fabric.deadlocked()) {
    state.SkipWithError(fabric.deadlock_report().c_str());
  }
  state.SetItemsProcessed(static_cast<int64_t>(hops));
  state.counters["flit_hops_per_s"] = benchmark::Counter(
      static_cast<double>(hops), benchmark::Counter::kIsRate);
}

void BM_CycleKernel8x8x8Load0_2(benchmark::State& state) {
  RunTorus(state, "8x8x8", 0.2);
}
BENCHMARK(BM_CycleKernel8x8x8Load0_2)->Unit(benchmark::kMillisecond);

void BM_CycleKernel8x8x8Load0_02(benchmark::State& state) {
  RunTorus(state, "8x8x8", 0.02);
}
BENCHMARK(BM_CycleKernel8x8x8Load0_02)->Unit(benchmark::kMillisecond);

void BM_CycleKernel16x16x32Load0_02(benchmark::State& state) {
  RunTorus(state, "16x16x32", 0.02);
}
BENCHMARK(BM_CycleKernel16x16x32Load0_02)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lq::net
