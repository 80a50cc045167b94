// SPDX-License-Identifier: Apache-2.0
// Tests of dimension-order routing on tori: delivery, minimality against the
// k-ary n-cube formulas, the dateline VC rule and deadlock freedom.
#include "models/topology/dor_routing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "models/topology/analytics.h"
#include "models/topology/channel_dependency.h"
#include "models/topology/path.h"
#include "testbench/models/topology/make_torus.h"

namespace lq::topo {
namespace {

// Mean hops of one ring of size k, self pairs included [S30].
double RingMeanHops(uint32_t k) {
  return k % 2 == 0 ? k / 4.0 : k / 4.0 - 1.0 / (4.0 * k);
}

TEST(DorRouting, NET_4_2_DeliversEveryPairOfTheDefaultTorus) {
  const DorRouting dor(MakeTorus({4, 8, 8}), DorRouting::Dateline::kAtWrap);
  Result<HopStats> stats = RouteHopStats(dor);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_EQ(stats->endpoints, 256u) << "all 65536 ordered pairs traced";
}

TEST(DorRouting, NET_6_4_MeanHopsMatchTheKAryNCubeFormula) {
  const std::vector<std::vector<uint32_t>> shapes = {
      {8}, {4, 4, 4}, {4, 8, 8}, {6, 6}, {5, 5, 5}, {3, 7}, {3, 4, 5}, {2, 9}};
  for (const std::vector<uint32_t>& shape : shapes) {
    const DorRouting dor(MakeTorus(shape), DorRouting::Dateline::kAtWrap);
    Result<HopStats> stats = RouteHopStats(dor);
    ASSERT_TRUE(stats.ok()) << stats.error().reason;
    // Minimal routes: the mean is the sum of per-ring means, which for equal
    // k is n*k/4 (even) or n*(k/4 - 1/(4k)) (odd).
    double expected = 0;
    for (uint32_t k : shape) {
      expected += RingMeanHops(k);
    }
    EXPECT_NEAR(stats->mean_including_self, expected, 1e-9)
        << "DOR must be minimal on " << dor.topology().Describe();
    const double nodes = static_cast<double>(stats->endpoints);
    EXPECT_NEAR(stats->mean_excluding_self, expected * nodes / (nodes - 1),
                1e-9)
        << "excluding self rescales by N/(N-1)";
  }
}

TEST(DorRouting, NET_6_4_WorkedExamplesOfThe3dTorus) {
  const DorRouting cube4(MakeTorus({4, 4, 4}), DorRouting::Dateline::kAtWrap);
  Result<HopStats> stats4 = RouteHopStats(cube4);
  ASSERT_TRUE(stats4.ok());
  EXPECT_DOUBLE_EQ(stats4->mean_including_self, 3.0) << "4^3: n*k/4 = 3";
  const DorRouting cube8(MakeTorus({8, 8, 8}), DorRouting::Dateline::kAtWrap);
  Result<HopStats> stats8 = RouteHopStats(cube8);
  ASSERT_TRUE(stats8.ok());
  EXPECT_DOUBLE_EQ(stats8->mean_including_self, 6.0) << "8^3: n*k/4 = 6";
  EXPECT_EQ(stats8->max_hops, 12u) << "8^3 diameter n*floor(k/2) = 12";
}

TEST(DorRouting, NET_6_4_RingMeanExcludingSelfIsKSquaredOver4KMinus1) {
  const DorRouting ring(MakeTorus({8}), DorRouting::Dateline::kAtWrap);
  Result<HopStats> stats = RouteHopStats(ring);
  ASSERT_TRUE(stats.ok());
  EXPECT_NEAR(stats->mean_excluding_self, 64.0 / (4.0 * 7.0), 1e-12)
      << "per ring of even k: k^2/(4(k-1))";
}

TEST(DorRouting, NET_6_4_DiameterIsSumOfHalfRings) {
  for (const std::vector<uint32_t>& shape :
       std::vector<std::vector<uint32_t>>{{4, 8, 8}, {5, 5, 5}, {3, 4, 5}}) {
    const DorRouting dor(MakeTorus(shape), DorRouting::Dateline::kAtWrap);
    Result<HopStats> stats = RouteHopStats(dor);
    ASSERT_TRUE(stats.ok());
    size_t expected = 0;
    for (uint32_t k : shape) {
      expected += k / 2;
    }
    EXPECT_EQ(stats->max_hops, expected) << dor.topology().Describe();
  }
}

TEST(DorRouting, NET_4_2_ResolvesXThenYThenZAndBreaksTiesTowardPlus) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 8, 8});
  const DorRouting dor(torus, DorRouting::Dateline::kAtWrap);
  Result<Path> path =
      TracePath(dor, torus->NodeAt({0, 0, 0}), torus->NodeAt({2, 4, 1}));
  ASSERT_TRUE(path.ok()) << path.error().reason;
  ASSERT_EQ(path->size(), 7u) << "2 + 4 + 1 hops";
  for (size_t i = 0; i < path->size(); ++i) {
    const PortId expected = i < 2   ? Torus::PlusPort(0)
                            : i < 6 ? Torus::PlusPort(1)
                                    : Torus::PlusPort(2);
    EXPECT_EQ((*path)[i].port, expected)
        << "hop " << i << ": X first, then Y, then Z; k/2 ties go +";
  }
  Result<Path> back =
      TracePath(dor, torus->NodeAt({0, 0, 0}), torus->NodeAt({3, 0, 0}));
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 1u) << "one hop the short way round";
  EXPECT_EQ((*back)[0].port, Torus::MinusPort(0)) << "0 -> 3 in a ring of 4";
}

TEST(DorRouting, NET_3_3_PacketMovesToVc1OnTheWrapLinkAndResetsPerDimension) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 8, 8});
  const DorRouting dor(torus, DorRouting::Dateline::kAtWrap);
  // X: 2 -> 3 -> 0 crosses the wrap 3 -> 0; Y: 0 -> 1 -> 2 does not.
  Result<Path> path =
      TracePath(dor, torus->NodeAt({2, 0, 0}), torus->NodeAt({0, 2, 0}));
  ASSERT_TRUE(path.ok()) << path.error().reason;
  ASSERT_EQ(path->size(), 4u);
  EXPECT_EQ((*path)[0].vc, 0u) << "a packet enters a dimension on VC0";
  EXPECT_EQ((*path)[1].vc, 1u) << "the wrap link k-1 -> 0 is VC1";
  EXPECT_EQ((*path)[2].vc, 0u) << "turning into Y resets to VC0";
  EXPECT_EQ((*path)[3].vc, 0u);
  // Y the minus way: 0 -> 7 crosses the wrap at once, and stays on VC1.
  Result<Path> minus =
      TracePath(dor, torus->NodeAt({0, 0, 0}), torus->NodeAt({0, 5, 0}));
  ASSERT_TRUE(minus.ok());
  ASSERT_EQ(minus->size(), 3u) << "0 -> 7 -> 6 -> 5";
  for (const Hop& hop : *minus) {
    EXPECT_EQ(hop.vc, 1u) << "after the dateline the packet stays on VC1";
  }
}

// dateline=per_dimension: the class of a whole dimension is chosen on
// entering it, 1 if the way through it wraps, and kept to its end.
TEST(DorRouting, NET_4_2_PerDimensionClassHoldsForTheWholeDimension) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 8, 8});
  const DorRouting dor(torus, DorRouting::Dateline::kPerDimension);
  // X: 2 -> 3 -> 0 wraps, so both hops are class 1; Y: 0 -> 1 -> 2 does
  // not wrap: class 0 from the turn on.
  Result<Path> path =
      TracePath(dor, torus->NodeAt({2, 0, 0}), torus->NodeAt({0, 2, 0}));
  ASSERT_TRUE(path.ok()) << path.error().reason;
  ASSERT_EQ(path->size(), 4u);
  const VcClass expected[] = {1, 1, 0, 0};
  for (size_t i = 0; i < path->size(); ++i) {
    EXPECT_EQ((*path)[i].vc, expected[i]) << "hop " << i;
  }
  // Y the minus way, 3 -> 2 -> 1: no wrap, class 0 throughout.
  Result<Path> minus =
      TracePath(dor, torus->NodeAt({0, 3, 0}), torus->NodeAt({0, 1, 0}));
  ASSERT_TRUE(minus.ok());
  for (const Hop& hop : *minus) {
    EXPECT_EQ(hop.vc, 0u);
  }
}

// tie=parity: a tie at k/2 goes + from an even coordinate and - from an odd
// one, so the ties of a ring of 4 load each of its 8 links once.
TEST(DorRouting, NET_4_2_ParityTiesLoadEveryLinkOfTheRingAlike) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4});
  const DorRouting dor(torus, DorRouting::Dateline::kPerDimension,
                       DorRouting::Tie::kParity);
  std::map<std::pair<NodeId, PortId>, int> uses;
  for (NodeId src = 0; src < 4; ++src) {
    Result<Path> path = TracePath(dor, src, (src + 2) % 4);
    ASSERT_TRUE(path.ok()) << path.error().reason;
    ASSERT_EQ(path->size(), 2u);
    EXPECT_EQ((*path)[0].port,
              src % 2 == 0 ? Torus::PlusPort(0) : Torus::MinusPort(0))
        << "from " << src;
    for (const Hop& hop : *path) {
      ++uses[{hop.node, hop.port}];
    }
  }
  EXPECT_EQ(uses.size(), 8u) << "every link of the ring, both ways";
  for (const auto& [link, count] : uses) {
    EXPECT_EQ(count, 1) << "node " << link.first << " port " << link.second;
  }
}

TEST(DorRouting, NET_4_7_PerDimensionClassesKeepTheGraphAcyclic) {
  for (const auto tie : {DorRouting::Tie::kPlus, DorRouting::Tie::kParity}) {
    const DorRouting dor(MakeTorus({4, 8, 6}),
                         DorRouting::Dateline::kPerDimension, tie);
    Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(dor);
    ASSERT_TRUE(graph.ok()) << graph.error().reason;
    const std::vector<Channel> cycle = graph->FindCycle();
    EXPECT_TRUE(cycle.empty())
        << "deadlock: "
        << ChannelDependencyGraph::Describe(dor.topology(), cycle);
  }
}

TEST(DorRouting, NET_4_2_DegenerateRingsOfOneAndTwoRoute) {
  const DorRouting dor(MakeTorus({1, 2, 3}), DorRouting::Dateline::kAtWrap);
  Result<HopStats> stats = RouteHopStats(dor);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_NEAR(stats->mean_including_self, 0 + 0.5 + 2.0 / 3.0, 1e-12)
      << "rings of 1 add nothing, of 2 add k/4";
}

TEST(DorRouting, NET_4_7_DatelineVcsMakeTheChannelDependencyGraphAcyclic) {
  const DorRouting dor(MakeTorus({4, 8, 8}), DorRouting::Dateline::kAtWrap);
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(dor);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  EXPECT_EQ(graph->ChannelCount(), 256u * 6 * 2) << "6 ports x 2 VCs";
  EXPECT_GT(graph->DependencyCount(), 0u);
  const std::vector<Channel> cycle = graph->FindCycle();
  EXPECT_TRUE(cycle.empty())
      << "deadlock: "
      << ChannelDependencyGraph::Describe(dor.topology(), cycle);
}

TEST(DorRouting, NET_4_7_OneVcPerRingDeadlocks_fail) {
  const DorRouting dor(MakeTorus({4, 8, 8}), DorRouting::Dateline::kOff);
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(dor);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  const std::vector<Channel> cycle = graph->FindCycle();
  ASSERT_FALSE(cycle.empty())
      << "the wrap links close a dependency cycle without a dateline";
  for (const Channel& channel : cycle) {
    EXPECT_EQ(Torus::DimensionOf(channel.port),
              Torus::DimensionOf(cycle[0].port))
        << "DOR cycles stay within one ring: "
        << ChannelDependencyGraph::Describe(dor.topology(), cycle);
  }
}

}  // namespace
}  // namespace lq::topo
