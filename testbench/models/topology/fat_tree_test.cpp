// SPDX-License-Identifier: Apache-2.0
// Tests of the fat-tree topology: sizes, wiring and names.
#include "models/topology/fat_tree.h"

#include <gtest/gtest.h>

namespace lq::topo {
namespace {

TEST(FatTree, NET_6_2_HoldsKCubedOverFourHostsAndFiveKSquaredOverFourSwitches) {
  for (uint32_t k : {2u, 4u, 8u, 12u}) {
    const uint32_t hosts = k * k * k / 4;
    Result<FatTree> tree = FatTree::Create(k, hosts);
    ASSERT_TRUE(tree.ok()) << tree.error().reason;
    EXPECT_EQ(tree->EndpointCount(), hosts) << "Al-Fares: k^3/4 hosts";
    EXPECT_EQ(tree->NodeCount(), hosts + 5 * k * k / 4)
        << "k^2/2 edge + k^2/2 aggregation + k^2/4 core switches";
  }
  EXPECT_FALSE(FatTree::Create(4, 17).ok()) << "k=4 has 16 host slots";
  EXPECT_FALSE(FatTree::Create(5, 10).ok()) << "k must be even";
}

TEST(FatTree, NET_6_2_RadixIsTheSmallestThatHoldsTheEndpoints) {
  EXPECT_EQ(FatTree::RadixFor(16), 4u);
  EXPECT_EQ(FatTree::RadixFor(128), 8u);
  EXPECT_EQ(FatTree::RadixFor(256), 12u) << "k=10 holds only 250";
  EXPECT_EQ(FatTree::RadixFor(8192), 32u);
}

TEST(FatTree, NET_6_2_EveryCabledPortIsSymmetricAndSwitchesUseAllKPorts) {
  Result<FatTree> tree = FatTree::Create(8, 128);
  ASSERT_TRUE(tree.ok());
  for (NodeId node = 0; node < tree->NodeCount(); ++node) {
    const PortId ports = tree->PortCount(node);
    EXPECT_EQ(ports, tree->IsEndpoint(node) ? 1u : 8u);
    for (PortId port = 0; port < ports; ++port) {
      const std::optional<PortRef> far = tree->Neighbour(node, port);
      ASSERT_TRUE(far.has_value()) << "a full k=8 tree cables every port";
      const std::optional<PortRef> back = tree->Neighbour(far->node, far->port);
      ASSERT_TRUE(back.has_value());
      EXPECT_EQ(*back, (PortRef{node, port}))
          << tree->PortName(node, port) << " is not symmetric";
    }
  }
}

TEST(FatTree, NET_6_2_HostsSitUnderEdgeSwitchesOfTheirPod) {
  Result<FatTree> tree = FatTree::Create(4, 16);
  ASSERT_TRUE(tree.ok());
  const std::optional<PortRef> edge = tree->Neighbour(5, 0);
  ASSERT_TRUE(edge.has_value());
  EXPECT_EQ(edge->node, tree->EdgeSwitch(2)) << "host 5 = edge 5/(k/2)";
  EXPECT_EQ(edge->port, 1u) << "at down port 5 % (k/2)";
  EXPECT_EQ(tree->PodOf(5), 1u) << "(k/2)^2 = 4 hosts per pod";
  EXPECT_EQ(tree->Kind(tree->CoreSwitch(0)), NodeKind::kCoreSwitch);
  EXPECT_EQ(tree->NodeName(tree->AggregationSwitch(3)), "agg3");
}

TEST(FatTree, NET_6_2_UnpopulatedHostSlotsAreUncabled) {
  Result<FatTree> tree = FatTree::Create(4, 5);
  ASSERT_TRUE(tree.ok());
  EXPECT_TRUE(tree->Neighbour(tree->EdgeSwitch(2), 0).has_value())
      << "slot 4 holds host 4";
  EXPECT_FALSE(tree->Neighbour(tree->EdgeSwitch(2), 1).has_value())
      << "slot 5 is empty with 5 endpoints";
}

}  // namespace
}  // namespace lq::topo
