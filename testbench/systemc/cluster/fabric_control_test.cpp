// FabricControl on a cluster of cards on ideal links: a cut takes both
// router ports down at once and the fabric manager routes around it; a
// restore brings both up and the manager takes the link back (NET-7.1,
// NET-7.11). Cuts and restores of what is not there are refused.
#include "systemc/cluster/fabric_control.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <systemc>

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

}  // namespace
}  // namespace lq::cluster
