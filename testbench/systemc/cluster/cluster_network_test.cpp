// SPDX-License-Identifier: Apache-2.0
// The whole network stack of a 4x4 torus of boards: every board boots the
// link bring-up firmware, which trains its four links (TL link controllers
// and PHYs on pcie6) and then switches in its router's routes through the
// router's registers (NET-5.6). Only then do packets sent from every node's
// network interface cross routers and real links: all must arrive once,
// intact, over minimal dimension-order paths, with nothing dropped. Before
// the switch the routers' tables are empty and drop what they are given
// (NET-5.5). Also NET-1.5: a ring of one's ports stay disabled; and NET-1.1.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "testbench/systemc/common/firmware_image.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::cluster {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kSide = 4;
constexpr unsigned kNodes = kSide * kSide;
constexpr unsigned kPerNode = 12;

unsigned RingDistance(unsigned a, unsigned b) {
  const unsigned d = a > b ? a - b : b - a;
  return std::min(d, kSide - d);
}

Bytes Payload(unsigned src, unsigned seq) {
  Bytes payload(40 + (src * 37 + seq * 11) % 400);
  for (size_t i = 0; i < payload.size(); ++i) {
    payload[i] = static_cast<uint8_t>(src * 7 + seq * 13 + i);
  }
  payload[0] = static_cast<uint8_t>(src);
  payload[1] = static_cast<uint8_t>(seq);
  return payload;
}

// The console lines, one per line, for a failure message.
std::string Transcript(const std::vector<std::string>& console) {
  std::string transcript;
  for (const auto& line : console) {
    transcript += line + "\n";
  }
  return transcript;
}

// In a test thread: waits up to 5 ms for every card's firmware to switch
// in its routes (router epoch 1).
bool WaitRouted(Cluster& cluster) {
  auto routed = [&cluster] {
    for (unsigned n = 0; n < cluster.node_count(); ++n) {
      if (cluster.node(n).router()->epoch() != 1) {
        return false;
      }
    }
    return true;
  };
  for (int t = 0; t < 500 && !routed(); ++t) {
    sc_core::wait(sc_time(10, SC_US));
  }
  return routed();
}

TEST(ClusterNetworkTest, NET_5_6_FirmwareRoutesThenTrafficCrossesRealLinks) {
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  ASSERT_TRUE(image.ok()) << image.error().reason;

  std::vector<std::string> console;
  std::vector<std::pair<unsigned, net::Delivered>> delivered;
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();  // Detect.Quiet 120 us
  config.on_console_line = [&](const std::string& node,
                               const std::string& line) {
    console.push_back(node + ": " + line);
  };
  config.on_delivery = [&](unsigned node, net::Delivered d) {
    delivered.emplace_back(node, std::move(d));
  };
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  Cluster cluster("cluster", config, topology);
  ASSERT_TRUE(cluster.Load(*image).ok());

  testing::ScThread traffic("traffic", [&] {
    // Before any route: the empty table drops (NET-5.5).
    cluster.node(0).interface()->Send(1, 0, Payload(0, 99));
    ASSERT_TRUE(WaitRouted(cluster)) << "every firmware switched in its routes";
    EXPECT_EQ(cluster.node(0).router()->counters().drops_no_route, 1u);
    EXPECT_TRUE(delivered.empty());

    std::mt19937 random(3);
    for (unsigned seq = 0; seq < kPerNode; ++seq) {
      for (unsigned src = 0; src < kNodes; ++src) {
        unsigned dst = random() % (kNodes - 1);
        dst = dst >= src ? dst + 1 : dst;
        cluster.node(src).interface()->Send(static_cast<uint16_t>(dst), 3,
                                            Payload(src, seq));
      }
    }
    for (int t = 0; t < 200 && delivered.size() < kNodes * kPerNode; ++t) {
      sc_core::wait(sc_time(10, SC_US));
    }
  });
  sc_core::sc_start(sc_time(6, sc_core::SC_MS));

  const std::string transcript = Transcript(console);
  EXPECT_EQ(std::count_if(console.begin(), console.end(),
                          [](const std::string& line) {
                            return line.find(
                                       "routes: dor, SHAPE 4x4x0x0, "
                                       "epoch 1") != std::string::npos;
                          }),
            kNodes)
      << transcript;
  ASSERT_EQ(delivered.size(), kNodes * kPerNode) << "every packet arrived";
  std::map<std::pair<unsigned, unsigned>, unsigned> seen;
  for (const auto& [node, d] : delivered) {
    const unsigned src = d.payload[0], seq = d.payload[1];
    EXPECT_EQ(node, d.header.dst) << "delivered where it was sent";
    EXPECT_EQ(src, d.header.src);
    EXPECT_EQ(d.payload, Payload(src, seq)) << "payload intact";
    const std::pair<unsigned, unsigned> key(src, seq);
    EXPECT_EQ(++seen[key], 1u) << "delivered once";
    EXPECT_EQ(d.header.hops, RingDistance(src % kSide, node % kSide) +
                                 RingDistance(src / kSide, node / kSide))
        << "minimal dimension-order path";
  }
  for (unsigned n = 0; n < kNodes; ++n) {
    const net::RouterCounters& counters = cluster.node(n).router()->counters();
    EXPECT_EQ(counters.Dropped(), n == 0 ? 1u : 0u) << "node " << n;
  }
}

// NET-1.5 on boards: a 4x1x2 torus leaves every card's Y ports (2 and 3)
// without a cable. CABLED says so, the bring-up firmware disables their
// link controllers and trains the other four, switches in its routes,
// and a packet from node 0 reaches every other card.
TEST(ClusterNetworkTest, NET_1_5_PortsWithoutACableStayDisabled) {
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  ASSERT_TRUE(image.ok()) << image.error().reason;
  std::vector<std::string> console;
  std::vector<net::Delivered> delivered;
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();
  config.on_console_line = [&](const std::string& node,
                               const std::string& line) {
    console.push_back(node + ": " + line);
  };
  config.on_delivery = [&](unsigned, net::Delivered d) {
    delivered.push_back(std::move(d));
  };
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "4x1x2"}}).value();
  const unsigned nodes = topology->NodeCount();
  Cluster cluster("cluster", config, topology);
  ASSERT_TRUE(cluster.Load(*image).ok());

  testing::ScThread traffic("traffic", [&] {
    ASSERT_TRUE(WaitRouted(cluster)) << "every firmware switched in its routes";
    for (unsigned dst = 1; dst < nodes; ++dst) {
      cluster.node(0).interface()->Send(static_cast<uint16_t>(dst), 3,
                                        Payload(0, dst));
    }
    for (int t = 0; t < 100 && delivered.size() < nodes - 1; ++t) {
      sc_core::wait(sc_time(10, SC_US));
    }
  });
  sc_core::sc_start(sc_time(6, sc_core::SC_MS));

  const std::string transcript = Transcript(console);
  EXPECT_EQ(delivered.size(), nodes - 1) << transcript;
  for (unsigned n = 0; n < nodes; ++n) {
    const std::string name = "node" + std::to_string(n) + ": ";
    for (unsigned p = 0; p < 6; ++p) {
      const bool cabled = p != 2 && p != 3;
      EXPECT_EQ(cluster.node(n).port(p).controller().ltssm_state(),
                cabled ? link::LtssmState::kL0 : link::LtssmState::kDisabled)
          << name << "port " << p;
      if (!cabled) {
        const std::string line =
            name + "port " + std::to_string(p) + ": no cable, disabled";
        EXPECT_NE(std::find(console.begin(), console.end(), line),
                  console.end())
            << line << "\n"
            << transcript;
      }
    }
    const std::string up = name + "link bring-up: 4 of 4 ports up";
    EXPECT_TRUE(std::any_of(
        console.begin(), console.end(),
        [&](const std::string& line) { return line.rfind(up, 0) == 0; }))
        << up << "\n"
        << transcript;
  }
}

// NET-1.1: each card of the cluster has one router, whose every network
// port has a link controller of its own below it, and one local port.
TEST(ClusterNetworkTest, NET_1_1_EveryRouterPortHasItsLinkController) {
  const auto topology =
      topo::CreateTopology("torus", {{"dims", "4x2x3"}}).value();
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();
  Cluster cluster("cluster", config, topology);
  ASSERT_EQ(cluster.node_count(), topology->NodeCount());
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    Node& node = cluster.node(n);
    ASSERT_NE(node.router(), nullptr);
    EXPECT_EQ(node.port_count(), topology->PortCount(n));
    EXPECT_EQ(node.router()->port_count(), node.port_count() + 1)
        << "the network ports and one local port";
    EXPECT_EQ(node.router()->local_port(), node.port_count());
    std::set<const link::LinkController*> controllers;
    for (unsigned p = 0; p < node.port_count(); ++p) {
      controllers.insert(&node.port(p).controller());
    }
    EXPECT_EQ(controllers.size(), node.port_count()) << "one per port";
  }
}

}  // namespace
}  // namespace lq::cluster
