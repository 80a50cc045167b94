// SPDX-License-Identifier: Apache-2.0
// A link cut through the middle of a worm (NET-7.1): on a ring of 4, a
// 20-slot packet from node 0 to node 2 spans routers 0, 1 and 2 when the
// link 0-1 goes down. Router 0 stops sending; router 1, which has already
// forwarded the packet's front, counts it lost and ends it with an abort
// that travels to node 2, so no buffer is left holding half a packet and
// node 2 delivers nothing incomplete. A packet routed to the down port
// later is dropped and counted; other traffic still flows. When the link
// comes back up, the mark clears and worms longer than the VC buffers
// cross it again, on credits the two ends grant each other afresh.
// Built twice: with the routers joined by slot channels, each receiver
// parsing what arrives; and with LQ_TEST_FABRIC_LINKS defined, joined as
// one fabric whose packets cross as chunks of a shared pool (decision
// 0053). Both must pass unchanged, and let every pooled packet go.
#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/slot_channel.h"
#include "testbench/systemc/network/router_node.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

#if defined(LQ_TEST_FABRIC_LINKS)
#define LQ_LINK_SUITE RouterLinkDownFabricTest
#else
#define LQ_LINK_SUITE RouterLinkDownTest
#endif

constexpr unsigned kNodes = 4;
constexpr size_t kSlotBytes = 64;
constexpr size_t kWormPayload = 20 * kSlotBytes - kRouteHeaderBytes;

TEST(LQ_LINK_SUITE, NET_7_1_CutWormIsAbortedAndCountedOnce) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> dor =
      topo::CreateRouting("dor", topology, {}).value();
  std::vector<Delivered> delivered;
  std::vector<RouterNode> nodes;
  const auto pool = std::make_shared<PacketPool>();
  for (unsigned n = 0; n < kNodes; ++n) {
    RouterConfig config;
    config.node = n;
    config.network_ports = 2;
    config.routing = dor;
    config.nodes = kNodes;
    config.slot_bytes = kSlotBytes;
    config.vc_buffer_flits = 4;
    config.pool = pool;
    nodes.push_back(MakeRouterNode(config, delivered));
  }
  std::vector<std::unique_ptr<SlotChannel>> channels;
  for (unsigned n = 0; n < kNodes; ++n) {  // port 0 (+X) to the next's port 1
#if defined(LQ_TEST_FABRIC_LINKS)
    JoinRouters(*nodes[n].router, 0, *nodes[(n + 1) % kNodes].router, 1,
                sc_time(1, SC_NS));
#else
    channels.push_back(std::make_unique<SlotChannel>(
        ("link" + std::to_string(n)).c_str(), sc_time(1, SC_NS)));
    Connect(nodes[n].router->port(0), channels.back()->a);
    Connect(nodes[(n + 1) % kNodes].router->port(1), channels.back()->b);
#endif
  }

  nodes[0].ni->Send(2, 0, Bytes(kWormPayload, 0xA5));  // 0 -> 1 -> 2 (a tie: +)
  sc_core::sc_start(sc_time(18, SC_NS));
  ASSERT_GT(nodes[2].router->flits_out(nodes[2].router->local_port()), 0u)
      << "the worm's front has reached node 2";
  ASSERT_LT(nodes[0].router->flits_out(0), 20u)
      << "its tail is still at node 0";
  const sc_time flush(10, SC_NS);
  nodes[0].router->SetPortDown(0, flush);
  nodes[1].router->SetPortDown(1, flush);
  sc_core::sc_start(sc_time(200, SC_NS));

  EXPECT_TRUE(nodes[0].router->port_down(0));
  EXPECT_FALSE(nodes[0].router->port_down(1)) << "only the cut port";
  EXPECT_TRUE(delivered.empty()) << "no incomplete packet is delivered";
  EXPECT_EQ(nodes[0].router->counters().drops_link_down, 0u)
      << "partly sent: the receiving router counts it";
  EXPECT_EQ(nodes[1].router->counters().drops_link_down, 1u)
      << "counted once, where the rest of it was lost";
  EXPECT_EQ(nodes[2].router->counters().drops_link_down, 0u)
      << "the abort is not counted again downstream";
  for (const RouterNode& node : nodes) {
    EXPECT_EQ(node.router->packets_held(), 0u)
        << node.router->name() << " holds a worm";
  }

  // Later: 0 -> 1 wants the down port and is dropped; 3 -> 2 still flows.
  nodes[0].ni->Send(1, 0, Bytes(40, 1));
  nodes[3].ni->Send(2, 0, Bytes(40, 2));
  sc_core::sc_start(sc_time(200, SC_NS));
  EXPECT_EQ(nodes[0].router->counters().drops_link_down, 1u)
      << "routed to a down port (NET-7.1)";
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(delivered[0].header.src, 3);
  EXPECT_EQ(delivered[0].payload, Bytes(40, 2));

  // Up again: two worms of 20 slots, each five times a VC buffer, both ways.
  nodes[0].router->SetPortUp(0);
  nodes[1].router->SetPortUp(1);
  EXPECT_FALSE(nodes[0].router->port_down(0)) << "a link-up clears the mark";
  nodes[0].ni->Send(1, 0, Bytes(kWormPayload, 3));
  nodes[1].ni->Send(0, 0, Bytes(kWormPayload, 4));
  sc_core::sc_start(sc_time(400, SC_NS));
  ASSERT_EQ(delivered.size(), 3u) << "both worms crossed the restored link";
  for (const uint8_t fill : {3, 4}) {
    EXPECT_TRUE(delivered[1].payload == Bytes(kWormPayload, fill) ||
                delivered[2].payload == Bytes(kWormPayload, fill))
        << "the worm of bytes " << int{fill} << " arrived changed";
  }
  EXPECT_EQ(nodes[0].router->counters().drops_link_down, 1u);
  EXPECT_EQ(nodes[0].router->flits_out(0), nodes[1].router->flits_in(1))
      << "every slot sent over the link arrived";
  EXPECT_EQ(pool->live(), 0u) << "a packet's bytes were kept after it left";
}

}  // namespace
}  // namespace lq::net
