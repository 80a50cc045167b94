// SPDX-License-Identifier: Apache-2.0
// Unit tests of a run's trace: message spans sampled to trace.max_spans,
// with the sampling said in the trace, and the fabric manager's steps.
#include "systemc/app/run_tracer.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "gtest/gtest.h"

namespace lq::app {
namespace {

nlohmann::json Written(RunTracer& tracer, const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  EXPECT_TRUE(tracer.Finish(path, true));
  return nlohmann::json::parse(std::ifstream(path));
}

TEST(RunTracer, SamplesMessagesToTheMostSpansAndSaysSo) {
  ParamSet params(TraceParamSpecs());
  ASSERT_FALSE(params.Set("trace.max_spans", "2"));
  RunTracer tracer(params);
  // Out of order: sampled in order of posting.
  tracer.Messages("SEND", {{0, 1, 40, 50},
                           {0, 2, 0, 10},
                           {1, 0, 30, 35},
                           {2, 0, 10, 20},
                           {1, 2, 20, 25}});
  const auto trace = Written(tracer, "sampled.json");
  std::vector<double> starts;
  std::string sampled;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X") {
      starts.push_back(event["ts"].get<double>() * 1000);
    } else if (event["ph"] == "i") {
      sampled = event["name"];
    }
  }
  EXPECT_EQ(starts, (std::vector<double>{0, 30})) << "1 in 3, from the first";
  EXPECT_EQ(sampled, "sampled: 1 in 3 of 5 SENDs");
}

TEST(RunTracer, KeepsEveryMessageUnderTheMost) {
  ParamSet params(TraceParamSpecs());
  RunTracer tracer(params);
  tracer.Messages("flow", {{3, 0, 0, 1000}, {4, 0, 0, 2000}});
  const auto trace = Written(tracer, "all.json");
  int spans = 0;
  for (const auto& event : trace["traceEvents"]) {
    spans += event["ph"] == "X";
    EXPECT_NE(event["ph"], "i") << "nothing sampled, nothing said";
  }
  EXPECT_EQ(spans, 2);
}

TEST(RunTracer, TracesTheFabricManagersSteps) {
  ParamSet params(TraceParamSpecs());
  RunTracer tracer(params);
  FaultOutcome fault;
  fault.at_ns = 100;
  net::RouteUpdate update;
  update.first_event = sc_core::sc_time(101, sc_core::SC_NS);
  update.computed = sc_core::sc_time(200, sc_core::SC_NS);
  update.frozen = sc_core::sc_time(210, sc_core::SC_NS);
  update.switched = sc_core::sc_time(220, sc_core::SC_NS);
  update.resumed = sc_core::sc_time(230, sc_core::SC_NS);
  fault.update = update;
  tracer.FabricManager(fault);
  const auto trace = Written(tracer, "fm.json");
  std::vector<std::string> steps;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X") {
      steps.push_back(event["name"]);
    }
  }
  EXPECT_EQ(steps,
            (std::vector<std::string>{"report", "compute", "write, freeze",
                                      "drain, switch", "resume"}));
}

}  // namespace
}  // namespace lq::app
