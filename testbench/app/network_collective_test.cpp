// SPDX-License-Identifier: Apache-2.0
// The collective workloads (workload.name) and collective.* keys of a network
// study: the schedule they build over the topology's endpoints, and the bad
// input they refuse.
#include "systemc/app/network_collective.h"

#include <gtest/gtest.h>

#include "models/topology/topology_registry.h"
#include "testbench/app/scenario_params.h"

namespace lq::app {
namespace {

TEST(NetworkCollective, KeysBuildTheScheduleOverEveryEndpoint) {
  const auto torus = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  const auto ring =
      ScenarioCollective(ScenarioParams({{"workload.name", "ring_allreduce"},
                                         {"collective.bytes", "4096"},
                                         {"collective.order", "snake"},
                                         {"sim.cycles", "0"}}),
                         *torus);
  ASSERT_TRUE(ring.ok()) << ring.error().reason;
  ASSERT_TRUE(ring->has_value());
  EXPECT_EQ((*ring)->nodes, 16u);
  EXPECT_EQ((*ring)->buffer_bytes, 4096u);
  EXPECT_EQ((*ring)->steps, 30u) << "2(N-1) steps of a ring AllReduce";

  const auto hierarchical = ScenarioCollective(
      ScenarioParams(
          {{"workload.name", "hierarchical_allreduce"}, {"sim.cycles", "0"}}),
      *torus);
  ASSERT_TRUE(hierarchical.ok()) << hierarchical.error().reason;
  EXPECT_EQ((*hierarchical)->buffer_bytes, 1048576u)
      << "collective.bytes 0 keeps the collective's own default";

  const auto none = ScenarioCollective(ScenarioParams({}), *torus);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST(NetworkCollective, RejectsATimedRunAndShapesItCannotUse_fail) {
  const auto torus = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  const auto timed = ScenarioCollective(
      ScenarioParams({{"workload.name", "alltoall"}, {"sim.cycles", "1000"}}),
      *torus);
  ASSERT_FALSE(timed.ok());
  EXPECT_NE(timed.error().reason.find("runs to completion"), std::string::npos);

  const auto mesh = topo::CreateTopology("fullmesh", {}).value();
  const auto no_torus = ScenarioCollective(
      ScenarioParams(
          {{"workload.name", "hierarchical_allreduce"}, {"sim.cycles", "0"}}),
      *mesh);
  ASSERT_FALSE(no_torus.ok()) << "hierarchical AllReduce needs torus rings";
  EXPECT_NE(no_torus.error().reason.find("collective:"), std::string::npos);
}

}  // namespace
}  // namespace lq::app
