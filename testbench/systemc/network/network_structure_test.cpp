// SPDX-License-Identifier: Apache-2.0
// The SystemC network study's structure. NET-1.1: a router per node, a
// local port on each endpoint's and none on a switch's. NET-1.5: a torus
// with a ring of one has ports with no cable; the network caps them and
// routes around them: every packet of uniform traffic arrives, nothing is
// left held, and no slot ever leaves through a capped port (the cap would
// throw).
#include <gtest/gtest.h>

#include <memory>
#include <systemc>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "models/topology/torus.h"
#include "systemc/cluster/network.h"
#include "testbench/systemc/network/one_set_config.h"

namespace lq::net {
namespace {

constexpr uint64_t kPacketsPerNode = 50;

TEST(NetworkStructure, NET_1_1_ARouterPerNodeAndALocalPortPerEndpoint) {
  std::shared_ptr<const topo::Topology> tree =
      topo::CreateTopology("fattree", {{"endpoints", "14"}}).value();
  std::shared_ptr<const topo::RoutingFunction> updown =
      topo::CreateRouting("updown", tree, {}).value();
  NetworkConfig config = OneSetConfig(2, 8);
  config.traffic.packets = 1;
  cluster::Network network("tree", tree, updown,
                           CreateTrafficPattern("uniform", 14, {}).value(),
                           config);
  ASSERT_EQ(network.routers(), tree->NodeCount());
  EXPECT_EQ(network.nodes(), tree->EndpointCount()) << "a source per endpoint";
  for (topo::NodeId n = 0; n < tree->NodeCount(); ++n) {
    const unsigned local = tree->IsEndpoint(n) ? 1 : 0;
    EXPECT_EQ(network.router(n).port_count(), tree->PortCount(n) + local)
        << tree->NodeName(n);
  }
}

TEST(NetworkStructure, NET_1_5_RingOfOneIsCappedAndRoutedAround) {
  std::shared_ptr<const topo::Topology> topology =
      topo::CreateTopology("torus", {{"dims", "4x1x3"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {}).value();
  const unsigned nodes = topology->NodeCount();
  NetworkConfig config = OneSetConfig(2, 8);
  config.traffic.packets_per_cycle = 0.2;
  config.traffic.packets = kPacketsPerNode;
  config.traffic.payload_bytes = 300;  // two slots
  cluster::Network network("network", topology, routing,
                           CreateTrafficPattern("uniform", nodes, {}).value(),
                           config);
  sc_core::sc_start();

  uint64_t received = 0;
  for (unsigned n = 0; n < nodes; ++n) {
    EXPECT_EQ(network.source(n).sent(), kPacketsPerNode);
    received += network.source(n).latencies_ns().size();
    EXPECT_EQ(network.router(n).packets_held(), 0u);
    for (const unsigned port :
         {topo::Torus::PlusPort(1), topo::Torus::MinusPort(1)}) {
      EXPECT_EQ(network.router(n).flits_out(port), 0u)
          << "node " << n << "'s Y port has no cable";
    }
  }
  EXPECT_EQ(received, kPacketsPerNode * nodes);
}

}  // namespace
}  // namespace lq::net
