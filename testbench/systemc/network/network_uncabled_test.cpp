// NET-1.5 in the SystemC network study: a torus with a ring of one has
// ports with no cable. The network caps them and routes around them: every
// packet of uniform traffic arrives, nothing is left held, and no slot ever
// leaves through a capped port (the cap would throw).
#include <gtest/gtest.h>

#include <memory>
#include <systemc>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "models/topology/torus.h"
#include "systemc/network/network.h"

namespace lq::net {
namespace {

constexpr uint64_t kPacketsPerNode = 50;

TEST(NetworkUncabled, NET_1_5_RingOfOneIsCappedAndRoutedAround) {
  std::shared_ptr<const topo::Topology> topology =
      topo::CreateTopology("torus", {{"dims", "4x1x3"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {}).value();
  const unsigned nodes = topology->NodeCount();
  NetworkConfig config;
  config.router.vc_classes = 2;
  config.router.vc_sets = 1;
  config.interface.vc_classes = 2;
  config.interface.vc_sets = 1;
  config.interface.tc_map = DefaultTcMap(1);
  config.traffic.packets_per_cycle = 0.2;
  config.traffic.packets = kPacketsPerNode;
  config.traffic.payload_bytes = 300;  // two slots
  Network network("network", topology, routing,
                  CreateTrafficPattern("uniform", nodes, {}).value(), config);
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
