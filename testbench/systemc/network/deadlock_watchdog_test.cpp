// SPDX-License-Identifier: Apache-2.0
// Deadlock freedom seen in simulation (NET-3.3, NET-4.7): two 8-node rings
// saturated with multi-slot packets through 2-slot VC buffers run side by
// side. With the dateline, traffic keeps moving for 20 000 cycles; with the
// dateline off (every hop on VC class 0) the ring deadlocks, and the
// watchdog declares it and names the cycle of waiting VCs around the ring.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <systemc>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/cluster/network.h"

namespace lq::net {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr unsigned kNodes = 8;
constexpr double kRunCycles = 20000;

std::unique_ptr<cluster::Network> SaturatedRing(const char* name,
                                                const char* dateline) {
  auto ring = topo::CreateTopology("torus", {{"dims", "8"}}).value();
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", ring, {{"dateline", dateline}}).value();
  std::shared_ptr<const TrafficPattern> uniform =
      CreateTrafficPattern("uniform", kNodes, {}).value();
  NetworkConfig config;
  config.router.slot_bytes = 64;
  config.router.vc_buffer_flits = 2;
  config.interface.slot_bytes = 64;
  config.traffic.packets_per_cycle = 0.5;  // far beyond saturation
  config.traffic.payload_bytes = 200;      // 4 slots with the header
  config.watchdog_window = sc_time(1000, SC_NS);
  config.stop_on_deadlock = false;  // the other ring keeps running
  return std::make_unique<cluster::Network>(name, ring, routing, uniform,
                                            config);
}

uint64_t Delivered(cluster::Network& network) {
  uint64_t delivered = 0;
  for (unsigned n = 0; n < network.nodes(); ++n) {
    delivered += network.source(n).latencies_ns().size();
  }
  return delivered;
}

TEST(DeadlockWatchdogTest,
     NET_3_3_DatelineRingRunsAndNET_4_7_BrokenOneIsCaught) {
  auto safe = SaturatedRing("safe", "on");
  auto broken = SaturatedRing("broken", "off");
  sc_core::sc_start(sc_time(kRunCycles / 2, SC_NS));
  const uint64_t safe_halfway = Delivered(*safe);
  sc_core::sc_start(sc_time(kRunCycles / 2, SC_NS));

  ASSERT_NE(safe->watchdog(), nullptr);
  EXPECT_FALSE(safe->watchdog()->deadlocked()) << safe->watchdog()->report();
  EXPECT_GT(Delivered(*safe), safe_halfway) << "still delivering at the end";

  ASSERT_TRUE(broken->watchdog()->deadlocked())
      << "class 0 on every hop closes each ring's dependency cycle";
  EXPECT_LT(broken->watchdog()->detected_at(), sc_time(kRunCycles, SC_NS));
  const std::string& report = broken->watchdog()->report();
  std::printf("broken ring: %s\n", report.c_str());
  EXPECT_NE(report.find("waiting cycle: node"), std::string::npos) << report;
  EXPECT_NE(report.find(".vc0 -> node"), std::string::npos) << report;
}

}  // namespace
}  // namespace lq::net
