// SPDX-License-Identifier: Apache-2.0
// Tests of the management tree (NET-7.4): BFS parents, source routes that
// lead from the fabric manager to each node, and the tree of a degraded
// graph.
#include "models/topology/management_tree.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/topology/degraded_topology.h"
#include "models/topology/torus.h"
#include "testbench/models/topology/make_torus.h"

namespace lq::topo {
namespace {

// Where `route` leads from `from`, or nullopt if there is none or it
// leaves the graph.
std::optional<NodeId> Follow(const Topology& topology, NodeId from,
                             const std::optional<std::vector<PortId>>& route) {
  if (!route) {
    return std::nullopt;
  }
  NodeId node = from;
  for (const PortId port : *route) {
    const auto far = topology.Neighbour(node, port);
    if (!far) {
      return std::nullopt;
    }
    node = far->node;
  }
  return node;
}

TEST(ManagementTree, NET_7_4_ParentsLeadToTheRootAndRoutesLeadDown) {
  const auto torus = MakeTorus({4, 4, 4});
  const Result<ManagementTree> tree = ManagementTree::Compute(*torus, 21);
  ASSERT_TRUE(tree.ok()) << tree.error().reason;
  EXPECT_EQ(tree->ParentPort(21), ManagementTree::kNoPort);
  EXPECT_EQ(tree->order().size(), 64u) << "a spanning tree";
  EXPECT_EQ(tree->order().front(), 21u) << "root first";
  const std::vector<uint32_t> root = torus->Coordinates(21);
  for (NodeId node = 0; node < 64; ++node) {
    const std::vector<PortId> route = tree->RouteTo(node).value();
    EXPECT_EQ(Follow(*torus, 21, route), node) << "route to node " << node;
    // BFS: the tree path is a shortest path, as long as the torus
    // distance (per 4-ring, the shorter way round).
    size_t distance = 0;
    const std::vector<uint32_t> place = torus->Coordinates(node);
    for (size_t d = 0; d < 3; ++d) {
      const uint32_t delta = (place[d] + 4 - root[d]) % 4;
      distance += std::min<uint32_t>(delta, 4 - delta);
    }
    EXPECT_EQ(route.size(), distance) << "node " << node;
    // Climbing parent ports takes the node back to the root by the same
    // number of hops.
    NodeId at = node;
    size_t hops = 0;
    while (tree->ParentPort(at) != ManagementTree::kNoPort && hops < 64) {
      at = torus->Neighbour(at, tree->ParentPort(at))->node;
      ++hops;
    }
    EXPECT_EQ(at, 21u);
    EXPECT_EQ(hops, route.size());
  }
}

TEST(ManagementTree, NET_7_4_OrderPutsEachParentBeforeItsChildren) {
  const auto torus = MakeTorus({4, 8});
  const Result<ManagementTree> tree = ManagementTree::Compute(*torus, 0);
  ASSERT_TRUE(tree.ok());
  std::vector<bool> seen(32, false);
  for (const NodeId node : tree->order()) {
    if (node != 0) {
      const NodeId parent =
          torus->Neighbour(node, tree->ParentPort(node))->node;
      EXPECT_TRUE(seen[parent]) << "node " << node << " before its parent";
    }
    seen[node] = true;
  }
}

TEST(ManagementTree, NET_7_4_AvoidsFailedLinksAndNodes) {
  const auto torus = MakeTorus({4, 4});
  // Node 1's link to node 0 (its -X) and node 5 fail.
  const auto degraded =
      DegradedTopology::Create(torus, FailureSet{{{0, 0}}, {5}});
  ASSERT_TRUE(degraded.ok());
  const Result<ManagementTree> tree = ManagementTree::Compute(**degraded, 0);
  ASSERT_TRUE(tree.ok());
  EXPECT_FALSE(tree->Reached(5));
  EXPECT_EQ(tree->ParentPort(5), ManagementTree::kNoPort);
  EXPECT_FALSE(tree->RouteTo(5).has_value()) << "no route to a failed node";
  EXPECT_EQ(tree->order().size(), 15u);
  EXPECT_NE(tree->ParentPort(1), 1u) << "not over the failed link";
  for (const NodeId node : tree->order()) {
    EXPECT_EQ(Follow(**degraded, 0, tree->RouteTo(node)), node);
  }
}

TEST(ManagementTree, NET_7_5_RefusesADownRootAndRoutesLongerThanTheField) {
  const auto torus = MakeTorus({4, 4});
  const auto degraded = DegradedTopology::Create(torus, FailureSet{{}, {3}});
  ASSERT_TRUE(degraded.ok());
  EXPECT_FALSE(ManagementTree::Compute(**degraded, 3).ok());
  EXPECT_FALSE(ManagementTree::Compute(*torus, 16).ok()) << "no node 16";
  // A ring of 120 has nodes 60 hops from any root: beyond SR's 58.
  const Result<ManagementTree> ring =
      ManagementTree::Compute(*MakeTorus({120}), 0);
  ASSERT_FALSE(ring.ok());
  EXPECT_NE(ring.error().reason.find("58 hops"), std::string::npos);
  EXPECT_TRUE(ManagementTree::Compute(*MakeTorus({116}), 0).ok());
}

}  // namespace
}  // namespace lq::topo
