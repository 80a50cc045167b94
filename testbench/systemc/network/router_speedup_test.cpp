// SPDX-License-Identifier: Apache-2.0
// A router's internal speedup (NET-8.11) in the SystemC kernel: two
// networks, alike but for router.speedup, take uniform traffic at full
// offered load; the one with a speedup of 2 carries clearly more (0.65 and
// 0.74 slots per node per cycle when this was written, with every tie of
// dor going +: ties split by parity leave less loss to recover). The cycle
// kernel's test checks that outputs still pass one slot per cycle.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/network.h"
#include "testbench/systemc/network/one_set_config.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr unsigned kNodes = 16;  // a 4x4 torus

std::unique_ptr<cluster::Network> MakeNetwork(const std::string& name,
                                              unsigned speedup) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {{"tie", "plus"}}).value();
  NetworkConfig config = OneSetConfig(2, 8);
  config.router.speedup = speedup;
  config.traffic.packets_per_cycle = 1.0;
  config.traffic.payload_bytes = 200;  // one packet per slot
  return std::make_unique<cluster::Network>(
      name.c_str(), topology, routing,
      CreateTrafficPattern("uniform", kNodes, {}).value(), config);
}

// Slots every router has sent out of its local port (ejected).
uint64_t Ejected(cluster::Network& network) {
  uint64_t slots = 0;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    slots += network.router(n).flits_out(network.router(n).local_port());
  }
  return slots;
}

TEST(RouterSpeedupTest, NET_8_11_SpeedupLiftsSaturation) {
  std::vector<std::unique_ptr<cluster::Network>> networks;
  networks.push_back(MakeNetwork("plain", 1));
  networks.push_back(MakeNetwork("doubled", 2));
  constexpr double kWarmupNs = 1000, kEndNs = 4000;
  sc_core::sc_start(sc_time(kWarmupNs, SC_NS));
  std::vector<uint64_t> before;
  for (auto& network : networks) {
    before.push_back(Ejected(*network));
  }
  sc_core::sc_start(sc_time(kEndNs - kWarmupNs, SC_NS));
  std::vector<double> accepted;
  for (size_t i = 0; i < networks.size(); ++i) {
    cluster::Network& network = *networks[i];
    accepted.push_back(static_cast<double>(Ejected(network) - before[i]) /
                       ((kEndNs - kWarmupNs) * kNodes));
  }
  EXPECT_GT(accepted[1], 1.08 * accepted[0])
      << accepted[0] << " without a speedup, " << accepted[1] << " with 2";
}

}  // namespace
}  // namespace lq::net
