// SPDX-License-Identifier: Apache-2.0
// PFC across real links (TRN-8.3, dll.md §11): a ring of three cards
// without boards, each a router with flow control whose network ports are
// TL link controllers and PHYs cabled to the neighbours. Cards 1 and 2 send to
// card 0 faster than its router can take their packets, so card 0's inputs
// cross XOFF and its PFC messages must ride the links' CONTROL flits to pause
// the neighbours; when the queues fall below XON the neighbours resume. Every
// packet must arrive once and intact, and every message must arrive.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/node.h"
#include "testbench/systemc/common/expect_stat.h"

namespace lq::transport {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr unsigned kNodes = 3;
constexpr uint8_t kTc = 3;  // a PFC priority (TRN-8.1)
constexpr unsigned kPackets = 150;
constexpr size_t kPayload = 2000;
// The routers run at a quarter of the links' flit rate: card 0's local
// port takes one slot per 4 ns while two links bring one per 2 ns each.
constexpr double kRouterClockNs = 4.0;

Bytes Payload(unsigned src, unsigned seq) {
  Bytes payload(kPayload);
  for (size_t i = 0; i < payload.size(); ++i) {
    payload[i] = static_cast<uint8_t>(src * 31 + seq * 7 + i);
  }
  payload[0] = static_cast<uint8_t>(src);
  payload[1] = static_cast<uint8_t>(seq);
  return payload;
}

TEST(PfcOverLinksTest, TRN_8_3_PfcMessagesRideTheLinksControlFlits) {
  const auto topology =
      topo::CreateTopology("torus", {{"dims", std::to_string(kNodes)}}).value();
  const std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();

  std::map<std::pair<unsigned, unsigned>, unsigned> delivered;
  std::vector<std::string> problems;
  double last_delivery_ns = 0;
  // Cards without a board: a router with flow control over TL link
  // controllers that start trained (DLL-6.12), a bare interface on top.
  std::vector<std::unique_ptr<cluster::Node>> cards;
  for (unsigned n = 0; n < kNodes; ++n) {
    cluster::NodeNetworkConfig network;
    network.router.node = n;
    network.router.routing = routing;
    network.router.nodes = kNodes;
    network.router.clock_ns = kRouterClockNs;
    network.router.vc_buffer_flits = 64;  // 15,104 B: XOFF plus a link's worth
    network.interface.node = static_cast<uint16_t>(n);
    network.interface.nodes = kNodes;
    network.interface.clock_ns = kRouterClockNs;
    network.interface.in_order = true;
    network.on_delivery = [&delivered, &problems, &last_delivery_ns,
                           n](net::Delivered d) {
      const unsigned src = d.payload[0], seq = d.payload[1];
      if (d.payload != Payload(src, seq) || n != 0) {
        problems.push_back("corrupted or misdelivered packet");
      }
      ++delivered[{src, seq}];
      last_delivery_ns = d.at.to_seconds() * 1e9;
    };
    FlowControlConfig& flow = network.flow_control.emplace();
    flow.pfc_params.xoff_bytes = 4096;
    flow.pfc_params.xon_bytes = 2048;
    flow.line_rate_bps = phy::RawRateMbps(profile, profile.max_lanes) * 1000000;
    flow.message_delay = sc_time(kRouterClockNs, SC_NS);
    cluster::LinkPortConfig port;
    port.phy = phy::PhyPortConfig::ForProfile(profile);
    port.controller.profile = profile;
    port.controller.start_trained = true;  // DLL-6.12
    cards.push_back(std::make_unique<cluster::Node>(
        ("card" + std::to_string(n)).c_str(), std::nullopt,
        std::vector<cluster::LinkPortConfig>(topology->PortCount(n), port),
        network));
  }
  for (unsigned n = 0; n < kNodes; ++n) {
    for (unsigned p = 0; p < topology->PortCount(n); ++p) {
      const auto far = topology->Neighbour(n, p).value();
      if (far.node > n || (far.node == n && far.port > p)) {
        Connect(cards[n]->port(p).cable(),
                cards[far.node]->port(far.port).cable());
      }
    }
  }
  for (unsigned seq = 0; seq < kPackets; ++seq) {
    for (unsigned src = 1; src < kNodes; ++src) {
      cards[src]->interface()->Send(0, kTc, Payload(src, seq));
    }
  }
  sc_core::sc_start(sc_time(200, sc_core::SC_US));

  EXPECT_TRUE(problems.empty()) << problems.front();
  EXPECT_EQ(delivered.size(), 2 * kPackets) << "every packet arrived";
  for (const auto& [key, count] : delivered) {
    EXPECT_EQ(count, 1u) << "packet " << key.first << "/" << key.second;
  }
  const FlowControlCounters& sink = cards[0]->flow_control()->counters();
  EXPECT_GT(sink.xoff_frames, 0u) << "card 0's inputs crossed XOFF";
  EXPECT_GT(sink.xon_frames, 0u) << "and fell below XON again";
  uint64_t sent = 0, received = 0;
  for (unsigned p = 0; p < topology->PortCount(0); ++p) {
    sent += testing::ExpectStat(cards[0]->port(p).controller().Stats(),
                                "control_sent");
    const auto far = topology->Neighbour(0, p).value();
    cluster::Node& neighbour = *cards[far.node];
    const link::LinkController& far_lc = neighbour.port(far.port).controller();
    received += testing::ExpectStat(far_lc.Stats(), "control_received");
    EXPECT_EQ(testing::ExpectStat(far_lc.Stats(), "control_rejected"), 0u);
    EXPECT_EQ(testing::ExpectStat(cards[0]->port(p).controller().Stats(),
                                  "control_dropped"),
              0u);
    EXPECT_GT(neighbour.flow_control()->paused_ps(far.port, kTc), 0u)
        << "card " << far.node << " held its output towards card 0";
    for (unsigned c = 0; c < neighbour.router()->vc_classes(); ++c) {
      EXPECT_FALSE(neighbour.router()->paused(far.port, kTc, c))
          << "and resumed it";
    }
  }
  EXPECT_EQ(sent, sink.pfc_frames) << "every PFC message went as a CONTROL "
                                      "flit";
  EXPECT_EQ(received, sent) << "and every one arrived";
  std::printf(
      "card 0: %llu XOFF, %llu XON, %llu CONTROL flits sent, %llu received; "
      "%zu packets delivered by %.1f us\n",
      static_cast<unsigned long long>(sink.xoff_frames),
      static_cast<unsigned long long>(sink.xon_frames),
      static_cast<unsigned long long>(sent),
      static_cast<unsigned long long>(received), delivered.size(),
      last_delivery_ns / 1000);
  for (unsigned n = 1; n < kNodes; ++n) {
    EXPECT_EQ(cards[n]->flow_control()->counters().bad_frames, 0u);
  }
}

}  // namespace
}  // namespace lq::transport
