// SPDX-License-Identifier: Apache-2.0
// Tests of path tracing: it must catch every way a routing function can
// fail to deliver, so that "all pairs traced" means something.
#include "models/topology/path.h"

#include <gtest/gtest.h>

#include <functional>
#include <tuple>

#include "models/topology/torus.h"

namespace lq::topo {
namespace {

// A routing function whose decisions a test supplies.
class ScriptedRouting : public RoutingFunction {
 public:
  using Decide = std::function<RouteStep(NodeId, PortId, VcClass, NodeId)>;
  ScriptedRouting(std::shared_ptr<const Topology> topology, Decide decide)
      : RoutingFunction(std::move(topology)), decide_(std::move(decide)) {}
  std::string Name() const override { return "scripted"; }
  VcClass VcClasses() const override { return 1; }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override {
    return decide_(current, in_port, in_vc, dst);
  }

 private:
  Decide decide_;
};

std::shared_ptr<const Torus> Ring(uint32_t k) {
  return std::make_shared<Torus>(Torus::Create({k}).value());
}

TEST(TracePath, NET_4_1_FollowsDecisionsUntilTheLocalPort) {
  const std::shared_ptr<const Torus> ring = Ring(5);
  const ScriptedRouting forward(
      ring, [&](NodeId node, PortId, VcClass, NodeId dst) {
        return RouteStep{
            node == dst ? ring->LocalPort(node) : Torus::PlusPort(0), 0};
      });
  Result<Path> path = TracePath(forward, 1, 4);
  ASSERT_TRUE(path.ok()) << path.error().reason;
  ASSERT_EQ(path->size(), 3u) << "1 -> 2 -> 3 -> 4";
  EXPECT_EQ((*path)[2].node, 3u);
  Result<Path> self = TracePath(forward, 2, 2);
  ASSERT_TRUE(self.ok());
  EXPECT_TRUE(self->empty()) << "a packet to itself takes no hop";
}

TEST(TracePath, NET_4_1_RejectsARoutingLoop_fail) {
  const std::shared_ptr<const Torus> ring = Ring(5);
  const ScriptedRouting circling(ring, [](NodeId, PortId, VcClass, NodeId) {
    return RouteStep{Torus::PlusPort(0), 0};
  });
  Result<Path> path = TracePath(circling, 0, 3);
  ASSERT_FALSE(path.ok()) << "never ejecting must be reported, not hang";
  EXPECT_NE(path.error().reason.find("loop"), std::string::npos)
      << path.error().reason;
}

TEST(TracePath, NET_4_1_RejectsDeliveryAtTheWrongNode_fail) {
  const std::shared_ptr<const Torus> ring = Ring(5);
  const ScriptedRouting early(ring, [&](NodeId node, PortId, VcClass, NodeId) {
    return RouteStep{ring->LocalPort(node), 0};
  });
  EXPECT_FALSE(TracePath(early, 0, 3).ok()) << "ejected at the source";
}

TEST(TracePath, NET_4_1_RejectsAnUncabledPortAndAMissingVcClass_fail) {
  const std::shared_ptr<const Torus> line = std::make_shared<Torus>(
      Torus::Create({1, 3}).value());  // X is a ring of one: no X links.
  const ScriptedRouting into_x(line, [](NodeId, PortId, VcClass, NodeId) {
    return RouteStep{Torus::PlusPort(0), 0};
  });
  EXPECT_FALSE(TracePath(into_x, 0, 1).ok()) << "+X has no link";
  const ScriptedRouting bad_vc(line, [](NodeId, PortId, VcClass, NodeId) {
    return RouteStep{Torus::PlusPort(1), 3};
  });
  EXPECT_FALSE(TracePath(bad_vc, 0, 1).ok()) << "VC class 3 of 1";
  EXPECT_FALSE(TracePath(bad_vc, 0, 7).ok()) << "no node 7";
}

TEST(FindFarthestEndpoint, TakesTheLongestPathAndTheLowestIdAmongEquals) {
  // A ring of 6 routed forward only: node 5 is 5 hops from node 0.
  const std::shared_ptr<const Torus> ring = Ring(6);
  const ScriptedRouting forward(
      ring, [&](NodeId node, PortId, VcClass, NodeId dst) {
        return RouteStep{
            node == dst ? ring->LocalPort(node) : Torus::PlusPort(0), 0};
      });
  const Result<FarthestEndpoint> from0 = FindFarthestEndpoint(forward, 0);
  ASSERT_TRUE(from0.ok());
  EXPECT_EQ(from0->node, 5u);
  EXPECT_EQ(from0->hops, 5u);
  EXPECT_EQ(FindFarthestEndpoint(forward, 2)->node, 1u);

  // Shortest way round a ring of 6: node 3 is the only one 3 hops away;
  // on a ring of 5, nodes 2 and 3 are both 2 hops away and 2 wins.
  for (const auto& [k, node, hops] :
       {std::make_tuple(6u, 3u, 3u), std::make_tuple(5u, 2u, 2u)}) {
    const std::shared_ptr<const Torus> shortest_ring = Ring(k);
    const uint32_t size = k;  // C++17 lambdas cannot capture a binding
    const ScriptedRouting shortest(
        shortest_ring, [&](NodeId at, PortId, VcClass, NodeId dst) {
          const uint32_t ahead = (dst + size - at) % size;
          return RouteStep{at == dst           ? shortest_ring->LocalPort(at)
                           : ahead <= size / 2 ? Torus::PlusPort(0)
                                               : Torus::MinusPort(0),
                           0};
        });
    const Result<FarthestEndpoint> farthest = FindFarthestEndpoint(shortest, 0);
    ASSERT_TRUE(farthest.ok());
    EXPECT_EQ(farthest->node, node) << "ring of " << k;
    EXPECT_EQ(farthest->hops, hops) << "ring of " << k;
  }

  const ScriptedRouting dead_end(ring, [](NodeId, PortId, VcClass, NodeId) {
    return RouteStep{Torus::PlusPort(1), 0};  // no such dimension
  });
  EXPECT_FALSE(FindFarthestEndpoint(dead_end, 0).ok());
}

}  // namespace
}  // namespace lq::topo
