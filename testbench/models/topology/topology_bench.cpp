// SPDX-License-Identifier: Apache-2.0
// Benchmarks of routing decisions and routing-table computation, for the
// figures in docs/performance.md (DOR decisions per second on 4x8x8; table
// build time and memory at 256 and 8192 nodes).
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>

#include "models/topology/dor_routing.h"
#include "models/topology/table_routing.h"
#include "models/topology/torus.h"

namespace lq::topo {
namespace {

std::shared_ptr<const Torus> MakeTorus(const std::vector<uint32_t>& sizes) {
  return std::make_shared<Torus>(Torus::Create(sizes).value());
}

// Peak resident set of this process in MiB (Linux), 0 if unknown.
double PeakRssMiB() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kib = 0;
      status >> kib;
      return kib / 1024.0;
    }
  }
  return 0;
}

void BM_DorRoute4x8x8(benchmark::State& state) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 8, 8});
  const DorRouting dor(torus, DorRouting::Dateline::kAtWrap);
  const NodeId nodes = torus->NodeCount();
  const PortId in_port = Torus::MinusPort(0);
  NodeId current = 0;
  NodeId dst = 0;
  for (auto _ : state) {
    Result<RouteStep> step = dor.Route(current, in_port, 0, dst);
    benchmark::DoNotOptimize(step);
    // Walk all (current, dst) pairs so that every branch is exercised.
    if (++dst == nodes) {
      dst = 0;
      current = (current + 1) % nodes;
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DorRoute4x8x8);

void BM_TableRoute4x8x8(benchmark::State& state) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 8, 8});
  const std::unique_ptr<TableRouting> table =
      TableRouting::Build(torus, 2, std::nullopt).value();
  const NodeId nodes = torus->NodeCount();
  NodeId current = 0;
  NodeId dst = 0;
  for (auto _ : state) {
    Result<RouteStep> step = table->Route(current, Torus::MinusPort(1), 0, dst);
    benchmark::DoNotOptimize(step);
    if (++dst == nodes) {
      dst = 0;
      current = (current + 1) % nodes;
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TableRoute4x8x8);

// Table build for the torus given by the benchmark's three size arguments.
void BM_TableBuild(benchmark::State& state) {
  const std::shared_ptr<const Torus> torus =
      MakeTorus({static_cast<uint32_t>(state.range(0)),
                 static_cast<uint32_t>(state.range(1)),
                 static_cast<uint32_t>(state.range(2))});
  size_t table_bytes = 0;
  for (auto _ : state) {
    std::unique_ptr<TableRouting> table =
        TableRouting::Build(torus, 2, std::nullopt).value();
    table_bytes = table->TableBytes();
    benchmark::DoNotOptimize(table);
  }
  state.counters["nodes"] = torus->NodeCount();
  state.counters["tables_MiB"] = table_bytes / (1024.0 * 1024.0);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}
BENCHMARK(BM_TableBuild)->Args({4, 8, 8})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TableBuild)
    ->Args({16, 16, 32})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace lq::topo
