// SPDX-License-Identifier: Apache-2.0
// The supernode run's headline (systemc/app/supernode_headline): each row
// reads its figure from the phases' stats, holds or not against the seed's
// claim, and says why when it has no figure: a phase that failed, was left
// out, was skipped, or gave no number. The end-to-end test
// (app.default_headline_table) runs the real phases; these feed the rows
// stats by hand.
#include "systemc/app/supernode_headline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testbench/app/scenario_params.h"

namespace lq::app {
namespace {

using Json = nlohmann::ordered_json;

PhaseResult Finished(const std::string& name, const std::string& stats) {
  PhaseResult result;
  result.name = name;
  result.stats = Json::parse(stats);
  return result;
}

PhaseResult Failed(const std::string& name) {
  PhaseResult result;
  result.name = name;
  result.exit_status = 1;
  result.failure = "exited with status 1";
  return result;
}

// The row of `claim_start` in the headline of `results`.
HeadlineRow Row(const std::vector<PhaseResult>& results,
                const std::string& claim_start,
                std::map<std::string, std::string> skipped = {}) {
  const Phases phases(results, std::move(skipped));
  for (const HeadlineRow& row :
       Headline(phases, ScenarioParams({{"link.profile", "pcie6"}}))) {
    if (row.claim.rfind(claim_start, 0) == 0) {
      return row;
    }
  }
  ADD_FAILURE() << "no row " << claim_start;
  return {};
}

TEST(SupernodeHeadline, RowsHoldOrNotByTheirClaimsThreshold) {
  const auto latency = [](double mean) {
    return Row(
        {Finished("uniform", R"({"nodes": 256, "latency_ns": {"mean": )" +
                                 std::to_string(mean) + R"(, "p99": 690}})")},
        "< 1.2 us");
  };
  EXPECT_STREQ(Verdict(latency(402)), "holds");
  EXPECT_EQ(latency(402).measured,
            "402 ns mean one-way (p99 690), uniform random messages on 256 "
            "cards");
  EXPECT_STREQ(Verdict(latency(1300)), "does not hold");

  const std::vector<PhaseResult> hops = {
      Finished("torus_hops", R"({"hops": {"mean": 5.01}})"),
      Finished("fat_tree_hops", R"({"hops": {"mean": 5.69}})")};
  EXPECT_STREQ(Verdict(Row(hops, "~50 %")), "does not hold");
  EXPECT_EQ(Row(hops, "~50 %").phase, "hops");
}

TEST(SupernodeHeadline, APhaseWithoutTheFigureGivesNoVerdict) {
  const HeadlineRow row =
      Row({Finished("uniform", R"({"nodes": 256})")}, "< 1.2 us");
  EXPECT_EQ(row.measured, "not measured: the phase gave no figure");
  EXPECT_FALSE(row.holds.has_value());
  EXPECT_STREQ(Verdict(row), "-");

  // One of several figures missing is enough.
  const HeadlineRow failover =
      Row({Finished("link_cut", R"({"faults": [{"recovered_ns": 1.37e6}]})"),
           Finished("node_failure", R"({"faults": []})")},
          "< 50 ms");
  EXPECT_EQ(failover.measured, "not measured: the phase gave no figure");
  EXPECT_STREQ(Verdict(failover), "-");
}

TEST(SupernodeHeadline, RowsSayWhyAPhaseGaveNothing) {
  EXPECT_EQ(Row({Failed("uniform")}, "< 1.2 us").measured,
            "not measured: the phase failed");
  EXPECT_EQ(Row({}, "< 1.2 us").measured,
            "not measured: left out by run.phases");
  EXPECT_EQ(Row({}, "2.1 us", {{"remote_access", "no firmware in this build"}})
                .measured,
            "not measured: no firmware in this build");
  const HeadlineRow pfc =
      Row({Finished("incast_pfc", R"({"transport": {"xoff_frames": 0}})"),
           Finished("incast_dcqcn", R"({"transport": {"xoff_frames": 0}})"),
           Finished("incast_lqcc", R"({"transport": {"xoff_frames": 0}})")},
          "-70 %");
  EXPECT_EQ(pfc.measured,
            "not measured: PFC alone sent no XOFF, so nothing to cut");
  EXPECT_STREQ(Verdict(pfc), "-");
}

TEST(SupernodeHeadline, StatsJsonKeepsTheVerdictOrNull) {
  const Json json = HeadlineJson(
      {Row({Finished(
               "uniform",
               R"({"nodes": 256, "latency_ns": {"mean": 402, "p99": 690}})")},
           "< 1.2 us"),
       Row({}, "1.2 TB/s")});
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0]["holds"], true);
  EXPECT_TRUE(json[1]["holds"].is_null());
  EXPECT_EQ(json[1]["phase"], "alltoall");
}

}  // namespace
}  // namespace lq::app
