// SPDX-License-Identifier: Apache-2.0
// Tests of minimal adaptive routing (NET-4.3): the productive ports are
// exactly the minimal next hops, equal ports are shared among flows, the
// escape classes are dor, and leaving the
// adaptive class lands on dor as if injected there.
#include "models/topology/adaptive_routing.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/topology/analytics.h"
#include "models/topology/channel_dependency.h"
#include "testbench/models/topology/make_torus.h"

namespace lq::topo {
namespace {

// Minimal hop distance between two torus nodes.
uint32_t Distance(const Torus& torus, NodeId a, NodeId b) {
  uint32_t hops = 0;
  for (size_t dim = 0; dim < torus.Dimensions(); ++dim) {
    const uint32_t size = torus.sizes()[dim];
    const uint32_t ahead =
        (torus.Coordinate(b, dim) + size - torus.Coordinate(a, dim)) % size;
    hops += std::min(ahead, size - ahead);
  }
  return hops;
}

TEST(AdaptiveRouting, NET_4_3_ProductivePortsAreExactlyTheMinimalNextHops) {
  for (const std::vector<uint32_t>& shape :
       std::vector<std::vector<uint32_t>>{{4, 4, 4}, {5, 2, 3}, {6, 1}}) {
    const std::shared_ptr<const Torus> torus = MakeTorus(shape);
    const AdaptiveRouting routing(torus);
    std::vector<PortId> ports;
    for (NodeId here = 0; here < torus->NodeCount(); ++here) {
      for (NodeId dst = 0; dst < torus->NodeCount(); ++dst) {
        routing.AdaptivePorts(here, dst, ports);
        const uint32_t distance = Distance(*torus, here, dst);
        std::vector<PortId> minimal;
        for (PortId port = 0; port < torus->PortCount(here); ++port) {
          const std::optional<PortRef> next = torus->Neighbour(here, port);
          if (next && Distance(*torus, next->node, dst) + 1 == distance) {
            minimal.push_back(port);
          }
        }
        EXPECT_EQ(ports, minimal)
            << torus->Describe() << " " << here << " -> " << dst
            << ": every productive port, ascending, and only those";
      }
    }
  }
}

TEST(AdaptiveRouting, NET_4_3_TiesOfferBothWaysRound) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 8, 8});
  const AdaptiveRouting routing(torus);
  std::vector<PortId> ports;
  routing.AdaptivePorts(torus->NodeAt({0, 0, 0}), torus->NodeAt({2, 3, 0}),
                        ports);
  EXPECT_EQ(ports, (std::vector<PortId>{Torus::PlusPort(0), Torus::MinusPort(0),
                                        Torus::PlusPort(1)}))
      << "X at k/2 both ways, Y the shorter (+) way, Z already right";
  routing.AdaptivePorts(5, 5, ports);
  EXPECT_TRUE(ports.empty()) << "nothing is productive at DST";
}

// NET-4.3: among equally credited ports a flow starts at its hashed place
// in the candidate list. On an 8x8x8 torus, the flows whose only distance
// left is a Z tie (DST = SRC +- 256, so SRC + DST is always even) split
// about evenly between + and -, and the flows with 3 candidates start
// about evenly at each.
TEST(AdaptiveRouting, NET_4_3_EqualPortsAreSharedAmongFlows) {
  const std::shared_ptr<const Torus> torus = MakeTorus({8, 8, 8});
  const AdaptiveRouting routing(torus);
  std::vector<PortId> ports;
  unsigned ties = 0, plus = 0;
  std::vector<unsigned> starts(3, 0);
  for (NodeId src = 0; src < torus->NodeCount(); ++src) {
    for (NodeId dst = 0; dst < torus->NodeCount(); ++dst) {
      routing.AdaptivePorts(src, dst, ports);
      const size_t first =
          RoutingFunction::FirstCandidate(src, dst, ports.size());
      ASSERT_LT(first, std::max<size_t>(ports.size(), 1));
      if (dst == (src + 256) % 512) {
        ASSERT_EQ(ports.size(), 2u);
        ++ties;
        plus += ports[first] == Torus::PlusPort(2);
      }
      if (ports.size() == 3) {
        ++starts[first];
      }
    }
  }
  ASSERT_EQ(ties, 512u);
  EXPECT_NEAR(plus, 256.0, 0.1 * 256) << "Z ties sent the + way";
  const double third = (starts[0] + starts[1] + starts[2]) / 3.0;
  for (const unsigned count : starts) {
    EXPECT_NEAR(count, third, 0.1 * third);
  }
  EXPECT_EQ(RoutingFunction::FirstCandidate(7, 9, 0), 0u);
}

TEST(AdaptiveRouting, NET_4_3_EscapeClassesFollowDorExactly) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 4, 4});
  const AdaptiveRouting routing(torus);
  const DorRouting dor(torus, DorRouting::Dateline::kAtWrap);
  for (NodeId here = 0; here < torus->NodeCount(); ++here) {
    for (PortId in_port = 0; in_port <= torus->LocalPort(here); ++in_port) {
      for (VcClass in_vc = 0; in_vc < 2; ++in_vc) {
        for (NodeId dst = 0; dst < torus->NodeCount(); ++dst) {
          const Result<RouteStep> got =
              routing.Route(here, in_port, in_vc, dst);
          const Result<RouteStep> want = dor.Route(here, in_port, in_vc, dst);
          ASSERT_TRUE(got.ok() && want.ok());
          EXPECT_TRUE(got->port == want->port && got->vc == want->vc)
              << "escape class " << in_vc << " at " << here << " port "
              << in_port << " to " << dst << " must be dor's step";
        }
      }
    }
  }
}

TEST(AdaptiveRouting, NET_4_3_LeavingAnAdaptiveClassIsDorAsIfInjectedHere) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 4, 4});
  const AdaptiveRouting routing(torus, 2);
  const DorRouting dor(torus, DorRouting::Dateline::kAtWrap);
  for (NodeId here = 0; here < torus->NodeCount(); ++here) {
    for (NodeId dst = 0; dst < torus->NodeCount(); ++dst) {
      const Result<RouteStep> injected =
          dor.Route(here, torus->LocalPort(here), 0, dst);
      for (PortId in_port = 0; in_port < torus->PortCount(here); ++in_port) {
        for (VcClass in_vc = AdaptiveRouting::kAdaptiveClass;
             in_vc < routing.VcClasses(); ++in_vc) {
          const Result<RouteStep> escape =
              routing.Route(here, in_port, in_vc, dst);
          ASSERT_TRUE(escape.ok());
          EXPECT_EQ(escape->port, injected->port) << "from class " << in_vc;
          if (here != dst) {
            EXPECT_EQ(escape->vc, injected->vc)
                << "the escape from class " << in_vc
                << " restarts dor's dateline classes at this node";
          }
        }
      }
    }
  }
}

TEST(AdaptiveRouting, NET_4_3_AdaptiveClassesParameterSetsTheClassCount) {
  const std::shared_ptr<const Torus> torus = MakeTorus({4, 4, 4});
  EXPECT_EQ(AdaptiveRouting(torus).VcClasses(), 3u) << "one adaptive class";
  EXPECT_EQ(AdaptiveRouting(torus, 2).VcClasses(), 4u) << "two";
  EXPECT_EQ(AdaptiveRouting(torus, 2).AdaptiveClass(), VcClass{2})
      << "the adaptive classes start above the two escape classes";
  EXPECT_THROW(AdaptiveRouting(torus, 0), std::invalid_argument);
  EXPECT_THROW(AdaptiveRouting(torus, 3), std::invalid_argument)
      << "escape and adaptive classes must fit the link's 4 VCs (NET-3.1)";
}

TEST(AdaptiveRouting, NET_4_7_EscapeNetworkIsAcyclicAndMinimal) {
  const AdaptiveRouting routing(MakeTorus({4, 8, 8}));
  EXPECT_EQ(routing.VcClasses(), 3u) << "C = 3 (NET-4.3)";
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(routing);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  const std::vector<Channel> cycle = graph->FindCycle();
  EXPECT_TRUE(cycle.empty())
      << "a blocked adaptive packet must always progress on the escape "
         "network: "
      << ChannelDependencyGraph::Describe(routing.topology(), cycle);
  Result<HopStats> stats = RouteHopStats(routing);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_DOUBLE_EQ(stats->mean_including_self, 5.0)
      << "escape routes are minimal: n*k/4 summed per ring";
}

}  // namespace
}  // namespace lq::topo
