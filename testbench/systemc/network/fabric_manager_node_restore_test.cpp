// SPDX-License-Identifier: Apache-2.0
// A failed node taken back (NET-7.12): on a loaded 4x4 torus node 5 fails
// at 3 us and the fabric manager routes around it, which leaves every
// working router in epoch 1. The node comes back at 20 us reset, in epoch
// 0 and frozen; the manager takes it back fm.restore_holdoff after its
// links' up reports, bringing its epoch level with the others' first, and
// from then on it sends and receives like any node. Nothing is lost but
// what the failure caught, each packet counted once. Built with
// LQ_TEST_IN_BAND the manager is node 10's firmware (NET-7.4): the drain
// then sums the nodes' COUNT_REPs, the restored node's own included.
#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "testbench/systemc/network/loaded_torus.h"

namespace lq::net {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr topo::NodeId kNode = 5;
#ifdef LQ_TEST_IN_BAND
#define LQ_RESTORE_SUITE FabricManagerInBandNodeRestoreTest
constexpr bool kInBand = true;
#else
#define LQ_RESTORE_SUITE FabricManagerNodeRestoreTest
constexpr bool kInBand = false;
#endif

uint64_t StaleDrops(cluster::Network& network) {
  uint64_t drops = 0;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    drops += network.router(n).counters().drops_stale_epoch;
  }
  return drops;
}

// Packets from `src` delivered anywhere that were sent at or after `from`.
uint64_t DeliveredFrom(cluster::Network& network, topo::NodeId src,
                       double from_ns) {
  uint64_t count = 0;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    const TrafficSource& source = network.source(n);
    for (size_t i = 0; i < source.sources().size(); ++i) {
      count += source.sources()[i] == src && source.sent_ns()[i] >= from_ns;
    }
  }
  return count;
}

TEST(LQ_RESTORE_SUITE, NET_7_12_RestoredNodeRejoinsInStep) {
  FabricManagerConfig fm = ShortFabricManagerTimers();
  if (kInBand) {
    fm.node = 10;
    fm.timers.msg_timeout = sc_time(2, SC_US);
  }
  const LoadedTorus torus = MakeLoadedTorus(fm, sc_time(60, SC_US));
  cluster::Network& network = *torus.network;

  sc_core::sc_start(sc_time(3, SC_US));
  network.control()->FailNode(kNode);
  sc_core::sc_start(sc_time(17, SC_US));  // 20 us
  ASSERT_EQ(network.fabric_manager()->updates().size(), 1u)
      << "the failover update is over before the node comes back";
  ASSERT_EQ(network.router(0).epoch(), 1) << "the working nodes switched";
  EXPECT_THROW(network.control()->RestoreNode(0), std::invalid_argument)
      << "only a failed node can come back";
  network.control()->RestoreNode(kNode);
  const double back_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  EXPECT_EQ(network.router(kNode).epoch(), 0) << "it restarts in epoch 0";
  EXPECT_FALSE(network.router(kNode).port_down(0)) << "its links are up";
  const uint64_t received_before = network.source(kNode).latencies_ns().size();
  const uint64_t stale_before = StaleDrops(network);
  sc_core::sc_start();

  const std::vector<RouteUpdate>& updates = network.fabric_manager()->updates();
  ASSERT_EQ(updates.size(), 2u) << "the failover, then the restore";
  EXPECT_EQ(updates[0].failed_nodes, 1u);
  const RouteUpdate& restore = updates[1];
  EXPECT_TRUE(restore.restore);
  EXPECT_TRUE(restore.failure.empty()) << restore.failure;
  EXPECT_EQ(restore.restored_nodes, 1u);
  EXPECT_EQ(restore.failed_nodes, 0u);
  EXPECT_EQ(restore.failed_links, 0u) << "its links are back in the graph";
  EXPECT_TRUE(restore.drained)
      << "what the node lost when it failed counts on both sides";
  EXPECT_EQ(restore.silent_nodes, 0u);
  const sc_time report = kInBand ? sc_core::SC_ZERO_TIME : fm.oob_latency;
  EXPECT_GE(restore.computed, sc_time(back_ns, sc_core::SC_NS) + report +
                                  fm.restore_holdoff + fm.compute_time)
      << "fm.restore_holdoff after the last up report (NET-7.11)";

  for (unsigned n = 0; n < network.nodes(); ++n) {
    EXPECT_EQ(network.router(n).epoch(), 0)
        << "node " << n << ": every epoch level after the restore";
  }
  EXPECT_EQ(StaleDrops(network), stale_before)
      << "nothing the restored node sent or was sent was from another epoch";
  EXPECT_GT(network.source(kNode).latencies_ns().size(), received_before)
      << "packets reach the restored node";
  EXPECT_GT(DeliveredFrom(network, kNode, back_ns), 0u)
      << "packets from the restored node arrive";
  ExpectCleanEnd(network);
}

}  // namespace
}  // namespace lq::net
