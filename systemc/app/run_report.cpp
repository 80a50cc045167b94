// SPDX-License-Identifier: Apache-2.0
// Rendering of a run's figures as a table and as stats JSON.
#include "systemc/app/run_report.h"

#include <algorithm>
#include <fstream>
#include <numeric>

#include "systemc/app/build_info.h"
#include "systemc/app/supernode_headline.h"

namespace lq::app {

uint64_t RunReport::Lost() const {
  const uint64_t accounted = outcome.delivered + outcome.corrupted +
                             outcome.reordered + outcome.endpoint_failed;
  return expected > accounted ? expected - accounted : 0;
}

bool RunReport::IntegrityOk() const {
  return Lost() == 0 && outcome.duplicated == 0 && outcome.corrupted == 0 &&
         outcome.reordered == 0 &&
         outcome.posted + outcome.unposted == expected;
}

std::string IntegrityCounts::Line() const {
  char text[200];
  const int n = std::snprintf(text, sizeof(text), "sent %llu, delivered %llu",
                              static_cast<unsigned long long>(sent),
                              static_cast<unsigned long long>(delivered));
  if (endpoint_failed > 0) {
    std::snprintf(text + n, sizeof(text) - n,
                  ", failed %llu (to or from the failed node)",
                  static_cast<unsigned long long>(endpoint_failed));
  }
  std::string line = text;
  std::snprintf(text, sizeof(text),
                ", lost %llu, duplicated %llu, corrupted %llu",
                static_cast<unsigned long long>(lost),
                static_cast<unsigned long long>(duplicated),
                static_cast<unsigned long long>(corrupted));
  return line + text;
}

nlohmann::ordered_json IntegrityCounts::Json() const {
  return {{"sent", sent},
          {"delivered", delivered},
          {"endpoint_failed", endpoint_failed},
          {"lost", lost},
          {"duplicated", duplicated},
          {"corrupted", corrupted}};
}

namespace {

// The nearest-rank `p`th percentile of sorted, non-empty `samples`:
// deterministic and exact for the sample set (the 0th is the minimum).
double Rank(const std::vector<double>& samples, double p) {
  const size_t index = static_cast<size_t>(
      std::ceil(p / 100.0 * static_cast<double>(samples.size())));
  return samples[std::clamp<size_t>(index, 1, samples.size()) - 1];
}

}  // namespace

LatencySummary Summarise(std::vector<double> samples) {
  LatencySummary summary;
  if (samples.empty()) {
    return summary;
  }
  std::sort(samples.begin(), samples.end());
  const auto rank = [&](double p) { return Rank(samples, p); };
  summary.mean = std::accumulate(samples.begin(), samples.end(), 0.0) /
                 static_cast<double>(samples.size());
  summary.p50 = rank(50);
  summary.p99 = rank(99);
  summary.max = samples.back();
  return summary;
}

nlohmann::ordered_json LatencyJson(std::vector<double> samples_ns) {
  const LatencySummary summary = Summarise(samples_ns);
  std::sort(samples_ns.begin(), samples_ns.end());
  nlohmann::ordered_json percentiles = nlohmann::ordered_json::array();
  for (int p = 0; !samples_ns.empty() && p <= 100; ++p) {
    percentiles.push_back(Rank(samples_ns, p));
  }
  return {{"mean", summary.mean},
          {"p50", summary.p50},
          {"p99", summary.p99},
          {"max", summary.max},
          {"percentiles", std::move(percentiles)}};
}

double AggregateGBps(const RunReport& report) {
  if (report.sim_time_ns <= 0) {
    return 0;
  }
  // Bytes per ns is GB/s.
  return static_cast<double>(report.outcome.payload_bytes) / report.sim_time_ns;
}

void PrintReport(const RunReport& report, std::FILE* out) {
  const auto latency = Summarise(report.window.latencies_ns);
  const auto& o = report.outcome;
  std::fprintf(out, "lqemu run: %s (seed %llu)\n", report.scenario.c_str(),
               static_cast<unsigned long long>(report.seed));
  const std::string switches =
      report.switches > 0 ? ", " + std::to_string(report.switches) + " switches"
                          : "";
  std::fprintf(
      out,
      "  fabric     %d cards%s, %d links, profile %s (%.1f Gb/s payload "
      "per link), %s\n",
      report.nodes, switches.c_str(), report.links, report.profile.c_str(),
      report.link_payload_gbps,
      report.tlm_links ? ("tlm links (" + report.link_layer + ")").c_str()
                       : "ideal links");
  std::fprintf(out, "  time       %.1f ns simulated in %.2f s wall\n",
               report.sim_time_ns, report.wall_time_s);
  std::fprintf(out,
               "  latency    mean %.1f ns, p50 %.1f, p99 %.1f, max %.1f "
               "(one-way: SEND posted to receive completed)\n",
               latency.mean, latency.p50, latency.p99, latency.max);
  const MeasuredWindow& w = report.window;
  std::string verdict = "steady";
  if (report.FaultInWindow()) {
    verdict = Format(
        "not a steady state: the fault at %.0f ns falls before "
        "its end",
        report.fault->at_ns);
  } else if (report.Saturated()) {
    verdict = "SATURATED, latency grows with the run's length";
  }
  std::fprintf(
      out,
      "  window     %zu messages posted from %.0f to %.0f ns, after a "
      "warm-up (traffic.warmup_fraction; mean over all %zu: %.1f ns); "
      "posted %.3f, landed %.3f of a link's payload rate per card; mean "
      "latency %.1f ns in its first half, %.1f in its second: %s\n",
      w.latencies_ns.size(), w.warmup_ns, w.end_ns, o.latencies_ns.size(),
      Summarise(o.latencies_ns).mean, w.offered, w.accepted, w.first_half_ns,
      w.second_half_ns, verdict.c_str());
  std::fprintf(
      out,
      "  hops       mean %.3f (shortest paths average %.3f over all pairs)\n",
      report.mean_hops, report.minimal_hops);
  std::fprintf(out, "  bandwidth  %.1f GB/s aggregate payload",
               AggregateGBps(report));
  if (report.tlm_links) {
    std::fprintf(out, "; busiest link direction %.1f%% busy",
                 100.0 * MaxUtilisation(report.counters.directions));
  }
  std::fprintf(out, "\n");
  if (report.tlm_links) {
    PrintLinkLine(report.link, out);
  }
  PrintTransportLine(report.connections, report.transport, out);
  if (report.fault) {
    PrintFault(*report.fault, report.router_clock_ns, out);
  }
  std::fprintf(out, "  integrity  sent %llu, delivered %llu, ",
               static_cast<unsigned long long>(report.expected),
               static_cast<unsigned long long>(o.delivered));
  if (o.endpoint_failed > 0) {
    std::fprintf(out, "failed %llu (to or from the failed node), ",
                 static_cast<unsigned long long>(o.endpoint_failed));
  }
  std::fprintf(out,
               "lost %llu, duplicated %llu, reordered %llu, corrupted %llu: "
               "%s\n",
               static_cast<unsigned long long>(report.Lost()),
               static_cast<unsigned long long>(o.duplicated),
               static_cast<unsigned long long>(o.reordered),
               static_cast<unsigned long long>(o.corrupted),
               report.IntegrityOk() ? "OK" : "FAILED");
  PrintDeadlockLine(report.deadlock, out);
  if (report.ranks) {
    PrintRanks(*report.ranks, out);
  }
}

void PrintDeadlockLine(const DeadlockFinding& deadlock, std::FILE* out) {
  if (deadlock.detected) {
    std::fprintf(out, "  deadlock   at %.0f ns: %s\n", deadlock.at_ns,
                 deadlock.cycle.c_str());
  } else {
    std::fprintf(out, "  deadlock   none\n");
  }
}

nlohmann::ordered_json DeadlockJson(const DeadlockFinding& deadlock) {
  return {{"detected", deadlock.detected},
          {"at_ns", deadlock.at_ns},
          {"cycle", deadlock.cycle}};
}

bool ReportDeadlock(const DeadlockFinding& deadlock) {
  if (deadlock.detected) {
    std::fprintf(stderr, "lqemu run: deadlock at %.0f ns: %s\n", deadlock.at_ns,
                 deadlock.cycle.c_str());
  }
  return deadlock.detected;
}

void PrintLinkLine(const LinkTotals& links, std::FILE* out) {
  std::fprintf(out,
               "  link       %llu flits, %llu FEC-corrected symbols, %llu "
               "CRC errors, %llu replays\n",
               static_cast<unsigned long long>(links.flits),
               static_cast<unsigned long long>(links.fec_corrected),
               static_cast<unsigned long long>(links.crc_errors),
               static_cast<unsigned long long>(links.replays));
}

void PrintTransportLine(uint64_t connections,
                        const transport::FabricFigures& figures,
                        std::FILE* out) {
  std::fprintf(out,
               "  transport  %llu RC connections, %llu packets, %llu "
               "retransmitted; %llu XOFF, %llu ECN-marked\n",
               static_cast<unsigned long long>(connections),
               static_cast<unsigned long long>(figures.packets_sent),
               static_cast<unsigned long long>(figures.retransmits),
               static_cast<unsigned long long>(figures.xoff_frames),
               static_cast<unsigned long long>(figures.ecn_marked));
}

nlohmann::ordered_json LinkTotalsJson(const LinkTotals& links) {
  return {{"flits", links.flits},
          {"fec_corrected", links.fec_corrected},
          {"crc_errors", links.crc_errors},
          {"replays", links.replays}};
}

nlohmann::ordered_json TransportJson(uint64_t ops, uint64_t failed,
                                     uint64_t connections,
                                     const transport::FabricFigures& figures) {
  return {{"ops", ops},
          {"connections", connections},
          {"packets", figures.packets_sent},
          {"retransmits", figures.retransmits},
          {"xoff_frames", figures.xoff_frames},
          {"ecn_marked", figures.ecn_marked},
          {"failed", failed}};
}

std::string WriteStatsJson(const RunReport& report, const std::string& path) {
  const auto& o = report.outcome;
  nlohmann::ordered_json json;
  json["scenario"] = report.scenario;
  json["seed"] = report.seed;
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = report.sim_time_ns;
  json["wall_time_s"] = report.wall_time_s;
  json["nodes"] = report.nodes;
  json["links"] = report.links;
  json["latency_ns"] = LatencyJson(report.window.latencies_ns);
  json["window"] = {{"warmup_ns", report.window.warmup_ns},
                    {"end_ns", report.window.end_ns},
                    {"messages", report.window.latencies_ns.size()},
                    {"offered", report.window.offered},
                    {"accepted", report.window.accepted},
                    {"latency_first_half_ns", report.window.first_half_ns},
                    {"latency_second_half_ns", report.window.second_half_ns},
                    {"saturated", report.Saturated()},
                    {"fault_in_window", report.FaultInWindow()},
                    {"latency_mean_all_ns", Summarise(o.latencies_ns).mean}};
  json["hops"] = {{"mean", report.mean_hops}, {"minimal", report.minimal_hops}};
  json["bandwidth"] = {
      {"aggregate_GBps", AggregateGBps(report)},
      {"max_link_utilisation", MaxUtilisation(report.counters.directions)}};
  if (report.tlm_links) {
    json["link"] = LinkTotalsJson(report.link);
  }
  report.counters.AddTo(json);
  json["transport"] =
      TransportJson(o.posted, o.failed, report.connections, report.transport);
  json["faults"] = nlohmann::ordered_json::array();
  if (report.fault) {
    json["faults"].push_back(FaultJson(*report.fault));
  }
  json["integrity"] = {{"sent", report.expected},
                       {"delivered", o.delivered},
                       {"endpoint_failed", o.endpoint_failed},
                       {"lost", report.Lost()},
                       {"duplicated", o.duplicated},
                       {"reordered", o.reordered},
                       {"corrupted", o.corrupted}};
  json["deadlock"] = DeadlockJson(report.deadlock);
  if (report.ranks) {
    json["ranks"] = RanksJson(*report.ranks);
  }
  json["parameters"] = report.parameters;
  return WriteJsonFile(json, path);
}

nlohmann::ordered_json ParametersJson(const ParamSet& params) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const ParamSpec& spec : params.specs()) {
    if (!params.HoldsNumber(spec.key)) {
      json[spec.key] = params.Text(spec.key);
    } else if (spec.type == ParamType::kInteger) {
      json[spec.key] = params.Integer(spec.key);
    } else {
      json[spec.key] = params.Real(spec.key);
    }
  }
  return json;
}

std::string WriteJsonFile(const nlohmann::ordered_json& json,
                          const std::string& path) {
  std::ofstream file(path);
  if (!file) {
    return path + ": cannot write the file";
  }
  file << json.dump(2) << "\n";
  return file ? "" : path + ": write failed";
}

}  // namespace lq::app
