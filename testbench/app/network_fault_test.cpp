// SPDX-License-Identifier: Apache-2.0
// The fault.* and fm.* keys of a network study (NET-7): what they build,
// and the bad input they refuse before anything is simulated.
#include "systemc/app/network_fault.h"

#include <gtest/gtest.h>

#include "models/topology/topology_registry.h"
#include "testbench/app/scenario_params.h"

namespace lq::app {
namespace {

const auto kTorus = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();

TEST(NetworkFault, NET_7_2_KeysBuildThePlanAndTheFabricManagersTimers) {
  const ParamSet params = ScenarioParams({{"fault.kind", "link"},
                                          {"fault.node", "5"},
                                          {"fault.port", "2"},
                                          {"fault.at_cycles", "100"},
                                          {"sim.cycles", "1000"},
                                          {"fm.oob_latency", "2"},
                                          {"fm.holdoff", "50"},
                                          {"fm.compute_time", "0.5"},
                                          {"fm.drain_timeout", "3"}});
  const auto plan = ScenarioFault(params, *kTorus, 3, 1000);
  ASSERT_TRUE(plan.ok()) << plan.error().reason;
  ASSERT_TRUE(plan->has_value());
  const FaultPlan& p = **plan;
  EXPECT_EQ(p.kind, FaultPlan::Kind::kLink);
  EXPECT_EQ(p.node, 5u);
  EXPECT_EQ(p.port, 2u);
  EXPECT_DOUBLE_EQ(p.at_cycles, 100);
  EXPECT_EQ(p.fabric_manager.oob_latency, sc_core::sc_time(2, sc_core::SC_US));
  EXPECT_EQ(p.fabric_manager.holdoff, sc_core::sc_time(50, sc_core::SC_US));
  EXPECT_EQ(p.fabric_manager.compute_time,
            sc_core::sc_time(500, sc_core::SC_US));
  EXPECT_EQ(p.fabric_manager.drain_timeout,
            sc_core::sc_time(3, sc_core::SC_MS));
  EXPECT_EQ(p.fabric_manager.table_classes, 3u) << "the study's VC classes";

  const auto none = ScenarioFault(ScenarioParams({}), *kTorus, 2, 1000);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value()) << "fault.kind none injects nothing";
}

TEST(NetworkFault, RejectsFaultsOutsideTheTopologyOrTheRun_fail) {
  const std::vector<
      std::pair<std::vector<std::pair<std::string, std::string>>, std::string>>
      cases = {
          {{{"fault.kind", "link"}, {"fault.port", "4"}}, "has no cable"},
          {{{"fault.kind", "link"}, {"fault.node", "16"}}, "has no cable"},
          {{{"fault.kind", "node"}, {"fault.node", "16"}}, "no endpoint 16"},
          {{{"fault.kind", "link"}, {"fault.at_cycles", "0"}},
           "inside a timed run"},
          {{{"fault.kind", "link"}, {"fault.at_cycles", "1000"}},
           "inside a timed run"},
      };
  for (const auto& [set, needle] : cases) {
    auto with_run = set;
    with_run.push_back({"sim.cycles", "1000"});
    if (set.back().first != "fault.at_cycles") {
      with_run.push_back({"fault.at_cycles", "10"});
    }
    const auto plan = ScenarioFault(ScenarioParams(with_run), *kTorus, 2, 1000);
    ASSERT_FALSE(plan.ok()) << needle;
    EXPECT_NE(plan.error().reason.find(needle), std::string::npos)
        << plan.error().reason;
  }
  const ParamSet at_10 =
      ScenarioParams({{"fault.kind", "link"}, {"fault.at_cycles", "10"}});
  const auto untimed = ScenarioFault(at_10, *kTorus, 2, 0);
  ASSERT_FALSE(untimed.ok()) << "a timed study's fault needs sim.cycles";
  EXPECT_TRUE(ScenarioFault(at_10, *kTorus, 2, std::nullopt).ok())
      << "a run to completion (the stack's) takes a fault at any time";
  const auto at_0 = ScenarioFault(
      ScenarioParams({{"fault.kind", "link"}, {"fault.at_cycles", "0"}}),
      *kTorus, 2, std::nullopt);
  ASSERT_FALSE(at_0.ok());
  EXPECT_NE(at_0.error().reason.find("at least 1"), std::string::npos)
      << at_0.error().reason;
}

}  // namespace
}  // namespace lq::app
