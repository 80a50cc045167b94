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
#include "systemc/app/exit_status.h"
#include "systemc/app/firmware_image.h"
#include "systemc/app/phase_runner.h"
#include "systemc/app/run_report.h"
#include "systemc/app/study.h"
#include "systemc/app/supernode_headline.h"

namespace lq::app {
namespace {

using Json = nlohmann::ordered_json;
using stats::Count;
using stats::Find;

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
  return {"run.study=network", "link.latency_cycles=1",    "net.vc_classes=2",
          "net.vc_sets=1",     "router.vc_buffer_flits=8", clock};
}

std::vector<std::string> Join(std::vector<std::string> a,
                              const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Phase> AllPhases(const ParamSet& params) {
  const auto study = NetworkStudySets(params);
  // The collectives as RDMA WRITEs through the transport over tlm links.
  // The AllReduces run on 64 cards: on the 256, the ring's 510 dependent
  // steps keep 1 536 links sending flits for 40 us of simulated time,
  // 43 s of wall time (docs/validation.md gives both).
  const std::vector<std::string> collective = {"run.study=stack",
                                               "link.fidelity=tlm"};
  const std::vector<std::string> allreduce =
      Join(collective, {"topology.dims=4x4x4", "collective.bytes=262144"});
  // The transport over the links' controllers and PHYs: bit errors,
  // replay, PFC messages in CONTROL flits (TRN-8.3).
  const std::vector<std::string> transport = {
      "run.study=stack", "link.fidelity=tlm", "workload.name=incast"};
  const std::vector<std::string> incast =
      Join(transport, {"transport.senders=16"});
  // The fault with the transport running over tlm links: 10 small
  // messages a card, spread over ~270 us around the fault, keep the
  // ~2 ms of simulated time a repair and the transport's resending take
  // affordable (docs/performance.md).
  const std::vector<std::string> failover = {
      "run.study=stack",          "link.fidelity=tlm",
      "workload.name=traffic",    "traffic.pattern=uniform",
      "traffic.message_bytes=64", "traffic.messages_per_node=10",
      "traffic.load=0.00002",     "fault.at_cycles=10000"};
  const std::vector<std::string> hops =
      Join(study, {"workload.name=traffic", "traffic.pattern=uniform",
                   "traffic.message_bytes=64", "traffic.load=0.05",
                   "sim.cycles=3000", "sim.warmup_cycles=500"});
  return {
      {"probe",
       "remote_access",
       {"run.study=stack", "link.fidelity=tlm", "workload.name=remote_access"}},
      {"link", "link",
       Join(transport,
            {"topology.name=torus", "topology.dims=2", "transport.senders=1",
             "transport.cc=none", "transport.flow_kib=4096"})},
      // 100 messages a card keep the phase inside the run's budget: each
      // costs the link layer's flits of every hop (docs/performance.md).
      {"uniform",
       "uniform",
       {"run.study=stack", "link.fidelity=tlm", "workload.name=traffic",
        "traffic.messages_per_node=100"}},
      {"alltoall", "alltoall",
       Join(collective, {"topology.name=torus", "topology.dims=2x2x4",
                         "workload.name=alltoall"})},
      {"allreduce", "ring_allreduce",
       Join(allreduce, {"workload.name=ring_allreduce"})},
      {"allreduce", "hierarchical_allreduce",
       Join(allreduce, {"workload.name=hierarchical_allreduce"})},
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
    return Fail("run.phases is empty (name phases, or all)");
  }
  std::vector<std::string> selected;
  std::istringstream in(text);
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "none") {
      return Fail(
          "run.phases: none is gone: --set run.study=stack runs the "
          "scenario's keys as one experiment (decision 0033)");
    }
    if (std::find(groups.begin(), groups.end(), name) == groups.end()) {
      std::string known;
      for (const auto& group : groups) {
        known += (known.empty() ? "" : ", ") + group;
      }
      return Fail("run.phases: no phase '" + name + "' (phases: " + known +
                  "; or all)");
    }
    selected.push_back(name);
  }
  return selected;
}

// Selected phases the run must leave out, with why: a build without the
// firmware has no image for the probe.
std::map<std::string, std::string> SkippedPhases(const ParamSet& params) {
  std::map<std::string, std::string> skipped;
  const auto groups = SelectedGroups(params);
  const bool probe = groups && std::find(groups->begin(), groups->end(),
                                         "probe") != groups->end();
  if (probe && params.Text("board.firmware").empty()) {
    if (const auto image = BringUpImage(); !image) {
      skipped["remote_access"] = image.error().reason;
    }
  }
  return skipped;
}

// The phases of the groups run.phases selects, but the skipped ones.
Result<std::vector<Phase>> SelectedPhases(const ParamSet& params) {
  const auto groups = SelectedGroups(params);
  if (!groups) {
    return groups.error();
  }
  const auto skipped = SkippedPhases(params);
  std::vector<Phase> phases;
  for (Phase& phase : AllPhases(params)) {
    if (std::find(groups->begin(), groups->end(), phase.group) !=
            groups->end() &&
        skipped.count(phase.name) == 0) {
      phases.push_back(std::move(phase));
    }
  }
  return phases;
}

// A phase's scenario: the run's, with the phase's own settings where the
// user gave none; the study and the workload are always the phase's.
ParamSet PhaseParams(const ParamSet& params, const Phase& phase) {
  ParamSet child = params;
  for (const std::string& set : phase.sets) {
    const std::string key = set.substr(0, set.find('='));
    const bool own = key == "run.study" || key == "workload.name";
    if (own || params.given().count(key) == 0) {
      // The phases' settings are valid: Study.EveryPhaseReadsEverySetting-
      // ItMakes checks each.
      child.Set(key, set.substr(set.find('=') + 1));
    }
  }
  return child;
}

// A phase's options: named after the phase, quiet, and with the outputs
// only it writes.
RunOptions PhaseOptions(const RunOptions& options, const std::string& phase) {
  RunOptions child = options;
  child.scenario_file = "default/" + phase;
  child.quiet = true;
  child.progress = false;
  child.pcap_file = phase == "uniform" ? options.pcap_file : "";
  const bool boards = phase == "remote_access";
  child.trace_file = boards ? options.trace_file : "";
  child.vcd_file = boards ? options.vcd_file : "";
  return child;
}

// --- Integrity over the phases. ------------------------------------------

IntegrityCounts SumIntegrity(const std::vector<PhaseResult>& results) {
  IntegrityCounts sum;
  for (const auto& result : results) {
    if (!result.stats) {
      continue;
    }
    const Json& stats = *result.stats;
    const auto count = [&stats](const char* key) {
      return static_cast<uint64_t>(Count(stats, {"integrity", key}));
    };
    sum.sent += count("sent");
    sum.delivered += count("delivered");
    sum.endpoint_failed += count("endpoint_failed");
    sum.lost += count("lost");
    sum.duplicated += count("duplicated");
    sum.corrupted += count("corrupted");
  }
  return sum;
}

// --- Rendering. -----------------------------------------------------------

// Each phase's name with the layers it composed, in the phases' order.
using PhaseLayers = std::vector<std::pair<std::string, std::string>>;

// "a, b: layers" per distinct description, in order of first use.
std::vector<std::string> LayerLines(const PhaseLayers& layers) {
  std::vector<std::pair<std::string, std::string>> groups;  // layers, names
  for (const auto& [phase, described] : layers) {
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&described = described](const auto& g) {
                                return g.first == described;
                              });
    if (group == groups.end()) {
      groups.emplace_back(described, phase);
    } else {
      group->second += ", " + phase;
    }
  }
  std::vector<std::string> lines;
  for (const auto& [described, phases] : groups) {
    lines.push_back(phases + ": " + described);
  }
  return lines;
}

void PrintHeadline(const std::vector<HeadlineRow>& rows,
                   const IntegrityCounts& integrity, const ParamSet& params,
                   const PhaseLayers& layers, double wall_s, size_t phase_count,
                   std::FILE* out) {
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
  const std::vector<std::string> lines = LayerLines(layers);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::fprintf(out, "%s%s\n", i == 0 ? "\n  layers     " : "             ",
                 lines[i].c_str());
  }
  std::fprintf(out, "\n  integrity  %s: %s\n", integrity.Line().c_str(),
               integrity.Ok() ? "OK" : "FAILED");
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
               const std::vector<HeadlineRow>& rows,
               const IntegrityCounts& integrity, const ParamSet& params,
               const PhaseLayers& layers, double wall_s) {
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
  json["headline"] = HeadlineJson(rows);
  json["phases"] = Json::object();
  for (const auto& result : results) {
    const auto described = std::find_if(
        layers.begin(), layers.end(),
        [&result](const auto& l) { return l.first == result.name; });
    json["phases"][result.name] = {
        {"layers", described == layers.end() ? "" : described->second},
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
           "run.study phases: the experiments to run, each in a process of "
           "its own (all, or a list from " +
               groups + ")",
           "all",
           "",
           ParamType::kText,
           0,
           0,
           {}}};
}

std::vector<std::string> SupernodePhaseGroups() {
  return {"probe",     "link",   "uniform",  "alltoall",
          "allreduce", "incast", "failover", "hops"};
}

std::vector<std::pair<std::string, ParamSet>> PhaseScenarios(
    const ParamSet& params) {
  std::vector<std::pair<std::string, ParamSet>> scenarios;
  if (const auto phases = SelectedPhases(params)) {
    for (const Phase& phase : *phases) {
      scenarios.emplace_back(phase.name, PhaseParams(params, phase));
    }
  }
  return scenarios;
}

KeyUsage SupernodeKeys(const ParamSet& params) {
  KeyUsage usage;
  usage.Use("run.phases");
  for (const auto& [name, child] : PhaseScenarios(params)) {
    usage.Merge(KeysRead(child));
  }
  usage.Refuse("workload.name", "each phase names its own workload");
  return usage;
}

std::optional<std::string> CheckSupernodeRun(const ParamSet& params,
                                             const RunOptions& options) {
  const auto groups = SelectedGroups(params);
  if (!groups) {
    return groups.error().reason;
  }
  const auto selected = [&groups](const std::string& group) {
    return std::find(groups->begin(), groups->end(), group) != groups->end();
  };
  // The outputs one phase writes need that phase.
  if (!options.trace_file.empty() && !selected("probe")) {
    return "--trace: the default run traces its probe phase, which "
           "run.phases leaves out";
  }
  if (!options.pcap_file.empty() && !selected("uniform")) {
    return "--pcap: the default run captures its uniform phase, which "
           "run.phases leaves out";
  }
  // Every phase's scenario is checked before anything runs.
  for (const auto& [name, child] : PhaseScenarios(params)) {
    if (auto error =
            ChosenStudy(child).check(child, PhaseOptions(options, name))) {
      return "phase " + name + ": " + *error;
    }
  }
  return std::nullopt;
}

int RunSupernode(const ParamSet& params, const RunOptions& options) {
  std::vector<PhaseJob> jobs;
  PhaseLayers layers;
  for (auto& [name, child] : PhaseScenarios(params)) {
    layers.emplace_back(name, ChosenStudy(child).layers(child));
    jobs.push_back({name, [run = PhaseOptions(options, name),
                           phase_params = std::move(child)](
                              const std::string& stats_path) {
                      RunOptions with_stats = run;
                      with_stats.stats_file = stats_path;
                      return RunLoaded(phase_params, with_stats);
                    }});
  }
  // A build without the firmware has no image for the probe: it is left
  // out (SelectedPhases) and said so.
  const std::map<std::string, std::string> skipped = SkippedPhases(params);
  for (const auto& [name, why] : skipped) {
    std::fprintf(stderr, "lqemu run: phase %s skipped: %s\n", name.c_str(),
                 why.c_str());
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
  const IntegrityCounts integrity = SumIntegrity(results);
  if (!options.quiet) {
    PrintHeadline(rows, integrity, params, layers, wall_s, jobs.size(), stdout);
  }
  int status = kExitOk;
  if (!options.stats_file.empty()) {
    if (auto error = WriteJsonFile(
            StatsJson(results, phases, rows, integrity, params, layers, wall_s),
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
