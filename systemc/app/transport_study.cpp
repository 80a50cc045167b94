// The transport study: build, run, check every write, report.
#include "systemc/app/transport_study.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <systemc>

#include "models/pcap/pcap_writer.h"
#include "models/phy/link_profile.h"
#include "models/roce/addressing.h"
#include "models/transport/qp_state.h"
#include "systemc/app/congestion_params.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/network_study.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/run_report.h"
#include "systemc/app/scenario_lossless.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/board/memory.h"
#include "systemc/cluster/cluster.h"
#include "systemc/transport/engine_fabric.h"
#include "systemc/transport/incast_workload.h"

namespace lq::app {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint8_t kDataPriority = roce::PriorityOfDscp(roce::kDscpData);

// Everything the study is built from, derived from the keys.
struct StudyPlan {
  std::shared_ptr<const topo::Topology> topology;
  bool tlm_links = false;  // link.fidelity tlm: link controllers and PHYs
  transport::EngineFabricConfig fabric;
  transport::IncastConfig incast;
  uint64_t headroom_bytes = 0;  // TRN-8.8's H of the scenario's links
  std::string marking;          // the ECN profile's name
};

Result<StudyPlan> Plan(const ParamSet& params) {
  StudyPlan plan;
  auto routed = ScenarioRoutedTopology(params);
  if (!routed) {
    return routed.error();
  }
  plan.topology = routed->topology;
  plan.tlm_links = params.Text("link.fidelity") == "tlm";
  if (plan.topology->EndpointCount() != plan.topology->NodeCount()) {
    return Fail(
        "topology: a transport study puts an engine on every node, "
        "so it needs a topology without switches (a torus or a full "
        "mesh), not " +
        plan.topology->Describe());
  }
  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  // One link's payload rate at full width: TRN-8.8's G, TRN-10.1's R.
  const double goodput_bps =
      phy::PayloadGoodputGbps(profile, profile.max_lanes) * 1e9;
  const auto pmtu = static_cast<uint32_t>(params.Integer("transport.pmtu"));
  if (!transport::ValidPmtu(pmtu)) {
    return Fail("transport.pmtu = " + std::to_string(pmtu) +
                " is not one of 256, 512, 1024, 2048, 4096 (TRN-6.1)");
  }

  // PFC (TRN-8), with every VC holding XOFF plus the headroom (TRN-8.9).
  const std::string cc = params.Text("transport.cc");
  auto lossless =
      ScenarioLosslessRouter(params, routed->routing, profile, pmtu, cc);
  if (!lossless) {
    return lossless.error();
  }
  plan.headroom_bytes = lossless->plan.headroom_bytes;
  plan.marking = lossless->plan.marking;

  transport::EngineFabricConfig& fabric = plan.fabric;
  fabric.router = lossless->router;
  fabric.flow_control = lossless->plan.flow;
  fabric.engine.interface = InterfaceFor(lossless->router);
  fabric.engine.congestion = cc;
  auto congestion = ScenarioCongestionParams(params, goodput_bps);
  if (!congestion) {
    return congestion.error();
  }
  fabric.engine.congestion_params = *congestion;
  fabric.faults.drop = params.Real("transport.drop");
  fabric.faults.seed = static_cast<uint64_t>(params.Integer("sim.seed"));

  transport::IncastConfig& incast = plan.incast;
  incast.senders = static_cast<unsigned>(params.Integer("transport.senders"));
  incast.background_pairs =
      static_cast<unsigned>(params.Integer("transport.background_pairs"));
  incast.background_flows =
      static_cast<unsigned>(params.Integer("transport.background_flows"));
  incast.flow_bytes =
      static_cast<uint64_t>(params.Integer("transport.flow_kib")) * 1024;
  incast.pmtu = pmtu;
  incast.congestion = cc;
  incast.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  incast.land_apart = true;
  const unsigned nodes = plan.topology->EndpointCount();
  if (nodes < 2) {
    return Fail("an incast needs at least 2 nodes");
  }
  if (!transport::IncastFits(incast, nodes)) {
    return Fail(
        "transport.background_pairs: " +
        std::to_string(incast.background_pairs) +
        " pairs need nodes of their own, 2 each, besides node 0 and "
        "the " +
        std::to_string(incast.senders) + " senders: " +
        std::to_string(1 + incast.senders + 2 * incast.background_pairs) +
        " nodes, and " + plan.topology->Describe() + " has " +
        std::to_string(nodes));
  }
  return plan;
}

// The pattern node `n` sends from its address 0.
uint8_t PatternByte(unsigned node, uint64_t offset) {
  return static_cast<uint8_t>(node * 29 + offset * 7 + (offset >> 10));
}

// What the run did to the data: WRs posted, completed and failed, and the
// flows whose bytes at their destination differ from their source's.
IntegrityCounts Check(
    const transport::IncastWorkload& workload,
    const transport::FabricFigures& figures,
    const std::vector<std::unique_ptr<board::Memory>>& memories,
    uint64_t flow_bytes) {
  IntegrityCounts integrity;
  integrity.sent = workload.flows();
  integrity.delivered = workload.flows_done();
  integrity.lost = integrity.sent > integrity.delivered
                       ? integrity.sent - integrity.delivered
                       : 0;
  const uint64_t ended = figures.work_completed + figures.work_failed;
  integrity.duplicated =
      ended > figures.work_posted ? ended - figures.work_posted : 0;
  for (const transport::FlowPlace& place : workload.places()) {
    if (!place.complete) {
      continue;  // lost, not corrupted
    }
    const ByteView got = memories[place.dst]->View(
        static_cast<uint32_t>(place.offset), static_cast<uint32_t>(flow_bytes));
    for (uint64_t i = 0; i < flow_bytes; ++i) {
      if (got[i] != PatternByte(place.src, i)) {
        ++integrity.corrupted;
        break;
      }
    }
  }
  return integrity;
}

void Print(const std::string& scenario, uint64_t seed, const StudyPlan& plan,
           const transport::IncastWorkload& workload,
           const transport::FabricFigures& f, const IntegrityCounts& integrity,
           double sim_us, double wall_s) {
  const LatencySummary incast = Summarise(workload.times().incast);
  const LatencySummary victims = Summarise(workload.times().background);
  std::printf(
      "lqemu run: %s (seed %llu): transport study, %u nodes, %s links\n",
      scenario.c_str(), static_cast<unsigned long long>(seed),
      plan.topology->EndpointCount(),
      plan.tlm_links ? "tlm (link controllers and PHYs)" : "ideal");
  std::printf(
      "  incast: %u senders x %llu KiB to node 0, %u background pairs x %u "
      "flows; cc %s, marking %s, PMTU %u\n",
      plan.incast.senders,
      static_cast<unsigned long long>(plan.incast.flow_bytes / 1024),
      plan.incast.background_pairs, plan.incast.background_flows,
      plan.incast.congestion.c_str(), plan.marking.c_str(), plan.incast.pmtu);
  std::printf(
      "  PFC: XOFF %llu B + headroom %llu B per VC (TRN-8.9); %llu XOFF "
      "messages, %llu PFC frames, %.1f us paused\n",
      static_cast<unsigned long long>(
          plan.fabric.flow_control->pfc_params.xoff_bytes),
      static_cast<unsigned long long>(plan.headroom_bytes),
      static_cast<unsigned long long>(f.xoff_frames),
      static_cast<unsigned long long>(f.pfc_frames), f.pause_us);
  std::printf(
      "  ECN: %llu marked, %llu CNPs; %llu packets, %llu retransmitted\n",
      static_cast<unsigned long long>(f.ecn_marked),
      static_cast<unsigned long long>(f.cnps),
      static_cast<unsigned long long>(f.packets_sent),
      static_cast<unsigned long long>(f.retransmits));
  std::printf("  FCT incast: p50 %.1f us, p99 %.1f us, max %.1f us\n",
              incast.p50, incast.p99, incast.max);
  if (!workload.times().background.empty()) {
    std::printf("  FCT background: mean %.1f us, p99 %.1f us\n", victims.mean,
                victims.p99);
  }
  std::printf("  integrity: %s\n", integrity.Line().c_str());
  std::printf("  %.1f us simulated in %.2f s\n", sim_us, wall_s);
}

// Every pause of the data priority at every router output, from the
// routers' flow control as the run goes: [start, end) in ns.
// One node's parts the study reads, whichever assembly built them.
struct NodeParts {
  net::Router* router = nullptr;
  transport::TransportEngine* engine = nullptr;
  transport::RouterFlowControl* flow = nullptr;  // with flow control
};

// The nodes' routers, engines and flow control: routers joined port to
// port (link.fidelity ideal, decision 0009), or cards without boards whose
// ports are TL link controllers and PHYs at the scenario's bit-error rate
// and cable length, their PFC messages in CONTROL flits (TRN-8.3). The
// assembly outlives the run in `ideal` or `tlm`.
std::vector<NodeParts> BuildNodes(
    const ParamSet& params, const StudyPlan& plan,
    std::vector<transport::EngineFabricNode>& ideal,
    std::unique_ptr<cluster::Cluster>& tlm) {
  std::vector<NodeParts> parts;
  if (!plan.tlm_links) {
    ideal = transport::BuildEngineFabric(
        *plan.topology, plan.fabric.router.routing, plan.fabric);
    for (auto& node : ideal) {
      parts.push_back({node.router.get(), node.engine.get(), node.flow.get()});
    }
    return parts;
  }
  const phy::LinkProfile profile =
      phy::FindLinkProfile(params.Text("link.profile")).value();
  cluster::ClusterConfig config;
  config.boards = false;
  config.routing = plan.fabric.router.routing;
  config.port.phy = phy::PhyPortConfig::ForProfile(profile);
  config.port.phy.cable_metres = params.Real("link.cable_m");
  config.port.phy.errors.ber = params.Real("link.ber");
  config.port.phy.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  config.port.controller.profile = profile;
  config.port.controller.start_trained = true;  // no firmware: DLL-6.12
  config.network.router = plan.fabric.router;
  config.network.interface = plan.fabric.engine.interface;
  config.network.interface.faults = plan.fabric.faults;
  config.network.transport = plan.fabric.engine;
  config.network.flow_control = plan.fabric.flow_control;
  tlm = std::make_unique<cluster::Cluster>("cluster", config, plan.topology);
  for (unsigned n = 0; n < tlm->node_count(); ++n) {
    cluster::Node& node = tlm->node(n);
    parts.push_back({node.router(), node.transport(), node.flow_control()});
  }
  return parts;
}

class PauseLog {
 public:
  struct Interval {
    unsigned node = 0, port = 0;
    double start_ns = 0, end_ns = 0;
  };

  void Attach(const std::vector<NodeParts>& nodes) {
    for (unsigned n = 0; n < nodes.size(); ++n) {
      if (!nodes[n].flow) {
        continue;
      }
      nodes[n].flow->set_pause_observer(
          [this, n](unsigned port, uint8_t tc, bool paused, uint64_t at_ps) {
            if (tc != kDataPriority) {
              return;
            }
            const double at_ns = static_cast<double>(at_ps) / 1000;
            if (paused) {
              open_.emplace(std::make_pair(n, port), at_ns);
            } else {
              Close(n, port, at_ns);
            }
          });
    }
  }
  // Closes the pauses still running at `end_ns`.
  void Finish(double end_ns) {
    while (!open_.empty()) {
      Close(open_.begin()->first.first, open_.begin()->first.second, end_ns);
    }
  }
  nlohmann::ordered_json Json() const {
    nlohmann::ordered_json json = nlohmann::ordered_json::array();
    for (const Interval& i : intervals_) {
      json.push_back({{"node", i.node},
                      {"port", i.port},
                      {"start_ns", i.start_ns},
                      {"end_ns", i.end_ns}});
    }
    return json;
  }

 private:
  void Close(unsigned node, unsigned port, double at_ns) {
    const auto it = open_.find({node, port});
    if (it != open_.end()) {
      intervals_.push_back({node, port, it->second, at_ns});
      open_.erase(it);
    }
  }

  std::map<std::pair<unsigned, unsigned>, double> open_;
  std::vector<Interval> intervals_;
};

std::string WriteJson(const std::string& scenario, uint64_t seed,
                      const ParamSet& params, const StudyPlan& plan,
                      const transport::IncastWorkload& workload,
                      const transport::FabricFigures& f, const PauseLog& pauses,
                      const IntegrityCounts& integrity, double sim_ns,
                      double wall_s, const std::string& path) {
  const LatencySummary incast = Summarise(workload.times().incast);
  const LatencySummary victims = Summarise(workload.times().background);
  nlohmann::ordered_json json;
  json["scenario"] = scenario;
  json["seed"] = seed;
  json["sim_time_ns"] = sim_ns;
  json["wall_time_s"] = wall_s;
  json["nodes"] = plan.topology->EndpointCount();
  json["links"] = plan.topology->CableCount();
  std::vector<double> incast_ns = workload.times().incast;
  for (double& fct : incast_ns) {
    fct *= 1e3;  // us to ns
  }
  json["latency_ns"] = LatencyJson(std::move(incast_ns));
  json["transport"] = {
      {"ops", f.work_posted},
      {"retransmits", f.retransmits},
      {"pfc_pause_frames", f.pfc_frames},
      {"cnps", f.cnps},
      {"xoff_frames", f.xoff_frames},
      {"pause_us", f.pause_us},
      {"pauses", pauses.Json()},
      {"ecn_marked", f.ecn_marked},
      {"packets", f.packets_sent},
      {"headroom_bytes", plan.headroom_bytes},
      {"fct_us",
       {{"incast",
         {{"p50", incast.p50}, {"p99", incast.p99}, {"max", incast.max}}},
        {"background", {{"mean", victims.mean}, {"p99", victims.p99}}}}}};
  json["faults"] = nlohmann::ordered_json::array();
  json["integrity"] = integrity.Json();
  json["parameters"] = ParametersJson(params.Values());
  return WriteJsonFile(json, path);
}

}  // namespace

std::vector<ParamSpec> TransportStudyParamSpecs() {
  return {
      ChoiceParam("transport.cc",
                  "congestion control of the study's QPs (TRN-5.8): none is "
                  "PFC alone",
                  "dcqcn", transport::CongestionControlNames()),
      IntegerParam("transport.senders", "incast senders, drawn with sim.seed",
                   "8", "", 1, 8191),
      IntegerParam("transport.flow_kib", "bytes each flow RDMA-WRITEs", "1024",
                   "KiB", 1, 65536),
      IntegerParam("transport.background_pairs",
                   "node pairs writing flows meanwhile (victims)", "0", "", 0,
                   4096),
      IntegerParam("transport.background_flows",
                   "flows each background pair writes, one after another", "4",
                   "", 1, 1000),
      IntegerParam("transport.pmtu", "path MTU (TRN-6.1)", "4096", "bytes", 256,
                   4096),
      RealParam("transport.drop",
                "probability that a node's interface drops a delivered "
                "packet (NET-8.10): the transport retransmits",
                "0", "", 0, 1),
      ChoiceParam("ecn.profile",
                  "ECN marking at every router (TRN-9.3); auto: the one "
                  "transport.cc is made for",
                  "auto", {"auto", "none", "dcqcn", "lqcc"}),
      IntegerParam("pfc.xoff_bytes", "PFC XOFF threshold (TRN-8.5)", "65536",
                   "bytes", 1024, 1 << 24),
      IntegerParam("pfc.xon_bytes", "PFC XON threshold (TRN-8.5)", "49152",
                   "bytes", 0, 1 << 24),
      IntegerParam("pfc.pause_quanta",
                   "pause time an XOFF asks for, in 512-bit quanta (TRN-8.5)",
                   "65535", "quanta", 1, 65535),
      IntegerParam("pfc.refresh_ns", "XOFF repeated this often (TRN-8.5)",
                   "20000", "ns", 1, 1000000000),
      IntegerParam("pfc.react_ns", "upstream reaction time T_react (TRN-8.8)",
                   "20", "ns", 0, 1000000),
      IntegerParam("pfc.headroom_max_bytes",
                   "largest PFC headroom a scenario may need (TRN-8.9)",
                   "262144", "bytes", 0, 1 << 26),
  };
}

void UseIncastKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use({"link.profile", "transport.cc", "transport.senders",
             "transport.flow_kib", "transport.background_pairs",
             "transport.pmtu", "transport.drop"});
  usage.UseIf(params.Integer("transport.background_pairs") > 0,
              {"transport.background_flows"},
              "transport.background_pairs is 0");
  UseLosslessRouterKeys(params, usage);
  UseCongestionKeys(params.Text("transport.cc"), usage);
  usage.UseIf(params.Text("link.fidelity") == "tlm", {"link.ber"},
              "link.fidelity is ideal: ideal links have no bit errors");
  usage.Skip("link.replay_timeout_flits",
             "only the interim fabric's links take it (workload.name "
             "traffic)");
}

std::optional<std::string> ValidateTransportStudy(const ParamSet& params) {
  const auto plan = Plan(params);
  if (!plan) {
    return plan.error().reason;
  }
  return std::nullopt;
}

int RunTransportStudy(const ParamSet& params, const RunOptions& options) {
  StudyPlan plan = Plan(params).value();  // checked when loaded
  PauseLog pauses;  // outlives the routers that report to it
  std::vector<transport::EngineFabricNode> ideal;
  std::unique_ptr<cluster::Cluster> tlm;
  const std::vector<NodeParts> nodes = BuildNodes(params, plan, ideal, tlm);
  pauses.Attach(nodes);
  // Each node's memory: the senders' source bytes at 0, and room for what
  // lands there (the receiver takes one flow per sender).
  const uint64_t flow_bytes = plan.incast.flow_bytes;
  std::vector<std::unique_ptr<board::Memory>> memories;
  std::vector<transport::TransportEngine*> engines;
  std::vector<uint32_t> rkeys;
  for (unsigned n = 0; n < nodes.size(); ++n) {
    const uint64_t size =
        n == 0 ? flow_bytes * plan.incast.senders : flow_bytes;
    memories.push_back(std::make_unique<board::Memory>(
        ("memory" + std::to_string(n)).c_str(),
        board::MemoryConfig{static_cast<uint32_t>(size), false}));
    nodes[n].engine->memory.bind(memories.back()->socket);
    rkeys.push_back(
        nodes[n].engine->RegisterMemory({0, size, transport::kRemoteAll}));
    engines.push_back(nodes[n].engine);
  }
  transport::IncastWorkload workload("workload", engines, rkeys, plan.incast);
  for (const transport::FlowPlace& place : workload.places()) {
    Bytes source(flow_bytes);
    for (uint64_t i = 0; i < flow_bytes; ++i) {
      source[i] = PatternByte(place.src, i);
    }
    memories[place.src]->Program(0, source, static_cast<uint32_t>(flow_bytes));
  }

  std::optional<pcap::PcapWriter> capture;
  std::string capture_error;
  if (!options.pcap_file.empty()) {
    auto writer = pcap::PcapWriter::ToFile(options.pcap_file);
    if (!writer) {
      std::fprintf(stderr, "lqemu run: --pcap: %s\n",
                   writer.error().reason.c_str());
      return kExitBadInput;
    }
    capture.emplace(std::move(writer).value());
    for (const auto& node : nodes) {
      node.engine->SetFrameTap(
          [&capture, &capture_error](const sc_time& at, const Bytes& frame) {
            const auto written =
                capture->Write(static_cast<uint64_t>(at.value()), frame);
            if (!written && capture_error.empty()) {
              capture_error = written.error().reason;
            }
          });
    }
  }
  std::unique_ptr<ProgressMeter> progress;
  if (options.progress) {
    const double flows = static_cast<double>(workload.flows());
    progress = std::make_unique<ProgressMeter>(
        "progress",
        [&workload, flows] {
          return static_cast<double>(workload.flows_done()) / flows;
        },
        sc_time(1000, SC_NS), stderr);
  }
  // The workload ends the run: that is not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const double sim_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  pauses.Finish(sim_ns);

  const transport::FabricFigures figures =
      transport::SumFigures(nodes, kDataPriority);
  const IntegrityCounts integrity =
      Check(workload, figures, memories, flow_bytes);
  const std::string scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  const auto seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  if (!options.quiet) {
    Print(scenario, seed, plan, workload, figures, integrity, sim_ns / 1e3,
          wall_s);
  }
  int status = integrity.Ok() ? 0 : kExitFailure;
  if (capture) {
    const auto flushed = capture->Flush();
    if (!capture_error.empty() || !flushed) {
      std::fprintf(stderr, "lqemu run: --pcap: %s\n",
                   capture_error.empty() ? flushed.error().reason.c_str()
                                         : capture_error.c_str());
      status = kExitFailure;
    }
  }
  if (!options.stats_file.empty()) {
    if (auto error =
            WriteJson(scenario, seed, params, plan, workload, figures, pauses,
                      integrity, sim_ns, wall_s, options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  if (!integrity.Ok()) {
    std::fprintf(stderr,
                 "lqemu run: data lost or corrupted: %llu of %llu flows not "
                 "delivered, %llu corrupted\n",
                 static_cast<unsigned long long>(integrity.lost),
                 static_cast<unsigned long long>(integrity.sent),
                 static_cast<unsigned long long>(integrity.corrupted));
  }
  return status;
}

}  // namespace lq::app
