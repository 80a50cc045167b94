// SPDX-License-Identifier: Apache-2.0
// Tests of a router's two routing banks (NET-5.6, NET-7.7, NET-7.12).
#include "models/network/routing_banks.h"

#include <gtest/gtest.h>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::net {
namespace {

std::shared_ptr<const topo::RoutingFunction> Dor() {
  auto torus = topo::CreateTopology("torus", {{"dims", "4"}}).value();
  return topo::CreateRouting("dor", torus, {}).value();
}

TEST(RoutingBanks, NET_7_7_ASwitchActivatesTheShadowBankAndFlipsTheEpoch) {
  const auto first = Dor();
  const auto second = Dor();
  RoutingBanks banks(first);
  EXPECT_EQ(&banks.active(), first.get());
  EXPECT_EQ(banks.epoch(), 0u);
  banks.WriteShadow(second);
  EXPECT_EQ(&banks.active(), first.get())
      << "writing the shadow routes nothing";
  banks.Switch();
  EXPECT_EQ(&banks.active(), second.get());
  EXPECT_EQ(banks.epoch(), 1u);
  banks.Switch();
  EXPECT_EQ(&banks.active(), first.get()) << "the old bank is the shadow";
  EXPECT_EQ(banks.epoch(), 0u);
}

TEST(RoutingBanks, NET_7_12_ARestoredRouterStartsAtEpochZero) {
  const auto tables = Dor();
  RoutingBanks banks(tables);
  banks.Switch();
  EXPECT_EQ(banks.epoch(), 1u) << "a switch with no shadow still flips";
  EXPECT_EQ(&banks.active(), tables.get());
  banks.ResetEpoch();
  EXPECT_EQ(banks.epoch(), 0u);
  EXPECT_EQ(&banks.active(), tables.get()) << "the tables stay";
}

}  // namespace
}  // namespace lq::net
