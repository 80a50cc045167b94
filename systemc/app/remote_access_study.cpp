// SPDX-License-Identifier: Apache-2.0
// The remote access study: keys, the cluster they describe, the report.
#include "systemc/app/remote_access_study.h"

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "models/phy/link_profile.h"
#include "systemc/app/build_info.h"
#include "systemc/app/chrome_trace.h"
#include "systemc/app/cluster_tracer.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/firmware_image.h"
#include "systemc/app/rtl_ports.h"
#include "systemc/app/run_report.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/cluster/remote_access.h"

namespace lq::app {
namespace {

using Json = nlohmann::ordered_json;

// Route computation, VC allocation, switch allocation and crossbar: the
// three stages after the first take one cycle each (NET-8.4).
constexpr unsigned kFixedRouterStages = 3;

Result<elf::ElfImage> ScenarioImage(const ParamSet& params) {
  const std::string path = params.Text("board.firmware");
  if (path.empty()) {
    return BringUpImage();
  }
  auto image = ReadFirmwareImage(path);
  if (!image) {
    return Fail("board.firmware: " + path + ": " + image.error().reason);
  }
  return image;
}

// board.node_firmware's images, by node.
Result<std::map<uint32_t, elf::ElfImage>> NodeImages(const ParamSet& params,
                                                     uint32_t nodes) {
  auto paths = ParseNodeFirmware(params.Text("board.node_firmware"), nodes);
  if (!paths) {
    return Fail("board.node_firmware: " + paths.error().reason);
  }
  std::map<uint32_t, elf::ElfImage> images;
  for (const auto& [node, path] : *paths) {
    auto image = ReadFirmwareImage(path);
    if (!image) {
      return Fail("board.node_firmware: node " + std::to_string(node) + ": " +
                  path + ": " + image.error().reason);
    }
    images.emplace(node, std::move(image.value()));
  }
  return images;
}

// The measurement the keys describe, or why they describe none; RTL ports
// write their waveforms to `vcd_path` if one is given.
Result<cluster::RemoteAccessConfig> Plan(const ParamSet& params,
                                         const std::string& vcd_path = "") {
  if (params.Text("topology.name") != "torus" ||
      params.Text("routing.name") != "dor") {
    return Fail(
        "workload.name remote_access runs on a torus with dor routing "
        "(the bring-up firmware's routes)");
  }
  const double router_ns = params.Real("router.latency_ns");
  if (router_ns < kFixedRouterStages + 1 ||
      router_ns != std::floor(router_ns)) {
    return Fail(
        "router.latency_ns: the boards' routers take whole nanoseconds, 4 "
        "at least (four pipeline stages at 1 GHz)");
  }
  cluster::RemoteAccessConfig config;
  auto routed = ScenarioRoutedTopology(params);
  if (!routed) {
    return routed.error();
  }
  config.topology = routed->topology;
  config.routing = routed->routing;
  auto image = ScenarioImage(params);
  if (!image) {
    return image.error();
  }
  config.image = std::move(image.value());
  auto node_images = NodeImages(params, config.topology->EndpointCount());
  if (!node_images) {
    return node_images.error();
  }
  config.node_images = std::move(node_images.value());

  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  cluster::LinkPortConfig& port = config.cluster.port;
  port.phy = phy::PhyPortConfig::ForProfile(profile);
  port.phy.cable_metres = params.Real("link.cable_m");
  port.phy.errors.ber = params.Real("link.ber");
  port.phy.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  port.controller.profile = profile;
  port.controller.ltssm_time_scale = 1;  // Training at full scale...
  const topo::Topology& topology = *config.topology;
  const auto rtl_ports = ScenarioRtlPorts(
      params, topology.EndpointCount(),
      [&topology](uint32_t node) { return topology.PortCount(node); });
  if (!rtl_ports) {
    return rtl_ports.error();
  }
  // ...unless some ports are RTL.
  PlaceRtlPorts(*rtl_ports, params, vcd_path, config.cluster);
  net::RouterConfig& router = config.cluster.network.router;
  router.clock_ns = 1;
  router.va_cycles = router.sa_cycles = router.st_cycles = 1;
  router.rc_cycles = static_cast<unsigned>(router_ns) - kFixedRouterStages;
  return config;
}

double Ns(uint64_t ps) { return static_cast<double>(ps) / 1000; }

Json AccessJson(const cluster::RemoteAccess& access) {
  Json json = {
      {"access", access.access},
      {"target", access.target},
      {"home", access.home},
      {"hops", access.hops},
      {"latency_ns", access.Ok() ? Json(access.latency_ns) : Json(nullptr)},
      {"failure", access.failure}};
  if (access.breakdown) {
    Json layers = Json::object();
    for (size_t l = 0; l < kPathLayers; ++l) {
      const auto layer = static_cast<PathLayer>(l);
      const uint64_t there = access.breakdown->LayerPs(layer, 0);
      const uint64_t both = access.breakdown->LayerPs(layer);
      layers[PathLayerName(layer)] = {{"request_ns", Ns(there)},
                                      {"answer_ns", Ns(both - there)}};
    }
    json["layers"] = std::move(layers);
  }
  return json;
}

// The node a component belongs to, from its name ("cluster.node12.router"
// is node12's); "fabric" if none.
std::string NodeOf(const std::string& where) {
  const size_t at = where.find("node");
  if (at == std::string::npos) {
    return "fabric";
  }
  size_t end = at + 4;
  while (end < where.size() &&
         std::isdigit(static_cast<unsigned char>(where[end]))) {
    ++end;
  }
  return where.substr(at, end - at);
}

// Each access as a span on node 0's "accesses" track and, for loads and
// stores, each segment of its path on the track of its layer at the node
// it happened in.
void TraceAccesses(const cluster::RemoteAccessReport& report,
                   ChromeTrace& trace) {
  for (const auto& access : report.accesses) {
    if (!access.Ok()) {
      continue;
    }
    const std::string name = access.access + " " + access.target + " (node " +
                             std::to_string(access.home) + ")";
    trace.Span("node0", access.access == "fault" ? "page faults" : "accesses",
               name, access.issued_ns, access.issued_ns + access.latency_ns,
               {{"hops", access.hops}, {"latency_ns", access.latency_ns}});
    if (!access.breakdown) {
      continue;
    }
    double at_ns = access.issued_ns;
    for (const PathSegment& segment : access.breakdown->segments) {
      const double ns = Ns(segment.ps);
      trace.Span(NodeOf(segment.where), PathLayerName(segment.layer), name,
                 at_ns, at_ns + ns,
                 {{"where", segment.where},
                  {"to", PathPointName(segment.to)},
                  {"leg", segment.leg == 0 ? "request" : "answer"}});
      at_ns += ns;
    }
  }
}

void PrintReport(const cluster::RemoteAccessReport& report,
                 const std::string& scenario, const ParamSet& params,
                 double wall_s) {
  std::printf(
      "lqemu run: %s (seed %lld): remote access on the full stack, %u "
      "boards, %s links, %g ns routers\n",
      scenario.c_str(), static_cast<long long>(params.Integer("sim.seed")),
      report.nodes, params.Text("link.profile").c_str(),
      params.Real("router.latency_ns"));
  std::printf("  firmware   %u of %u boards trained their links and serve\n",
              report.serving, report.nodes);
  for (const auto& access : report.accesses) {
    if (!access.Ok()) {
      std::printf("  %-6s %-9s node %u: %s\n", access.access.c_str(),
                  access.target.c_str(), access.home, access.failure.c_str());
      continue;
    }
    std::string layers;
    if (access.breakdown) {
      for (size_t l = 0; l < kPathLayers; ++l) {
        const auto layer = static_cast<PathLayer>(l);
        char part[48];
        std::snprintf(part, sizeof(part), "%s%s %.0f",
                      layers.empty() ? " = " : ", ", PathLayerName(layer),
                      Ns(access.breakdown->LayerPs(layer)));
        layers += part;
      }
    } else {
      layers = " (the home's firmware serves the fault)";
    }
    std::printf("  %-6s %-9s node %3u, %2u hops: %7.1f ns%s\n",
                access.access.c_str(), access.target.c_str(), access.home,
                access.hops, access.latency_ns, layers.c_str());
  }
  for (const auto& rtl : report.rtl_ports) {
    std::printf(
        "  rtl        node %u port %u: %s, %llu cycles, %llu slots in, %llu "
        "out\n",
        rtl.node, rtl.port, link::LtssmStateName(rtl.state),
        static_cast<unsigned long long>(
            StatValue(rtl.stats, "cycles").value_or(0)),
        static_cast<unsigned long long>(
            StatValue(rtl.stats, "slots_in").value_or(0)),
        static_cast<unsigned long long>(
            StatValue(rtl.stats, "slots_out").value_or(0)));
  }
  std::printf("  time       %.1f us simulated in %.2f s wall\n",
              report.sim_ns / 1000, wall_s);
}

// Each RTL port's final LTSSM state and its controller's statistics.
Json RtlPortsJson(const std::vector<cluster::RtlPortReport>& ports) {
  Json json = Json::array();
  for (const auto& rtl : ports) {
    Json stats = Json::object();
    for (const Stat& stat : rtl.stats) {
      stats[stat.name.substr(stat.name.find_last_of('.') + 1)] = stat.value;
    }
    json.push_back({{"node", rtl.node},
                    {"port", rtl.port},
                    {"ltssm", link::LtssmStateName(rtl.state)},
                    {"stats", std::move(stats)}});
  }
  return json;
}

}  // namespace

std::vector<ParamSpec> RemoteAccessParamSpecs() {
  return {
      {"board.firmware",
       "firmware image every board boots (workload.name remote_access); "
       "empty: the link bring-up image compiled into lqemu",
       "",
       "",
       ParamType::kText,
       0,
       0,
       {}},
      {"board.node_firmware",
       "boards that boot another image: NODE=ELF[,NODE=ELF...] "
       "(workload.name remote_access); the others boot board.firmware",
       "",
       "",
       ParamType::kText,
       0,
       0,
       {}},
  };
}

void UseRemoteAccessKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use({"board.firmware", "board.node_firmware", "link.profile",
             "link.ber", "link.cable_m", "router.latency_ns"});
  UseRtlPortKeys(params, usage);
}

std::optional<std::string> ValidateRemoteAccessStudy(const ParamSet& params) {
  if (params.Text("link.fidelity") != "tlm") {
    return "link.fidelity: workload.name remote_access runs on tlm links "
           "(the boards' link controllers and PHYs)";
  }
  const auto plan = Plan(params);
  return plan ? std::nullopt : std::optional<std::string>(plan.error().reason);
}

std::optional<std::string> CheckRunWaveforms(const ParamSet& params,
                                             const std::string& vcd_path) {
  std::set<NodePort> ports;
  if (params.Text("workload.name") == "remote_access") {
    if (const auto plan = Plan(params)) {
      for (const auto& [port, rtl] : plan->cluster.rtl_ports) {
        ports.insert(port);
      }
    }
  } else if (const auto stack = PlanStack(params)) {
    ports = stack->rtl_ports;
  }
  auto error = CheckRtlWaveforms(ports, vcd_path);
  if (error && ports.empty()) {
    *error += " (run.study stack, link.fidelity tlm)";
  }
  return error;
}

int RunRemoteAccessStudy(const ParamSet& params, const RunOptions& options) {
  // Checked when loaded.
  auto plan = Plan(params, options.vcd_file).value();
  ChromeTrace trace;
  ApplyTraceWindow(params, trace);
  ClusterTracer tracer(trace);
  if (!options.trace_file.empty()) {
    tracer.Attach(plan.cluster);
  }
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  FabricCounters counters;
  plan.on_done = [&counters, &plan, &params](cluster::Cluster& cluster) {
    counters = ReadFabricCounters(
        cluster, *plan.topology,
        {phy::FindLinkProfile(params.Text("link.profile")).value(),
         plan.cluster.network.router.clock_ns,
         sc_core::sc_time_stamp().to_seconds() * 1e9});
  };
  const auto start = std::chrono::steady_clock::now();
  const auto measured = cluster::MeasureRemoteAccess(plan);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!measured) {
    std::fprintf(stderr, "lqemu run: %s\n", measured.error().reason.c_str());
    return kExitFailure;
  }
  const cluster::RemoteAccessReport& report = *measured;
  const std::string scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  if (!options.quiet) {
    PrintReport(report, scenario, params, wall_s);
  }

  IntegrityCounts integrity;
  std::vector<double> latencies_ns;
  Json accesses = Json::array();
  for (const auto& access : report.accesses) {
    ++integrity.sent;
    if (access.Ok()) {
      ++integrity.delivered;
      latencies_ns.push_back(access.latency_ns);
    } else {
      ++integrity.lost;
    }
    accesses.push_back(AccessJson(access));
  }
  int status = report.Ok() ? 0 : kExitFailure;
  if (!options.trace_file.empty()) {
    tracer.Finish(report.sim_ns);
    TraceAccesses(report, trace);
    if (auto error = WriteJsonFile(trace.Json(), options.trace_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: --trace: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  if (!options.stats_file.empty()) {
    Json json;
    json["scenario"] = scenario;
    json["seed"] = params.Integer("sim.seed");
    json["lqemu"] = BuildJson();
    json["sim_time_ns"] = report.sim_ns;
    json["wall_time_s"] = wall_s;
    json["nodes"] = report.nodes;
    json["links"] = plan.topology->CableCount();
    json["latency_ns"] = LatencyJson(latencies_ns);
    json["logical"] = {{"remote_ops", report.remote_ops},
                       {"page_faults", report.page_faults}};
    json["remote_access"] = {{"serving", report.serving},
                             {"accesses", std::move(accesses)},
                             {"rtl_ports", RtlPortsJson(report.rtl_ports)}};
    json["faults"] = Json::array();
    json["integrity"] = integrity.Json();
    counters.AddTo(json);
    json["parameters"] = ParametersJson(params);
    if (auto error = WriteJsonFile(json, options.stats_file); !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  if (!report.Ok()) {
    std::fprintf(stderr,
                 "lqemu run: remote access failed: %u of %u boards serving; "
                 "see the report\n",
                 report.serving, report.nodes);
  }
  return status;
}

}  // namespace lq::app
