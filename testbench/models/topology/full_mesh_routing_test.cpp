// SPDX-License-Identifier: Apache-2.0
// Tests of full-mesh routing: one hop per dimension, VL per hop, and the
// deadlock check with two VLs and with one.
#include "models/topology/full_mesh_routing.h"

#include <gtest/gtest.h>

#include "models/topology/analytics.h"
#include "models/topology/channel_dependency.h"
#include "models/topology/path.h"

namespace lq::topo {
namespace {

std::shared_ptr<const FullMesh2D> MakeMesh(uint32_t x, uint32_t y) {
  Result<FullMesh2D> mesh = FullMesh2D::Create(x, y);
  EXPECT_TRUE(mesh.ok()) << mesh.error().reason;
  return std::make_shared<FullMesh2D>(mesh.value());
}

TEST(FullMeshRouting, NET_4_5_XThenYWithAtMostOneHopPerDimension) {
  const std::shared_ptr<const FullMesh2D> mesh = MakeMesh(8, 8);
  const FullMeshRouting routing(mesh, FullMeshRouting::Order::kXy, 2);
  for (NodeId src = 0; src < mesh->NodeCount(); ++src) {
    for (NodeId dst = 0; dst < mesh->NodeCount(); ++dst) {
      Result<Path> path = TracePath(routing, src, dst);
      ASSERT_TRUE(path.ok()) << path.error().reason;
      const size_t expected = (mesh->Column(src) != mesh->Column(dst)) +
                              (mesh->Row(src) != mesh->Row(dst));
      ASSERT_EQ(path->size(), expected) << "one hop per differing dimension";
      for (size_t i = 0; i < path->size(); ++i) {
        EXPECT_EQ((*path)[i].vc, i) << "VL = hops taken so far";
      }
      if (expected == 2) {
        EXPECT_LT((*path)[0].port, 7u) << "xy order: the X hop comes first";
      }
    }
  }
}

TEST(FullMeshRouting, NET_4_5_BalancedOrderUsesBothMinimalPaths) {
  const std::shared_ptr<const FullMesh2D> mesh = MakeMesh(8, 8);
  const FullMeshRouting routing(mesh, FullMeshRouting::Order::kBalanced, 2);
  Result<Path> x_first = TracePath(routing, 0, 9);   // (0,0) -> (1,1)
  Result<Path> y_first = TracePath(routing, 1, 10);  // (1,0) -> (2,1)
  ASSERT_TRUE(x_first.ok() && y_first.ok());
  EXPECT_LT((*x_first)[0].port, 7u) << "even source squares go X first";
  EXPECT_GE((*y_first)[0].port, 7u) << "odd source squares go Y first";
  Result<HopStats> stats = RouteHopStats(routing);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_EQ(stats->max_hops, 2u) << "both orders stay minimal";
}

TEST(FullMeshRouting, NET_4_7_TwoVlsAreDeadlockFreeInEitherOrder) {
  for (auto order :
       {FullMeshRouting::Order::kXy, FullMeshRouting::Order::kBalanced}) {
    const FullMeshRouting routing(MakeMesh(8, 8), order, 2);
    Result<ChannelDependencyGraph> graph =
        ChannelDependencyGraph::Build(routing);
    ASSERT_TRUE(graph.ok()) << graph.error().reason;
    const std::vector<Channel> cycle = graph->FindCycle();
    EXPECT_TRUE(cycle.empty())
        << "VL0 -> VL1 only: "
        << ChannelDependencyGraph::Describe(routing.topology(), cycle);
  }
}

TEST(FullMeshRouting, NET_4_7_BalancedOrderOnOneVlDeadlocks_fail) {
  const FullMeshRouting routing(MakeMesh(8, 8),
                                FullMeshRouting::Order::kBalanced, 1);
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(routing);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  EXPECT_FALSE(graph->FindCycle().empty())
      << "X->Y and Y->X turns on one VL close a cycle";
}

}  // namespace
}  // namespace lq::topo
