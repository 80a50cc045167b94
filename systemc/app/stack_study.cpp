// The stack study: each workload's keys, checks and run.
#include "systemc/app/stack_study.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <systemc>

#include "models/pcap/pcap_writer.h"
#include "models/phy/link_profile.h"
#include "models/topology/analytics.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/remote_access_study.h"
#include "systemc/app/run_report.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/app/transport_study.h"
#include "systemc/fabric/fabric.h"

namespace lq::app {
namespace {

// The interim fabric's keys (workload.name traffic).
void UseFabricKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use({"link.profile", "link.ber", "link.cable_m",
             "link.replay_timeout_flits", "router.latency_ns", "traffic.load",
             "traffic.message_bytes", "traffic.messages_per_node"});
  UseTrafficPatternKeys(params, usage);
}

std::string WritePcap(const fabric::Fabric& fabric, const std::string& path) {
  auto writer = pcap::PcapWriter::ToFile(path);
  if (!writer) {
    return writer.error().reason;
  }
  for (const auto& packet : fabric.Captured()) {
    if (auto written = writer->Write(packet.time_ps, packet.frame); !written) {
      return written.error().reason;
    }
  }
  auto flushed = writer->Flush();
  return flushed ? "" : flushed.error().reason;
}

// Uniform traffic on the interim fabric.
int RunFabric(const ParamSet& params, const RunOptions& options) {
  fabric::Fabric fabric("fabric", params);
  std::unique_ptr<ProgressMeter> progress;
  if (options.progress) {
    const double expected = static_cast<double>(fabric.MessagesExpected());
    progress = std::make_unique<ProgressMeter>(
        "progress",
        [&fabric, expected] {
          return expected == 0
                     ? 1.0
                     : static_cast<double>(fabric.MessagesDelivered()) /
                           expected;
        },
        sc_core::sc_time(100, sc_core::SC_NS), stderr);
  }

  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const auto stop = std::chrono::steady_clock::now();

  RunReport report;
  report.scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  report.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  report.values = params.Values();
  report.wall_time_s = std::chrono::duration<double>(stop - start).count();
  report.nodes = static_cast<int>(fabric.topology().EndpointCount());
  report.links = fabric.link_count() / 2;
  report.profile = fabric.profile().name;
  report.link_payload_gbps =
      phy::PayloadGoodputGbps(fabric.profile(), fabric.profile().max_lanes);
  report.totals = fabric.Collect();
  report.sim_time_ns =
      static_cast<double>(report.totals.last_delivery_ps) / 1000.0;
  if (const auto minimal = topo::ShortestHopStats(fabric.topology())) {
    report.minimal_hops = minimal->mean_excluding_self;
  }

  if (!options.quiet) {
    PrintReport(report, stdout);
  }
  if (!options.stats_file.empty()) {
    if (auto error = WriteStatsJson(report, options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      return kExitFailure;
    }
  }
  if (!options.pcap_file.empty()) {
    if (auto error = WritePcap(fabric, options.pcap_file); !error.empty()) {
      std::fprintf(stderr, "lqemu run: --pcap: %s\n", error.c_str());
      return kExitFailure;
    }
  }
  if (!report.IntegrityOk()) {
    std::fprintf(stderr, "lqemu run: data integrity failed (see the report)\n");
    return kExitFailure;
  }
  return kExitOk;
}

std::optional<std::string> CheckFabric(const ParamSet& params,
                                       const RunOptions& /*options*/) {
  return fabric::ValidateFabricParams(params);
}

std::optional<std::string> CheckIncast(const ParamSet& params,
                                       const RunOptions& /*options*/) {
  return ValidateTransportStudy(params);
}

std::optional<std::string> CheckRemoteAccess(const ParamSet& params,
                                             const RunOptions& options) {
  if (!options.pcap_file.empty()) {
    return "--pcap: the remote access study captures nothing yet";
  }
  return ValidateRemoteAccessStudy(params);
}

// One workload of the stack, with the assembly that runs it today.
struct StackWorkload {
  std::string name;
  std::vector<std::string> fidelities;  // the link.fidelity values it runs
  bool traced;                          // whether --trace records it
  void (*keys)(const ParamSet&, KeyUsage&);
  std::optional<std::string> (*check)(const ParamSet&, const RunOptions&);
  int (*run)(const ParamSet&, const RunOptions&);
};

const std::vector<StackWorkload>& StackWorkloads() {
  static const std::vector<StackWorkload> workloads = {
      {"traffic", {"tlm"}, false, UseFabricKeys, CheckFabric, RunFabric},
      {"incast",
       {"ideal", "tlm"},
       false,
       UseIncastKeys,
       CheckIncast,
       RunTransportStudy},
      {"remote_access",
       {"tlm"},
       true,
       UseRemoteAccessKeys,
       CheckRemoteAccess,
       RunRemoteAccessStudy},
  };
  return workloads;
}

// The workload workload.name names; StackWorkloadNames() holds it once the
// scenario is checked.
const StackWorkload* FindWorkload(const ParamSet& params) {
  for (const auto& workload : StackWorkloads()) {
    if (workload.name == params.Text("workload.name")) {
      return &workload;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> StackWorkloadNames() {
  std::vector<std::string> names;
  for (const auto& workload : StackWorkloads()) {
    names.push_back(workload.name);
  }
  return names;
}

KeyUsage StackStudyKeys(const ParamSet& params) {
  KeyUsage usage;
  usage.Use({"workload.name", "link.fidelity"});
  if (const StackWorkload* workload = FindWorkload(params)) {
    workload->keys(params, usage);
  }
  return usage;
}

std::optional<std::string> CheckStackStudy(const ParamSet& params,
                                           const RunOptions& options) {
  const StackWorkload* workload = FindWorkload(params);
  if (workload == nullptr) {
    return "workload.name: run.study stack does not run " +
           params.Text("workload.name");
  }
  const auto& fidelities = workload->fidelities;
  if (std::find(fidelities.begin(), fidelities.end(),
                params.Text("link.fidelity")) == fidelities.end()) {
    return "link.fidelity: run.study stack runs workload.name " +
           workload->name + " over " + fidelities.front() + " links so far" +
           (workload->name == "traffic"
                ? " (run.study network runs traffic over ideal links)"
                : "");
  }
  if (!workload->traced && !options.trace_file.empty()) {
    return "--trace: only runs of boards are traced so far (workload.name "
           "remote_access)";
  }
  return workload->check(params, options);
}

int RunStackStudy(const ParamSet& params, const RunOptions& options) {
  return FindWorkload(params)->run(params, options);
}

}  // namespace lq::app
