// SPDX-License-Identifier: Apache-2.0
// The figures a finished run produced, and their two renderings: the table a
// person reads and the stats JSON (schema: docs/stats-schema.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "systemc/app/deadlock_finding.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/rank_summary.h"
#include "systemc/common/param.h"
#include "systemc/transport/engine_fabric.h"
#include "systemc/transport/traffic_workload.h"

namespace lq::app {

// The link layer's counters summed over every port (link.fidelity tlm).
struct LinkTotals {
  uint64_t flits = 0;          // PHYs: flits serialised, replays included
  uint64_t fec_corrected = 0;  // PHYs: symbols the FEC corrected
  uint64_t crc_errors = 0;     // controllers: flits received bad
  uint64_t replays = 0;        // controllers: replays started

  void Add(const LinkTotals& other) {
    flits += other.flits;
    fec_corrected += other.fec_corrected;
    crc_errors += other.crc_errors;
    replays += other.replays;
  }
};

// A traffic run (workload.name traffic) on the stack.
// The measured window of a traffic run (traffic.warmup_fraction): the
// messages posted from the end of the warm-up to the last post.
struct MeasuredWindow {
  double warmup_ns = 0;              // posts before this warm the fabric up
  double end_ns = 0;                 // the last post
  std::vector<double> latencies_ns;  // of the window's delivered messages
  // Payload per card in the window, as a fraction of one link's payload
  // rate: what the schedule posted (about traffic.load), and what landed
  // in the window shifted by the mean latency.
  double offered = 0, accepted = 0;
  // Mean latency of the messages posted in the window's first and second
  // half: in a saturated fabric the queues, and so the latencies, grow
  // with the run's length instead of settling.
  double first_half_ns = 0, second_half_ns = 0;
  bool Saturated() const { return second_half_ns > 1.2 * first_half_ns; }
};

struct RunReport {
  std::string scenario;  // File name, or "default".
  uint64_t seed = 0;
  nlohmann::ordered_json parameters;  // ParametersJson: every key.
  double sim_time_ns = 0;             // When the last message was delivered.
  MeasuredWindow window;
  double wall_time_s = 0;
  int nodes = 0;     // cards (endpoints)
  int switches = 0;  // routers without a card
  int links = 0;     // Bidirectional links.
  std::string profile;
  bool tlm_links = false;
  std::string link_layer;   // with tlm links: LinkLayerLabel
  double minimal_hops = 0;  // Mean shortest-path hops over all node pairs.
  double mean_hops = 0;     // Of the packets the routers ejected (NET-2.6).
  double link_payload_gbps = 0;
  uint64_t expected = 0;     // messages the schedule holds
  uint64_t connections = 0;  // RC connections the workload set up
  transport::TrafficOutcome outcome;
  transport::FabricFigures transport;
  // The injected fault, at `router_clock_ns` cycles.
  std::optional<FaultOutcome> fault;
  double router_clock_ns = 1;
  LinkTotals link;  // tlm links only
  FabricCounters counters;
  DeadlockFinding deadlock;
  std::optional<RankSummary> ranks;  // a run over MPI ranks (decision 0050)

  // The injected fault struck before the window's last post, so the
  // window's latencies measure the failover, not a steady state.
  bool FaultInWindow() const {
    return fault.has_value() && fault->at_ns <= window.end_ns;
  }
  // The window's latency grew across it with no fault to explain it.
  bool Saturated() const { return window.Saturated() && !FaultInWindow(); }
  // Messages neither landed nor failed with a failed node.
  uint64_t Lost() const;
  bool IntegrityOk() const;
};

// What a run did to its data: units (messages, packets or work requests)
// sent, delivered once and intact, lost, delivered again, delivered
// corrupted, and failed because a node at one end failed (NET-7.13).
struct IntegrityCounts {
  uint64_t sent = 0, delivered = 0, lost = 0, duplicated = 0, corrupted = 0;
  uint64_t endpoint_failed = 0;
  bool Ok() const { return lost == 0 && duplicated == 0 && corrupted == 0; }
  // Adds `other`'s counts to these (a run's phases summed).
  void Add(const IntegrityCounts& other) {
    sent += other.sent;
    delivered += other.delivered;
    lost += other.lost;
    duplicated += other.duplicated;
    corrupted += other.corrupted;
    endpoint_failed += other.endpoint_failed;
  }
  // "sent S, delivered D, lost L, duplicated U, corrupted C", with
  // "failed F (to or from the failed node)" after D when F is not 0.
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

// The lines and stats objects every run through the stack's engines
// shares: its link layer's totals (tlm links), and its transport's work
// requests (posted, failed), connections and the engines' and routers'
// counts.
void PrintLinkLine(const LinkTotals& links, std::FILE* out);
// The report's `deadlock` line and the stats file's `deadlock` object, in
// every study: "none", or when and the waiting cycle.
void PrintDeadlockLine(const DeadlockFinding& deadlock, std::FILE* out);
nlohmann::ordered_json DeadlockJson(const DeadlockFinding& deadlock);
// Says on stderr what a run on the stack's watchdog found, if it declared a
// deadlock; true then (the run failed).
bool ReportDeadlock(const DeadlockFinding& deadlock);
void PrintTransportLine(uint64_t connections,
                        const transport::FabricFigures& figures,
                        std::FILE* out);
nlohmann::ordered_json LinkTotalsJson(const LinkTotals& links);
nlohmann::ordered_json TransportJson(uint64_t ops, uint64_t failed,
                                     uint64_t connections,
                                     const transport::FabricFigures& figures);

// The `parameters` object of a stats file: every key with its value, a
// number for a numeric key (but for a word it takes instead, e.g. auto).
nlohmann::ordered_json ParametersJson(const ParamSet& params);

// Writes `json` to `path`, indented; returns an error message on failure.
std::string WriteJsonFile(const nlohmann::ordered_json& json,
                          const std::string& path);

// Writes the stats JSON; returns an error message on failure.
std::string WriteStatsJson(const RunReport& report, const std::string& path);

}  // namespace lq::app
