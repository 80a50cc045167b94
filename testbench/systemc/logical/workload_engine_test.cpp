// SPDX-License-Identifier: Apache-2.0
// The workload engine on a 2x2 torus of logical units: every access of a
// seeded mix completes, local ones faster than remote ones, and the
// engine's atomics all land (docs/spec/log.md, issue 8).
#include "systemc/logical/workload_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/logical_fabric.h"

namespace lq::logical {
namespace {

constexpr unsigned kNodes = 4;

double Mean(const std::vector<double>& values) {
  return values.empty() ? 0
                        : std::accumulate(values.begin(), values.end(), 0.0) /
                              values.size();
}

// A 2x2 torus of logical units with a workload engine on each, 3 streams
// of 40 accesses, 30 % local, within the first 4 KiB of each memory.
struct Bench {
  std::unique_ptr<cluster::LogicalFabric> fabric;
  std::vector<std::unique_ptr<WorkloadEngine>> engines;

  Bench(double loads, double stores) {
    fabric = cluster::BuildTorusFabric("2x2");
    for (unsigned n = 0; n < kNodes; ++n) {
      WorkloadConfig config;
      config.node = static_cast<uint16_t>(n);
      config.endpoints = kNodes;
      config.concurrency = 3;
      config.accesses = 40;
      config.loads = loads;
      config.stores = stores;
      config.locality = 0.3;
      config.span = 4096;  // atomics collide
      config.seed = 7 + n;
      engines.push_back(std::make_unique<WorkloadEngine>(
          ("workload" + std::to_string(n)).c_str(), config));
      engines.back()->socket.bind(fabric->unit(n).socket);
    }
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
  }
};

TEST(WorkloadEngine, MixedAccessesAllCompleteAndLocalIsFaster) {
  Bench bench(0.5, 0.4);
  const auto& engines = bench.engines;

  uint64_t atomics = 0;
  for (unsigned n = 0; n < kNodes; ++n) {
    const WorkloadEngine& engine = *engines[n];
    ASSERT_TRUE(engine.finished()) << "node " << n;
    EXPECT_EQ(engine.errors(), 0u);
    size_t done = 0;
    for (size_t c = 0; c < kAccessClasses; ++c) {
      done += engine.latencies_ns(static_cast<AccessClass>(c)).size();
    }
    EXPECT_EQ(done, 3u * 40u) << "every access completed once";
    atomics += engine.latencies_ns(AccessClass::kLocalAtomic).size() +
               engine.latencies_ns(AccessClass::kRemoteAtomic).size();
    const double local = Mean(engine.latencies_ns(AccessClass::kLocalLoad));
    const double remote = Mean(engine.latencies_ns(AccessClass::kRemoteLoad));
    ASSERT_GT(local, 0);
    EXPECT_GT(remote, local) << "a remote load crosses the fabric";
  }
  EXPECT_GT(atomics, 0u) << "the mix has atomics";
}

TEST(WorkloadEngine, EveryAtomicAddLands) {
  Bench bench(0, 0);  // atomics only: FADD 1 to random words
  uint64_t atomics = 0, sum = 0;
  for (unsigned n = 0; n < kNodes; ++n) {
    ASSERT_TRUE(bench.engines[n]->finished());
    EXPECT_EQ(bench.engines[n]->errors(), 0u);
    atomics +=
        bench.engines[n]->latencies_ns(AccessClass::kLocalAtomic).size() +
        bench.engines[n]->latencies_ns(AccessClass::kRemoteAtomic).size();
    const Bytes bytes = bench.fabric->memory(n).Peek(0, 4096);
    for (size_t at = 0; at < bytes.size(); at += 8) {
      sum += LoadLittleEndian(bytes.data() + at, 8);
    }
  }
  EXPECT_EQ(atomics, kNodes * 3u * 40u);
  EXPECT_EQ(sum, atomics) << "the words hold exactly one 1 per atomic";
}

}  // namespace
}  // namespace lq::logical
