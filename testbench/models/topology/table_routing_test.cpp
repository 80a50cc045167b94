// SPDX-License-Identifier: Apache-2.0
// Tests of table routing (escalated up*/down*): table format, orientation,
// delivery and deadlock freedom on intact and degraded topologies.
#include "models/topology/table_routing.h"

#include <gtest/gtest.h>

#include "models/topology/analytics.h"
#include "models/topology/channel_dependency.h"
#include "models/topology/degraded_topology.h"
#include "models/topology/fat_tree.h"
#include "models/topology/full_mesh.h"
#include "models/topology/path.h"
#include "models/topology/routing_registry.h"
#include "models/topology/torus.h"
#include "testbench/models/topology/make_torus.h"

namespace lq::topo {
namespace {

std::shared_ptr<const Topology> Degrade(std::shared_ptr<const Topology> base,
                                        const FailureSet& failures) {
  Result<std::shared_ptr<const DegradedTopology>> view =
      DegradedTopology::Create(std::move(base), failures);
  EXPECT_TRUE(view.ok()) << view.error().reason;
  return view.value();
}

std::unique_ptr<TableRouting> Build(std::shared_ptr<const Topology> topology,
                                    VcClass classes = 2) {
  Result<std::unique_ptr<TableRouting>> table =
      TableRouting::Build(std::move(topology), classes, std::nullopt);
  EXPECT_TRUE(table.ok()) << table.error().reason;
  return std::move(table).value();
}

// Routes every pair and checks the CDG; the core requirement of NET-4.7.
void ExpectDeliveredAndDeadlockFree(const RoutingFunction& routing) {
  Result<HopStats> stats = RouteHopStats(routing);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(routing);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  const std::vector<Channel> cycle = graph->FindCycle();
  EXPECT_TRUE(cycle.empty())
      << "deadlock on " << routing.topology().Describe() << ": "
      << ChannelDependencyGraph::Describe(routing.topology(), cycle);
}

TEST(TableRouting, NET_5_2_EntryPacksValidClassAndPort) {
  const TableEntry entry = TableEntry::Make(5, 1);
  EXPECT_EQ(entry.raw, 0x8105) << "bit 15 valid, bits 9:8 class, 7:0 port";
  EXPECT_EQ(entry.port(), 5u);
  EXPECT_EQ(entry.vc(), 1u);
  EXPECT_FALSE(TableEntry{}.valid()) << "all-zero entries are invalid";
}

TEST(TableRouting, NET_5_3_PortOrientationFollowsLevelThenId) {
  const std::unique_ptr<TableRouting> table = Build(MakeTorus({4, 8, 8}));
  const Topology& topo = table->topology();
  EXPECT_EQ(table->order().roots(), std::vector<NodeId>{0})
      << "a torus has one tier: the lowest ID is the root";
  for (NodeId node = 0; node < topo.NodeCount(); ++node) {
    size_t up_ports = 0;
    for (PortId port = 0; port < topo.PortCount(node); ++port) {
      const std::optional<PortRef> far = topo.Neighbour(node, port);
      ASSERT_TRUE(far.has_value());
      const bool above =
          table->order().Level(far->node) < table->order().Level(node) ||
          (table->order().Level(far->node) == table->order().Level(node) &&
           far->node < node);
      EXPECT_EQ(table->PortLeadsUp(node, port), above)
          << topo.PortName(node, port);
      up_ports += above ? 1 : 0;
    }
    EXPECT_EQ(up_ports > 0, node != 0)
        << "every node but the root has a way up (its BFS parent)";
  }
}

TEST(TableRouting, NET_5_4_FatTreeRootIsTheFirstCoreSwitch) {
  const auto tree = std::make_shared<FatTree>(FatTree::Create(4, 16).value());
  const std::unique_ptr<TableRouting> table = Build(tree);
  EXPECT_EQ(table->order().roots(), std::vector<NodeId>{tree->CoreSwitch(0)})
      << "the highest tier, lowest ID node is the root";
  Result<std::unique_ptr<TableRouting>> rooted =
      TableRouting::Build(tree, 2, NodeId{7});
  ASSERT_TRUE(rooted.ok());
  EXPECT_EQ((*rooted)->order().roots(), std::vector<NodeId>{7})
      << "a configured root wins";
}

TEST(TableRouting, NET_5_4_IntactTorusTablesDeliverEveryPairDeadlockFree) {
  const std::unique_ptr<TableRouting> table = Build(MakeTorus({4, 8, 8}));
  ExpectDeliveredAndDeadlockFree(*table);
}

TEST(TableRouting, NET_5_4_EscalationShortensPathsAndNeverGoesBelowMinimal) {
  const std::shared_ptr<const Topology> torus = MakeTorus({4, 8, 8});
  Result<HopStats> minimal = ShortestHopStats(*torus);
  Result<HopStats> one_class = RouteHopStats(*Build(torus, 1));
  Result<HopStats> two_classes = RouteHopStats(*Build(torus, 2));
  ASSERT_TRUE(minimal.ok() && one_class.ok() && two_classes.ok());
  EXPECT_DOUBLE_EQ(minimal->mean_including_self, 5.0) << "4x8x8: 1+2+2";
  EXPECT_LE(two_classes->mean_including_self, one_class->mean_including_self)
      << "an extra class only adds legal paths";
  EXPECT_GE(two_classes->mean_including_self, minimal->mean_including_self)
      << "no route beats the shortest path";
  EXPECT_DOUBLE_EQ(two_classes->mean_including_self,
                   minimal->mean_including_self)
      << "measured (NET-5.4 note): one down->up turn suffices for minimal "
         "routes on 4x8x8";
  EXPECT_GT(one_class->mean_including_self, minimal->mean_including_self)
      << "plain up*/down* detours on a torus";
}

TEST(TableRouting, NET_5_4_ClassRisesExactlyAtEachDownThenUpTurn) {
  const std::unique_ptr<TableRouting> table = Build(MakeTorus({4, 4, 4}), 2);
  const Topology& topo = table->topology();
  for (NodeId src = 0; src < topo.EndpointCount(); ++src) {
    for (NodeId dst = 0; dst < topo.EndpointCount(); ++dst) {
      Result<Path> path = TracePath(*table, src, dst);
      ASSERT_TRUE(path.ok()) << path.error().reason;
      bool descended = false;
      VcClass vc = 0;
      for (const Hop& hop : *path) {
        const bool up = table->PortLeadsUp(hop.node, hop.port);
        if (up && descended) {
          ++vc;
          descended = false;
        }
        descended = descended || !up;
        ASSERT_EQ(hop.vc, vc) << "class = number of down->up turns so far";
      }
    }
  }
}

TEST(TableRouting, NET_5_4_TablesAreDeterministic) {
  const std::shared_ptr<const Topology> torus = MakeTorus({4, 4, 4});
  const std::unique_ptr<TableRouting> first = Build(torus);
  const std::unique_ptr<TableRouting> second = Build(torus);
  for (NodeId node = 0; node < torus->NodeCount(); ++node) {
    for (NodeId dst = 0; dst < torus->EndpointCount(); ++dst) {
      for (VcClass vc = 0; vc < 2; ++vc) {
        for (Phase phase : {Phase::kUp, Phase::kDown}) {
          ASSERT_EQ(first->Entry(node, dst, vc, phase).raw,
                    second->Entry(node, dst, vc, phase).raw)
              << "two fabric managers must program identical tables";
        }
      }
    }
  }
}

TEST(TableRouting, NET_7_6_FailedLinkIsAvoidedAndEveryPairStillDelivered) {
  const std::shared_ptr<const Topology> torus = MakeTorus({4, 8, 8});
  const PortRef cut{0, Torus::PlusPort(0)};
  const PortRef far = torus->Neighbour(cut.node, cut.port).value();
  const std::shared_ptr<const Topology> degraded =
      Degrade(torus, FailureSet{{cut}, {}});
  const std::unique_ptr<TableRouting> table = Build(degraded);
  ExpectDeliveredAndDeadlockFree(*table);
  Result<HopStats> routed = RouteHopStats(*table);
  Result<HopStats> minimal = ShortestHopStats(*degraded);
  ASSERT_TRUE(routed.ok() && minimal.ok());
  EXPECT_DOUBLE_EQ(routed->mean_including_self, minimal->mean_including_self)
      << "the detour around one cut link is a shortest one";
  Path path;
  for (NodeId src = 0; src < 256; ++src) {
    for (NodeId dst = 0; dst < 256; ++dst) {
      ASSERT_TRUE(TracePathInto(*table, src, dst, path).ok());
      for (const Hop& hop : path) {
        const PortRef used{hop.node, hop.port};
        ASSERT_FALSE(used == cut || used == far)
            << "a route still crosses the failed link";
      }
    }
  }
}

TEST(TableRouting, NET_7_10_FailedNodeLeavesEverySurvivingPairDelivered) {
  const std::unique_ptr<TableRouting> table =
      Build(Degrade(MakeTorus({4, 8, 8}), FailureSet{{}, {0, 37}}));
  ExpectDeliveredAndDeadlockFree(*table);
  Result<HopStats> stats = RouteHopStats(*table);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->endpoints, 254u) << "the failed nodes drop out of pairs";
  EXPECT_EQ(table->order().roots(), std::vector<NodeId>{1})
      << "the root moves to the lowest working ID";
}

TEST(TableRouting, NET_5_5_SplitNetworkHasNoRouteAcrossTheCut_fail) {
  // A ring of 4 cut twice: {0, 1} and {2, 3} are separate components.
  const std::shared_ptr<const Topology> ring = MakeTorus({4});
  const std::unique_ptr<TableRouting> table = Build(Degrade(
      ring,
      FailureSet{{{1, Torus::PlusPort(0)}, {3, Torus::PlusPort(0)}}, {}}));
  EXPECT_TRUE(TracePath(*table, 0, 1).ok()) << "within a component";
  EXPECT_TRUE(TracePath(*table, 3, 2).ok()) << "within the other one";
  Result<Path> across = TracePath(*table, 0, 2);
  ASSERT_FALSE(across.ok()) << "no route exists across the cut";
  EXPECT_NE(across.error().reason.find("no route"), std::string::npos)
      << across.error().reason;
  EXPECT_FALSE(table->Entry(0, 2, 0, Phase::kUp).valid());
}

TEST(TableRouting, NET_4_7_FatTreeAndFullMeshTablesAreDeadlockFree) {
  const auto tree = std::make_shared<FatTree>(FatTree::Create(8, 128).value());
  ExpectDeliveredAndDeadlockFree(*Build(tree));
  const PortRef core_link{tree->AggregationSwitch(0), 4};
  ExpectDeliveredAndDeadlockFree(
      *Build(Degrade(tree, FailureSet{{core_link}, {}})));
  ExpectDeliveredAndDeadlockFree(
      *Build(std::make_shared<FullMesh2D>(FullMesh2D::Create(8, 8).value())));
}

// NET-4.6: `table`, by its registry name, routes each topology kind with
// a failed link and a failed node, and a torus whose ring of one leaves
// ports with no cable (NET-1.5): every working pair is delivered and the
// channel-dependency graph stays acyclic.
TEST(TableRouting, NET_4_6_RoutesEveryTopologyKindWithFailures) {
  const std::shared_ptr<const Topology> torus = MakeTorus({4, 1, 3});
  const auto tree = std::make_shared<FatTree>(FatTree::Create(4, 14).value());
  const auto mesh =
      std::make_shared<FullMesh2D>(FullMesh2D::Create(4, 4).value());
  const std::vector<std::shared_ptr<const Topology>> degraded = {
      Degrade(torus, FailureSet{{{1, Torus::PlusPort(0)}}, {6}}),
      Degrade(tree, FailureSet{{{tree->AggregationSwitch(1), 2}},
                               {tree->CoreSwitch(3)}}),
      Degrade(mesh, FailureSet{{{0, 0}}, {5}}),
  };
  for (const std::shared_ptr<const Topology>& topology : degraded) {
    Result<std::unique_ptr<RoutingFunction>> table =
        CreateRouting("table", topology, {});
    ASSERT_TRUE(table.ok())
        << topology->Describe() << ": " << table.error().reason;
    EXPECT_EQ((*table)->Name(), "table");
    ExpectDeliveredAndDeadlockFree(**table);
  }
}

TEST(TableRouting, NET_5_4_RejectsBadClassCountsAndRoots) {
  const std::shared_ptr<const Topology> torus = MakeTorus({4, 4});
  EXPECT_FALSE(TableRouting::Build(torus, 0, std::nullopt).ok());
  EXPECT_FALSE(TableRouting::Build(torus, 5, std::nullopt).ok())
      << "the entry has two class bits";
  EXPECT_FALSE(TableRouting::Build(torus, 2, NodeId{16}).ok())
      << "the root must exist";
  EXPECT_FALSE(
      TableRouting::Build(Degrade(torus, FailureSet{{}, {3}}), 2, NodeId{3})
          .ok())
      << "the root must be working";
}

}  // namespace
}  // namespace lq::topo
