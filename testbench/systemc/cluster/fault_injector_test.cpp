// SPDX-License-Identifier: Apache-2.0
// FaultInjector on a ring of cards with TL link ports: faults are checked
// against the cluster before any is scheduled, applied at their times in
// time order to both ends of a cable (PHY-5.6) or to one lane of one end
// (PHY-5.4), a BER change reaches both ends (PHY-5.1), and a node failure
// darkens every cable of the node and stops its router (NET-7.8).
#include "systemc/cluster/fault_injector.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/partition.h"
#include "models/topology/topology_registry.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/parallel/window_sync.h"
#include "testbench/systemc/common/sc_thread.h"
#include "testbench/systemc/common/tl_cards.h"

namespace lq::cluster {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

phy::TimedFault At(double us, const std::string& text) {
  auto command = phy::ParseFaultCommand(text);
  EXPECT_TRUE(command.ok()) << command.error().reason;
  return {us * 1e3, *command};
}

TEST(FaultInjectorTest, PHY_5_6_FaultsReachTheCablesEndsAtTheirTimes) {
  // A ring of three in x; y is a ring of one, whose ports have no cable.
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "3x1"}}).value();
  const ClusterConfig config = testing::TlCards(topology);
  Cluster cluster("cluster", config, topology);
  std::vector<std::string> applied;
  FaultInjector injector(
      "faults", cluster, [&](unsigned, const std::string& fault) {
        const auto ns =
            static_cast<long>(sc_core::sc_time_stamp().to_seconds() * 1e9);
        applied.push_back(std::to_string(ns) + " ns: " + fault);
      });

  // Nothing is scheduled if one fault cannot be taken.
  const auto node =
      injector.Schedule({At(1, "link cut 0 0"), At(2, "link cut 3 0")});
  ASSERT_TRUE(node.has_value());
  EXPECT_EQ(*node, "link cut node 3 port 0: the run has nodes 0..2");
  EXPECT_EQ(*injector.Schedule({At(1, "link cut 0 7")}),
            "link cut node 0 port 7: node 0 has ports 0..3");
  EXPECT_EQ(*injector.Schedule({At(1, "link cut 0 2")}),
            "link cut node 0 port 2: that port has no cable")
      << "a ring has no cables in y";
  EXPECT_EQ(*injector.Schedule({At(1, "lane fail 0 0 16")}),
            "lane fail node 0 port 0 lane 16: the port has lanes 0..15");
  EXPECT_EQ(*injector.Schedule({At(1, "node fail 3")}),
            "node 3 fails: the run has nodes 0..2");
  injector.SetDebuggedNode(1);
  EXPECT_EQ(injector.Schedule({At(1, "node fail 1")})
                ->rfind("node 1 fails: GDB debugs that node", 0),
            0u);

  // Out of time order as given; applied in time order.
  ASSERT_FALSE(injector
                   .Schedule({At(3, "link repair 0 0"), At(1, "link cut 0 0"),
                              At(2, "lane fail 1 0 3"), At(2, "ber 2 0 1e-5"),
                              At(4, "node fail 2")})
                   .has_value());
  phy::PhyPort& near = cluster.node(0).port(0).phy;
  phy::PhyPort& far = cluster.FarEnd(0, 0)->phy;
  phy::PhyPort& lane_end = cluster.node(1).port(0).phy;
  phy::PhyPort& lane_far = cluster.FarEnd(1, 0)->phy;
  testing::ScThread probe("probe", [&] {
    sc_core::wait(sc_time(1.5, SC_US));
    EXPECT_EQ(near.stats().lanes_failed, 16u) << "every lane of both ends";
    EXPECT_EQ(far.stats().lanes_failed, 16u);
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_EQ(lane_end.stats().lanes_failed, 1u) << "one lane, one end";
    EXPECT_EQ(lane_far.stats().lanes_failed, 0u);
    EXPECT_DOUBLE_EQ(cluster.node(2).port(0).phy.config().errors.ber, 1e-5);
    EXPECT_DOUBLE_EQ(cluster.FarEnd(2, 0)->phy.config().errors.ber, 1e-5)
        << "both directions of the cable";
    EXPECT_FALSE(cluster.node(2).router()->failed());
    sc_core::wait(sc_time(2, SC_US));
    EXPECT_TRUE(cluster.node(2).router()->failed());
    for (unsigned port : {0u, 1u}) {  // its two cables, in x
      EXPECT_EQ(cluster.node(2).port(port).phy.stats().lanes_failed, 16u);
      EXPECT_EQ(cluster.FarEnd(2, port)->phy.stats().lanes_failed, 16u)
          << "the neighbour facing node 2's port " << port;
    }
  });
  sc_core::sc_start(sc_time(7, SC_US));

  ASSERT_TRUE(probe.finished());
  EXPECT_EQ(applied,
            (std::vector<std::string>{"1000 ns: link cut node 0 port 0",
                                      "2000 ns: lane fail node 1 port 0 lane 3",
                                      "2000 ns: ber node 2 port 0 to 1e-05",
                                      "3000 ns: link repair node 0 port 0",
                                      "4000 ns: node 2 fails"}));
  EXPECT_FALSE(injector.Apply(*phy::ParseFaultCommand("link cut 0 9")).ok())
      << "an immediate fault is checked as a scheduled one";
  const auto reset = injector.Apply(*phy::ParseFaultCommand("node reset 0"));
  ASSERT_FALSE(reset.ok()) << "cards without boards have none to reset";
  EXPECT_EQ(reset.error().reason,
            "node 0 resets: node 0 has failed (or has no board) and stays "
            "down");
}

TEST(FaultInjectorTest, AFaultAtOnceMustStayOnItsRank) {
  // Nodes 0 and 1 here, node 2 on another rank (decision 0050): node 0's
  // port 1 (-x) is cabled to node 2.
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "3x1"}}).value();
  parallel::WindowSync sync(parallel::RankWorld::Get(), sc_time(1, SC_US));
  ClusterConfig config = testing::TlCards(topology);
  auto partition = std::make_shared<topo::Partition>();
  partition->ranks = 2;
  partition->rank_of = {0, 0, 1};
  config.share = {partition, &sync};
  Cluster cluster("cluster", config, topology);
  FaultInjector injector("faults", cluster, {});

  EXPECT_TRUE(injector.Apply(*phy::ParseFaultCommand("link cut 0 0")).ok())
      << "both ends here";
  EXPECT_TRUE(injector.Apply(*phy::ParseFaultCommand("lane fail 0 1 3")).ok())
      << "one end, here";
  for (const char* elsewhere :
       {"link cut 0 1", "ber 0 1 1e-6", "node fail 0", "link cut 2 0"}) {
    const auto applied = injector.Apply(*phy::ParseFaultCommand(elsewhere));
    ASSERT_FALSE(applied.ok()) << elsewhere;
    EXPECT_NE(applied.error().reason.find("another MPI rank"),
              std::string::npos)
        << applied.error().reason;
  }
  EXPECT_FALSE(injector
                   .Schedule({At(1, "link cut 0 1"), At(2, "node fail 0"),
                              At(3, "link cut 2 0")})
                   .has_value())
      << "a scheduled fault reaches every rank, each acting on its ends";
}

}  // namespace
}  // namespace lq::cluster
