// SPDX-License-Identifier: Apache-2.0
// Tests of a router's programmed table (NET-5.1 to NET-5.3, NET-5.5): the
// raw entries and PORT_UP bits a fabric manager writes route exactly as the
// tables it computed, and what the table cannot do is refused.
#include "models/topology/programmed_table.h"

#include <gtest/gtest.h>

#include "models/topology/degraded_topology.h"
#include "testbench/models/topology/make_torus.h"

namespace lq::topo {
namespace {

std::unique_ptr<TableRouting> Tables(std::shared_ptr<const Topology> topology) {
  auto tables = TableRouting::Build(std::move(topology), 2, std::nullopt);
  EXPECT_TRUE(tables.ok()) << tables.error().reason;
  return std::move(tables).value();
}

// Every (in port, class, dst) of every node, the local port included.
void ExpectSameRoutes(const TableRouting& tables) {
  const Topology& topo = tables.topology();
  for (NodeId node = 0; node < topo.NodeCount(); ++node) {
    const ProgrammedTableRouting programmed(
        tables.shared_topology(), node, tables.VcClasses(),
        ProgrammedTableRouting::TableOf(tables, node),
        ProgrammedTableRouting::PortUpOf(tables, node));
    for (PortId in = 0; in <= topo.PortCount(node); ++in) {
      for (VcClass vc = 0; vc < tables.VcClasses(); ++vc) {
        for (NodeId dst = 0; dst < topo.EndpointCount(); ++dst) {
          const auto want = tables.Route(node, in, vc, dst);
          const auto got = programmed.Route(node, in, vc, dst);
          ASSERT_EQ(want.ok(), got.ok()) << node << " " << in << " " << dst;
          if (want.ok()) {
            ASSERT_EQ(want->port, got->port) << node << " " << in << " " << dst;
            ASSERT_EQ(want->vc, got->vc) << node << " " << in << " " << dst;
          }
        }
      }
    }
  }
}

TEST(ProgrammedTable, NET_5_1_and_NET_5_3_WrittenTablesRouteAsComputed) {
  ExpectSameRoutes(*Tables(MakeTorus({4, 4, 4})));
}

TEST(ProgrammedTable, NET_5_1_and_NET_5_3_DegradedTopologyRoutesAsComputed) {
  FailureSet failures;
  failures.links.push_back({0, 0});
  auto degraded = DegradedTopology::Create(MakeTorus({4, 4}), failures);
  ASSERT_TRUE(degraded.ok()) << degraded.error().reason;
  ExpectSameRoutes(*Tables(degraded.value()));
}

TEST(ProgrammedTable, NET_5_5_InvalidOrImpossibleEntriesDoNotRoute) {
  const auto torus = MakeTorus({4, 4});
  std::vector<TableEntry> table = ProgrammedTableRouting::EmptyTable(*torus, 2);
  ASSERT_EQ(table.size(), 16u * 2 * 2) << "E x C x 2 entries (NET-5.1)";
  // Node 0, dst 3, class 0, phase 0: index (3 x 2 + 0) x 2 + 0 = 12.
  table[12] = TableEntry::Make(1, 0);
  table[(5 * 2 + 0) * 2] = TableEntry::Make(1, 2);  // class 2 >= C
  table[(6 * 2 + 0) * 2] = TableEntry::Make(7, 0);  // no port 7
  table[(7 * 2 + 0) * 2] = TableEntry::Make(4, 0);  // the local port...
  const ProgrammedTableRouting routing(torus, 0, 2, table, 0);
  const PortId local = torus->LocalPort(0);
  const auto routed = routing.Route(0, local, 0, 3);
  ASSERT_TRUE(routed.ok()) << routed.error().reason;
  EXPECT_EQ(routed->port, 1u);
  EXPECT_FALSE(routing.Route(0, local, 0, 4).ok()) << "invalid entry";
  EXPECT_FALSE(routing.Route(0, local, 0, 5).ok()) << "class >= C";
  EXPECT_FALSE(routing.Route(0, local, 0, 6).ok()) << "port with no cable";
  EXPECT_TRUE(routing.Route(0, local, 0, 7).ok())
      << "...names an existing port, so it routes (to the wrong place)";
  EXPECT_FALSE(routing.Route(1, local, 0, 3).ok()) << "another node's lookup";
  EXPECT_FALSE(routing.Route(0, local, 2, 3).ok()) << "input class >= C";
}

TEST(ProgrammedTable, NET_5_3_PortUpSelectsThePhase) {
  const auto torus = MakeTorus({4, 4});
  std::vector<TableEntry> table = ProgrammedTableRouting::EmptyTable(*torus, 2);
  const size_t up = (9 * 2 + 0) * 2;  // dst 9, class 0
  table[up] = TableEntry::Make(0, 0);
  table[up + 1] = TableEntry::Make(2, 1);
  const ProgrammedTableRouting routing(torus, 0, 2, table, 0b0010);
  EXPECT_EQ(routing.Route(0, 0, 0, 9)->port, 0u) << "port 0 is not up: phase 0";
  EXPECT_EQ(routing.Route(0, 1, 0, 9)->port, 2u) << "port 1 leads up: phase 1";
  EXPECT_EQ(routing.Route(0, 1, 0, 9)->vc, 1u);
  EXPECT_EQ(routing.Route(0, torus->LocalPort(0), 0, 9)->port, 0u)
      << "injected packets are in phase 0";
}

TEST(ProgrammedTable, WrongTableSizeIsRefused) {
  const auto torus = MakeTorus({4, 4});
  EXPECT_THROW(
      ProgrammedTableRouting(torus, 0, 2, std::vector<TableEntry>(3), 0),
      std::invalid_argument);
}

}  // namespace
}  // namespace lq::topo
