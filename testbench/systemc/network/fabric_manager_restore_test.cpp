// SPDX-License-Identifier: Apache-2.0
// A flapping link taken back once it stops flapping (NET-7.11): on a loaded
// 4x4 torus the link of node 0's +X port is cut at 3 us, comes back at
// 8 us, is cut again at 9 us and comes back for good at 10 us. The fabric
// manager routes around the first cut (one failover update), ignores the
// second cut of a link it already routes around, and takes the link back
// fm.restore_holdoff after the last up report (one restore update), after
// which traffic crosses the link again. Nothing is lost but what the cuts
// caught, each packet counted once.
#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "testbench/systemc/network/loaded_torus.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr topo::NodeId kNode = 0;
constexpr topo::PortId kPort = 0;  // +X, to node 1

TEST(FabricManagerRestoreTest, NET_7_11_TakesAFlappingLinkBackOnce) {
  const FabricManagerConfig fm = ShortFabricManagerTimers();
  const LoadedTorus torus = MakeLoadedTorus(fm, sc_time(40, SC_US));
  cluster::Network& network = *torus.network;

  sc_core::sc_start(sc_time(3, SC_US));
  network.control()->CutLink(kNode, kPort);
  sc_core::sc_start(sc_time(5, SC_US));  // 8 us
  network.control()->RestoreLink(kNode, kPort);
  EXPECT_FALSE(network.router(kNode).port_down(kPort)) << "NET-7.1: up";
  sc_core::sc_start(sc_time(1, SC_US));  // 9 us
  network.control()->CutLink(kNode, kPort);
  sc_core::sc_start(sc_time(1, SC_US));  // 10 us
  network.control()->RestoreLink(kNode, kPort);
  const sc_time last_up = sc_core::sc_time_stamp() + fm.oob_latency;
  // The first cut's tables route around the link: nothing crosses it until
  // the restore update has switched.
  const uint64_t crossed_before = network.router(kNode).flits_out(kPort);
  sc_core::sc_start();

  ASSERT_NE(network.fabric_manager(), nullptr);
  const std::vector<RouteUpdate>& updates = network.fabric_manager()->updates();
  ASSERT_EQ(updates.size(), 2u)
      << "one update for the first cut, one for the restore; the flap's "
         "second cut and up cause none";
  EXPECT_FALSE(updates[0].restore);
  EXPECT_EQ(updates[0].failed_links, 1u);
  EXPECT_TRUE(updates[1].restore);
  EXPECT_TRUE(updates[1].failure.empty()) << updates[1].failure;
  EXPECT_EQ(updates[1].first_event, last_up)
      << "the restore starts from the last up report";
  EXPECT_GE(updates[1].computed, last_up + fm.restore_holdoff + fm.compute_time)
      << "fm.restore_holdoff after the last up (NET-7.11)";
  EXPECT_EQ(updates[1].failed_links, 0u) << "the link is back in the graph";
  EXPECT_GT(network.router(kNode).flits_out(kPort), crossed_before)
      << "traffic crosses the restored link";

  for (unsigned n = 0; n < network.nodes(); ++n) {
    EXPECT_EQ(network.router(n).epoch(), 0)
        << "two switches bring every epoch back to 0";
  }
  ExpectCleanEnd(network);
}

}  // namespace
}  // namespace lq::net
