// SPDX-License-Identifier: Apache-2.0
// The router's hooks for the transport layer's PFC and ECN (NET-8.6,
// NET-8.7) on a loaded 4x4 torus: a paused output starts no new packet of
// the paused class while other traffic flows; a packet arriving at an
// input learns the bytes of its class already queued there; ingress byte
// counts rise and fall back to zero; and after the pause lifts every packet
// arrives.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <systemc>
#include <tuple>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/network.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr unsigned kPaused = 0;  // router 0's +X port
constexpr uint8_t kTc = 0;

TEST(RouterHooksTest, NET_8_7_PauseHoldsOneOutputAndNET_8_6_ReportsQueues) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
  std::shared_ptr<const TrafficPattern> uniform =
      CreateTrafficPattern("uniform", 16, {}).value();
  NetworkConfig config;
  config.traffic.packets_per_cycle = 0.2;
  config.traffic.packets = 200;
  config.traffic.payload_bytes = 300;  // two slots each
  config.traffic.tc = kTc;
  cluster::Network network("network", topology, routing, uniform, config);

  Router& router = network.router(0);
  uint64_t largest_queue_seen = 0;
  std::map<std::tuple<unsigned, uint8_t, unsigned>, uint64_t> ingress;
  RouterHooks hooks;
  hooks.on_ingress_arrival = [&](unsigned in_port, uint8_t tc,
                                 uint64_t held_bytes, Bytes& packet) {
    EXPECT_GE(packet.size(), kRouteHeaderBytes + 8) << "inspected bytes in";
    // The count at the input, less this packet's own bytes so far.
    const uint64_t own = router.ingress_bytes(in_port, tc) - held_bytes;
    EXPECT_GE(own, kRouteHeaderBytes);
    EXPECT_LT(own, packet.size()) << "its latest bytes are not yet counted";
    largest_queue_seen = std::max(largest_queue_seen, held_bytes);
  };
  hooks.inspect_bytes = 8;
  hooks.on_ingress_change = [&](unsigned in_port, uint8_t tc, unsigned vc_class,
                                uint64_t bytes) {
    EXPECT_LT(vc_class, router.vc_classes());
    ingress[{in_port, tc, vc_class}] = bytes;
  };
  router.SetHooks(hooks);
  for (unsigned c = 0; c < router.vc_classes(); ++c) {
    router.SetPaused(kPaused, kTc, c, true);
  }

  sc_core::sc_start(sc_time(400, SC_NS));
  EXPECT_EQ(router.flits_out(kPaused), 0u) << "nothing started while paused";
  EXPECT_GT(router.flits_out(1), 0u) << "other outputs keep moving";
  EXPECT_GT(router.egress_bytes(kPaused, kTc), 0u) << "packets wait for it";
  EXPECT_GT(largest_queue_seen, 0u);

  for (unsigned c = 0; c < router.vc_classes(); ++c) {
    router.SetPaused(kPaused, kTc, c, false);
  }
  sc_core::sc_start();
  EXPECT_GT(router.flits_out(kPaused), 0u) << "the held packets went";
  uint64_t sent = 0, delivered = 0;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    sent += network.source(n).sent();
    delivered += network.source(n).latencies_ns().size();
    for (unsigned p = 0; p < network.router(n).port_count(); ++p) {
      EXPECT_EQ(network.router(n).egress_bytes(p, kTc), 0u);
      EXPECT_EQ(network.router(n).ingress_bytes(p, kTc), 0u);
    }
    EXPECT_EQ(network.router(n).packets_held(), 0u);
  }
  EXPECT_EQ(sent, 16u * 200u);
  EXPECT_EQ(delivered, sent) << "a pause delays, never drops (NET-8.7)";
  ASSERT_FALSE(ingress.empty());
  for (const auto& [key, bytes] : ingress) {
    EXPECT_EQ(bytes, 0u) << "port " << std::get<0>(key)
                         << " reported its last bytes";
  }
}

}  // namespace
}  // namespace lq::net
