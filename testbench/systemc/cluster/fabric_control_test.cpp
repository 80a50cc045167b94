// SPDX-License-Identifier: Apache-2.0
// FabricControl on a cluster of cards on ideal links: a cut takes both
// router ports down at once and the fabric manager routes around it; a
// restore brings both up and the manager takes the link back (NET-7.1,
// NET-7.11). Cuts and restores of what is not there are refused. On TL
// links each card's port agent enables its own end of a restored cable
// (NET-7.3).
#include "systemc/cluster/fabric_control.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <systemc>
#include <utility>

#include "models/phy/link_profile.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::cluster {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

TEST(FabricControlTest, NET_7_11_IdealCutAndRestoreReachBothEnds) {
  // 4x1x2: ports 2 and 3 of every card have no cable.
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "4x1x2"}}).value();
  ClusterConfig config;
  config.boards = false;
  config.routing = topo::CreateRouting("dor", topology, {}).value();
  config.port.ideal = true;
  Cluster cluster("cluster", config, topology);
  net::FabricManagerConfig manager;
  manager.oob_latency = sc_time(0.1, SC_US);
  manager.holdoff = sc_time(1, SC_US);
  manager.compute_time = sc_time(2, SC_US);
  manager.drain_timeout = sc_time(5, SC_US);
  manager.restore_holdoff = sc_time(1, SC_US);
  FabricControl control("control", cluster, topology, config.routing, manager);
  const topo::PortRef far = topology->Neighbour(0, 0).value();
  net::Router& near_router = *cluster.node(0).router();
  net::Router& far_router = *cluster.node(far.node).router();

  testing::ScThread driver("driver", [&] {
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_THROW(control.CutLink(0, 2), std::invalid_argument) << "no cable";
    EXPECT_THROW(control.RestoreLink(0, 0), std::invalid_argument) << "not cut";
    control.CutLink(0, 0);
    EXPECT_TRUE(near_router.port_down(0));
    EXPECT_TRUE(far_router.port_down(far.port)) << "both ends at once";
    sc_core::wait(sc_time(50, SC_US));
    control.RestoreLink(0, 0);
    EXPECT_FALSE(near_router.port_down(0));
    EXPECT_FALSE(far_router.port_down(far.port));
  });
  sc_core::sc_start(sc_time(200, SC_US));

  ASSERT_TRUE(driver.finished());
  ASSERT_TRUE(control.detected_ns().has_value());
  EXPECT_DOUBLE_EQ(*control.detected_ns(), 1000.0) << "found at the cut";
  const auto& updates = control.manager().updates();
  ASSERT_EQ(updates.size(), 2u) << "the failover, then the restore";
  EXPECT_EQ(updates[0].failure, "");
  EXPECT_EQ(updates[0].failed_links, 1u);
  EXPECT_FALSE(updates[0].restore);
  EXPECT_TRUE(updates[1].restore);
  EXPECT_EQ(updates[1].failed_links, 0u) << "the link is taken back";
}

TEST(FabricControlTest, NET_7_3_EachCardsAgentEnablesItsOwnEndAtOnce) {
  // A ring of 4 cards on TL link controllers and PHYs, trained from the
  // start (DLL-6.12); card 0's port 0 leads to card 1.
  const auto topology = topo::CreateTopology("torus", {{"dims", "4"}}).value();
  ClusterConfig config;
  config.boards = false;
  config.routing =
      topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  config.port.phy = phy::PhyPortConfig::ForProfile(profile);
  config.port.controller.profile = profile;
  config.port.controller.start_trained = true;
  std::map<std::string, unsigned> index;
  for (unsigned n = 0; n < topology->NodeCount(); ++n) {
    index[topology->NodeName(n)] = n;
  }
  FabricControl* control = nullptr;
  // When each end of the cut cable first left Disabled after the restore:
  // its controller was enabled then.
  std::map<std::pair<unsigned, unsigned>, uint64_t> enabled_ps;
  bool restored = false;
  config.on_link_state = [&](const std::string& node, unsigned port,
                             link::LtssmState state, uint64_t at_ps) {
    const unsigned n = index.at(node);
    control->OnLinkState(n, port, state, at_ps);
    if (restored && state == link::LtssmState::kDetectQuiet) {
      enabled_ps.emplace(std::make_pair(n, port), at_ps);
    }
  };
  Cluster cluster("tlm_cluster", config, topology);
  const topo::PortRef far = topology->Neighbour(0, 0).value();
  net::FabricManagerConfig manager;
  manager.restore_holdoff = sc_time(1, SC_US);
  FabricControl fabric("control", cluster, topology, config.routing, manager,
                       {{0, 0}, far});
  control = &fabric;

  testing::ScThread driver("driver", [&] {
    sc_core::wait(sc_time(1, SC_US));
    fabric.CutLink(0, 0);
    sc_core::wait(sc_time(20, SC_US));
    ASSERT_TRUE(cluster.node(0).router()->port_down(0)) << "found down";
    restored = true;
    fabric.RestoreLink(0, 0);
  });
  sc_core::sc_start(sc_time(40, SC_US));

  ASSERT_TRUE(driver.finished());
  ASSERT_EQ(enabled_ps.size(), 2u) << "both ends enabled again";
  EXPECT_EQ(enabled_ps.at({0, 0}), enabled_ps.at({far.node, far.port}))
      << "each card's agent writes its own controller, in parallel";
}

}  // namespace
}  // namespace lq::cluster
