// The supernode run: its phases, their scenarios, the headline and the
// run's stats.
#include "systemc/app/supernode_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "models/phy/link_profile.h"
#include "systemc/app/firmware_image.h"
#include "systemc/app/phase_runner.h"
#include "systemc/app/run_report.h"
#include "systemc/app/supernode_headline.h"

namespace lq::app {
namespace {

using Json = nlohmann::ordered_json;
using stats::Count;
using stats::Find;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// One child process: the group it belongs to and the --set overrides that
// turn the scenario into its experiment (the user's own --set come after
// them and win).
struct Phase {
  std::string group;
  std::string name;
  std::vector<std::string> sets;
};

// Router settings of the network studies: classic 1-cycle stages, 2 VC
// classes of 8 flits, the routers at the links' flit rate so that a port
// carries what a link of the scenario's profile does.
std::vector<std::string> NetworkStudySets(const ParamSet& params) {
  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  char clock[32];
  std::snprintf(clock, sizeof(clock), "router.clock_ghz=%.6g",
                1000.0 / static_cast<double>(
                             phy::FlitTimePs(profile, profile.max_lanes)));
  return {"link.fidelity=ideal", "link.latency_cycles=1",    "net.vc_classes=2",
          "net.vc_sets=1",       "router.vc_buffer_flits=8", clock};
}

std::vector<std::string> Join(std::vector<std::string> a,
                              const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Phase> AllPhases(const ParamSet& params) {
  const auto study = NetworkStudySets(params);
  const std::vector<std::string> collective =
      Join(study, {"routing.name=dor", "traffic.message_bytes=4096"});
  const std::vector<std::string> transport = {"link.fidelity=ideal",
                                              "transport.workload=incast"};
  const std::vector<std::string> incast =
      Join(transport, {"transport.senders=16"});
  // A low load keeps the ~1.3 ms a repair takes affordable to simulate.
  const std::vector<std::string> failover =
      Join(study, {"routing.name=dor", "traffic.pattern=uniform",
                   "traffic.message_bytes=64", "traffic.load=0.002",
                   "sim.cycles=700000", "sim.warmup_cycles=5000",
                   "fault.at_cycles=10000"});
  const std::vector<std::string> hops = Join(
      study, {"traffic.pattern=uniform", "traffic.message_bytes=64",
              "traffic.load=0.05", "sim.cycles=3000", "sim.warmup_cycles=500"});
  return {
      {"probe", "remote_access", {"logical.workload=remote_access"}},
      {"link", "link",
       Join(transport,
            {"topology.name=torus", "topology.dims=2", "transport.senders=1",
             "transport.cc=none", "transport.flow_kib=4096"})},
      {"uniform", "uniform", {}},
      {"alltoall", "alltoall",
       Join(collective, {"topology.name=torus", "topology.dims=2x2x4",
                         "collective.name=alltoall"})},
      {"allreduce", "ring_allreduce",
       Join(collective,
            {"collective.name=ring_allreduce", "collective.bytes=262144"})},
      {"allreduce", "hierarchical_allreduce",
       Join(collective, {"collective.name=hierarchical_allreduce",
                         "collective.bytes=262144"})},
      {"incast", "incast_pfc", Join(incast, {"transport.cc=none"})},
      {"incast", "incast_dcqcn", Join(incast, {"transport.cc=dcqcn"})},
      {"incast", "incast_lqcc", Join(incast, {"transport.cc=lqcc"})},
      {"failover", "link_cut",
       Join(failover, {"fault.kind=link", "fault.node=0", "fault.port=0"})},
      {"failover", "node_failure",
       Join(failover, {"fault.kind=node", "fault.node=0"})},
      {"hops", "torus_hops", Join(hops, {"routing.name=dor"})},
      {"hops", "fat_tree_hops",
       Join(hops, {"topology.name=fattree", "topology.endpoints=256",
                   "routing.name=updown"})},
  };
}

// The groups run.phases names, or why it names something else.
Result<std::vector<std::string>> SelectedGroups(const ParamSet& params) {
  const std::string text = params.Text("run.phases");
  const std::vector<std::string> groups = SupernodePhaseGroups();
  if (text == "all") {
    return groups;
  }
  if (text.empty()) {
    return Fail("run.phases is empty (name phases, or all, or none)");
  }
  std::vector<std::string> selected;
  std::istringstream in(text);
  for (std::string name; std::getline(in, name, ',');) {
    if (std::find(groups.begin(), groups.end(), name) == groups.end()) {
      std::string known;
      for (const auto& group : groups) {
        known += (known.empty() ? "" : ", ") + group;
      }
      return Fail("run.phases: no phase '" + name + "' (phases: " + known +
                  "; or all, or none)");
    }
    selected.push_back(name);
  }
  return selected;
}

// --- Integrity over the phases. ------------------------------------------

struct Integrity : IntegrityCounts {
  uint64_t dropped_by_faults = 0;  // Network-only phases: counted drops.
};

Integrity SumIntegrity(const std::vector<PhaseResult>& results) {
  Integrity sum;
  for (const auto& result : results) {
    if (!result.stats) {
      continue;
    }
    const Json& stats = *result.stats;
    const auto count = [&stats](const char* key) {
      return static_cast<uint64_t>(Count(stats, {"integrity", key}));
    };
    // A network study has no transport to resend what a fault caught; it
    // counts each such packet once (NET-7.10), apart from the data's loss.
    uint64_t by_faults = 0;
    if (const Json* faults = Find(stats, {"faults"})) {
      for (const auto& fault : *faults) {
        by_faults += static_cast<uint64_t>(Count(fault, {"dropped"}));
      }
    }
    sum.sent += count("sent");
    sum.delivered += count("delivered");
    sum.lost += count("lost") - std::min(count("lost"), by_faults);
    sum.dropped_by_faults += by_faults;
    sum.duplicated += count("duplicated");
    sum.corrupted += count("corrupted");
  }
  return sum;
}

// --- Rendering. -----------------------------------------------------------

void PrintHeadline(const std::vector<HeadlineRow>& rows,
                   const Integrity& integrity, const ParamSet& params,
                   double wall_s, size_t phase_count, std::FILE* out) {
  std::fprintf(out,
               "lqemu run: default (seed %lld): the seed's supernode, %s "
               "of %s links, %zu phases in %.1f s wall\n",
               static_cast<long long>(params.Integer("sim.seed")),
               params.Text("topology.name") == "torus"
                   ? (params.Text("topology.dims") + " torus").c_str()
                   : params.Text("topology.name").c_str(),
               params.Text("link.profile").c_str(), phase_count, wall_s);
  std::fprintf(out, "\n  %-48s %-13s %s\n", "seed claim", "verdict",
               "measured by this run [phase]");
  for (const auto& row : rows) {
    std::fprintf(out, "  %-48s %-13s %s [%s]\n", row.claim.c_str(),
                 Verdict(row), row.measured.c_str(), row.phase.c_str());
  }
  std::fprintf(out, "\n  integrity  %s: %s\n", integrity.Line().c_str(),
               integrity.Ok() ? "OK" : "FAILED");
  if (integrity.dropped_by_faults > 0) {
    std::fprintf(out,
                 "             %llu packets caught by the failover phases' "
                 "faults, each counted: those phases run the network layer "
                 "alone, with no transport to resend them\n",
                 static_cast<unsigned long long>(integrity.dropped_by_faults));
  }
}

double SumOver(const std::vector<PhaseResult>& results,
               std::initializer_list<const char*> path) {
  double sum = 0;
  for (const auto& result : results) {
    if (result.stats) {
      sum += Count(*result.stats, path);
    }
  }
  return sum;
}

Json StatsJson(const std::vector<PhaseResult>& results, const Phases& phases,
               const std::vector<HeadlineRow>& rows, const Integrity& integrity,
               const ParamSet& params, double wall_s) {
  static const Json kNone = Json::object();
  const Json* uniform = phases.Stats("uniform");
  const Json& main = uniform != nullptr ? *uniform : kNone;
  const auto copy = [&main](const char* key) {
    return main.contains(key) ? main[key] : Json::object();
  };
  Json json;
  json["scenario"] = "default";
  json["seed"] = params.Integer("sim.seed");
  json["sim_time_ns"] = SumOver(results, {"sim_time_ns"});
  json["wall_time_s"] = wall_s;
  json["nodes"] = main.value("nodes", 0);
  json["links"] = main.value("links", 0);
  json["latency_ns"] = copy("latency_ns");
  json["hops"] = copy("hops");
  json["bandwidth"] = copy("bandwidth");
  json["link"] = copy("link");
  json["transport"] = {
      {"ops", SumOver(results, {"transport", "ops"})},
      {"retransmits", SumOver(results, {"transport", "retransmits"})},
      {"pfc_pause_frames", SumOver(results, {"transport", "pfc_pause_frames"})},
      {"cnps", SumOver(results, {"transport", "cnps"})}};
  json["logical"] = {
      {"remote_ops", SumOver(results, {"logical", "remote_ops"})},
      {"page_faults", SumOver(results, {"logical", "page_faults"})}};
  json["faults"] = Json::array();
  for (const auto& result : results) {
    if (result.stats && result.stats->contains("faults")) {
      for (const auto& fault : (*result.stats)["faults"]) {
        json["faults"].push_back(fault);
      }
    }
  }
  json["integrity"] = integrity.Json();
  json["integrity"]["dropped_by_faults"] = integrity.dropped_by_faults;
  json["headline"] = HeadlineJson(rows);
  json["phases"] = Json::object();
  for (const auto& result : results) {
    json["phases"][result.name] = {
        {"exit_status", result.exit_status},
        {"failure", result.failure},
        {"wall_time_s", result.wall_s},
        {"stats", result.stats ? *result.stats : Json(nullptr)}};
  }
  json["parameters"] = ParametersJson(params.Values());
  return json;
}

}  // namespace

std::vector<ParamSpec> SupernodeParamSpecs() {
  std::string groups;
  for (const auto& group : SupernodePhaseGroups()) {
    groups += (groups.empty() ? "" : ",") + group;
  }
  return {{"run.phases",
           "the supernode's experiments to run, each in a process of its own "
           "(all, none: the scenario alone, or a list from " +
               groups + ")",
           "none",
           "",
           ParamType::kText,
           0,
           0,
           {}}};
}

bool IsSupernodeRun(const ParamSet& params) {
  return params.Text("run.phases") != "none";
}

std::vector<std::string> SupernodePhaseGroups() {
  return {"probe",     "link",   "uniform",  "alltoall",
          "allreduce", "incast", "failover", "hops"};
}

int RunSupernode(const ParamSet& params, const RunOptions& options) {
  const auto groups = SelectedGroups(params);
  if (!groups) {
    std::fprintf(stderr, "lqemu run: %s\n", groups.error().reason.c_str());
    return kExitBadInput;
  }
  const auto selected = [&groups](const std::string& group) {
    return std::find(groups->begin(), groups->end(), group) != groups->end();
  };
  // The outputs one phase writes need that phase.
  if (!options.trace_file.empty() && !selected("probe")) {
    std::fprintf(stderr,
                 "lqemu run: --trace: the default run traces its probe "
                 "phase, which run.phases leaves out\n");
    return kExitBadInput;
  }
  if (!options.pcap_file.empty() && !selected("uniform")) {
    std::fprintf(stderr,
                 "lqemu run: --pcap: the default run captures its uniform "
                 "phase, which run.phases leaves out\n");
    return kExitBadInput;
  }
  // A build without the firmware has no image for the probe: skip it
  // rather than refuse the whole run.
  std::map<std::string, std::string> skipped;
  if (selected("probe") && params.Text("board.firmware").empty()) {
    if (const auto image = BringUpImage(); !image) {
      skipped["remote_access"] = image.error().reason;
      std::fprintf(stderr, "lqemu run: phase remote_access skipped: %s\n",
                   image.error().reason.c_str());
    }
  }
  // Every phase's scenario is checked before anything runs.
  std::vector<PhaseJob> jobs;
  for (const Phase& phase : AllPhases(params)) {
    if (!selected(phase.group) || skipped.count(phase.name) != 0) {
      continue;
    }
    RunOptions child = options;
    child.overrides = phase.sets;
    child.overrides.insert(child.overrides.end(), options.overrides.begin(),
                           options.overrides.end());
    child.overrides.push_back("run.phases=none");
    auto loaded = LoadScenarioParams(child);
    if (!loaded) {
      std::fprintf(stderr, "lqemu run: phase %s: %s\n", phase.name.c_str(),
                   loaded.error().reason.c_str());
      return kExitBadInput;
    }
    child.scenario_file = "default/" + phase.name;
    child.quiet = true;
    child.progress = false;
    child.pcap_file = phase.name == "uniform" ? options.pcap_file : "";
    child.trace_file = phase.name == "remote_access" ? options.trace_file : "";
    jobs.push_back({phase.name, [child, phase_params = std::move(*loaded)](
                                    const std::string& stats_path) {
                      RunOptions run = child;
                      run.stats_file = stats_path;
                      return RunLoaded(phase_params, run);
                    }});
  }

  const auto start = std::chrono::steady_clock::now();
  const unsigned parallel =
      std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
  const auto results =
      RunPhases(jobs, parallel, [&](const PhaseResult& result, size_t done) {
        if (!result.Ok()) {
          std::fprintf(stderr, "lqemu run: phase %s failed: %s\n",
                       result.name.c_str(), result.failure.c_str());
        } else if (options.progress) {
          std::fprintf(stderr, "[%zu/%zu] phase %s done in %.1f s\n", done,
                       jobs.size(), result.name.c_str(), result.wall_s);
        }
      });
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  const Phases phases(results, skipped);
  const auto rows = Headline(phases, params);
  const Integrity integrity = SumIntegrity(results);
  if (!options.quiet) {
    PrintHeadline(rows, integrity, params, wall_s, jobs.size(), stdout);
  }
  int status = kExitOk;
  if (!options.stats_file.empty()) {
    if (auto error = WriteJsonFile(
            StatsJson(results, phases, rows, integrity, params, wall_s),
            options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  const bool phases_ok = std::all_of(results.begin(), results.end(),
                                     [](const auto& r) { return r.Ok(); });
  if (!phases_ok || !integrity.Ok()) {
    std::fprintf(stderr, "lqemu run: %s\n",
                 phases_ok ? "data integrity failed (see the report)"
                           : "a phase failed (see above)");
    status = kExitFailure;
  }
  return status;
}

}  // namespace lq::app
