// The supernode run: its phases, their scenarios, the headline and the
// run's stats.
#include "systemc/app/supernode_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "models/phy/link_profile.h"
#include "systemc/app/firmware_image.h"
#include "systemc/app/phase_runner.h"
#include "systemc/app/run_report.h"

namespace lq::app {
namespace {

using Json = nlohmann::ordered_json;

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

// --- Reading the phases' stats. ------------------------------------------

const Json* Find(const Json& json, std::initializer_list<const char*> path) {
  const Json* node = &json;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) {
      return nullptr;
    }
    node = &(*node)[key];
  }
  return node;
}

double Number(const Json& json, std::initializer_list<const char*> path) {
  const Json* node = Find(json, path);
  return node != nullptr && node->is_number() ? node->get<double>() : NAN;
}

// A count at `path`: 0 where the stats have none.
double Count(const Json& json, std::initializer_list<const char*> path) {
  const double value = Number(json, path);
  return std::isnan(value) ? 0 : value;
}

// The finished phases by name; a failed phase has no stats, a skipped one
// a reason.
class Phases {
 public:
  Phases(const std::vector<PhaseResult>& results,
         std::map<std::string, std::string> skipped = {})
      : skipped_(std::move(skipped)) {
    for (const auto& result : results) {
      if (result.Ok() && result.stats) {
        stats_.emplace_back(result.name, &*result.stats);
      } else {
        failed_.push_back(result.name);
      }
    }
  }
  // Why a phase of `names` was skipped, or nothing.
  std::optional<std::string> Skipped(
      const std::vector<std::string>& names) const {
    for (const auto& name : names) {
      if (const auto it = skipped_.find(name); it != skipped_.end()) {
        return it->second;
      }
    }
    return std::nullopt;
  }
  bool AnyFailed(const std::vector<std::string>& names) const {
    return std::any_of(names.begin(), names.end(), [this](const auto& name) {
      return std::find(failed_.begin(), failed_.end(), name) != failed_.end();
    });
  }
  const Json* Stats(const std::string& name) const {
    for (const auto& [phase, stats] : stats_) {
      if (phase == name) {
        return stats;
      }
    }
    return nullptr;
  }

 private:
  std::map<std::string, std::string> skipped_;
  std::vector<std::pair<std::string, const Json*>> stats_;
  std::vector<std::string> failed_;
};

// --- The headline. -------------------------------------------------------

struct HeadlineRow {
  std::string claim;
  std::string measured;  // The figure, or why there is none.
  std::string phase;     // The phase group that measured it.
  std::optional<bool> holds;
};

std::string Format(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
std::string Format(const char* format, ...) {
  char text[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return text;
}

// The row of a claim whose phase group `group` (child phases `names`)
// failed, was skipped or was left out by run.phases.
HeadlineRow NotRun(const std::string& claim, const std::string& group,
                   const Phases& phases,
                   const std::vector<std::string>& names) {
  if (const auto reason = phases.Skipped(names)) {
    return {claim, "not measured: " + *reason, group, std::nullopt};
  }
  return {claim,
          phases.AnyFailed(names) ? "not measured: the phase failed"
                                  : "not measured: left out by run.phases",
          group, std::nullopt};
}

// A scenario key's value in a phase's stats, as a number; NAN if absent.
double Parameter(const Json& stats, const char* key) {
  const Json* value = Find(stats, {"parameters", key});
  if (value == nullptr || !value->is_string()) {
    return NAN;
  }
  const std::string text = value->get<std::string>();
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' ? number : NAN;
}

// A row with its figure; without one if any of `figures` is not finite.
HeadlineRow Measured(const std::string& claim, const std::string& group,
                     std::initializer_list<double> figures, std::string text,
                     bool holds) {
  for (const double figure : figures) {
    if (!std::isfinite(figure)) {
      return {claim, "not measured: the phase gave no figure", group,
              std::nullopt};
    }
  }
  return {claim, std::move(text), group, holds};
}

HeadlineRow LinkRow(const Phases& phases, const ParamSet& params) {
  const std::string claim = "800 Gb/s per port";
  const Json* stats = phases.Stats("link");
  if (stats == nullptr) {
    return NotRun(claim, "link", phases, {"link"});
  }
  const double fct_us =
      Number(*stats, {"transport", "fct_us", "incast", "max"});
  const double kib = Parameter(*stats, "transport.flow_kib");
  const double gbps = kib * 1024 * 8 / (fct_us * 1000);
  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  return Measured(claim, "link", {gbps},
                  Format("%.0f Gb/s of RDMA WRITE payload over one %s link "
                         "(%.0f after flit overheads, at most)",
                         gbps, profile.name,
                         phy::PayloadGoodputGbps(profile, profile.max_lanes)),
                  gbps >= 800);
}

HeadlineRow RemoteAccessRow(const Phases& phases) {
  const std::string claim = "2.1 us end-to-end, software included";
  const Json* stats = phases.Stats("remote_access");
  if (stats == nullptr) {
    return NotRun(claim, "probe", phases, {"remote_access"});
  }
  // The figure of `access` to `target`, NAN if there is none.
  const Json* accesses = Find(*stats, {"remote_access", "accesses"});
  const auto latency = [accesses](const char* access, const char* target) {
    for (const auto& entry : accesses != nullptr && accesses->is_array()
                                 ? *accesses
                                 : Json::array()) {
      if (entry.value("access", "") == access &&
          entry.value("target", "") == target) {
        return Number(entry, {"latency_ns"});
      }
    }
    return static_cast<double>(NAN);
  };
  const double far = latency("load", "farthest");
  const double near = latency("load", "1 hop");
  const double fault = latency("fault", "farthest");
  return Measured(claim, "probe", {far, near, fault},
                  Format("%.0f ns load from the farthest card, %.0f ns from "
                         "a neighbour; %.1f us when the home's firmware "
                         "serves a page fault (no software on a load's path)",
                         far, near, fault / 1000),
                  far <= 2100);
}

HeadlineRow LatencyRow(const Phases& phases) {
  const std::string claim = "< 1.2 us average latency, 256 cards";
  const Json* stats = phases.Stats("uniform");
  if (stats == nullptr) {
    return NotRun(claim, "uniform", phases, {"uniform"});
  }
  const double mean = Number(*stats, {"latency_ns", "mean"});
  const double p99 = Number(*stats, {"latency_ns", "p99"});
  return Measured(claim, "uniform", {mean, p99},
                  Format("%.0f ns mean one-way (p99 %.0f), uniform random "
                         "messages on %.0f cards",
                         mean, p99, Number(*stats, {"nodes"})),
                  mean < 1200);
}

HeadlineRow BandwidthRow(const Phases& phases) {
  const std::string claim = "1.2 TB/s on 16 nodes";
  const Json* stats = phases.Stats("alltoall");
  if (stats == nullptr) {
    return NotRun(claim, "alltoall", phases, {"alltoall"});
  }
  const double gbps = Number(*stats, {"bandwidth", "aggregate_GBps"});
  const Json* dims = Find(*stats, {"parameters", "topology.dims"});
  return Measured(
      claim, "alltoall", {gbps},
      Format("%.2f TB/s aggregate payload, all-to-all on %.0f nodes (%s "
             "torus)",
             gbps / 1000, Number(*stats, {"nodes"}),
             dims != nullptr && dims->is_string()
                 ? dims->get<std::string>().c_str()
                 : "?"),
      gbps >= 1200);
}

HeadlineRow FailoverRow(const Phases& phases) {
  const std::string claim = "< 50 ms node-level failover";
  const Json* cut = phases.Stats("link_cut");
  const Json* kill = phases.Stats("node_failure");
  if (cut == nullptr || kill == nullptr) {
    return NotRun(claim, "failover", phases, {"link_cut", "node_failure"});
  }
  const auto recovered_ms = [](const Json& stats) {
    const Json* faults = Find(stats, {"faults"});
    return faults != nullptr && !faults->empty()
               ? Number((*faults)[0], {"recovered_ns"}) / 1e6
               : NAN;
  };
  const double link_ms = recovered_ms(*cut), node_ms = recovered_ms(*kill);
  return Measured(claim, "failover", {link_ms, node_ms},
                  Format("%.2f ms after a link cut, %.2f ms after a node "
                         "failure (slowest affected flow)",
                         link_ms, node_ms),
                  link_ms < 50 && node_ms < 50);
}

HeadlineRow PfcRow(const Phases& phases) {
  const std::string claim = "-70 % PFC triggering with congestion control";
  const Json* alone = phases.Stats("incast_pfc");
  const Json* dcqcn = phases.Stats("incast_dcqcn");
  const Json* lqcc = phases.Stats("incast_lqcc");
  if (alone == nullptr || dcqcn == nullptr || lqcc == nullptr) {
    return NotRun(claim, "incast", phases,
                  {"incast_pfc", "incast_dcqcn", "incast_lqcc"});
  }
  const double base = Number(*alone, {"transport", "xoff_frames"});
  if (base == 0) {
    return {claim, "not measured: PFC alone sent no XOFF, so nothing to cut",
            "incast", std::nullopt};
  }
  const auto cut = [base](const Json& stats) {
    return 100 * (1 - Number(stats, {"transport", "xoff_frames"}) / base);
  };
  const double by_dcqcn = cut(*dcqcn), by_lqcc = cut(*lqcc);
  return Measured(
      claim, "incast", {base, by_dcqcn, by_lqcc},
      Format("DCQCN %+.0f %%, LQCC %+.0f %% XOFF against PFC "
             "alone (%.0f), %.0f-to-1 incast",
             -by_dcqcn, -by_lqcc, base, Parameter(*alone, "transport.senders")),
      std::max(by_dcqcn, by_lqcc) >= 70);
}

HeadlineRow HopsRow(const Phases& phases) {
  const std::string claim = "~50 % fewer hops than a tree";
  const Json* torus = phases.Stats("torus_hops");
  const Json* tree = phases.Stats("fat_tree_hops");
  if (torus == nullptr || tree == nullptr) {
    return NotRun(claim, "hops", phases, {"torus_hops", "fat_tree_hops"});
  }
  const double on_torus = Number(*torus, {"hops", "mean"});
  const double on_tree = Number(*tree, {"hops", "mean"});
  const double fewer = 100 * (1 - on_torus / on_tree);
  return Measured(claim, "hops", {on_torus, on_tree, fewer},
                  Format("torus %.2f, fat-tree %.2f mean hops: %.0f %% fewer "
                         "(uniform traffic, 256 nodes)",
                         on_torus, on_tree, fewer),
                  fewer >= 40);
}

HeadlineRow AllReduceRow(const Phases& phases) {
  const std::string claim = "hierarchical AllReduce: far fewer global syncs";
  const Json* ring = phases.Stats("ring_allreduce");
  const Json* tiered = phases.Stats("hierarchical_allreduce");
  if (ring == nullptr || tiered == nullptr) {
    return NotRun(claim, "allreduce", phases,
                  {"ring_allreduce", "hierarchical_allreduce"});
  }
  const double ring_steps = Number(*ring, {"collective", "steps"});
  const double tiered_steps = Number(*tiered, {"collective", "steps"});
  const double ring_us = Number(*ring, {"collective", "completed_ns"}) / 1000;
  const double tiered_us =
      Number(*tiered, {"collective", "completed_ns"}) / 1000;
  return Measured(claim, "allreduce",
                  {ring_steps, tiered_steps, ring_us, tiered_us},
                  Format("%.0f steps against the ring's %.0f; done in %.1f "
                         "us against %.1f",
                         tiered_steps, ring_steps, tiered_us, ring_us),
                  tiered_steps < ring_steps);
}

std::vector<HeadlineRow> Headline(const Phases& phases,
                                  const ParamSet& params) {
  return {LinkRow(phases, params), RemoteAccessRow(phases), LatencyRow(phases),
          BandwidthRow(phases),    FailoverRow(phases),     PfcRow(phases),
          HopsRow(phases),         AllReduceRow(phases)};
}

const char* Verdict(const HeadlineRow& row) {
  if (!row.holds) {
    return "-";
  }
  return *row.holds ? "holds" : "does not hold";
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

Json HeadlineJson(const std::vector<HeadlineRow>& rows) {
  Json json = Json::array();
  for (const auto& row : rows) {
    json.push_back({{"claim", row.claim},
                    {"measured", row.measured},
                    {"phase", row.phase},
                    {"holds", row.holds ? Json(*row.holds) : Json(nullptr)}});
  }
  return json;
}

// Sums the number at `path` over the phases' stats.
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
