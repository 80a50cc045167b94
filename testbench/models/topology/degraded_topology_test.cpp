// SPDX-License-Identifier: Apache-2.0
// Tests of the degraded-topology view that failure handling routes on.
#include "models/topology/degraded_topology.h"

#include <gtest/gtest.h>

#include "models/topology/torus.h"

namespace lq::topo {
namespace {

std::shared_ptr<const Torus> MakeTorus() {
  return std::make_shared<Torus>(Torus::Create({4, 4}).value());
}

TEST(DegradedTopology, NET_7_6_FailedLinkIsDownFromBothEnds) {
  const std::shared_ptr<const Torus> torus = MakeTorus();
  Result<std::shared_ptr<const DegradedTopology>> view =
      DegradedTopology::Create(torus, FailureSet{{{5, 0}}, {}});
  ASSERT_TRUE(view.ok()) << view.error().reason;
  const PortRef far = torus->Neighbour(5, 0).value();
  EXPECT_FALSE((*view)->Neighbour(5, 0).has_value()) << "the named end";
  EXPECT_FALSE((*view)->Neighbour(far.node, far.port).has_value())
      << "a link fails in both directions";
  EXPECT_TRUE((*view)->Neighbour(5, 1).has_value()) << "other links stay";
  EXPECT_EQ((*view)->PortCount(5), 4u) << "ports keep their numbers";
}

TEST(DegradedTopology, NET_7_10_FailedNodeLosesEveryLink) {
  const std::shared_ptr<const Torus> torus = MakeTorus();
  Result<std::shared_ptr<const DegradedTopology>> view =
      DegradedTopology::Create(torus, FailureSet{{}, {6}});
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE((*view)->NodeUp(6));
  for (PortId port = 0; port < 4; ++port) {
    EXPECT_FALSE((*view)->Neighbour(6, port).has_value());
    const PortRef far = torus->Neighbour(6, port).value();
    EXPECT_FALSE((*view)->Neighbour(far.node, far.port).has_value())
        << "neighbours see the link to a dead node as down";
  }
  EXPECT_EQ((*view)->Describe(),
            "torus 4x4 with 0 failed links and 1 failed nodes");
}

TEST(DegradedTopology, NET_7_6_RejectsFailuresThatDoNotExist_fail) {
  const std::shared_ptr<const Torus> line =
      std::make_shared<Torus>(Torus::Create({1, 4}).value());
  EXPECT_FALSE(DegradedTopology::Create(line, FailureSet{{}, {4}}).ok())
      << "no node 4";
  EXPECT_FALSE(DegradedTopology::Create(line, FailureSet{{{0, 0}}, {}}).ok())
      << "port 0 (+X) of a ring of one is not cabled";
  EXPECT_FALSE(DegradedTopology::Create(line, FailureSet{{{9, 2}}, {}}).ok())
      << "no node 9";
}

}  // namespace
}  // namespace lq::topo
