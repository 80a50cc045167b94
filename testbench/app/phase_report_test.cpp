// SPDX-License-Identifier: Apache-2.0
// Unit tests of the default run's per-phase sections: each figure read from
// a phase's stats with its unit, nothing for what the stats lack, and the
// phase's own integrity.
#include "systemc/app/phase_report.h"

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace lq::app {
namespace {

using Json = nlohmann::ordered_json;

bool Has(const std::vector<std::string>& figures, const std::string& text) {
  for (const auto& figure : figures) {
    if (figure.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(PhaseReport, FiguresCarryTheirUnits) {
  const Json stats = Json::parse(R"({
    "latency_ns": {"mean": 244.4, "p99": 12345, "max": 20000},
    "bandwidth": {"aggregate_GBps": 1808.44},
    "transport": {"ops": 16, "retransmits": 0, "xoff_frames": 3},
    "link": {"flits": 99, "crc_errors": 1, "replays": 2},
    "faults": [{"kind": "node", "node": 21, "at_ns": 100000,
                "recovered_ns": null, "dropped": 7}]})");
  const auto figures = PhaseFigures(stats);
  EXPECT_TRUE(Has(figures, "latency mean 244 ns, p99 12.3 us, max 20.0 us"));
  EXPECT_TRUE(Has(figures, "1808.4 GB/s delivered"));
  EXPECT_TRUE(Has(figures, "transport 16 operations, 0 retransmits, 3 XOFF"));
  EXPECT_TRUE(Has(figures, "links 99 flits, 1 CRC errors, 2 replays"));
  EXPECT_TRUE(Has(figures,
                  "node 21 fails at 100.0 us, not recovered, 7 "
                  "packets dropped"));
  EXPECT_FALSE(Has(figures, "collective")) << "nothing the stats lack";
  EXPECT_FALSE(Has(figures, "hops"));
}

TEST(PhaseReport, ACollectiveSaysHowMuchOfItsBoundItReached) {
  const Json stats = Json::parse(R"({"collective": {
    "name": "alltoall", "nodes": 16, "buffer_bytes": 1048576,
    "completed": true, "completed_ns": 14700,
    "algorithm_GBps_per_node": 71.5,
    "bounds": {"bound_by": "injection", "fraction": 0.57}}})");
  EXPECT_TRUE(Has(PhaseFigures(stats),
                  "alltoall of 1048576 B per node on 16 nodes: done at 14.7 "
                  "us, 71.5 GB/s per node; 57 % of its injection bound"));
}

TEST(PhaseReport, IntegrityIsThePhasesOwn) {
  const Json stats =
      Json::parse(R"({"integrity": {"sent": 10, "delivered": 9, "lost": 1}})");
  const IntegrityCounts counts = IntegrityOf(stats);
  EXPECT_EQ(counts.sent, 10u);
  EXPECT_EQ(counts.lost, 1u);
  EXPECT_FALSE(counts.Ok());
  EXPECT_TRUE(IntegrityOf(Json::object()).Ok()) << "none counted, none lost";
}

TEST(PhaseReport, AFailedPhaseSaysWhy) {
  PhaseResult failed;
  failed.name = "incast_pfc";
  failed.failure = "exit status 1";
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  PrintPhaseSections({{&failed, "incast", "routers"}}, out);
  std::rewind(out);
  char text[512] = {};
  const size_t read = std::fread(text, 1, sizeof(text) - 1, out);
  std::fclose(out);
  const std::string printed(text, read);
  EXPECT_NE(printed.find("  incast_pfc (incast), 0.0 s wall: routers\n"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("    failed: exit status 1\n"), std::string::npos)
      << printed;
}

}  // namespace
}  // namespace lq::app
