// SPDX-License-Identifier: Apache-2.0
// The network study: parameters to a Network, a timed run with warm-up and
// drain, and its report and stats JSON.
#include "systemc/app/network_study.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <systemc>

#include "models/network/cycle_fabric.h"
#include "models/network/traffic_pattern.h"
#include "models/phy/link_profile.h"
#include "systemc/app/build_info.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/network_collective.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/process_exit.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/run_report.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/cluster/network.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/wire.h"

namespace lq::app {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// Drain after the measured window: at most this many windows more.
constexpr double kDrainWindows = 4;

struct StudyShape {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::RoutingFunction> routing;
  std::shared_ptr<const net::TrafficPattern> pattern;
  net::NetworkConfig config;
  unsigned flits_per_packet = 1;
  bool cycle_kernel = false;  // sim.kernel: cycle (decision 0025)
  std::optional<FaultPlan> fault;
  std::optional<net::CollectiveSchedule> collective;
};

net::RouterParams ScenarioRouterParams(const ParamSet& params) {
  const auto integer = [&params](const char* key) {
    return static_cast<unsigned>(params.Integer(key));
  };
  net::RouterParams router;
  router.vc_classes = integer("net.vc_classes");
  router.vc_sets = integer("net.vc_sets");
  router.vc_buffer_flits = integer("router.vc_buffer_flits");
  router.rc_cycles = integer("router.rc_cycles");
  router.va_cycles = integer("router.va_cycles");
  router.sa_cycles = integer("router.sa_cycles");
  router.st_cycles = integer("router.st_cycles");
  router.allocator =
      net::ParseSwitchAllocator(params.Text("router.allocator")).value();
  router.islip_iterations = integer("router.islip_iterations");
  router.speedup = integer("router.speedup");
  router.output_buffer_flits = integer("router.output_buffer_flits");
  router.vc_reuse = net::ParseVcReuse(params.Text("router.vc_reuse")).value();
  router.credit_cycles = integer("router.credit_cycles");
  router.eject_any_vc = params.Text("router.eject_vc") == "any";
  return router;
}

}  // namespace

Result<net::RouterConfig> ScenarioRouterConfig(
    const ParamSet& params,
    std::shared_ptr<const topo::RoutingFunction> routing) {
  auto profile = phy::FindLinkProfile(params.Text("link.profile"));
  if (!profile) {
    return Fail("link.profile: " + profile.error().reason);
  }
  net::RouterConfig router;
  static_cast<net::RouterParams&>(router) = ScenarioRouterParams(params);
  router.routing = std::move(routing);
  router.slot_bytes = profile->payload_bytes;
  router.clock_ns = params.Text("router.clock_ghz") == "auto"
                        ? phy::FullWidthFlitNs(*profile)
                        : 1.0 / params.Real("router.clock_ghz");
  if (auto problem = net::RouterConfigProblem(router)) {
    return Fail(*problem);
  }
  return router;
}

net::NetworkInterfaceConfig InterfaceFor(const net::RouterConfig& router) {
  net::NetworkInterfaceConfig ni;
  ni.vc_classes = router.vc_classes;
  ni.vc_sets = router.vc_sets;
  ni.tc_map = net::DefaultTcMap(router.vc_sets);
  ni.vc_buffer_flits = router.vc_buffer_flits;
  ni.slot_bytes = router.slot_bytes;
  ni.clock_ns = router.clock_ns;
  return ni;
}

namespace {

Result<StudyShape> Shape(const ParamSet& params) {
  StudyShape shape;
  auto routed = ScenarioRoutedTopology(params);
  if (!routed) {
    return routed.error();
  }
  shape.topology = routed->topology;
  shape.routing = routed->routing;
  auto pattern =
      ScenarioTrafficPattern(params, shape.topology->EndpointCount());
  if (!pattern) {
    return pattern.error();
  }
  shape.pattern = std::move(pattern).value();

  auto router_config = ScenarioRouterConfig(params, shape.routing);
  if (!router_config) {
    return router_config.error();
  }
  net::RouterConfig& router = shape.config.router;
  router = *router_config;
  shape.config.interface = InterfaceFor(router);

  const auto payload =
      static_cast<size_t>(params.Integer("traffic.message_bytes"));
  if (payload > router.max_payload) {
    return Fail("traffic.message_bytes = " + std::to_string(payload) +
                " is more than one packet carries (net.max_payload " +
                std::to_string(router.max_payload) + ")");
  }
  shape.flits_per_packet = static_cast<unsigned>(
      (net::kRouteHeaderBytes + payload + router.slot_bytes - 1) /
      router.slot_bytes);
  net::TrafficConfig& traffic = shape.config.traffic;
  traffic.payload_bytes = static_cast<uint16_t>(payload);
  traffic.packets_per_cycle =
      params.Real("traffic.load") / shape.flits_per_packet;
  traffic.clock_ns = router.clock_ns;
  traffic.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  // Keys in router cycles, as time.
  const auto cycles = [&params, &router](const char* key) {
    return sc_time(router.clock_ns * static_cast<double>(params.Integer(key)),
                   SC_NS);
  };
  shape.config.link_latency = cycles("link.latency_cycles");
  shape.config.interface_latency = cycles("net.interface_cycles");
  shape.config.watchdog_window = cycles("sim.watchdog_cycles");
  auto fault =
      ScenarioFault(params, *shape.topology, router.vc_classes,
                    static_cast<uint64_t>(params.Integer("sim.cycles")));
  if (!fault) {
    return fault.error();
  }
  shape.fault = *fault;
  if (shape.fault) {
    shape.config.fabric_manager = shape.fault->fabric_manager;
  }
  auto collective = ScenarioCollective(params, *shape.topology);
  if (!collective) {
    return collective.error();
  }
  shape.collective = std::move(collective).value();
  if (shape.collective) {
    traffic.packets_per_cycle = 0;  // the collective is the only traffic
  }
  shape.cycle_kernel = params.Text("sim.kernel") == "cycle";
  if (shape.cycle_kernel && (shape.fault || shape.collective)) {
    return Fail(
        "sim.kernel: the cycle kernel models no faults or collectives "
        "(fault.kind, a collective workload.name); use sim.kernel systemc");
  }
  return shape;
}

// What one run measured.
struct StudyResult {
  bool timed = false;  // sim.cycles given, else until every packet is in
  bool cycle_kernel = false;
  double cycles = 0, warmup = 0, clock_ns = 1;
  unsigned nodes = 0, links = 0, flits_per_packet = 1;
  size_t slot_bytes = 0;
  double offered = 0;  // flits per node per cycle
  uint64_t window_deliveries = 0;
  std::vector<double> latencies_cycles;  // packets sent in the window
  std::vector<double> hops;
  uint64_t sent = 0, delivered = 0, dropped = 0;
  uint64_t flit_hops = 0;  // flits over links, the kernels' unit of work
  std::optional<FaultOutcome> fault;
  const net::CollectiveSchedule* collective = nullptr;
  CollectiveOutcome collective_outcome;  // every rank's, on rank 0
  net::CollectiveBounds bounds;          // the collective's, on the topology
  DeadlockFinding deadlock;
  double sim_time_ns = 0, wall_time_s = 0;
  FabricCounters counters;
  std::optional<RankSummary> ranks;  // a parallel run's (decision 0050)

  double Accepted() const {
    return static_cast<double>(window_deliveries) * flits_per_packet /
           (nodes * (cycles - warmup));
  }
  double MeanHops() const {
    return hops.empty() ? 0
                        : std::accumulate(hops.begin(), hops.end(), 0.0) /
                              static_cast<double>(hops.size());
  }
  // Counts a delivered packet, sent at `sent_ns` and delivered
  // `latency_ns` later: a delivery in the window if it arrived there, and
  // its latency and hops if it was sent there.
  void Count(double sent_ns, double latency_ns, double hop_count) {
    const double window_start = warmup * clock_ns;
    const double window_end =
        timed ? cycles * clock_ns : std::numeric_limits<double>::max();
    const double arrived = sent_ns + latency_ns;
    window_deliveries += arrived >= window_start && arrived < window_end;
    if (sent_ns >= window_start && sent_ns < window_end) {
      latencies_cycles.push_back(latency_ns / clock_ns);
      hops.push_back(hop_count);
    }
  }
  uint64_t InFlight() const {
    return sent > delivered + dropped ? sent - delivered - dropped : 0;
  }
  // Packets dropped other than by an injected failure (which counts each
  // of those once, for the transport layer to retransmit: NET-7.8).
  uint64_t UnexplainedDrops() const {
    return dropped - (fault ? fault->drops.total() : 0);
  }
  // A run of a fixed number of messages ends with every one delivered or
  // dropped; a timed run may leave some in flight when it stops.
  bool Complete() const { return timed || InFlight() == 0; }
  bool Ok() const {
    return !deadlock.detected && UnexplainedDrops() == 0 && Complete() &&
           (!fault || fault->Repaired()) &&
           (collective == nullptr || collective_outcome.Done(*collective));
  }
};

// What one node measured: its router's flit-hops and drops (switches drop
// too: a fat tree's, after a cut) and, at an endpoint, its source's
// packets, each delivered there from `from[i]`, sent at `sent_ns[i]`.
struct NodeFigures {
  uint64_t flit_hops = 0, dropped = 0;
  uint64_t sent = 0, refused = 0;
  std::vector<double> sent_ns, latency_ns;
  std::vector<uint32_t> hops, from;
  std::vector<uint8_t> epochs;  // each packet's routing epoch (NET-5.6)

  void Pack(Bytes& out) const {
    parallel::WireWriter w(out);
    for (uint64_t figure : {flit_hops, dropped, sent, refused}) {
      w.U64(figure);
    }
    w.U64(sent_ns.size());
    for (size_t i = 0; i < sent_ns.size(); ++i) {
      w.F64(sent_ns[i]);
      w.F64(latency_ns[i]);
      w.U32(hops[i]);
      w.U32(from[i]);
      w.U8(epochs[i]);
    }
  }
  static NodeFigures Unpack(ByteView in) {
    parallel::WireReader r(in);
    NodeFigures node;
    for (uint64_t* figure :
         {&node.flit_hops, &node.dropped, &node.sent, &node.refused}) {
      *figure = r.U64();
    }
    for (uint64_t i = r.U64(); i > 0; --i) {
      node.sent_ns.push_back(r.F64());
      node.latency_ns.push_back(r.F64());
      node.hops.push_back(r.U32());
      node.from.push_back(r.U32());
      node.epochs.push_back(r.U8());
    }
    return node;
  }
};

NodeFigures FiguresOf(cluster::Network& network, unsigned n) {
  NodeFigures node;
  const net::Router& router = network.router(n);
  for (unsigned p = 0; p < router.local_port(); ++p) {
    node.flit_hops += router.flits_out(p);
  }
  node.dropped = router.counters().Dropped();
  if (n < network.nodes()) {
    const net::TrafficSource& source = network.source(n);
    node.sent = source.sent();
    node.refused = source.interface().refused();
    node.sent_ns = source.sent_ns();
    node.latency_ns = source.latencies_ns();
    node.hops.assign(source.hops().begin(), source.hops().end());
    node.from.assign(source.sources().begin(), source.sources().end());
    node.epochs = source.epochs();
  }
  return node;
}

// Every node's figures, in node order: in a parallel run, on rank 0 (the
// others get none), each from the rank that has the node (decision 0050).
std::vector<NodeFigures> GatherFigures(cluster::Network& network) {
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  std::vector<NodeFigures> nodes;
  if (!world.parallel()) {
    for (unsigned n = 0; n < network.routers(); ++n) {
      nodes.push_back(FiguresOf(network, n));
    }
    return nodes;
  }
  for (const Bytes& packed : parallel::GatherByNode(
           world, network.routers(),
           [&network](unsigned n) { return network.built(n); },
           [&network](unsigned n, Bytes&out) {
             FiguresOf(network, n).Pack(out);
           })) {
    nodes.push_back(NodeFigures::Unpack(packed));
  }
  return nodes;
}

void Measure(const std::vector<NodeFigures>& nodes, StudyResult& result) {
  for (const NodeFigures& node : nodes) {
    result.flit_hops += node.flit_hops;
    result.dropped += node.dropped + node.refused;
    result.sent += node.sent;
    result.delivered += node.latency_ns.size();
    for (size_t i = 0; i < node.latency_ns.size(); ++i) {
      result.Count(node.sent_ns[i], node.latency_ns[i], node.hops[i]);
    }
  }
}

void PrintStudy(const std::string& scenario, uint64_t seed,
                const std::string& shape, const StudyResult& r,
                std::FILE* out) {
  const LatencySummary latency = Summarise(r.latencies_cycles);
  std::fprintf(out,
               "lqemu run: %s (seed %llu), network study on ideal links%s\n",
               scenario.c_str(), static_cast<unsigned long long>(seed),
               r.cycle_kernel ? " (cycle kernel)" : "");
  std::fprintf(out, "  network    %s\n", shape.c_str());
  std::fprintf(out,
               "  time       %.0f cycles measured after %.0f of warm-up, "
               "%.0f ns simulated with the drain, in %.2f s wall\n",
               r.cycles - r.warmup, r.warmup, r.sim_time_ns, r.wall_time_s);
  if (r.collective == nullptr) {  // a collective offers no load of its own
    std::fprintf(out, "  offered    %.4f flits/node/cycle (%u-flit packets)\n",
                 r.offered, r.flits_per_packet);
    std::fprintf(out, "  accepted   %.4f flits/node/cycle\n", r.Accepted());
  }
  std::fprintf(out,
               "  latency    mean %.2f cycles, p50 %.0f, p99 %.0f, max %.0f "
               "(%zu packets sent in the window; creation to delivery)\n",
               latency.mean, latency.p50, latency.p99, latency.max,
               r.latencies_cycles.size());
  std::fprintf(out, "  hops       mean %.3f\n", r.MeanHops());
  std::fprintf(out, "  speed      %llu flit-hops, %.3f M per wall second\n",
               static_cast<unsigned long long>(r.flit_hops),
               r.wall_time_s > 0
                   ? static_cast<double>(r.flit_hops) / r.wall_time_s / 1e6
                   : 0.0);
  if (r.fault) {
    PrintFault(*r.fault, r.clock_ns, out);
  }
  if (r.collective != nullptr) {
    PrintCollective(*r.collective, r.collective_outcome, out);
    PrintBounds(r.bounds, PayloadBytes(*r.collective),
                r.collective_outcome.finished_ns, out);
  }
  std::fprintf(
      out,
      "  integrity  sent %llu, delivered %llu, dropped %llu (%llu by "
      "the failure), still queued or in flight %llu: %s\n",
      static_cast<unsigned long long>(r.sent),
      static_cast<unsigned long long>(r.delivered),
      static_cast<unsigned long long>(r.dropped),
      static_cast<unsigned long long>(r.dropped - r.UnexplainedDrops()),
      static_cast<unsigned long long>(r.InFlight()),
      r.UnexplainedDrops() == 0 && r.Complete() ? "OK" : "FAILED");
  PrintDeadlockLine(r.deadlock, out);
  if (r.ranks) {
    PrintRanks(*r.ranks, out);
  }
}

std::string WriteStudyJson(const std::string& scenario, uint64_t seed,
                           const ParamSet& params, const StudyResult& r,
                           const std::string& path) {
  const LatencySummary cycles = Summarise(r.latencies_cycles);
  nlohmann::ordered_json json;
  json["scenario"] = scenario;
  json["seed"] = seed;
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = r.sim_time_ns;
  json["wall_time_s"] = r.wall_time_s;
  json["nodes"] = r.nodes;
  json["links"] = r.links;
  std::vector<double> latencies_ns = r.latencies_cycles;
  for (double& latency : latencies_ns) {
    latency *= r.clock_ns;
  }
  json["latency_ns"] = LatencyJson(std::move(latencies_ns));
  json["hops"] = {{"mean", r.MeanHops()}};
  // Delivered slot bytes per ns in the window (GB/s).
  json["bandwidth"] = {
      {"aggregate_GBps", r.Accepted() * r.nodes *
                             static_cast<double>(r.slot_bytes) / r.clock_ns}};
  json["network"] = {{"kernel", r.cycle_kernel ? "cycle" : "systemc"},
                     {"router_clock_ghz", 1 / r.clock_ns},
                     {"cycles", r.cycles - r.warmup},
                     {"flit_hops", r.flit_hops},
                     {"in_flight", r.InFlight()},
                     {"warmup_cycles", r.warmup},
                     {"flits_per_packet", r.flits_per_packet},
                     {"offered_flits_per_node_cycle", r.offered},
                     {"accepted_flits_per_node_cycle", r.Accepted()},
                     {"latency_cycles",
                      {{"mean", cycles.mean},
                       {"p50", cycles.p50},
                       {"p99", cycles.p99},
                       {"max", cycles.max}}},
                     {"deadlock", DeadlockJson(r.deadlock)}};
  if (r.collective != nullptr) {
    json["collective"] = CollectiveJson(*r.collective, r.collective_outcome);
    json["collective"]["bounds"] =
        BoundsJson(r.bounds, PayloadBytes(*r.collective),
                   r.collective_outcome.finished_ns);
  }
  json["faults"] = nlohmann::ordered_json::array();
  if (r.fault) {
    json["faults"].push_back(FaultJson(*r.fault));
  }
  json["integrity"] = {{"sent", r.sent},
                       {"delivered", r.delivered},
                       {"lost", r.dropped},
                       {"duplicated", 0},
                       {"corrupted", 0}};
  r.counters.AddTo(json);
  if (r.ranks) {
    json["ranks"] = RanksJson(*r.ranks);
  }
  json["parameters"] = ParametersJson(params);
  return WriteJsonFile(json, path);
}

// Every packet the SystemC kernel's sources saw delivered.
std::vector<MessageSpan> DeliveredPackets(
    const std::vector<NodeFigures>& nodes) {
  std::vector<MessageSpan> packets;
  for (unsigned n = 0; n < nodes.size(); ++n) {
    const NodeFigures& node = nodes[n];
    for (size_t i = 0; i < node.latency_ns.size(); ++i) {
      packets.push_back({node.from[i], n, node.sent_ns[i],
                         node.sent_ns[i] + node.latency_ns[i]});
    }
  }
  return packets;
}

// The study's trace: every packet delivered, from its creation, on its
// source's track, and the fabric manager's steps.
bool TraceStudy(const ParamSet& params, std::vector<MessageSpan> packets,
                const StudyResult& result, const RunOptions& options) {
  RunTracer tracer(params);
  tracer.Messages("packet", std::move(packets));
  if (result.fault) {
    tracer.FabricManager(*result.fault);
  }
  return tracer.Finish(options.trace_file, options.quiet);
}

// The routers' clock beside the links' flit rate, which it follows unless
// router.clock_ghz sets another.
std::string DescribeClock(const net::RouterConfig& r, const ParamSet& params) {
  const std::string& name = params.Text("link.profile");
  const double link_ns =
      phy::FullWidthFlitNs(phy::FindLinkProfile(name).value());
  char text[200];
  if (params.Text("router.clock_ghz") == "auto") {
    std::snprintf(text, sizeof(text),
                  "routers at %.4g GHz, the %s links' flit rate",
                  1 / r.clock_ns, name.c_str());
  } else {
    std::snprintf(text, sizeof(text),
                  "routers at %.4g GHz (router.clock_ghz), %.3gx the %s "
                  "links' flit rate of %.4g GHz: a port carries %.3gx what a "
                  "link does",
                  1 / r.clock_ns, link_ns / r.clock_ns, name.c_str(),
                  1 / link_ns, link_ns / r.clock_ns);
  }
  return text;
}

std::string DescribeShape(const StudyShape& shape, const ParamSet& params) {
  const net::RouterConfig& r = shape.config.router;
  const auto cycles = [&r](const sc_time& latency) {
    return latency.to_seconds() * 1e9 / r.clock_ns;
  };
  char text[320];
  std::snprintf(
      text, sizeof(text),
      "%s, %s routing; %u VCs x %u flits of %zu B; RC/VA/SA/ST %u/%u/%u/%u "
      "cycles, %s allocator; links %.0f cycles",
      shape.topology->Describe().c_str(), shape.routing->Name().c_str(),
      r.vcs(), r.vc_buffer_flits, r.slot_bytes, r.rc_cycles, r.va_cycles,
      r.sa_cycles, r.st_cycles,
      r.allocator == net::SwitchAllocator::kIslip ? "iSLIP" : "round-robin",
      cycles(shape.config.link_latency));
  std::string described = text + ("; " + DescribeClock(r, params));
  // What departs from the spec's default router (NET-8), as set.
  if (r.vc_reuse == net::VcReuse::kAfterTail) {
    described += "; a VC's next packet after its tail";
  }
  if (r.credit_cycles > 0) {
    described += "; credits +" + std::to_string(r.credit_cycles) +
                 (r.credit_cycles == 1 ? " cycle" : " cycles");
  }
  if (r.eject_any_vc) {
    described += "; ejects on any VC";
  }
  if (shape.config.interface_latency > sc_core::SC_ZERO_TIME) {
    const double interface = cycles(shape.config.interface_latency);
    std::snprintf(text, sizeof(text), "; interfaces %.0f cycle%s", interface,
                  interface == 1 ? "" : "s");
    described += text;
  }
  return described;
}

// What a SystemC run keeps until its report is written.
struct SystemCRun {
  std::unique_ptr<cluster::Network> network;
  std::unique_ptr<net::CollectiveDriver> collective;
  std::vector<NodeFigures> figures;  // every node's, in order (rank 0)
  // A parallel run's partition and synchronisation (decision 0050).
  std::shared_ptr<const topo::Partition> partition;
  std::unique_ptr<parallel::WindowSync> sync;
};

// Builds the Network of SystemC routers (in a parallel run, this rank's
// share) and runs it; what `run` holds outlives the run for the report.
void RunOnSystemC(StudyShape& shape, const ParamSet& params, bool show_progress,
                  StudyResult& result, SystemCRun& run) {
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  // Between ranks only the ideal links cross, so the lookahead is their
  // latency (at least a cycle: link.latency_cycles >= 1).
  run.sync =
      std::make_unique<parallel::WindowSync>(world, shape.config.link_latency);
  cluster::ClusterShare share;
  if (world.parallel()) {
    run.partition = std::make_shared<const topo::Partition>(
        PartitionForRun(params, *shape.topology).value());
    share = {run.partition, run.sync.get()};
  }
  run.network = std::make_unique<cluster::Network>(
      "network", shape.topology, shape.routing, shape.pattern, shape.config,
      std::move(share));
  std::unique_ptr<cluster::Network>& network = run.network;
  std::unique_ptr<net::CollectiveDriver>& collective = run.collective;
  if (shape.collective) {
    std::vector<net::TrafficSource*> sources;  // by node; this rank's
    for (unsigned n = 0; n < shape.topology->EndpointCount(); ++n) {
      sources.push_back(network->built(n) ? &network->source(n) : nullptr);
    }
    collective = std::make_unique<net::CollectiveDriver>(
        "collective", std::move(sources), std::move(*shape.collective),
        shape.config.traffic.payload_bytes);
    result.collective = &collective->schedule();
  }
  result.nodes = network->nodes();
  result.links = network->links();

  const double run_ns = result.timed ? result.cycles * result.clock_ns : 0;
  std::unique_ptr<ProgressMeter> progress;
  if (show_progress && world.root()) {
    // Rank 0 shows its own share of the work done.
    const auto expected = static_cast<uint64_t>(shape.config.traffic.packets) *
                          network->sources().size();
    progress = std::make_unique<ProgressMeter>(
        "progress",
        [&net = *network, run_ns, expected] {
          if (run_ns > 0) {
            return std::min(
                1.0, sc_core::sc_time_stamp().to_seconds() * 1e9 / run_ns);
          }
          uint64_t delivered = 0;
          for (const net::TrafficSource* source : net.sources()) {
            delivered += source->latencies_ns().size();
          }
          return DoneFraction(delivered, expected);
        },
        sc_time(100 * result.clock_ns, SC_NS), stderr);
  }
  // The watchdog's sc_stop() is reported as an info message; the report
  // says what happened.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  std::optional<RestoreSample> restore;
  if (result.timed) {
    // The measured window, then a drain with no new packets so that those
    // sent in the window arrive and count; the fault strikes on the way.
    const sc_time end(run_ns * (1 + kDrainWindows), SC_NS);
    if (shape.fault) {
      // Every rank carries out its part of the fault at the same instant.
      const sc_time at(shape.fault->at_cycles * result.clock_ns, SC_NS);
      run.sync->Run(at);
      InjectFault(*network->control(), *shape.fault);
      if (shape.fault->restore_at_cycles > 0) {
        const sc_time back(shape.fault->restore_at_cycles * result.clock_ns,
                           SC_NS);
        run.sync->Run(back);
        restore = RestoreFault(*network->control(), *shape.fault);
      }
      run.sync->Run(end);
    } else {
      run.sync->Run(end);
    }
  } else {
    run.sync->Run(sc_core::sc_max_time());
  }
  result.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  result.sim_time_ns = run.sync->LatestTime().to_seconds() * 1e9;
  if (!result.timed) {
    result.cycles = result.sim_time_ns / result.clock_ns;
  }
  const net::DeadlockWatchdog& watchdog = *network->watchdog();
  result.deadlock = EarliestDeadlock({watchdog.deadlocked(),
                                      watchdog.detected_at().to_seconds() * 1e9,
                                      watchdog.report()});
  if (collective) {
    result.collective_outcome = GatherCollective(*collective);
  }
  run.figures = GatherFigures(*network);
  Measure(run.figures, result);
  if (run.partition) {
    result.ranks = SummariseRanks(*run.partition, *shape.topology, *run.sync);
  }
  if (shape.fault) {
    std::vector<net::FlowDelivery> deliveries;
    for (unsigned n = 0; n < run.figures.size(); ++n) {
      const NodeFigures& node = run.figures[n];
      for (size_t i = 0; i < node.latency_ns.size(); ++i) {
        deliveries.push_back({node.from[i], n, 0, node.sent_ns[i],
                              node.sent_ns[i] + node.latency_ns[i],
                              node.epochs[i]});
      }
    }
    result.fault = MeasureFault(*network, *shape.fault,
                                shape.fault->at_cycles * result.clock_ns,
                                restore, *shape.routing, deliveries);
  }
}

// How the study's links are timed, for their utilisation: ideal links
// carry a slot a router cycle, over the whole simulated time.
LinkTiming StudyTiming(const ParamSet& params, const StudyResult& result) {
  return {phy::FindLinkProfile(params.Text("link.profile")).value(),
          result.clock_ns, result.sim_time_ns};
}

// The same study on the flit-level cycle kernel (decision 0025): the
// shape's router, sources and links, one loop, and the same measurement
// (creation to delivery, in the window).
// The packets delivered go to `traced` too, unless it is null.
void RunOnCycleKernel(const StudyShape& shape, const ParamSet& params,
                      bool show_progress, StudyResult& result,
                      std::vector<MessageSpan>* traced) {
  const net::RouterConfig& router = shape.config.router;
  net::CycleFabricConfig config;
  static_cast<net::RouterParams&>(config) = router;
  config.link_cycles =
      static_cast<unsigned>(params.Integer("link.latency_cycles"));
  config.interface_cycles =
      static_cast<unsigned>(params.Integer("net.interface_cycles"));
  config.flits_per_packet = shape.flits_per_packet;
  config.initial_ttl = shape.config.interface.initial_ttl;
  config.packets_per_cycle = shape.config.traffic.packets_per_cycle;
  config.packets_per_node = shape.config.traffic.packets;
  config.stop_cycle = static_cast<uint64_t>(result.cycles);
  config.seed = shape.config.traffic.seed;
  config.watchdog_cycles =
      static_cast<uint64_t>(params.Integer("sim.watchdog_cycles"));
  net::CycleFabric fabric(shape.routing, shape.pattern, config);
  result.nodes = fabric.endpoints();
  result.links = fabric.links();

  fabric.SetDeliveryHook([&result, traced](const net::CycleDelivery& d) {
    const double created_ns = static_cast<double>(d.created) * result.clock_ns;
    const double latency_ns =
        static_cast<double>(d.delivered - d.created) * result.clock_ns;
    result.Count(created_ns, latency_ns, d.hops);
    if (traced != nullptr) {
      traced->push_back({d.src, d.dst, created_ns, created_ns + latency_ns});
    }
  });
  // The measured window, then a drain with no new packets so that those
  // sent in the window arrive and count.
  const auto end = static_cast<uint64_t>(result.cycles * (1 + kDrainWindows));
  const uint64_t expected = config.packets_per_node * result.nodes;
  const auto done = [&] {
    if (result.timed) {
      return static_cast<double>(fabric.now()) / static_cast<double>(end);
    }
    return DoneFraction(fabric.delivered(), expected);
  };
  constexpr uint64_t kChunk = 1000;  // cycles between progress checks
  const auto start = std::chrono::steady_clock::now();
  auto last_draw = start;
  for (bool finished = false; !finished && !fabric.deadlocked();) {
    const uint64_t until = fabric.now() + kChunk;
    finished = result.timed ? (fabric.RunUntil(std::min(until, end)),
                               fabric.now() >= end)
                            : fabric.RunToCompletion(until);
    const auto now = std::chrono::steady_clock::now();
    if (show_progress && now - last_draw > std::chrono::milliseconds(250)) {
      last_draw = now;
      DrawProgress(stderr,
                   static_cast<double>(fabric.now()) * result.clock_ns / 1e3,
                   done(), std::chrono::duration<double>(now - start).count());
    }
  }
  if (show_progress) {
    ClearProgress(stderr);
  }
  result.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  result.sim_time_ns = static_cast<double>(fabric.now()) * result.clock_ns;
  if (!result.timed) {
    result.cycles = static_cast<double>(fabric.now());
  }
  result.sent = fabric.sent();
  result.delivered = fabric.delivered();
  result.dropped = fabric.dropped();
  result.deadlock = {
      fabric.deadlocked(),
      static_cast<double>(fabric.deadlock_cycle()) * result.clock_ns,
      fabric.deadlock_report()};
  result.flit_hops = fabric.flit_hops();
  result.counters =
      ReadFabricCounters(fabric, *shape.topology, StudyTiming(params, result));
}

}  // namespace

std::vector<ParamSpec> NetworkStudyParamSpecs() {
  std::vector<ParamSpec> specs = {
      IntegerParam("net.vc_classes", "VC classes per VC set (NET-3.1)", "2", "",
                   1, 4),
      IntegerParam("net.vc_sets", "VC sets (NET-3.1); sets x classes <= 4", "2",
                   "", 1, 4),
      IntegerParam("router.vc_buffer_flits", "input buffer per VC (NET-8.1)",
                   "64", "flits", 1, 4096),
      {"router.clock_ghz",
       "router clock (NET-8.4); auto: the link profile's flit rate (0.5 GHz "
       "for pcie6), so that a port carries what a link does",
       "auto",
       "GHz",
       ParamType::kReal,
       0.01,
       100,
       {"auto"}},
      IntegerParam("router.rc_cycles", "route computation (NET-8.4)", "1",
                   "cycles", 1, 64),
      IntegerParam("router.va_cycles", "VC allocation (NET-8.4)", "1", "cycles",
                   1, 64),
      IntegerParam("router.sa_cycles", "switch allocation (NET-8.4)", "1",
                   "cycles", 1, 64),
      IntegerParam("router.st_cycles", "crossbar traversal (NET-8.4)", "1",
                   "cycles", 1, 64),
      {"router.allocator",
       "switch allocator (NET-8.5)",
       "rr",
       "",
       ParamType::kChoice,
       0,
       0,
       {"rr", "islip"}},
      IntegerParam("router.islip_iterations", "iSLIP iterations (NET-8.5)", "1",
                   "", 1, 16),
      IntegerParam("router.speedup",
                   "switch allocation rounds per cycle (NET-8.11)", "1", "", 1,
                   4),
      IntegerParam("router.output_buffer_flits",
                   "output queue per port, used with speedup (NET-8.11)", "32",
                   "flits", 1, 4096),
      {"router.vc_reuse",
       "when a VC serves its next packet after a tail wins the switch "
       "(NET-8.3): same_cycle (decision 0030), or after_tail (the next "
       "packet is routed from the next cycle, the output VC allocatable "
       "then, as BookSim2's iq router does)",
       "same_cycle",
       "",
       ParamType::kChoice,
       0,
       0,
       {"same_cycle", "after_tail"}},
      IntegerParam("router.credit_cycles",
                   "cycles to process a credit from a neighbour (NET-8.2)", "0",
                   "cycles", 0, 64),
      {"router.eject_vc",
       "the VC a packet leaving at the local port asks for (NET-8.3): same "
       "(the one it arrived on) or any (any free VC of its set)",
       "same",
       "",
       ParamType::kChoice,
       0,
       0,
       {"same", "any"}},
      IntegerParam("link.latency_cycles",
                   "run.study network: an ideal link's slot and credit "
                   "latency",
                   "2", "cycles", 1, 1000000),
      IntegerParam("net.interface_cycles",
                   "run.study network: the channel between an interface and "
                   "its router, each way",
                   "0", "cycles", 0, 64),
      IntegerParam("sim.cycles",
                   "network study: cycles to run, warm-up included (0: send "
                   "traffic.messages_per_node each, then drain)",
                   "0", "cycles", 0, 1e9),
      IntegerParam("sim.warmup_cycles",
                   "network study: cycles before measurement starts", "0",
                   "cycles", 0, 1e9),
      {"sim.kernel",
       "network study: systemc (every router a SystemC module moving bytes) "
       "or cycle (one flit-level loop, no faults or collectives; decision "
       "0025)",
       "systemc",
       "",
       ParamType::kChoice,
       0,
       0,
       {"systemc", "cycle"}},
      IntegerParam(
          "sim.watchdog_cycles",
          "cycles without progress (packets held, no slot moving anywhere) "
          "that declare a deadlock, in a network study or on the stack",
          "10000", "cycles", 10, 1e9),
  };
  for (ParamSpec& spec : NetworkFaultParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  for (ParamSpec& spec : NetworkCollectiveParamSpecs()) {
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::vector<std::string> NetworkWorkloadNames() {
  std::vector<std::string> names = {"traffic"};
  for (const auto& info : net::CollectiveCatalogue()) {
    names.push_back(info.name);
  }
  return names;
}

void UseRouterPipelineKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use({"link.profile", "net.vc_classes", "net.vc_sets",
             "router.rc_cycles", "router.va_cycles", "router.sa_cycles",
             "router.st_cycles", "router.allocator", "router.speedup",
             "router.output_buffer_flits", "router.vc_reuse",
             "router.credit_cycles", "router.eject_vc"});
  usage.UseIf(params.Text("router.allocator") == "islip",
              {"router.islip_iterations"}, "router.allocator is rr");
}

void UseRouterKeys(const ParamSet& params, KeyUsage& usage) {
  UseRouterPipelineKeys(params, usage);
  usage.Use({"router.clock_ghz", "router.vc_buffer_flits"});
}

KeyUsage NetworkStudyKeys(const ParamSet& params) {
  KeyUsage usage;
  UseRouterKeys(params, usage);
  usage.Use({"workload.name", "link.latency_cycles", "net.interface_cycles",
             "sim.watchdog_cycles", "traffic.message_bytes"});
  usage.Skip({"link.fidelity", "link.ber", "link.cable_m", "link.rtl_ports",
              "link.vcd_start_us", "link.vcd_length_us"},
             "its routers are joined by ideal links, with no link "
             "controllers or PHYs (run.study stack has them)");
  usage.Skip("router.latency_ns",
             "its routers take router.rc_cycles to router.st_cycles");
  const std::string workload = params.Text("workload.name");
  if (IsCollective(workload)) {
    UseCollectiveKeys(params, usage);
    const std::string alone =
        "the collective runs to completion and is the only traffic";
    usage.Skip({"sim.cycles", "sim.warmup_cycles"}, alone);
    // traffic.message_bytes, read above, stays read: the packets' size.
    usage.Skip(params.KeysUnder("traffic."), alone);
    usage.Skip("sim.kernel", "the cycle kernel models no collectives");
    usage.Skip({"fault.kind", "fault.at_cycles", "fault.node", "fault.port",
                "fault.restore_at_cycles"},
               "a fault strikes inside a timed run (sim.cycles), and a "
               "collective runs to completion");
    return usage;
  }
  UseTrafficPatternKeys(params, usage);
  usage.Use({"traffic.load", "sim.cycles", "sim.kernel"});
  const bool timed = params.Integer("sim.cycles") != 0;
  usage.UseIf(timed, {"sim.warmup_cycles"},
              "sim.cycles is 0: the study sends traffic.messages_per_node "
              "from each node and drains");
  usage.UseIf(!timed, {"traffic.messages_per_node"},
              "sim.cycles is set: the study runs that many cycles");
  UseFaultKeys(params, usage);
  return usage;
}

// What a run over MPI ranks cannot have (decision 0050): so far the
// SystemC kernel's routers and sources alone. (link.latency_cycles is at
// least 1, so a cut link always gives the ranks a lookahead.)
std::optional<std::string> CheckRanks(const StudyShape& shape,
                                      const ParamSet& params) {
  const std::string one_process = " runs in one process only (so far)";
  if (shape.cycle_kernel) {
    return "sim.kernel cycle" + one_process + ": run it without mpirun";
  }
  if (shape.fault) {
    if (auto error =
            CheckFaultOverRanks(*shape.fault, shape.config.link_latency)) {
      return error;
    }
  }
  auto partition = PartitionForRun(params, *shape.topology);
  if (!partition) {
    return partition.error().reason;
  }
  return std::nullopt;
}

std::optional<std::string> CheckNetworkStudy(const ParamSet& params,
                                             const RunOptions& options) {
  if (!options.pcap_file.empty()) {
    return "--pcap: run.study network carries no transport packets "
           "(run.study stack does)";
  }
  return ValidateNetworkStudy(params);
}

std::optional<std::string> ValidateNetworkStudy(const ParamSet& params) {
  if (params.Integer("sim.cycles") != 0 &&
      params.Integer("sim.warmup_cycles") >= params.Integer("sim.cycles")) {
    return "sim.warmup_cycles must be below sim.cycles (or sim.cycles 0)";
  }
  if (params.Integer("sim.cycles") == 0 &&
      params.Integer("traffic.messages_per_node") == 0 &&
      !IsCollective(params.Text("workload.name"))) {
    return "a network study needs sim.cycles or traffic.messages_per_node "
           "above 0 (it would run forever or do nothing)";
  }
  auto shape = Shape(params);
  if (!shape) {
    return shape.error().reason;
  }
  if (parallel::RankWorld::Get().parallel()) {
    return CheckRanks(*shape, params);
  }
  return std::nullopt;
}

int RunNetworkStudy(const ParamSet& params, const RunOptions& options) {
  StudyShape shape = Shape(params).value();
  StudyResult result;
  result.clock_ns = shape.config.router.clock_ns;
  result.flits_per_packet = shape.flits_per_packet;
  result.slot_bytes = shape.config.router.slot_bytes;
  // A collective is the only traffic (Shape): no synthetic load.
  result.offered = shape.collective ? 0 : params.Real("traffic.load");
  const double cycles = static_cast<double>(params.Integer("sim.cycles"));
  result.timed = cycles > 0;
  if (result.timed) {
    result.cycles = cycles;
    result.warmup = static_cast<double>(params.Integer("sim.warmup_cycles"));
    shape.config.traffic.stop = sc_time(cycles * result.clock_ns, SC_NS);
  } else {
    shape.config.traffic.packets =
        static_cast<uint64_t>(params.Integer("traffic.messages_per_node"));
  }
  result.cycle_kernel = shape.cycle_kernel;
  SystemCRun run;
  const std::unique_ptr<net::CollectiveDriver>& collective = run.collective;
  std::vector<MessageSpan> traced;
  if (shape.cycle_kernel) {
    RunOnCycleKernel(shape, params, options.progress, result,
                     options.trace_file.empty() ? nullptr : &traced);
  } else {
    RunOnSystemC(shape, params, options.progress, result, run);
    if (collective) {
      // A local port and a link carry a slot a cycle.
      result.bounds = ScheduleBounds(
          collective->schedule(), *shape.topology,
          static_cast<double>(result.slot_bytes) / result.clock_ns);
    }
    result.counters = ReadFabricCounters(
        run.network->cluster(), *shape.topology, StudyTiming(params, result));
  }
  if (!parallel::RankWorld::Get().root()) {
    // Rank 0 reports the run, and its status is the run's.
    ExitWithoutTeardown(kExitOk);
  }

  const std::string scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  const auto seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  if (!options.quiet) {
    PrintStudy(scenario, seed, DescribeShape(shape, params), result, stdout);
  }
  if (!options.trace_file.empty()) {
    if (run.network) {
      traced = DeliveredPackets(run.figures);
    }
    if (!TraceStudy(params, std::move(traced), result, options)) {
      ExitWithoutTeardown(kExitFailure);
    }
  }
  if (!options.stats_file.empty()) {
    if (auto error =
            WriteStudyJson(scenario, seed, params, result, options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      ExitWithoutTeardown(kExitFailure);
    }
  }
  if (result.deadlock.detected) {
    std::fprintf(stderr, "lqemu run: deadlock: %s\n",
                 result.deadlock.cycle.c_str());
  }
  if (result.UnexplainedDrops() > 0) {
    std::fprintf(stderr, "lqemu run: %llu packets dropped (see the report)\n",
                 static_cast<unsigned long long>(result.UnexplainedDrops()));
  }
  if (!result.Complete()) {
    std::fprintf(stderr,
                 "lqemu run: %llu packets neither delivered nor dropped (see "
                 "the report)\n",
                 static_cast<unsigned long long>(result.InFlight()));
  }
  if (result.collective &&
      !result.collective_outcome.Done(*result.collective)) {
    std::fprintf(stderr,
                 "lqemu run: the collective did not complete (see "
                 "the report)\n");
  }
  if (result.fault && !result.fault->Repaired()) {
    std::fprintf(stderr,
                 "lqemu run: the fault was not repaired (see the "
                 "report)\n");
  }
  // Every output is written; a SystemC network of N ports would take
  // O(N^2) to tear down (process_exit.h).
  ExitWithoutTeardown(result.Ok() ? kExitOk : kExitFailure);
}

}  // namespace lq::app
