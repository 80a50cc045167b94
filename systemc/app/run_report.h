// The figures a finished run produced, and their two renderings: the table a
// person reads and the stats JSON (schema: docs/stats-schema.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "systemc/fabric/fabric.h"

namespace lq::app {

struct RunReport {
  std::string scenario;  // File name, or "default".
  uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> values;  // Every key.
  double sim_time_ns = 0;  // When the last message was delivered.
  double wall_time_s = 0;
  int nodes = 0;
  int links = 0;  // Bidirectional links.
  std::string profile;
  double minimal_hops = 0;  // Mean shortest-path hops over all node pairs.
  double link_payload_gbps = 0;
  fabric::FabricTotals totals;

  uint64_t Lost() const;
  bool IntegrityOk() const;
};

// What a run did to its data: units (messages, packets or work requests)
// sent, delivered once and intact, lost, delivered again, and delivered
// corrupted.
struct IntegrityCounts {
  uint64_t sent = 0, delivered = 0, lost = 0, duplicated = 0, corrupted = 0;
  bool Ok() const { return lost == 0 && duplicated == 0 && corrupted == 0; }
  // "sent S, delivered D, lost L, duplicated U, corrupted C".
  std::string Line() const;
  // The stats file's `integrity` object.
  nlohmann::ordered_json Json() const;
};

// Latency summary in ns: mean, p50, p99, max (0 when nothing arrived).
struct LatencySummary {
  double mean = 0, p50 = 0, p99 = 0, max = 0;
};
LatencySummary Summarise(std::vector<double> samples);

// A stats file's `latency_ns` object from samples in ns: mean, p50, p99,
// max, and `percentiles`, the 0th to the 100th (101 values, nearest-rank;
// empty when nothing arrived), from which scripts/plot draws the CDF.
nlohmann::ordered_json LatencyJson(std::vector<double> samples_ns);

// Aggregate delivered payload bandwidth in GB/s over the simulated time.
double AggregateGBps(const RunReport& report);

void PrintReport(const RunReport& report, std::FILE* out);

// The `parameters` object of a stats file: every key with its value.
nlohmann::ordered_json ParametersJson(
    const std::vector<std::pair<std::string, std::string>>& values);

// Writes `json` to `path`, indented; returns an error message on failure.
std::string WriteJsonFile(const nlohmann::ordered_json& json,
                          const std::string& path);

// Writes the stats JSON; returns an error message on failure.
std::string WriteStatsJson(const RunReport& report, const std::string& path);

}  // namespace lq::app
