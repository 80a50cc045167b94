// SPDX-License-Identifier: Apache-2.0
// Collectives run through routers (issue 6's traffic): ring and
// hierarchical AllReduce and all-to-all on a 4x4 torus, side by side. Each
// completes with every message delivered exactly once and nothing left in
// the network; no AllReduce beats the injection bound of moving
// 2(N-1)/N of its buffer out of every node; and the hierarchical AllReduce
// needs fewer steps than the ring.
#include "systemc/network/collective_driver.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/network.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint32_t kNodes = 16;
constexpr uint64_t kBufferBytes = 64 * 1024;
constexpr size_t kPacketBytes = 2048;

struct CollectiveRun {
  std::unique_ptr<cluster::Network> network;
  std::unique_ptr<CollectiveDriver> driver;
};

CollectiveRun MakeRun(const std::string& collective,
                      const topo::ParamMap& params) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  NetworkConfig config;
  config.traffic.packets_per_cycle = 0;  // only the collective sends
  config.watchdog_window = sc_time(20, sc_core::SC_US);
  CollectiveRun run;
  run.network = std::make_unique<cluster::Network>(
      ("net_" + collective).c_str(), topology,
      topo::CreateRouting("dor", topology, {}).value(),
      CreateTrafficPattern("uniform", kNodes, {}).value(), config);
  CollectiveSchedule schedule =
      CreateCollective(collective, kNodes, {4, 4}, params).value();
  run.driver = std::make_unique<CollectiveDriver>(
      ("driver_" + collective).c_str(), run.network->sources(),
      std::move(schedule), kPacketBytes);
  return run;
}

TEST(CollectiveDriverTest, CollectivesCompleteThroughRoutersWithinBounds) {
  const std::string bytes = std::to_string(kBufferBytes);
  CollectiveRun ring =
      MakeRun("ring_allreduce", {{"bytes", bytes}, {"order", "snake"}});
  CollectiveRun hierarchical =
      MakeRun("hierarchical_allreduce", {{"bytes", bytes}});
  CollectiveRun alltoall = MakeRun("alltoall", {{"bytes", "4096"}});
  sc_core::sc_start();

  for (CollectiveRun* run : {&ring, &hierarchical, &alltoall}) {
    const CollectiveDriver& driver = *run->driver;
    ASSERT_EQ(driver.messages_delivered(), driver.schedule().messages.size())
        << driver.schedule().name << ": " << driver.messages_delivered()
        << " of " << driver.schedule().messages.size() << " delivered";
    uint64_t sent = 0, delivered = 0;
    for (unsigned n = 0; n < kNodes; ++n) {
      sent += run->network->source(n).sent();
      delivered += run->network->source(n).latencies_ns().size();
      EXPECT_EQ(run->network->router(n).packets_held(), 0u);
    }
    EXPECT_EQ(delivered, sent)
        << driver.schedule().name << ": every packet arrived once";
    EXPECT_FALSE(run->network->watchdog()->deadlocked());
  }
  // Every node sends 2(N-1)/N of the buffer, at most one 236-byte slot per
  // cycle (1 ns) through its local port.
  const double bound_ns = 2.0 * (kNodes - 1) / kNodes * kBufferBytes / 236.0;
  for (CollectiveRun* run : {&ring, &hierarchical}) {
    const double took_ns = run->driver->last_delivery().to_seconds() * 1e9;
    EXPECT_GT(took_ns, bound_ns) << run->driver->schedule().name;
    EXPECT_LT(took_ns, 20 * bound_ns) << run->driver->schedule().name;
  }
  EXPECT_LT(hierarchical.driver->schedule().steps,
            ring.driver->schedule().steps)
      << "fewer global steps: reduce within rows, then across";
}

}  // namespace
}  // namespace lq::net
