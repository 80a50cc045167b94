// SPDX-License-Identifier: Apache-2.0
// A link cut in the middle of transfers (issue 7's reliability
// requirement): on a 4x4 torus of transport engines, node 0 WRITEs to and
// READs from node 2 across the X link 1-2 while node 5 does the same with
// node 7 on a path the cut does not touch. The link fails mid-transfer; the
// routers drop what was routed to it (NET-7.1), the fabric manager
// reroutes around it (NET-7.7), and go-back-N after the local ACK timeout
// (TRN-7.3, TRN-7.4) resends what was lost. Every work request must
// complete exactly once and successfully, and memory must hold what was
// sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <systemc>
#include <vector>

#include "models/topology/topology_registry.h"
#include "systemc/cluster/engine_torus.h"
#include "systemc/network/fabric_manager.h"
#include "systemc/network/out_of_band_channel.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::transport {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kWrs = 24;
constexpr uint32_t kLength = 60'000;
constexpr size_t kMemory = 4 << 20;

// WR i of a side: a WRITE of its region i, or (every third) a READ of the
// peer's, under the peer's `rkey`.
SendWr Work(uint64_t i, uint32_t rkey = 0) {
  SendWr wr;
  wr.rkey = rkey;
  wr.wr_id = i;
  wr.kind = i % 3 == 2 ? SendKind::kRead : SendKind::kWrite;
  wr.length = kLength;
  wr.remote_address = 0x200000 + 0x10000 * i;
  return wr;
}

uint64_t LocalAddress(uint64_t i) { return 0x10000 * i; }

// The port of `node` whose cable leads to `neighbour`.
topo::PortId PortTowards(const topo::Topology& topology, topo::NodeId node,
                         topo::NodeId neighbour) {
  for (topo::PortId p = 0; p < topology.PortCount(node); ++p) {
    if (topology.Neighbour(node, p)->node == neighbour) {
      return p;
    }
  }
  ADD_FAILURE() << "no cable " << node << "-" << neighbour;
  return 0;
}

TEST(TransportLinkCut, TRN_7_3_and_NET_7_7_TransfersSurviveALinkCut) {
  std::vector<EngineNode> nodes =
      BuildTorus("4x4", net::DeliveryFaults{}, kMemory);
  for (unsigned n = 0; n < nodes.size(); ++n) {
    nodes[n].memory->bytes =
        Pattern(nodes[n].memory->bytes.size(), static_cast<uint8_t>(n + 1));
  }
  std::vector<Bytes> before;
  for (const EngineNode& node : nodes) {
    before.push_back(node.memory->bytes);
  }
  std::shared_ptr<const topo::Topology> topology =
      topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::vector<net::Router*> routers;
  std::vector<net::NetworkInterface*> interfaces;
  for (EngineNode& node : nodes) {
    routers.push_back(node.router);
    interfaces.push_back(&node.engine->interface());
  }
  net::FabricManagerConfig fm;
  fm.holdoff = sc_time(5, SC_US);
  fm.compute_time = sc_time(10, SC_US);
  net::FabricManager manager("fabric_manager", topology, nullptr,
                             std::make_unique<net::OutOfBandChannel>(
                                 routers, interfaces, fm.oob_latency),
                             fm);

  const std::pair<unsigned, unsigned> pairs[] = {{0, 2}, {5, 7}};
  std::map<unsigned, std::vector<EngineCompletion>> completions;
  testing::ScThread workload("workload", [&] {
    std::map<unsigned, uint32_t> qp;
    for (const auto& [a, b] : pairs) {
      const auto connected = ConnectQps(nodes, a, b);
      ASSERT_TRUE(connected);
      qp[a] = connected->a;
      qp[b] = connected->b;
    }
    for (const auto& [a, b] : pairs) {
      for (uint64_t i = 0; i < kWrs; ++i) {
        ASSERT_TRUE(
            nodes[a]
                .engine
                ->PostSend(qp[a], Work(i, nodes[b].rkey), LocalAddress(i))
                .ok());
      }
    }
    sc_core::wait(sc_time(2, SC_US));  // transfers under way
    const topo::PortId out = PortTowards(*topology, 1, 2);
    const topo::PortId in = PortTowards(*topology, 2, 1);
    nodes[1].router->SetPortDown(out, sc_time(10, SC_NS));
    nodes[2].router->SetPortDown(in, sc_time(10, SC_NS));
    manager.ReportLinkDown(1, out);
    manager.ReportLinkDown(2, in);
    for (int t = 0; t < 200; ++t) {
      sc_core::wait(sc_time(50, SC_US));
      for (const auto& [a, b] : pairs) {
        for (const EngineCompletion& c : nodes[a].engine->PollCompletions()) {
          completions[a].push_back(c);
        }
      }
      if (completions[0].size() == kWrs && completions[5].size() == kWrs) {
        break;
      }
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  uint64_t cut_drops = 0;
  for (const EngineNode& node : nodes) {
    cut_drops += node.router->counters().drops_link_down;
  }
  EXPECT_GT(cut_drops, 0u) << "the cut caught packets in flight";
  ASSERT_EQ(manager.updates().size(), 1u);
  EXPECT_TRUE(manager.updates()[0].failure.empty())
      << manager.updates()[0].failure;
  EXPECT_GT(nodes[0].engine->counters().retransmits, 0u)
      << "what the cut dropped was sent again";
  for (const auto& [a, b] : pairs) {
    SCOPED_TRACE("node " + std::to_string(a));
    ASSERT_EQ(completions[a].size(), kWrs) << "every WR completes";
    std::map<uint64_t, int> seen;
    for (const EngineCompletion& c : completions[a]) {
      EXPECT_EQ(c.completion.status, CompletionStatus::kSuccess)
          << "WR " << c.completion.wr_id << ": "
          << CompletionStatusName(c.completion.status);
      EXPECT_EQ(++seen[c.completion.wr_id], 1) << "completed twice";
    }
    const EngineCounters& counters = nodes[a].engine->counters();
    EXPECT_EQ(counters.work_posted, kWrs);
    EXPECT_EQ(counters.work_completed, kWrs);
    for (uint64_t i = 0; i < kWrs; ++i) {
      const SendWr wr = Work(i);
      const Bytes& from = wr.kind == SendKind::kWrite ? before[a] : before[b];
      const Bytes& to = wr.kind == SendKind::kWrite ? nodes[b].memory->bytes
                                                    : nodes[a].memory->bytes;
      const uint64_t src =
          wr.kind == SendKind::kWrite ? LocalAddress(i) : wr.remote_address;
      const uint64_t dst =
          wr.kind == SendKind::kWrite ? wr.remote_address : LocalAddress(i);
      EXPECT_TRUE(std::equal(from.begin() + src, from.begin() + src + kLength,
                             to.begin() + dst))
          << "WR " << i << "'s bytes";
    }
  }
}

}  // namespace
}  // namespace lq::transport
