// SPDX-License-Identifier: Apache-2.0
// The fabric manager tests' network (NET-7): a 4x4 torus under uniform
// traffic of 3-slot packets (so that worms span hops), with a watchdog and
// a fabric manager on short timers; and the tally every such test makes
// of what became of the packets sent.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <systemc>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/network.h"

namespace lq::net {

inline FabricManagerConfig ShortFabricManagerTimers() {
  FabricManagerConfig fm;
  fm.oob_latency = sc_core::sc_time(100, sc_core::SC_NS);
  fm.holdoff = sc_core::sc_time(1, sc_core::SC_US);
  fm.compute_time = sc_core::sc_time(2, sc_core::SC_US);
  fm.drain_timeout = sc_core::sc_time(10, sc_core::SC_US);
  fm.drain_interval = sc_core::sc_time(1, sc_core::SC_US);
  fm.restore_holdoff = sc_core::sc_time(5, sc_core::SC_US);
  return fm;
}

struct LoadedTorus {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::RoutingFunction> dor;
  std::unique_ptr<cluster::Network> network;
};

// Traffic stops at `stop`.
inline LoadedTorus MakeLoadedTorus(const FabricManagerConfig& fm,
                                   const sc_core::sc_time& stop) {
  LoadedTorus torus;
  torus.topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  torus.dor = topo::CreateRouting("dor", torus.topology, {}).value();
  NetworkConfig config;
  config.router.vc_buffer_flits = 4;
  config.traffic.packets_per_cycle = 0.12;
  config.traffic.payload_bytes = 600;  // 3 slots: worms span hops
  config.traffic.stop = stop;
  config.link_latency = sc_core::sc_time(2, sc_core::SC_NS);
  config.watchdog_window = sc_core::sc_time(5, sc_core::SC_US);
  config.fabric_manager = fm;
  torus.network = std::make_unique<cluster::Network>(
      "network", torus.topology, torus.dor,
      CreateTrafficPattern("uniform", 16, {}).value(), config);
  return torus;
}

// What became of the packets sent (NET-7.8): each is delivered once or
// counted in one drop counter.
struct PacketTally {
  uint64_t sent = 0, delivered = 0, dropped = 0, by_failure = 0;
};
inline PacketTally TallyPackets(cluster::Network& network) {
  PacketTally tally;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    tally.sent += network.source(n).sent();
    tally.delivered += network.source(n).latencies_ns().size();
    tally.dropped += network.router(n).counters().Dropped();
    tally.by_failure += network.router(n).counters().FailureDropped();
  }
  return tally;
}

// The end every repair must reach: no worm left in a router, no deadlock,
// and every packet delivered once or dropped, by the failure, once.
inline void ExpectCleanEnd(cluster::Network& network) {
  for (unsigned n = 0; n < network.nodes(); ++n) {
    EXPECT_EQ(network.router(n).packets_held(), 0u)
        << "node " << n << ": no worm left stuck";
  }
  const PacketTally tally = TallyPackets(network);
  EXPECT_EQ(tally.dropped, tally.by_failure) << "every drop is the failure's";
  EXPECT_EQ(tally.sent, tally.delivered + tally.dropped)
      << "every packet delivered once or counted as dropped (NET-7.8)";
  EXPECT_FALSE(network.watchdog()->deadlocked())
      << network.watchdog()->report();
}

}  // namespace lq::net
