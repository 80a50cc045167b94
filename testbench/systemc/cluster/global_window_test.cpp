// SPDX-License-Identifier: Apache-2.0
// LOG-3.8: the MCU reaches global addresses through its logical unit's
// window. On a 2x2 torus of boards with logical units, every card runs
// global_memory.elf: it stores 256 words into its partner's memory and
// loads them back, then both cards of a pair AMOADD the same word in the
// lower card's memory 50 times each. Every word must land where the
// window pointed, and the counters must hold all 100 adds: the unit
// performs each AMOADD.W as one FADD, so none is lost.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/topology_registry.h"
#include "systemc/cluster/cluster.h"
#include "testbench/systemc/common/firmware_image.h"

namespace lq::cluster {
namespace {

constexpr unsigned kNodes = 4;

uint32_t Pattern(uint32_t node, uint32_t i) {
  return node << 24 | i * 0x01010101u;
}

TEST(GlobalWindow, LOG_3_8_TheMcuLoadsStoresAndAddsThroughTheWindow) {
  ClusterConfig config;
  config.port = testing::ScaledPcie6Port();
  config.network.transport = transport::TransportEngineConfig{};
  config.network.logical = logical::LogicalUnitConfig{};
  std::vector<std::string> console;
  config.on_console_line = [&](const std::string& node,
                               const std::string& line) {
    console.push_back(node + ": " + line);
  };
  Cluster cluster("cluster", config,
                  topo::CreateTopology("torus", {{"dims", "2x2"}}).value());
  const auto image = testing::ReadFirmwareImage(LQ_FIRMWARE_IMAGE);
  ASSERT_TRUE(image.ok() && cluster.Load(*image).ok());
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_MS));

  std::string transcript;
  for (const std::string& line : console) {
    transcript += line + "\n";
  }
  ASSERT_EQ(cluster.finished_nodes(), kNodes) << transcript;
  EXPECT_EQ(cluster.worst_status(), 0) << transcript;
  for (unsigned n = 0; n < kNodes; ++n) {
    const unsigned partner = n ^ 1u;
    logical::CardMemory& memory = *cluster.node(partner).card_memory();
    const Bytes words = memory.Peek(0x100000ull * (1 + (n & 1)), 256 * 4);
    bool intact = true;
    for (uint32_t i = 0; i < 256; ++i) {
      intact =
          intact && LoadLittleEndian(words.data() + 4 * i, 4) == Pattern(n, i);
    }
    EXPECT_TRUE(intact) << "node " << n << "'s words in node " << partner;
  }
  for (const unsigned lower : {0u, 2u}) {
    EXPECT_EQ(
        LoadLittleEndian(
            cluster.node(lower).card_memory()->Peek(0x400000, 4).data(), 4),
        100u)
        << "the counter on node " << lower;
  }
  const logical::LogicalCounters& unit = cluster.node(1).logical()->counters();
  EXPECT_EQ(unit.remote_stores, 256u);
  EXPECT_GT(unit.remote_loads, 256u)
      << "the pattern read back, then the counter polled";
  EXPECT_EQ(unit.remote_atomics, 50u) << "node 1's adds, on node 0";
}

}  // namespace
}  // namespace lq::cluster
