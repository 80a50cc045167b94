// SPDX-License-Identifier: Apache-2.0
// Minimal adaptive routing in the router (NET-4.3): with the dor port of a
// flow held (a paused output), adaptive packets take the other productive
// port and arrive while dor's wait; once the pause lifts both networks
// deliver everything, over minimal paths, with nothing held. And above
// saturation, an adaptive packet that asks for its escape VC only once that
// VC has a credit keeps the adaptive VCs moving.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "models/topology/torus.h"
#include "systemc/cluster/network.h"
#include "testbench/systemc/network/one_set_config.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// Bit complement on a 4x4 torus maps (x,y) to (3-x,3-y): every flow is one
// hop in X and one in Y. Node 1 (1,0) sends to node 14 (2,3) with +X and
// -Y both productive; dor takes +X first, and router 1's +X is paused.
constexpr unsigned kSource = 1;
constexpr unsigned kTarget = 14;
constexpr uint8_t kTc = 0;
constexpr uint64_t kPacketsPerNode = 40;

// Three VC classes, the adaptive one over dor's two dateline classes, with
// 4-slot buffers.
NetworkConfig OneAdaptiveClass() { return OneSetConfig(3, 4); }

std::unique_ptr<cluster::Network> MakeNetwork(const std::string& name,
                                              const std::string& routing_name) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting(routing_name, topology, {}).value();
  NetworkConfig config = OneAdaptiveClass();
  config.traffic.packets_per_cycle = 0.05;
  config.traffic.packets = kPacketsPerNode;
  config.traffic.payload_bytes = 300;  // two slots: wormhole across hops
  config.traffic.tc = kTc;
  return std::make_unique<cluster::Network>(
      name.c_str(), topology, routing,
      CreateTrafficPattern("bitcomp", 16, {}).value(), config);
}

TEST(RouterAdaptiveTest, NET_4_3_AdaptivePacketsGoAroundAHeldPort) {
  std::unique_ptr<cluster::Network> dor = MakeNetwork("dor", "dor");
  std::unique_ptr<cluster::Network> adaptive =
      MakeNetwork("adaptive", "adaptive");
  const unsigned plus_x = topo::Torus::PlusPort(0);
  const unsigned minus_y = topo::Torus::MinusPort(1);
  for (cluster::Network* network : {dor.get(), adaptive.get()}) {
    for (unsigned c = 0; c < network->router(kSource).vc_classes(); ++c) {
      network->router(kSource).SetPaused(plus_x, kTc, c, true);
    }
  }

  sc_core::sc_start(sc_time(2000, SC_NS));
  EXPECT_EQ(dor->router(kSource).flits_out(plus_x), 0u);
  EXPECT_EQ(adaptive->router(kSource).flits_out(plus_x), 0u)
      << "a paused output starts nothing, adaptive or not (NET-8.7)";
  EXPECT_EQ(dor->source(kTarget).latencies_ns().size(), 0u)
      << "dor has only the held port for this flow";
  EXPECT_EQ(adaptive->source(kTarget).latencies_ns().size(), kPacketsPerNode)
      << "adaptive routing took the other productive port, -Y";
  EXPECT_GT(adaptive->router(kSource).flits_out(minus_y), 0u);

  for (cluster::Network* network : {dor.get(), adaptive.get()}) {
    for (unsigned c = 0; c < network->router(kSource).vc_classes(); ++c) {
      network->router(kSource).SetPaused(plus_x, kTc, c, false);
    }
  }
  sc_core::sc_start();
  for (cluster::Network* network : {dor.get(), adaptive.get()}) {
    for (unsigned n = 0; n < network->nodes(); ++n) {
      const TrafficSource& source = network->source(n);
      EXPECT_EQ(source.sent(), kPacketsPerNode);
      EXPECT_EQ(source.latencies_ns().size(), kPacketsPerNode)
          << "bit complement is a permutation: each node receives one flow";
      for (const uint8_t hops : source.hops()) {
        EXPECT_EQ(hops, 2u) << "minimal: one hop per dimension, at node " << n;
      }
      EXPECT_EQ(network->router(n).packets_held(), 0u);
    }
  }
}

// An 8x8 torus, one adaptive class over the two dateline classes, 4-slot
// buffers, uniform traffic offered at one slot per node per cycle: the
// escape network fills. Committed to a full escape VC, an adaptive packet
// blocks the adaptive packets behind it; with the rule the network accepted
// 0.40 slots per node per cycle and without it 0.24 when this was written.
TEST(RouterAdaptiveTest,
     NET_4_3_AdaptivePacketsAskForTheEscapeOnlyWithACredit) {
  std::shared_ptr<const topo::Topology> topology =
      topo::CreateTopology("torus", {{"dims", "8x8"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("adaptive", topology, {}).value();
  const unsigned nodes = topology->NodeCount();
  NetworkConfig config = OneAdaptiveClass();
  config.traffic.packets_per_cycle = 1.0;
  config.traffic.payload_bytes = 200;  // one packet per slot
  cluster::Network network("saturated", topology, routing,
                           CreateTrafficPattern("uniform", nodes, {}).value(),
                           config);
  const auto ejected = [&network, nodes] {
    uint64_t slots = 0;
    for (unsigned n = 0; n < nodes; ++n) {
      slots += network.router(n).flits_out(network.router(n).local_port());
    }
    return slots;
  };
  constexpr double kWarmupNs = 1000, kMeasuredNs = 3000;  // 1 ns cycles
  sc_core::sc_start(sc_time(kWarmupNs, SC_NS));
  const uint64_t before = ejected();
  sc_core::sc_start(sc_time(kMeasuredNs, SC_NS));
  const double accepted =
      static_cast<double>(ejected() - before) / (kMeasuredNs * nodes);
  EXPECT_GT(accepted, 0.32) << "slots per node per cycle";
}

}  // namespace
}  // namespace lq::net
