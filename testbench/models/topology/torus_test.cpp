// SPDX-License-Identifier: Apache-2.0
// Tests of the torus topology: wiring, wrap links, coordinates and names.
#include "models/topology/torus.h"

#include <gtest/gtest.h>

#include <set>

namespace lq::topo {
namespace {

Torus MakeTorus(const std::vector<uint32_t>& sizes) {
  Result<Torus> torus = Torus::Create(sizes);
  EXPECT_TRUE(torus.ok()) << torus.error().reason;
  return torus.value();
}

TEST(Torus, NET_6_1_Default3dTorusHas256NodesWithSixLinksEach) {
  const Torus torus = MakeTorus({4, 8, 8});
  EXPECT_EQ(torus.NodeCount(), 256u) << "4x8x8 is the 256-card default";
  EXPECT_EQ(torus.EndpointCount(), 256u) << "every torus node is a card";
  for (NodeId node = 0; node < torus.NodeCount(); ++node) {
    ASSERT_EQ(torus.PortCount(node), 6u) << "a 3D torus node has 2n ports";
    std::set<NodeId> peers;
    for (PortId port = 0; port < 6; ++port) {
      const std::optional<PortRef> far = torus.Neighbour(node, port);
      ASSERT_TRUE(far.has_value()) << "every port of a k>2 torus is cabled";
      peers.insert(far->node);
      const std::optional<PortRef> back = torus.Neighbour(far->node, far->port);
      ASSERT_TRUE(back.has_value());
      EXPECT_EQ(*back, (PortRef{node, port})) << "links must be symmetric";
    }
    EXPECT_EQ(peers.size(), 6u) << "rings of 4 and 8 give 6 distinct peers";
  }
}

TEST(Torus, NET_1_4_PlusPortLeadsToNextCoordinateAndArrivesOnMinus) {
  const Torus torus = MakeTorus({4, 8, 8});
  const NodeId node = torus.NodeAt({1, 2, 3});
  const std::optional<PortRef> plus_y = torus.Neighbour(node, 2);
  ASSERT_TRUE(plus_y.has_value());
  EXPECT_EQ(plus_y->node, torus.NodeAt({1, 3, 3})) << "port 2 is +Y";
  EXPECT_EQ(plus_y->port, 3u) << "a +Y link arrives on the far -Y port";
  const std::optional<PortRef> minus_z = torus.Neighbour(node, 5);
  ASSERT_TRUE(minus_z.has_value());
  EXPECT_EQ(minus_z->node, torus.NodeAt({1, 2, 2})) << "port 5 is -Z";
  EXPECT_EQ(torus.LocalPort(node), 6u) << "the local port follows the 2n";
}

TEST(Torus, NET_6_1_WrapLinksCloseEveryRing) {
  const Torus torus = MakeTorus({4, 8, 8});
  const std::optional<PortRef> wrap_plus =
      torus.Neighbour(torus.NodeAt({3, 0, 0}), Torus::PlusPort(0));
  ASSERT_TRUE(wrap_plus.has_value());
  EXPECT_EQ(wrap_plus->node, torus.NodeAt({0, 0, 0})) << "+X wraps k-1 -> 0";
  const std::optional<PortRef> wrap_minus =
      torus.Neighbour(torus.NodeAt({0, 5, 0}), Torus::MinusPort(2));
  ASSERT_TRUE(wrap_minus.has_value());
  EXPECT_EQ(wrap_minus->node, torus.NodeAt({0, 5, 7})) << "-Z wraps 0 -> k-1";
}

TEST(Torus, NET_6_1_CoordinatesRoundTripWithXFastest) {
  const Torus torus = MakeTorus({4, 8, 8});
  EXPECT_EQ(torus.NodeAt({1, 0, 0}), 1u) << "X counts fastest";
  EXPECT_EQ(torus.NodeAt({0, 1, 0}), 4u) << "one Y step is kx IDs";
  EXPECT_EQ(torus.NodeAt({0, 0, 1}), 32u) << "one Z step is kx*ky IDs";
  for (NodeId node = 0; node < torus.NodeCount(); ++node) {
    EXPECT_EQ(torus.NodeAt(torus.Coordinates(node)), node)
        << "coordinates must round-trip";
  }
}

// Sizes that are not powers of two, a ring of one, and the most dimensions
// and the largest ring node IDs allow: every coordinate and every pair's
// first differing dimension, against the coordinates the IDs count.
TEST(Torus, NET_6_1_CoordinatesAndFirstDifferenceOfAnyShape) {
  for (const std::vector<uint32_t>& sizes : std::vector<std::vector<uint32_t>>{
           {3, 1, 5, 2}, {2, 2, 2, 2, 2, 2, 2, 3}, {65535}, {255, 257}}) {
    const Torus torus = MakeTorus(sizes);
    std::vector<std::vector<uint32_t>> expected(torus.NodeCount());
    for (NodeId node = 0; node < torus.NodeCount(); ++node) {
      uint32_t stride = 1;
      for (const uint32_t size : sizes) {
        expected[node].push_back(node / stride % size);
        stride *= size;
      }
      ASSERT_EQ(torus.Coordinates(node), expected[node]) << torus.Describe();
    }
    for (NodeId a = 0; a < torus.NodeCount(); a += 97) {
      for (NodeId b = 0; b < torus.NodeCount(); b += 13) {
        size_t first = 0;
        while (first < sizes.size() &&
               expected[a][first] == expected[b][first]) {
          ++first;
        }
        ASSERT_EQ(torus.FirstDifference(a, b), first)
            << torus.Describe() << ", nodes " << a << " and " << b;
      }
    }
    EXPECT_EQ(torus.FirstDifference(1, 1), sizes.size()) << "one node";
  }
}

TEST(Torus, NET_6_1_RingOfOneHasNoLinksAndRingOfTwoHasTwo) {
  const Torus torus = MakeTorus({1, 2});
  EXPECT_EQ(torus.NodeCount(), 2u);
  EXPECT_FALSE(torus.Neighbour(0, Torus::PlusPort(0)).has_value())
      << "a ring of one would link a node to itself";
  EXPECT_FALSE(torus.Neighbour(0, Torus::MinusPort(0)).has_value());
  const std::optional<PortRef> plus = torus.Neighbour(0, Torus::PlusPort(1));
  const std::optional<PortRef> minus = torus.Neighbour(0, Torus::MinusPort(1));
  ASSERT_TRUE(plus.has_value() && minus.has_value());
  EXPECT_EQ(plus->node, 1u);
  EXPECT_EQ(minus->node, 1u) << "both ways round a ring of two meet node 1";
  EXPECT_NE(plus->port, minus->port) << "they are two distinct links";
  EXPECT_EQ(torus.CableCount(), 2u);
}

TEST(Torus, NET_6_1_CablesOfTheDefaultTorus) {
  EXPECT_EQ(MakeTorus({4, 8, 8}).CableCount(), 768u) << "256 nodes x 6 / 2";
  EXPECT_EQ(MakeTorus({1, 4}).CableCount(), 4u) << "a ring of one has none";
}

TEST(Torus, NET_1_2_NamesAreHierarchical) {
  const Torus torus = MakeTorus({4, 8, 8});
  EXPECT_EQ(torus.NodeName(12), "node12");
  EXPECT_EQ(torus.PortName(12, 3), "node12.port3");
  EXPECT_EQ(torus.PortName(12, 6), "node12.local");
  EXPECT_EQ(torus.Describe(), "torus 4x8x8");
}

TEST(Torus, NET_1_3_RejectsShapesThatDoNotFitNodeIds_fail) {
  EXPECT_FALSE(Torus::Create({}).ok()) << "a torus needs a dimension";
  EXPECT_FALSE(Torus::Create({4, 0}).ok()) << "a ring needs a node";
  EXPECT_FALSE(Torus::Create({256, 256}).ok()) << "65536 > 0xFFFF IDs";
  EXPECT_FALSE(Torus::Create({2, 2, 2, 2, 2, 2, 2, 2, 2}).ok())
      << "more than 8 dimensions";
  EXPECT_TRUE(Torus::Create({16, 16, 32}).ok()) << "8192 cards must fit";
}

}  // namespace
}  // namespace lq::topo
