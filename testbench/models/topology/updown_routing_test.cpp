// SPDX-License-Identifier: Apache-2.0
// Tests of up/down routing on fat-trees: delivery, 2/4/6-link paths and
// deadlock freedom with one VC class.
#include "models/topology/updown_routing.h"

#include <gtest/gtest.h>

#include "models/topology/analytics.h"
#include "models/topology/channel_dependency.h"
#include "models/topology/path.h"

namespace lq::topo {
namespace {

std::shared_ptr<const FatTree> MakeTree(uint32_t k, uint32_t endpoints) {
  Result<FatTree> tree = FatTree::Create(k, endpoints);
  EXPECT_TRUE(tree.ok()) << tree.error().reason;
  return std::make_shared<FatTree>(tree.value());
}

TEST(UpDownRouting, NET_6_5_PathsAreTwoFourOrSixLinksByLocality) {
  const std::shared_ptr<const FatTree> tree = MakeTree(8, 128);
  const UpDownRouting updown(tree);
  for (NodeId src = 0; src < tree->EndpointCount(); ++src) {
    for (NodeId dst = 0; dst < tree->EndpointCount(); ++dst) {
      Result<Path> path = TracePath(updown, src, dst);
      ASSERT_TRUE(path.ok()) << path.error().reason;
      size_t expected = 6;  // Through a core switch.
      if (src == dst) {
        expected = 0;
      } else if (tree->EdgeIndexOfHost(src) == tree->EdgeIndexOfHost(dst)) {
        expected = 2;
      } else if (tree->PodOf(src) == tree->PodOf(dst)) {
        expected = 4;
      }
      ASSERT_EQ(path->size(), expected)
          << "node" << src << " -> node" << dst
          << ": same edge 2, same pod 4, across pods 6 links";
    }
  }
}

TEST(UpDownRouting, NET_4_4_PartlyPopulatedTreeOf256HostsDeliversAllPairs) {
  const UpDownRouting updown(MakeTree(FatTree::RadixFor(256), 256));
  Result<HopStats> stats = RouteHopStats(updown);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_EQ(stats->max_hops, 6u) << "no path is longer than via a core";
}

TEST(UpDownRouting, NET_4_4_UpLinkChoiceSpreadsDestinationsOverAggregations) {
  const std::shared_ptr<const FatTree> tree = MakeTree(4, 16);
  const UpDownRouting updown(tree);
  // Hosts 4 and 5 share an edge switch; from pod 0 their routes climb
  // through different aggregation switches.
  Result<Path> to4 = TracePath(updown, 0, 4);
  Result<Path> to5 = TracePath(updown, 0, 5);
  ASSERT_TRUE(to4.ok() && to5.ok());
  EXPECT_NE((*to4)[1].port, (*to5)[1].port)
      << "the edge's up port follows dst mod k/2";
}

TEST(UpDownRouting, NET_4_7_OneVcClassIsDeadlockFree) {
  const UpDownRouting updown(MakeTree(8, 128));
  Result<ChannelDependencyGraph> graph = ChannelDependencyGraph::Build(updown);
  ASSERT_TRUE(graph.ok()) << graph.error().reason;
  const std::vector<Channel> cycle = graph->FindCycle();
  EXPECT_TRUE(cycle.empty())
      << "up/down never turns up after down: "
      << ChannelDependencyGraph::Describe(updown.topology(), cycle);
}

}  // namespace
}  // namespace lq::topo
