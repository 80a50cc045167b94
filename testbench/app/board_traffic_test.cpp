// SPDX-License-Identifier: Apache-2.0
// board.traffic_load: with a load, each card's local port gets a traffic
// source in place of its transport engine, at that fraction of one link's
// payload rate in packets per 1 ns cycle; without one, nothing changes;
// packets beyond 16 bits of length are refused.
#include "systemc/app/board_traffic.h"

#include <gtest/gtest.h>

#include "testbench/app/scenario_params.h"

namespace lq::app {
namespace {

TEST(BoardTraffic, ReplacesTheEngineWithASourceAtTheLoadAsked) {
  const phy::LinkProfile pcie6 = phy::FindLinkProfile("pcie6").value();
  cluster::ClusterConfig config;
  config.network.transport = transport::TransportEngineConfig{};

  const auto none = PlaceBoardTraffic(ScenarioParams({}), pcie6, 4, config);
  ASSERT_TRUE(none.ok()) << none.error().reason;
  EXPECT_FALSE(*none);
  EXPECT_TRUE(config.network.transport.has_value()) << "no load: the engine";

  const auto placed =
      PlaceBoardTraffic(ScenarioParams({{"board.traffic_load", "0.05"},
                                        {"board.traffic_start_us", "800"},
                                        {"traffic.message_bytes", "128"}}),
                        pcie6, 4, config);
  ASSERT_TRUE(placed.ok()) << placed.error().reason;
  EXPECT_TRUE(*placed);
  EXPECT_FALSE(config.network.transport.has_value());
  ASSERT_TRUE(config.network.traffic.has_value());
  ASSERT_NE(config.network.pattern, nullptr);
  const net::TrafficConfig& traffic = *config.network.traffic;
  EXPECT_EQ(traffic.payload_bytes, 128u);
  EXPECT_DOUBLE_EQ(
      traffic.packets_per_cycle,
      0.05 * phy::PayloadGoodputGbps(pcie6, pcie6.max_lanes) / 8.0 / 128.0);
  EXPECT_EQ(traffic.start, sc_core::sc_time(800, sc_core::SC_US));
}

TEST(BoardTraffic, RefusesPacketsItCannotCount_fail) {
  const phy::LinkProfile pcie6 = phy::FindLinkProfile("pcie6").value();
  cluster::ClusterConfig config;
  const auto big =
      PlaceBoardTraffic(ScenarioParams({{"board.traffic_load", "0.05"},
                                        {"traffic.message_bytes", "70000"}}),
                        pcie6, 4, config);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().reason,
            "traffic.message_bytes: board traffic sends packets of at most "
            "65535 bytes");
  EXPECT_FALSE(config.network.traffic.has_value()) << "nothing placed";
}

}  // namespace
}  // namespace lq::app
