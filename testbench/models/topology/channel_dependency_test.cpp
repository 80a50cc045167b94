// SPDX-License-Identifier: Apache-2.0
// Tests of the channel-dependency graph: it must find a cycle when routes
// form one, and only then.
#include "models/topology/channel_dependency.h"

#include <gtest/gtest.h>

#include "models/topology/torus.h"

namespace lq::topo {
namespace {

// Clockwise-only routing on a ring: every route goes +, so on a ring of
// k >= 3 the + channels wait on each other in a circle.
class ClockwiseRouting : public RoutingFunction {
 public:
  ClockwiseRouting(std::shared_ptr<const Torus> ring, bool dateline)
      : RoutingFunction(ring), ring_(std::move(ring)), dateline_(dateline) {}
  std::string Name() const override { return "clockwise"; }
  VcClass VcClasses() const override { return dateline_ ? 2 : 1; }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override {
    if (current == dst) {
      return RouteStep{ring_->LocalPort(current), in_vc};
    }
    const bool wrap = current == ring_->NodeCount() - 1;
    const bool injected = in_port == ring_->LocalPort(current);
    const VcClass vc = dateline_ && (wrap || (!injected && in_vc == 1));
    return RouteStep{Torus::PlusPort(0), vc};
  }

 private:
  std::shared_ptr<const Torus> ring_;
  bool dateline_;
};

std::shared_ptr<const Torus> Ring(uint32_t k) {
  return std::make_shared<Torus>(Torus::Create({k}).value());
}

TEST(ChannelDependencyGraph, NET_4_7_FindsTheRingCycleWithOneVc_fail) {
  const ClockwiseRouting routing(Ring(5), false);
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(routing);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  EXPECT_EQ(graph->DependencyCount(), 5u) << "each + channel waits on the next";
  const std::vector<Channel> cycle = graph->FindCycle();
  ASSERT_EQ(cycle.size(), 5u) << "the cycle is the whole ring";
  EXPECT_EQ(ChannelDependencyGraph::Describe(routing.topology(), cycle)
                .find("node0.port0/vc0"),
            0u)
      << "the description names channels hierarchically";
}

TEST(ChannelDependencyGraph, NET_4_7_DatelineBreaksTheRingCycle) {
  const ClockwiseRouting routing(Ring(5), true);
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(routing);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  EXPECT_TRUE(graph->FindCycle().empty())
      << "VC1 after the wrap cannot lead back to VC0 before it";
}

TEST(ChannelDependencyGraph, NET_4_7_ShortRingsHaveNoDependenciesToCycle) {
  const ClockwiseRouting routing(Ring(2), false);
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(routing);
  ASSERT_TRUE(graph.ok());
  EXPECT_EQ(graph->DependencyCount(), 0u) << "every route is one hop";
  EXPECT_TRUE(graph->FindCycle().empty());
}

}  // namespace
}  // namespace lq::topo
