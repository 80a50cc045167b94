// SPDX-License-Identifier: Apache-2.0
// ClusterTracer: a run of boards as trace events. It taps a cluster's
// callbacks without replacing those already set, puts console lines, CPU
// events and faults on their tracks as instants, and makes each port's
// LTSSM states spans, closed by the next state or by Finish().
#include "systemc/app/cluster_tracer.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

namespace lq::app {
namespace {

using nlohmann::ordered_json;

// The trace's events of phase `ph`, as "process/track/name@ts[+dur]".
std::vector<std::string> Events(const ChromeTrace& trace, const char* ph) {
  const ordered_json json = trace.Json();
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> tracks;
  for (const auto& event : json["traceEvents"]) {
    if (event["name"] == "process_name") {
      processes[event["pid"]] = event["args"]["name"];
    } else if (event["name"] == "thread_name") {
      tracks[{event["pid"], event["tid"]}] = event["args"]["name"];
    }
  }
  std::vector<std::string> found;
  for (const auto& event : json["traceEvents"]) {
    if (event["ph"] != ph) {
      continue;
    }
    std::string text = processes[event["pid"]] + "/" +
                       tracks[{event["pid"], event["tid"]}] + "/" +
                       event["name"].get<std::string>() + "@" +
                       std::to_string(event["ts"].get<double>());
    if (event.contains("dur")) {
      text += "+" + std::to_string(event["dur"].get<double>());
    }
    found.push_back(text);
  }
  return found;
}

TEST(ClusterTracer, TapsTheCallbacksAndTracesWhatTheyTell) {
  cluster::ClusterConfig config;
  std::vector<std::string> heard;
  config.on_console_line = [&](const std::string& node,
                               const std::string& line) {
    heard.push_back(node + ": " + line);
  };
  config.on_cpu_log = [&](const std::string& node, const sc_core::sc_time&,
                          const std::string& event) {
    heard.push_back(node + " cpu: " + event);
  };
  ChromeTrace trace;
  ClusterTracer tracer(trace);
  tracer.Attach(config);

  config.on_console_line("node0", "hello");
  config.on_cpu_log("node1", sc_core::sc_time(2, sc_core::SC_US), "irq");
  config.on_link_state("node0", 2, link::LtssmState::kDetectQuiet, 1000000);
  config.on_link_state("node0", 2, link::LtssmState::kL0, 3000000);
  tracer.Fault("node0", "link cut node 0 port 2");
  tracer.Finish(5000);

  EXPECT_EQ(heard, (std::vector<std::string>{"node0: hello", "node1 cpu: irq"}))
      << "the callbacks already set still hear everything";
  // Times in the trace are microseconds; the kernel's time is 0 here.
  EXPECT_EQ(Events(trace, "i"),
            (std::vector<std::string>{"node0/firmware/hello@0.000000",
                                      "node1/cpu/irq@2.000000",
                                      "faults/injected/link cut node 0 port "
                                      "2@0.000000"}));
  EXPECT_EQ(Events(trace, "X"),
            (std::vector<std::string>{
                "node0/link port 2/Detect.Quiet@1.000000+2.000000",
                "node0/link port 2/L0@3.000000+2.000000"}))
      << "a state lasts until the next, the last until Finish()";
}

}  // namespace
}  // namespace lq::app
