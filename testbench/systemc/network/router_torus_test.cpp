// SPDX-License-Identifier: Apache-2.0
// Routers and network interfaces of a 4x4 torus joined port to port (no
// link model between them): a lone packet's latency is the pipeline's
// (NET-8.4), and uniform random traffic of multi-slot packets arrives
// whole, once, intact, over minimal dimension-order paths (NET-4.2, NET-8.3).
// Built three times: with the round-robin switch allocator; with
// LQ_TEST_ISLIP defined, with iSLIP (NET-8.5); and with LQ_TEST_ADAPTIVE
// defined, with minimal adaptive routing on 3 VC classes (NET-4.3), whose
// paths are as minimal as dor's. All must pass unchanged.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <set>
#include <systemc>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "testbench/systemc/network/router_node.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

#if defined(LQ_TEST_ISLIP)
#define LQ_ROUTER_SUITE RouterTorusIslipTest
constexpr SwitchAllocator kAllocator = SwitchAllocator::kIslip;
#else
constexpr SwitchAllocator kAllocator = SwitchAllocator::kRoundRobin;
#endif
#if defined(LQ_TEST_ADAPTIVE)
#define LQ_ROUTER_SUITE RouterTorusAdaptiveTest
constexpr const char* kRouting = "adaptive";
constexpr unsigned kVcClasses = 3;
constexpr unsigned kVcSets = 1;
#else
constexpr const char* kRouting = "dor";
constexpr unsigned kVcClasses = 2;
constexpr unsigned kVcSets = 2;
#endif
#ifndef LQ_ROUTER_SUITE
#define LQ_ROUTER_SUITE RouterTorusTest
#endif

constexpr unsigned kSide = 4;
constexpr unsigned kNodes = kSide * kSide;
constexpr size_t kSlotBytes = 64;

// The payload a packet carries: its source and sequence number, then a
// pattern derived from them, so that any corruption shows.
Bytes Payload(uint16_t src, uint32_t seq, size_t size) {
  Bytes payload(size);
  for (size_t i = 0; i < size; ++i) {
    payload[i] = static_cast<uint8_t>(i < 2   ? (src >> (8 * i))
                                      : i < 6 ? (seq >> (8 * (i - 2)))
                                              : (src * 31 + seq * 7 + i));
  }
  return payload;
}

unsigned RingDistance(unsigned a, unsigned b) {
  const unsigned d = a > b ? a - b : b - a;
  return std::min(d, kSide - d);
}

TEST(LQ_ROUTER_SUITE, NET_8_4_PipelineLatencyAndNET_8_3_LosslessTraffic) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting(kRouting, topology, {}).value();

  std::vector<Delivered> delivered;
  std::vector<RouterNode> nodes;
  for (unsigned n = 0; n < kNodes; ++n) {
    RouterConfig config = SmallRouterConfig(*topology, n, routing, kSlotBytes);
    config.vc_classes = kVcClasses;
    config.vc_sets = kVcSets;
    config.allocator = kAllocator;
    config.islip_iterations = 2;
    nodes.push_back(MakeRouterNode(config, delivered));
  }
  CableRouters(*topology, nodes);

  // A lone single-slot packet from node 0 to node 10 ((0,0) to (2,2)):
  // 1 cycle out of the interface, then 4 per router on 5 routers.
  nodes[0].ni->Send(10, 0, Payload(0, 0, 20));
  sc_core::sc_start(sc_time(1, sc_core::SC_US));
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(delivered[0].at, sc_time(1 + 4 * 5, SC_NS))
      << "RC, VA, SA, ST of one cycle each at every router (NET-8.4)";
  EXPECT_EQ(delivered[0].header.hops, 4);

  // Uniform random traffic: multi-slot packets, all sources at once.
  const sc_time start = sc_core::sc_time_stamp();
  delivered.clear();
  std::mt19937 random(11);
  std::map<std::pair<uint16_t, uint32_t>, Bytes> expected;
  constexpr uint32_t kPerNode = 150;
  for (uint32_t seq = 0; seq < kPerNode; ++seq) {
    for (uint16_t src = 0; src < kNodes; ++src) {
      uint16_t dst = static_cast<uint16_t>(random() % (kNodes - 1));
      dst = dst >= src ? dst + 1 : dst;
      const size_t size = 6 + random() % 300;
      const uint8_t tc = static_cast<uint8_t>(random() % 8);
      Bytes payload = Payload(src, seq, size);
      expected[{src, seq}] = payload;
      nodes[src].ni->Send(dst, tc, std::move(payload));
    }
  }
  sc_core::sc_start();
  ASSERT_EQ(delivered.size(), expected.size()) << "every packet arrived";
  std::set<std::pair<uint16_t, uint32_t>> seen;
  uint64_t hops = 0;
  for (const Delivered& d : delivered) {
    const uint16_t src =
        static_cast<uint16_t>(d.payload[0] | d.payload[1] << 8);
    const uint32_t seq = d.payload[2] | d.payload[3] << 8 | d.payload[4] << 16 |
                         d.payload[5] << 24;
    ASSERT_EQ(src, d.header.src);
    EXPECT_TRUE(seen.insert({src, seq}).second) << "delivered twice";
    EXPECT_EQ(d.payload, expected.at({src, seq})) << "payload intact";
    const unsigned dst = d.header.dst;
    const unsigned minimal = RingDistance(src % kSide, dst % kSide) +
                             RingDistance(src / kSide, dst / kSide);
    EXPECT_EQ(d.header.hops, minimal) << kRouting << " routes are minimal";
    hops += d.header.hops;
  }
  uint64_t ejected = 0, injected = 0, counted_hops = 0;
  for (const RouterNode& node : nodes) {
    const RouterCounters& counters = node.router->counters();
    injected += counters.injected;
    ejected += counters.ejected;
    counted_hops += counters.hops;
    EXPECT_EQ(counters.stream_errors, 0u);
    EXPECT_EQ(counters.drops_header, 0u);
  }
  EXPECT_EQ(injected, expected.size() + 1);
  EXPECT_EQ(ejected, expected.size() + 1);
  EXPECT_EQ(counted_hops, hops + 4) << "the routers' hops counters agree";
  EXPECT_GT(sc_core::sc_time_stamp(), start);
}

}  // namespace
}  // namespace lq::net
