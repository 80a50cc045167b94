// SPDX-License-Identifier: Apache-2.0
// The stack study: each workload's keys, checks and run.
#include "systemc/app/stack_study.h"

#include <algorithm>

#include "models/network/collective.h"
#include "systemc/app/collective_study.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/remote_access_study.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/app/traffic_study.h"
#include "systemc/app/transport_study.h"
#include "systemc/parallel/rank_world.h"

namespace lq::app {
namespace {

std::optional<std::string> CheckTraffic(const ParamSet& params,
                                        const RunOptions& /*options*/) {
  return ValidateTrafficStudy(params);
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

// What a run of a workload that runs over MPI ranks cannot have there
// (decision 0050), if this is such a run.
std::optional<std::string> CheckOverRanks(const ParamSet& params) {
  if (!parallel::RankWorld::Get().parallel()) {
    return std::nullopt;
  }
  const StackPlan plan = PlanStack(params).value();  // validated
  if (!plan.tlm_links) {
    return "link.fidelity ideal: the stack's ideal cables take no time, "
           "which leaves the ranks no lookahead (decision 0050): run tlm "
           "links over ranks";
  }
  const auto cable = CableLookahead(params.Real("link.cable_m"));
  if (!cable) {
    return cable.error().reason;
  }
  const auto fault = ScenarioFault(params, *plan.topology,
                                   plan.fabric.router.vc_classes, std::nullopt)
                         .value();  // validated
  if (fault) {
    if (auto error = CheckFaultOverRanks(*fault, *cable)) {
      return error;
    }
  }
  auto partition = PartitionForRun(params, *plan.topology);
  if (!partition) {
    return partition.error().reason;
  }
  return std::nullopt;
}

// One workload of the stack, with the assembly that runs it today.
struct StackWorkload {
  std::string name;
  std::vector<std::string> fidelities;  // the link.fidelity values it runs
  const char* cards;                    // the layers above the links
  void (*keys)(const ParamSet&, KeyUsage&);
  std::optional<std::string> (*check)(const ParamSet&, const RunOptions&);
  int (*run)(const ParamSet&, const RunOptions&);
  bool over_ranks = false;  // runs over MPI ranks (decision 0050)
};

const std::vector<StackWorkload>& StackWorkloads() {
  static const std::vector<StackWorkload> workloads = [] {
    // The workloads of the stack's cards (stack_assembly.h), either link
    // fidelity, in one process or over MPI ranks.
    const auto on_cards = [](std::string name, auto keys, auto check,
                             auto run) {
      return StackWorkload{std::move(name),
                           {"tlm", "ideal"},
                           "transport engines, routers with PFC and ECN",
                           keys,
                           check,
                           run,
                           true};
    };
    std::vector<StackWorkload> list = {
        on_cards("traffic", UseTrafficKeys, CheckTraffic, RunTrafficStudy)};
    for (const auto& collective : net::CollectiveCatalogue()) {
      list.push_back(on_cards(collective.name, UseStackCollectiveKeys,
                              CheckStackCollective, RunStackCollective));
    }
    list.push_back(
        on_cards("incast", UseIncastKeys, CheckIncast, RunTransportStudy));
    list.push_back({"remote_access",
                    {"tlm"},
                    "boards running firmware, logical units, transport "
                    "engines, routers",
                    UseRemoteAccessKeys,
                    CheckRemoteAccess,
                    RunRemoteAccessStudy});
    return list;
  }();
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
           workload->name + " over " + fidelities.front() + " links so far";
  }
  if (parallel::RankWorld::Get().parallel() && !workload->over_ranks) {
    return "workload.name " + workload->name +
           " runs in one process only (so far; decision 0050): run it "
           "without mpirun";
  }
  if (auto error = workload->check(params, options)) {
    return error;
  }
  return CheckOverRanks(params);
}

std::string StackLayers(const ParamSet& params) {
  const StackWorkload* workload = FindWorkload(params);
  if (workload == nullptr) {
    return "";
  }
  std::string links = params.Text("link.fidelity") == "tlm"
                          ? "TL link controllers and PHYs"
                          : "ideal links";
  if (workload->name == "remote_access" &&
      !params.Text("link.rtl_ports").empty()) {
    links += " (link.rtl_ports in Verilated RTL)";
  }
  return std::string(workload->cards) + ", " + links;
}

int RunStackStudy(const ParamSet& params, const RunOptions& options) {
  return FindWorkload(params)->run(params, options);
}

}  // namespace lq::app
