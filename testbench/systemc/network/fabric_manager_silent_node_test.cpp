// SPDX-License-Identifier: Apache-2.0
// NET-7.5 on a loaded 4x4 torus with the fabric manager in band at node
// 10: node 6's firmware hangs (its router still forwards) just before a
// link is cut. The manager's messages to it go unanswered; after
// fm.msg_retries resends it treats node 6 as failed and a second update
// routes around it, while every packet is still delivered once or counted
// as dropped.
#include <gtest/gtest.h>

#include <systemc>

#include "testbench/systemc/network/loaded_torus.h"

namespace lq::net {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr topo::NodeId kManager = 10, kHung = 6;

TEST(FabricManagerSilentNode, NET_7_5_UnansweredNodeIsTreatedAsFailed) {
  FabricManagerConfig fm = ShortFabricManagerTimers();
  fm.node = kManager;
  fm.timers.msg_timeout = sc_time(2, SC_US);
  fm.timers.msg_retries = 2;
  const LoadedTorus torus = MakeLoadedTorus(fm, sc_time(30, SC_US));
  cluster::Network& network = *torus.network;
  sc_core::sc_start(sc_time(3, SC_US));
  network.control()
      ->agent(kHung)
      ->Fail();  // hangs: answers nothing from now on
  network.control()->CutLink(0, 0);
  sc_core::sc_start();

  const std::vector<RouteUpdate>& updates = network.fabric_manager()->updates();
  ASSERT_EQ(updates.size(), 2u) << "the cut's update, then the silence's";
  EXPECT_EQ(updates[0].silent_nodes, 1u);
  EXPECT_EQ(updates[0].failed_nodes, 0u);
  EXPECT_FALSE(updates[0].drained) << "the hung node kept injecting";
  EXPECT_TRUE(updates[1].failure.empty()) << updates[1].failure;
  EXPECT_EQ(updates[1].failed_nodes, 1u) << "node 6, given up on";
  EXPECT_EQ(updates[1].silent_nodes, 0u) << "it is not asked again";
  // Node 6's own packets now count on one side of the drain only (its
  // counters are no longer summed), so that drain times out as after a
  // node failure (NET-7.7 step 4).
  for (unsigned n = 0; n < network.nodes(); ++n) {
    if (n != kHung) {
      EXPECT_EQ(network.router(n).epoch(), 0)
          << "node " << n << " switched twice";
      EXPECT_FALSE(network.router(n).routing().Route(n, 4, 0, kHung).ok())
          << "node " << n << ": no route to the node given up on";
    }
  }
  EXPECT_EQ(network.router(kHung).epoch(), 0) << "it never switched";
  ExpectCleanEnd(network);
}

}  // namespace
}  // namespace lq::net
