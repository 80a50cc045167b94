// Tests of path tracing: it must catch every way a routing function can
// fail to deliver, so that "all pairs traced" means something.
#include "models/topology/path.h"

#include <gtest/gtest.h>

#include <functional>

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

}  // namespace
}  // namespace lq::topo
