// SPDX-License-Identifier: Apache-2.0
// Failover on a loaded 4x4 torus (NET-7): a link is cut (or, built with
// LQ_TEST_NODE_FAILURE, a node is killed) under traffic of 3-slot packets;
// the routers drop what can no longer go (and cut worms short with an
// abort), the fabric manager computes table routes around the failure and
// installs them with NET-7.7's ordering, and traffic resumes. Every packet
// sent is delivered once or counted in exactly one drop counter, nothing
// stays stuck, nothing crosses the failure, and each affected flow's
// failover time (NET-7.9) is measured. Built with LQ_TEST_IN_BAND, the
// manager is node 10's firmware and every message is a MGMT packet over
// the fabric itself (NET-7.4, NET-7.5), which the DATA counts never see.
#include <gtest/gtest.h>

#include <memory>
#include <systemc>
#include <vector>

#include "models/network/failover.h"
#include "models/network/traffic_pattern.h"
#include "models/topology/path.h"
#include "testbench/systemc/network/loaded_torus.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

#if defined(LQ_TEST_IN_BAND) && defined(LQ_TEST_NODE_FAILURE)
#define LQ_FM_SUITE FabricManagerInBandNodeFailureTest
#elif defined(LQ_TEST_IN_BAND)
#define LQ_FM_SUITE FabricManagerInBandTest
#elif defined(LQ_TEST_NODE_FAILURE)
#define LQ_FM_SUITE FabricManagerNodeFailureTest
#else
#define LQ_FM_SUITE FabricManagerTest
#endif
#ifdef LQ_TEST_IN_BAND
constexpr bool kInBand = true;
#else
constexpr bool kInBand = false;
#endif
constexpr topo::NodeId kManager = 10;  // in band: (2,2)
#ifdef LQ_TEST_NODE_FAILURE
constexpr bool kNodeFailure = true;
constexpr topo::NodeId kFailed = 5;  // (1,1); its ports lead to 6, 4, 9, 1
#else
constexpr bool kNodeFailure = false;
constexpr topo::NodeId kFailed = 0;  // its +X link, to node 1, is cut
#endif
constexpr topo::PortId kCutPort = 0;
const sc_time kCutAt(3, SC_US);

TEST(LQ_FM_SUITE,
     NET_7_3_NET_7_7_RoutesAroundTheFailure_NET_7_8_LosingNothing) {
  FabricManagerConfig fm = ShortFabricManagerTimers();
  if (kInBand) {
    fm.node = kManager;
    fm.timers.msg_timeout = sc_time(2, SC_US);
  }
  const LoadedTorus torus = MakeLoadedTorus(fm, sc_time(30, SC_US));
  const auto& [topology, dor, made] = torus;
  cluster::Network& network = *made;

  // The ports that lead into the failure, and what they had sent.
  std::vector<topo::PortRef> into;
  if (kNodeFailure) {
    for (topo::PortId p = 0; p < topology->PortCount(kFailed); ++p) {
      into.push_back(topology->Neighbour(kFailed, p).value());
    }
  } else {
    into = {{kFailed, kCutPort},
            topology->Neighbour(kFailed, kCutPort).value()};
  }
  sc_core::sc_start(kCutAt);
  if (kNodeFailure) {
    network.control()->FailNode(kFailed);
  } else {
    network.control()->CutLink(kFailed, kCutPort);
  }
  std::vector<uint64_t> sent_into;
  for (const topo::PortRef& end : into) {
    sent_into.push_back(network.router(end.node).flits_out(end.port));
  }
  sc_core::sc_start();

  ASSERT_NE(network.fabric_manager(), nullptr);
  const std::vector<RouteUpdate>& updates = network.fabric_manager()->updates();
  ASSERT_EQ(updates.size(), 1u) << "both ends' reports make one burst";
  const RouteUpdate& update = updates[0];
  EXPECT_TRUE(update.failure.empty()) << update.failure;
  if (kInBand) {
    EXPECT_GT(update.first_event, kCutAt);
    EXPECT_LT(update.first_event, kCutAt + sc_time(200, SC_NS))
        << "the first LINK_EVENT climbs the management tree at once";
  } else {
    EXPECT_EQ(update.first_event, kCutAt + fm.oob_latency)
        << "the first LINK_EVENT arrives one oob latency after the cut";
  }
  EXPECT_EQ(update.silent_nodes, 0u) << "every node answered";
  EXPECT_EQ(update.failed_links, kNodeFailure ? 4u : 1u);
  EXPECT_EQ(update.failed_nodes, kNodeFailure ? 1u : 0u)
      << "a node whose every link is down has failed (NET-7.3)";
  EXPECT_EQ(update.changed_nodes, kNodeFailure ? 15u : 16u)
      << "dor to tables changes every working node";
  if (kNodeFailure) {
    // Packets lost inside the dead node never show in the working nodes'
    // counts, so the drain runs to its timeout (NET-7.7 step 4).
    EXPECT_GE(update.switched - update.frozen, fm.drain_timeout);
  } else {
    EXPECT_TRUE(update.drained) << "the drain balanced before its timeout";
  }
  EXPECT_LT(update.frozen, update.switched);
  EXPECT_LT(update.switched, update.resumed);
  for (size_t i = 0; i < into.size(); ++i) {
    EXPECT_EQ(network.router(into[i].node).flits_out(into[i].port),
              sent_into[i])
        << "nothing is sent on a down port (NET-7.1)";
  }

  std::vector<FlowDelivery> deliveries;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    const TrafficSource& source = network.source(n);
    const RouterCounters& counters = network.router(n).counters();
    EXPECT_EQ(counters.drops_stale_epoch, 0u) << "drained before the switch";
    EXPECT_EQ(network.router(n).packets_held(), 0u) << "no worm left stuck";
    EXPECT_EQ(network.router(n).epoch(), n == kFailed && kNodeFailure ? 0 : 1)
        << "every working node switched";
    for (size_t i = 0; i < source.latencies_ns().size(); ++i) {
      deliveries.push_back({source.sources()[i], n, 0, source.sent_ns()[i],
                            source.sent_ns()[i] + source.latencies_ns()[i],
                            source.epochs()[i]});
    }
  }
  if (kInBand) {
    uint64_t mgmt = 0;
    for (unsigned n = 0; n < network.nodes(); ++n) {
      const ManagementAgent& agent = *network.control()->agent(n);
      if (n != kFailed || !kNodeFailure) {
        EXPECT_GE(agent.applied(), 6u)
            << "node " << n
            << ": ROUTE_MODE, PORT_UP, table, freeze, switch, resume";
      }
      EXPECT_EQ(agent.malformed(), 0u);
      const RouterCounters& c = network.router(n).counters();
      mgmt += c.mgmt_ejected;
      if (kNodeFailure && n == kFailed) {
        continue;
      }
      // The new management tree avoids the failure: each working node's
      // parent ports lead to the manager.
      topo::NodeId at = n;
      for (int hops = 0; hops < 16 && at != kManager; ++hops) {
        const auto up = network.router(at).mgmt_parent_port();
        ASSERT_NE(up, kNoParentPort) << "node " << at;
        EXPECT_FALSE(network.router(at).port_down(up)) << "node " << at;
        at = topology->Neighbour(at, up)->node;
      }
      EXPECT_EQ(at, kManager) << "node " << n << "'s parents lead there";
    }
    // Every message but those between the manager and its own node (one
    // in 16) was ejected once, at its node or at the manager's.
    EXPECT_GE(mgmt * 16, update.messages * 15)
        << "the messages crossed the fabric";
  }
  const PacketTally tally = TallyPackets(network);
  EXPECT_GT(tally.by_failure, 0u)
      << "the failure caught packets under this load";
  EXPECT_EQ(tally.dropped, tally.by_failure) << "every drop is the failure's";
  if (kNodeFailure) {
    EXPECT_GT(network.router(kFailed).counters().drops_node_down, 0u);
  }
  EXPECT_EQ(tally.sent, tally.delivered + tally.dropped)
      << "every packet delivered once or counted as dropped (NET-7.8)";
  ASSERT_FALSE(network.watchdog()->deadlocked())
      << network.watchdog()->report();

  const FailoverReport failover = MeasureFailover(
      deliveries, kCutAt.to_seconds() * 1e9, 1, [&](uint32_t s, uint32_t d) {
        if (kNodeFailure && (s == kFailed || d == kFailed)) {
          return false;  // cannot recover
        }
        const topo::Path path = topo::TracePath(*dor, s, d).value();
        for (const topo::Hop& hop : path) {
          const bool crosses =
              kNodeFailure
                  ? hop.node == kFailed
                  : (hop.node == kFailed && hop.port == kCutPort) ||
                        (hop.node == into[1].node && hop.port == into[1].port);
          if (crosses) {
            return true;
          }
        }
        return false;
      });
  EXPECT_GT(failover.flows.size(), 0u);
  EXPECT_LT(failover.unmeasured, failover.flows.size());
  const double repaired_ns = (update.resumed - kCutAt).to_seconds() * 1e9;
  EXPECT_GT(failover.max_ns, repaired_ns - 1000)
      << "no affected flow recovers before the switch";
  EXPECT_LT(failover.max_ns, repaired_ns + 2000)
      << "and every one soon after injection resumes";
}

}  // namespace
}  // namespace lq::net
