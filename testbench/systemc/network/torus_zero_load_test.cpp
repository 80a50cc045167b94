// Uniform random traffic at a low load on a 4x4x4 torus of routers joined
// by ideal channels: the mean hop count is the torus's (NET-6.4: n k / 4
// with self pairs, here without them), and the mean latency is the sum of
// the documented per-hop latencies (NET-8.4 pipeline, channel latency)
// within 2 %, as the validation plan of issue 6 asks.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "models/topology/analytics.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/router.h"
#include "systemc/network/slot_channel.h"
#include "systemc/network/traffic_source.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr unsigned kLinkCycles = 2;
constexpr unsigned kPipelineCycles = 4;   // RC + VA + SA + ST, one each
constexpr unsigned kInterfaceCycles = 1;  // the interface's output register
constexpr uint64_t kPacketsPerNode = 100;

TEST(TorusZeroLoadTest, NET_6_4_HopsAndNET_8_4_LatencyMatchTheory) {
  auto topology = topo::CreateTopology("torus", {{"dims", "4x4x4"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", topology, {{"dateline", "on"}}).value();
  const uint32_t nodes = topology->EndpointCount();
  std::shared_ptr<const TrafficPattern> uniform =
      CreateTrafficPattern("uniform", nodes, {}).value();

  std::vector<std::unique_ptr<Router>> routers;
  std::vector<std::unique_ptr<TrafficSource>> sources;
  std::vector<std::unique_ptr<SlotChannel>> channels;
  for (uint32_t n = 0; n < nodes; ++n) {
    RouterConfig router;
    router.node = n;
    router.network_ports = topology->PortCount(n);
    router.routing = routing;
    router.nodes = nodes;
    routers.push_back(std::make_unique<Router>(
        ("router" + std::to_string(n)).c_str(), router));
    NetworkInterfaceConfig ni;
    ni.node = static_cast<uint16_t>(n);
    ni.nodes = nodes;
    TrafficConfig traffic;
    traffic.packets_per_cycle = 0.002;  // far below saturation
    traffic.payload_bytes = 64;         // one 236-byte slot with its header
    traffic.packets = kPacketsPerNode;
    traffic.seed = 100 + n;
    sources.push_back(std::make_unique<TrafficSource>(
        ("source" + std::to_string(n)).c_str(), ni, traffic, uniform));
    Connect(routers.back()->port(routers.back()->local_port()),
            sources.back()->socket());
  }
  for (uint32_t n = 0; n < nodes; ++n) {
    for (unsigned p = 0; p < topology->PortCount(n); ++p) {
      const auto far = topology->Neighbour(n, p).value();
      if (far.node > n || (far.node == n && far.port > p)) {
        channels.push_back(std::make_unique<SlotChannel>(
            ("link" + std::to_string(channels.size())).c_str(),
            sc_time(kLinkCycles, SC_NS)));
        Connect(routers[n]->port(p), channels.back()->a);
        Connect(routers[far.node]->port(far.port), channels.back()->b);
      }
    }
  }
  sc_core::sc_start();

  double latency_sum = 0, theory_sum = 0, hop_sum = 0;
  uint64_t received = 0;
  for (const auto& source : sources) {
    EXPECT_EQ(source->sent(), kPacketsPerNode);
    for (size_t i = 0; i < source->latencies_ns().size(); ++i) {
      const unsigned hops = source->hops()[i];
      latency_sum += source->latencies_ns()[i];
      theory_sum +=
          kInterfaceCycles + kPipelineCycles * (hops + 1) + kLinkCycles * hops;
      hop_sum += hops;
      ++received;
    }
  }
  ASSERT_EQ(received, nodes * kPacketsPerNode) << "nothing lost";
  const double mean_hops = hop_sum / received;
  const double theory_hops =
      topo::ShortestHopStats(*topology).value().mean_excluding_self;
  EXPECT_NEAR(theory_hops, 3.0 * nodes / (nodes - 1), 1e-9)
      << "n k / 4 = 3 with self pairs, 3 x 64/63 without";
  EXPECT_NEAR(mean_hops, theory_hops, 0.02 * theory_hops)
      << "uniform destinations sample the torus's mean distance";
  const double mean_latency = latency_sum / received;
  const double mean_theory = theory_sum / received;
  EXPECT_NEAR(mean_latency, mean_theory, 0.02 * mean_theory)
      << "zero-load latency = interface + per-router pipeline + links";
  EXPECT_GE(mean_latency, mean_theory) << "contention can only add";
  RecordProperty("mean_latency_ns", std::to_string(mean_latency));
  RecordProperty("theory_latency_ns", std::to_string(mean_theory));
}

}  // namespace
}  // namespace lq::net
