// SPDX-License-Identifier: Apache-2.0
// Unit tests of the study registry: each run reads every key it is given,
// or refuses it with a message naming the key, why, and what would read it.
#include "systemc/app/study.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "systemc/app/key_usage.h"
#include "systemc/app/run_command.h"
#include "systemc/app/stack_study.h"
#include "systemc/app/supernode_run.h"

namespace lq::app {
namespace {

// The check of a run of the embedded default with these --set overrides.
std::optional<std::string> Check(const std::vector<std::string>& overrides) {
  RunOptions options;
  options.overrides = overrides;
  const auto params = ReadScenarioParams(options);
  EXPECT_TRUE(params.ok()) << params.error().reason;
  return CheckScenario(*params, options);
}

bool Mentions(const std::optional<std::string>& message,
              const std::string& text) {
  return message && message->find(text) != std::string::npos;
}

TEST(KeyUsage, AUsedKeyStaysUsedAndAReasonStaysWithTheUnused) {
  KeyUsage usage;
  usage.Use("a.x");
  usage.Skip({"a.x", "a.y"}, "y is off");
  EXPECT_TRUE(usage.Uses("a.x")) << "a skip must not undo a use";
  EXPECT_FALSE(usage.Uses("a.y"));
  EXPECT_EQ(usage.WhySkipped("a.y").value_or(""), "y is off");
  KeyUsage other;
  other.Use("a.y");
  usage.Merge(other);
  EXPECT_TRUE(usage.Uses("a.y")) << "merged: read by either";
  EXPECT_FALSE(usage.WhySkipped("a.y")) << "a read key has no reason";
  usage.UseIf(false, {"a.z"}, "z is off");
  EXPECT_EQ(usage.WhySkipped("a.z").value_or(""), "z is off");
}

TEST(Study, EmbeddedDefaultAndItsPhasesPassTheirChecks) {
  EXPECT_FALSE(Check({})) << *Check({});
}

TEST(Study, EveryPhaseReadsEverySettingItMakes) {
  // With nothing given by the user, what a phase's scenario was given is
  // exactly the phase's own settings.
  const auto params = ReadScenarioParams(RunOptions{});
  ASSERT_TRUE(params.ok());
  ASSERT_TRUE(params->given().empty()) << "the embedded default is defaults";
  const auto phases = PhaseScenarios(*params);
  EXPECT_GE(phases.size(), 12u) << "every phase but, maybe, the probe";
  for (const auto& [name, scenario] : phases) {
    EXPECT_FALSE(scenario.given().empty()) << name;
    const auto error = CheckScenario(scenario, RunOptions{});
    EXPECT_FALSE(error) << "phase " << name << ": " << *error;
  }
}

TEST(Study, RefusesAWorkloadTheStudyDoesNotRun) {
  const auto error = Check({"run.study=network", "workload.name=incast"});
  EXPECT_TRUE(Mentions(error, "run.study network does not run incast"))
      << error.value_or("accepted");
}

TEST(Study, RefusesAKeyItsWorkloadDoesNotReadNamingWhatWould) {
  const auto error =
      Check({"run.study=network", "sim.cycles=2000", "collective.bytes=4096"});
  EXPECT_TRUE(Mentions(error,
                       "collective.bytes: run.study network with "
                       "workload.name traffic does not read it"))
      << error.value_or("accepted");
  EXPECT_TRUE(Mentions(error, "alltoall")) << "names the workloads that would";
}

TEST(Study, RefusesAKeyItsSettingsLeaveUnreadSayingWhy) {
  const auto fault =
      Check({"run.study=network", "sim.cycles=2000", "fault.node=3"});
  EXPECT_TRUE(Mentions(fault, "fault.node: ") &&
              Mentions(fault, "fault.kind is none"))
      << fault.value_or("accepted");
  const auto dims = Check({"run.study=stack", "topology.name=fullmesh",
                           "routing.name=fullmesh", "topology.dims=4x4"});
  EXPECT_TRUE(Mentions(dims, "topology.dims: ") &&
              Mentions(dims, "topology.name is fullmesh"))
      << dims.value_or("accepted");
  const auto clock = Check({"run.study=stack", "link.fidelity=ideal",
                            "workload.name=incast", "router.clock_ghz=2"});
  EXPECT_TRUE(Mentions(clock, "router.clock_ghz: ") &&
              Mentions(clock, "flit rate"))
      << clock.value_or("accepted");
  const auto ber = Check({"run.study=stack", "link.fidelity=ideal",
                          "workload.name=incast", "link.ber=1e-5"});
  EXPECT_TRUE(Mentions(ber, "link.ber: ")) << ber.value_or("accepted");
}

TEST(Study, PhasesAcceptAKeyOnlyIfASelectedPhaseReadsIt) {
  EXPECT_FALSE(Check({"collective.order=snake"}))
      << "the allreduce phase reads collective.order";
  const auto incast = Check({"run.phases=incast", "collective.order=snake"});
  EXPECT_TRUE(Mentions(incast, "collective.order: run.study phases"))
      << incast.value_or("accepted");
  const auto workload = Check({"workload.name=incast"});
  EXPECT_TRUE(Mentions(workload, "each phase names its own"))
      << workload.value_or("accepted");
}

TEST(Study, TheStackRunsTrafficAndIncastOnEitherLinkFidelity) {
  const auto names = StackWorkloadNames();
  EXPECT_EQ(names, (std::vector<std::string>{
                       "traffic", "alltoall", "ring_allreduce",
                       "hierarchical_allreduce", "incast", "remote_access"}));
  RunOptions options;
  options.overrides = {"run.study=stack", "link.fidelity=ideal"};
  auto traffic = ReadScenarioParams(options);
  ASSERT_TRUE(traffic.ok());
  EXPECT_FALSE(CheckStackStudy(*traffic, RunOptions{}))
      << "traffic runs over ideal links (decision 0034)";
  EXPECT_FALSE(StackStudyKeys(*traffic).Uses("link.ber"));
  ParamSet hotspot = *traffic;
  ASSERT_FALSE(hotspot.Set("traffic.pattern", "hotspot"));
  ASSERT_FALSE(hotspot.Set("link.fidelity", "tlm"));
  EXPECT_FALSE(CheckStackStudy(hotspot, RunOptions{}))
      << "and any pattern over tlm links";
  EXPECT_TRUE(StackStudyKeys(hotspot).Uses("link.ber"));
  options.overrides.push_back("workload.name=incast");
  options.overrides.push_back("topology.dims=4x4");
  options.overrides.push_back("transport.senders=2");
  const auto incast = ReadScenarioParams(options);
  ASSERT_TRUE(incast.ok());
  EXPECT_FALSE(CheckStackStudy(*incast, RunOptions{}))
      << "an incast runs over ideal links";
  ParamSet tlm = *incast;
  ASSERT_FALSE(tlm.Set("link.fidelity", "tlm"));
  EXPECT_FALSE(CheckStackStudy(tlm, RunOptions{}))
      << "and over tlm links, on cards without boards";
  EXPECT_TRUE(StackStudyKeys(tlm).Uses("link.ber"))
      << "tlm links have bit errors";
  EXPECT_FALSE(StackStudyKeys(*incast).Uses("link.ber"))
      << "ideal links have none";
}

TEST(Study, AScenarioFileRunsTheStack) {
  RunOptions options;
  options.scenario_file = "/dev/null";  // an empty document
  const auto params = ReadScenarioParams(options);
  ASSERT_TRUE(params.ok()) << params.error().reason;
  EXPECT_EQ(params->Text("run.study"), "stack");
  EXPECT_TRUE(params->given().empty());
}

}  // namespace
}  // namespace lq::app
