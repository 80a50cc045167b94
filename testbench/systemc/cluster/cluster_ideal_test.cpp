// SPDX-License-Identifier: Apache-2.0
// A cluster of cards without boards on ideal links (link.fidelity ideal,
// decision 0009): the one builder of the stack joins each cable's two
// router ports directly, with no link controller or PHY, and caps a port
// with no cable (NET-1.5). Packets from one card's network interface reach
// every other card once, over minimal dimension-order paths.
#include <gtest/gtest.h>

#include <stdexcept>
#include <systemc>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::cluster {
namespace {

ClusterConfig IdealFabric(std::shared_ptr<const topo::Topology> topology) {
  ClusterConfig config;
  config.boards = false;
  config.routing = topo::CreateRouting("dor", topology, {}).value();
  config.port.ideal = true;
  return config;
}

TEST(ClusterIdealTest, NET_1_5_IdealPortsJoinRoutersAndCapTheUncabled) {
  // 4x1x2: the ring of one leaves ports 2 and 3 of every card uncabled.
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "4x1x2"}}).value();
  const unsigned nodes = topology->NodeCount();
  std::vector<net::Delivered> delivered;
  ClusterConfig config = IdealFabric(topology);
  config.on_delivery = [&](unsigned node, net::Delivered d) {
    EXPECT_EQ(d.header.dst, node);
    delivered.push_back(std::move(d));
  };
  Cluster cluster("cluster", config, topology);
  for (unsigned n = 0; n < nodes; ++n) {
    for (unsigned p = 0; p < cluster.node(n).port_count(); ++p) {
      EXPECT_TRUE(cluster.node(n).ideal_port(p)) << "node " << n;
    }
  }
  EXPECT_EQ(cluster.ports_up(), 0u) << "ideal ports have no LTSSM";

  testing::ScThread traffic("traffic", [&] {
    for (unsigned dst = 0; dst < nodes; ++dst) {
      cluster.node(0).interface()->Send(static_cast<uint16_t>(dst), 0,
                                        Bytes(100, static_cast<uint8_t>(dst)));
    }
  });
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));

  ASSERT_EQ(delivered.size(), nodes);
  uint64_t hops = 0;
  for (unsigned n = 0; n < nodes; ++n) {
    const net::RouterCounters& counters = cluster.node(n).router()->counters();
    EXPECT_EQ(counters.Dropped(), 0u) << "node " << n;
    hops += counters.hops;
  }
  // From node 0 of a 4x2 ring pair: 0 + 1 + 2 + 1 hops in X, then each +1
  // for the Z step.
  EXPECT_EQ(hops, (0 + 1 + 2 + 1) * 2 + 4u);
}

TEST(ClusterIdealTest, IdealPortsHaveNoLinkControllerForFirmwareOrRtl) {
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "2x2"}}).value();
  ClusterConfig boards = IdealFabric(topology);
  boards.boards = true;
  EXPECT_THROW(Cluster("boards", boards, topology), std::invalid_argument);

  ClusterConfig rtl = IdealFabric(topology);
  rtl.rtl_ports[{0, 1}] = link::RtlLinkControllerConfig{};
  EXPECT_THROW(Cluster("rtl", rtl, topology), std::invalid_argument);
}

}  // namespace
}  // namespace lq::cluster
