// Benchmarks of the flit-level cycle kernel (decision 0025) for issue 6's
// goal in docs/performance.md: simulated flit-hops per wall second on
// 4x4x4 and 8x8x8 tori, dimension-order routing, the comparability router
// (2 VCs x 8 flits, 1-cycle stages and links), single-flit packets of
// uniform random traffic at half of each network's saturation (0.21 and
// 0.125 flits/node/cycle, docs/validation.md).
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
      topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
  auto pattern = std::shared_ptr<const TrafficPattern>(
      CreateTrafficPattern("uniform", topology->EndpointCount(), {}).value());
  CycleFabricConfig config;  // the comparability scenarios' router
  config.vc_sets = 1;
  config.vc_buffer_flits = 8;
  config.link_cycles = 1;
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

void BM_CycleKernel4x4x4(benchmark::State& state) {
  RunTorus(state, "4x4x4", 0.21);
}
BENCHMARK(BM_CycleKernel4x4x4)->Unit(benchmark::kMillisecond);

void BM_CycleKernel8x8x8(benchmark::State& state) {
  RunTorus(state, "8x8x8", 0.125);
}
BENCHMARK(BM_CycleKernel8x8x8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lq::net
