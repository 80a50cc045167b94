// SPDX-License-Identifier: Apache-2.0
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
#include "systemc/app/build_info.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/firmware_image.h"
#include "systemc/app/phase_report.h"
#include "systemc/app/phase_runner.h"
#include "systemc/app/run_report.h"
#include "systemc/app/study.h"
#include "systemc/app/supernode_headline.h"
#include "systemc/parallel/rank_world.h"

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
// classes of 8 flits; the routers run at the links' flit rate, as
// router.clock_ghz's default does.
std::vector<std::string> NetworkStudySets() {
  return {"run.study=network", "link.latency_cycles=1", "net.vc_classes=2",
          "net.vc_sets=1", "router.vc_buffer_flits=8"};
}

std::vector<std::string> Join(std::vector<std::string> a,
                              const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Phase> AllPhases() {
  const auto study = NetworkStudySets();
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

// The group of the phase `name`.
std::string GroupOf(const std::string& name) {
  for (const Phase& phase : AllPhases()) {
    if (phase.name == name) {
      return phase.group;
    }
  }
  return "";
}

// What run.phases names: groups of phases and single phases (by the names
// the stats use), or why it names something else.
Result<std::vector<std::string>> Selection(const ParamSet& params) {
  const std::string text = params.Text("run.phases");
  if (text == "all") {
    return SupernodePhaseGroups();
  }
  if (text.empty()) {
    return Fail("run.phases is empty (name phases, or all)");
  }
  const std::vector<std::string> groups = SupernodePhaseGroups();
  const std::vector<std::string> names = SupernodePhaseNames();
  std::vector<std::string> selected;
  std::istringstream in(text);
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "none") {
      return Fail(
          "run.phases: none is gone: --set run.study=stack runs the "
          "scenario's keys as one experiment (decision 0033)");
    }
    if (std::find(groups.begin(), groups.end(), name) == groups.end() &&
        std::find(names.begin(), names.end(), name) == names.end()) {
      return Fail("run.phases: no phase '" + name + "' (groups: " +
                  Joined(groups) + "; phases: " + Joined(names) + "; or all)");
    }
    selected.push_back(name);
  }
  return selected;
}

bool Selects(const std::vector<std::string>& selection, const Phase& phase) {
  return std::any_of(selection.begin(), selection.end(),
                     [&phase](const std::string& name) {
                       return name == phase.group || name == phase.name;
                     });
}

// Why this build cannot run the probe with its own firmware, if it
// cannot (a build without the firmware has no image); looked up once.
const std::string& ProbeImageProblem() {
  static const std::string problem = [] {
    const auto image = BringUpImage();
    return image ? std::string() : image.error().reason;
  }();
  return problem;
}

// The selected phases, each with why the run must leave it out if it
// must: a build without the firmware has no image for the probe.
Result<std::vector<std::pair<Phase, std::string>>> ChosenPhases(
    const ParamSet& params) {
  const auto selection = Selection(params);
  if (!selection) {
    return selection.error();
  }
  std::vector<std::pair<Phase, std::string>> chosen;
  for (Phase& phase : AllPhases()) {
    if (!Selects(*selection, phase)) {
      continue;
    }
    std::string skipped;
    if (phase.name == "remote_access" &&
        params.Text("board.firmware").empty()) {
      skipped = ProbeImageProblem();
    }
    chosen.emplace_back(std::move(phase), skipped);
  }
  return chosen;
}

// Selected phases the run must leave out, with why.
std::map<std::string, std::string> SkippedPhases(const ParamSet& params) {
  std::map<std::string, std::string> skipped;
  if (const auto chosen = ChosenPhases(params)) {
    for (const auto& [phase, why] : *chosen) {
      if (!why.empty()) {
        skipped[phase.name] = why;
      }
    }
  }
  return skipped;
}

// The selected phases, but the skipped ones.
Result<std::vector<Phase>> SelectedPhases(const ParamSet& params) {
  auto chosen = ChosenPhases(params);
  if (!chosen) {
    return chosen.error();
  }
  std::vector<Phase> phases;
  for (auto& [phase, why] : *chosen) {
    if (why.empty()) {
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

// The run's scenario: its file, or the embedded default.
std::string ScenarioName(const RunOptions& options) {
  return options.scenario_file.empty() ? "default" : options.scenario_file;
}

// A phase's options: named after the phase, quiet, and with the outputs
// only it writes.
RunOptions PhaseOptions(const RunOptions& options, const std::string& phase) {
  RunOptions child = options;
  child.scenario_file = ScenarioName(options) + "/" + phase;
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
    sum.Add(IntegrityOf(*result.stats));
  }
  return sum;
}

// --- Rendering. -----------------------------------------------------------

// Each phase's name with the layers it composed, in the phases' order.
using PhaseLayers = std::vector<std::pair<std::string, std::string>>;

// The headline table, each phase's section, and the integrity summed over
// the phases.
void PrintReport(const std::string& scenario,
                 const std::vector<HeadlineRow>& rows,
                 const std::vector<PhaseSection>& sections,
                 const IntegrityCounts& integrity, const ParamSet& params,
                 double wall_s, std::FILE* out) {
  std::fprintf(out,
               "lqemu run: %s (seed %lld): %s, %s "
               "of %s links, %zu phases in %.1f s wall\n",
               scenario.c_str(),
               static_cast<long long>(params.Integer("sim.seed")),
               scenario == "default" ? "the seed's supernode"
                                     : "the seed's claims on its supernode",
               params.Text("topology.name") == "torus"
                   ? (params.Text("topology.dims") + " torus").c_str()
                   : params.Text("topology.name").c_str(),
               params.Text("link.profile").c_str(), sections.size(), wall_s);
  std::fprintf(out, "\n  %-48s %-13s %s\n", "seed claim", "verdict",
               "measured by this run [phase]");
  for (const auto& row : rows) {
    std::fprintf(out, "  %-48s %-13s %s [%s]\n", row.claim.c_str(),
                 Verdict(row), row.measured.c_str(), row.phase.c_str());
  }
  PrintPhaseSections(sections, out);
  std::fprintf(out, "\n  integrity  over the phases: %s: %s\n",
               integrity.Line().c_str(), integrity.Ok() ? "OK" : "FAILED");
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

Json StatsJson(const std::string& scenario,
               const std::vector<PhaseResult>& results, const Phases& phases,
               const std::vector<HeadlineRow>& rows,
               const IntegrityCounts& integrity, const ParamSet& params,
               const PhaseLayers& layers, double wall_s) {
  // The figures of one run of traffic: the uniform phase's, else the first
  // phase's that ran and measured latencies.
  static const Json kNone = Json::object();
  const Json* summarised = phases.Stats("uniform");
  std::string summary_phase = summarised != nullptr ? "uniform" : "";
  for (const auto& result : results) {
    if (summarised == nullptr && result.stats &&
        result.stats->contains("latency_ns")) {
      summarised = &*result.stats;
      summary_phase = result.name;
    }
  }
  const Json& main = summarised != nullptr ? *summarised : kNone;
  const auto copy = [&main](const char* key) {
    return main.contains(key) ? main[key] : Json::object();
  };
  const auto most = [&results](const char* key) {
    int most = 0;
    for (const auto& result : results) {
      if (result.stats) {
        most = std::max(most, result.stats->value(key, 0));
      }
    }
    return most;
  };
  Json json;
  json["scenario"] = scenario;
  json["seed"] = params.Integer("sim.seed");
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = SumOver(results, {"sim_time_ns"});
  json["wall_time_s"] = wall_s;
  json["nodes"] =
      summarised != nullptr ? main.value("nodes", 0) : most("nodes");
  json["links"] =
      summarised != nullptr ? main.value("links", 0) : most("links");
  json["summary_phase"] = summary_phase;
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
  json["parameters"] = ParametersJson(params);
  return json;
}

}  // namespace

std::vector<ParamSpec> SupernodeParamSpecs() {
  return {{"run.phases",
           "run.study phases: the experiments to run, each in a process of "
           "its own: all, or a comma-separated list of groups (" +
               Joined(SupernodePhaseGroups()) + ") and phases (" +
               Joined(SupernodePhaseNames()) + ")",
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

std::vector<std::string> SupernodePhaseNames() {
  std::vector<std::string> names;
  for (const Phase& phase : AllPhases()) {
    names.push_back(phase.name);
  }
  return names;
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
  const auto chosen = ChosenPhases(params);
  if (!chosen) {
    return chosen.error().reason;
  }
  const auto selected = [&chosen](const std::string& name) {
    return std::any_of(chosen->begin(), chosen->end(),
                       [&name](const auto& c) { return c.first.name == name; });
  };
  // The outputs one phase writes need that phase.
  if (!options.trace_file.empty() && !selected("remote_access")) {
    return "--trace: the default run traces its probe phase "
           "(remote_access), which run.phases leaves out";
  }
  if (!options.pcap_file.empty() && !selected("uniform")) {
    return "--pcap: the default run captures its uniform phase, which "
           "run.phases leaves out";
  }
  // Every phase's scenario is checked before anything runs. Over MPI
  // ranks, one that cannot run there runs in one process (RunsOverRanks),
  // whose child checks it then.
  if (parallel::RankWorld::Get().parallel()) {
    return std::nullopt;
  }
  for (const auto& [name, child] : PhaseScenarios(params)) {
    if (auto error =
            ChosenStudy(child).check(child, PhaseOptions(options, name))) {
      return "phase " + name + ": " + *error;
    }
  }
  return std::nullopt;
}

namespace {

// Over MPI ranks, whether phase `name` runs on every rank: its study
// checks it for a run over ranks (decision 0050); else rank 0 runs it in
// one process.
bool RunsOverRanks(const std::string& name, const ParamSet& child,
                   const RunOptions& options) {
  return parallel::RankWorld::Get().parallel() &&
         !ChosenStudy(child).check(child, PhaseOptions(options, name));
}

}  // namespace

int RunSupernode(const ParamSet& params, const RunOptions& options) {
  std::vector<PhaseJob> jobs;
  PhaseLayers layers;
  for (auto& [name, child] : PhaseScenarios(params)) {
    layers.emplace_back(name, ChosenStudy(child).layers(child));
    const bool over_ranks = RunsOverRanks(name, child, options);
    jobs.push_back(
        {name,
         [run = PhaseOptions(options, name),
          phase_params = std::move(child)](const std::string& stats_path) {
           RunOptions with_stats = run;
           with_stats.stats_file = stats_path;
           return RunLoaded(phase_params, with_stats);
         },
         over_ranks});
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
  if (!parallel::RankWorld::Get().root()) {
    return kExitOk;  // rank 0 reports the run
  }

  const Phases phases(results, skipped);
  const auto rows = Headline(phases, params);
  const IntegrityCounts integrity = SumIntegrity(results);
  if (!options.quiet) {
    std::vector<PhaseSection> sections;
    for (size_t i = 0; i < results.size(); ++i) {
      sections.push_back(
          {&results[i], GroupOf(results[i].name), layers[i].second});
    }
    PrintReport(ScenarioName(options), rows, sections, integrity, params,
                wall_s, stdout);
  }
  int status = kExitOk;
  if (!options.stats_file.empty()) {
    if (auto error =
            WriteJsonFile(StatsJson(ScenarioName(options), results, phases,
                                    rows, integrity, params, layers, wall_s),
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
