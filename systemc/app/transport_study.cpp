// SPDX-License-Identifier: Apache-2.0
// The transport study: build, run, check every write, report.
#include "systemc/app/transport_study.h"

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <systemc>
#include <vector>

#include "systemc/app/build_info.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/frame_capture.h"
#include "systemc/app/pause_log.h"
#include "systemc/app/process_exit.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/run_report.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/app/stack_figures.h"
#include "systemc/board/memory.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/parallel/wire.h"
#include "systemc/transport/engine_fabric.h"
#include "systemc/transport/incast_workload.h"

namespace lq::app {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// The incast on the stack's cards.
struct StudyPlan {
  StackPlan stack;
  transport::IncastConfig incast;
};

Result<StudyPlan> Plan(const ParamSet& params) {
  auto stack = PlanStack(params);
  if (!stack) {
    return stack.error();
  }
  StudyPlan plan{std::move(stack).value(), {}};
  transport::IncastConfig& incast = plan.incast;
  incast.senders = static_cast<unsigned>(params.Integer("transport.senders"));
  incast.background_pairs =
      static_cast<unsigned>(params.Integer("transport.background_pairs"));
  incast.background_flows =
      static_cast<unsigned>(params.Integer("transport.background_flows"));
  incast.flow_bytes =
      static_cast<uint64_t>(params.Integer("transport.flow_kib")) * 1024;
  incast.pmtu = plan.stack.pmtu;
  incast.congestion = plan.stack.congestion;
  incast.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  incast.land_apart = true;
  const topo::Topology& topology = *plan.stack.topology;
  const unsigned nodes = topology.EndpointCount();
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
        " nodes, and " + topology.Describe() + " has " + std::to_string(nodes));
  }
  return plan;
}

// The pattern node `n` sends from its address 0.
uint8_t PatternByte(unsigned node, uint64_t offset) {
  return static_cast<uint8_t>(node * 29 + offset * 7 + (offset >> 10));
}

// Whether each flow's bytes at its destination are the pattern its source
// wrote, read where this rank holds the destination; on rank 0 every
// flow's, gathered from the ranks.
std::vector<bool> IntactFlows(const std::vector<transport::FlowPlace>& places,
                              const StackAssembly& assembly,
                              const transport::NodeMemories& memories,
                              uint64_t flow_bytes) {
  std::vector<bool> intact(places.size(), false);
  Bytes mine;
  parallel::WireWriter out(mine);
  for (uint32_t f = 0; f < places.size(); ++f) {
    const transport::FlowPlace& place = places[f];
    if (!assembly.built(place.dst)) {
      continue;
    }
    const ByteView got = memories.read(place.dst, place.offset,
                                       static_cast<uint32_t>(flow_bytes));
    bool same = true;
    for (uint64_t i = 0; i < flow_bytes && same; ++i) {
      same = got[i] == PatternByte(place.src, i);
    }
    intact[f] = same;
    out.U32(f);
    out.U8(same ? 1 : 0);
  }
  parallel::AbsorbOtherRanks(parallel::RankWorld::Get(), mine,
                             [&intact](ByteView share) {
                               parallel::WireReader in(share);
                               while (!in.done()) {
                                 const uint32_t f = in.U32();
                                 intact.at(f) = in.U8() != 0;
                               }
                             });
  return intact;
}

// What the run did to the data: WRs posted, completed and failed, and the
// flows that completed whose bytes at their destination differ from their
// source's.
IntegrityCounts Check(const transport::IncastWorkload& workload,
                      const transport::FabricFigures& figures,
                      const std::vector<bool>& intact) {
  IntegrityCounts integrity;
  integrity.sent = workload.flows();
  integrity.delivered = workload.flows_done();
  integrity.lost = integrity.sent > integrity.delivered
                       ? integrity.sent - integrity.delivered
                       : 0;
  const uint64_t ended = figures.work_completed + figures.work_failed;
  integrity.duplicated =
      ended > figures.work_posted ? ended - figures.work_posted : 0;
  const std::vector<transport::FlowPlace> places = workload.places();
  for (size_t f = 0; f < places.size(); ++f) {
    integrity.corrupted += places[f].complete && !intact[f];
  }
  return integrity;
}

void Print(const std::string& scenario, uint64_t seed, const StudyPlan& plan,
           const transport::IncastWorkload& workload,
           const transport::FabricFigures& f, const IntegrityCounts& integrity,
           const DeadlockFinding& deadlock,
           const std::optional<RankSummary>& ranks, double sim_us,
           double wall_s) {
  const LatencySummary incast = Summarise(workload.times().incast);
  const LatencySummary victims = Summarise(workload.times().background);
  std::printf(
      "lqemu run: %s (seed %llu): transport study, %u nodes, %s links\n",
      scenario.c_str(), static_cast<unsigned long long>(seed),
      plan.stack.topology->EndpointCount(),
      LinkFidelityLabel(plan.stack).c_str());
  std::printf(
      "  incast: %u senders x %llu KiB to node 0, %u background pairs x %u "
      "flows; cc %s, marking %s, PMTU %u\n",
      plan.incast.senders,
      static_cast<unsigned long long>(plan.incast.flow_bytes / 1024),
      plan.incast.background_pairs, plan.incast.background_flows,
      plan.incast.congestion.c_str(), plan.stack.marking.c_str(),
      plan.incast.pmtu);
  std::printf(
      "  PFC: XOFF %llu B + headroom %llu B per VC (TRN-8.9); %llu XOFF "
      "messages, %llu PFC frames, %.1f us paused\n",
      static_cast<unsigned long long>(
          plan.stack.fabric.flow_control->pfc_params.xoff_bytes),
      static_cast<unsigned long long>(plan.stack.headroom_bytes),
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
  PrintDeadlockLine(deadlock, stdout);
  if (ranks) {
    PrintRanks(*ranks, stdout);
  }
  std::printf("  %.1f us simulated in %.2f s\n", sim_us, wall_s);
}

std::string WriteJson(const std::string& scenario, uint64_t seed,
                      const ParamSet& params, const StudyPlan& plan,
                      const transport::IncastWorkload& workload,
                      const transport::FabricFigures& f, const PauseLog& pauses,
                      const IntegrityCounts& integrity,
                      const DeadlockFinding& deadlock,
                      const std::optional<RankSummary>& ranks,
                      const FabricCounters& counters, double sim_ns,
                      double wall_s, const std::string& path) {
  const LatencySummary incast = Summarise(workload.times().incast);
  const LatencySummary victims = Summarise(workload.times().background);
  nlohmann::ordered_json json;
  json["scenario"] = scenario;
  json["seed"] = seed;
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = sim_ns;
  json["wall_time_s"] = wall_s;
  json["nodes"] = plan.stack.topology->EndpointCount();
  json["links"] = plan.stack.topology->CableCount();
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
      {"headroom_bytes", plan.stack.headroom_bytes},
      {"fct_us",
       {{"incast",
         {{"p50", incast.p50}, {"p99", incast.p99}, {"max", incast.max}}},
        {"background", {{"mean", victims.mean}, {"p99", victims.p99}}}}}};
  json["faults"] = nlohmann::ordered_json::array();
  json["integrity"] = integrity.Json();
  json["deadlock"] = DeadlockJson(deadlock);
  counters.AddTo(json);
  if (ranks) {
    json["ranks"] = RanksJson(*ranks);
  }
  json["parameters"] = ParametersJson(params);
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
  UseStackKeys(params, usage);
  usage.Use({"transport.senders", "transport.flow_kib",
             "transport.background_pairs"});
  usage.UseIf(params.Integer("transport.background_pairs") > 0,
              {"transport.background_flows"},
              "transport.background_pairs is 0");
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
  const auto tracer = OptionalTracer(params, options.trace_file);
  StackAssembly assembly(plan.stack, params, LinkStatesFor(tracer.get()),
                         options.vcd_file);
  const std::vector<NodeParts> cards = assembly.cards();
  pauses.Attach(assembly.nodes());
  if (tracer) {
    tracer->WatchRates(cards);
  }
  // Each node's memory: the senders' source bytes at 0, and room for what
  // lands there (the receiver takes one flow per sender).
  const uint64_t flow_bytes = plan.incast.flow_bytes;
  const auto size = [&plan, flow_bytes](unsigned n) {
    return n == 0 ? flow_bytes * plan.incast.senders : flow_bytes;
  };
  CardMemories memories;
  if (!memories.Bind(cards, size, board::MemoryConfig{}.latency)) {
    return kExitBadInput;
  }
  const transport::NodeMemories access = memories.Access();
  std::vector<uint32_t> rkeys;
  for (unsigned n = 0; n < cards.size(); ++n) {
    rkeys.push_back(transport::RegisterFirstRegion(
        cards[n].engine, {0, size(n), transport::kRemoteAll}));
  }
  transport::IncastWorkload workload("workload", assembly.engines(), rkeys,
                                     plan.incast);
  for (const transport::FlowPlace& place : workload.places()) {
    if (!assembly.built(place.src)) {
      continue;  // another rank's card
    }
    Bytes source(flow_bytes);
    for (uint64_t i = 0; i < flow_bytes; ++i) {
      source[i] = PatternByte(place.src, i);
    }
    access.write(place.src, 0, source);
  }
  workload.OnDone(assembly.WorkloadDone());  // at the last flow's end

  assembly.WatchForDeadlock(
      [&workload] { return workload.flows_done() < workload.own_flows(); });
  std::unique_ptr<FrameCapture> capture;
  if (!OpenPcap(options.pcap_file, capture)) {
    return kExitBadInput;
  }
  for (const auto& card : cards) {
    if (capture && card.engine != nullptr) {
      capture->Tap(*card.engine);  // every engine: the incast is small
    }
  }
  const double wall_s = assembly.Run(options.progress, [&workload] {
    return DoneFraction(workload.flows_done(), workload.own_flows());
  });
  const double sim_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  pauses.Finish(sim_ns);

  const parallel::RankWorld& world = parallel::RankWorld::Get();
  parallel::AbsorbOtherRanks(
      world, workload.PackShare(),
      [&workload](ByteView share) { workload.AbsorbShare(share); });
  const transport::FabricFigures figures = SumStackFigures(assembly).transport;
  const std::vector<bool> intact =
      IntactFlows(workload.places(), assembly, access, flow_bytes);
  const DeadlockFinding deadlock = EarliestDeadlock(assembly.Deadlock());
  const FabricCounters counters = ReadFabricCounters(
      assembly.cluster(), *plan.stack.topology,
      {plan.stack.profile, plan.stack.fabric.router.clock_ns, sim_ns});
  const std::optional<RankSummary> ranks = assembly.Ranks();
  if (capture) {
    capture->Gather();
  }
  if (tracer) {
    tracer->Gather(assembly);
  }
  if (!world.root()) {
    ExitWithoutTeardown(kExitOk);  // rank 0 reports the run
  }

  const IntegrityCounts integrity = Check(workload, figures, intact);
  const std::string scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  const auto seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  if (!options.quiet) {
    Print(scenario, seed, plan, workload, figures, integrity, deadlock, ranks,
          sim_ns / 1e3, wall_s);
  }
  int status = integrity.Ok() ? 0 : kExitFailure;
  if (!FinishPcap(capture)) {
    status = kExitFailure;
  }
  if (ReportDeadlock(deadlock)) {
    status = kExitFailure;
  }
  if (tracer) {
    tracer->Pauses(pauses.Json());
    std::vector<MessageSpan> flows;
    for (const transport::FlowSpan& flow : workload.times().flows) {
      flows.push_back({flow.src, flow.dst, static_cast<double>(flow.posted_ns),
                       static_cast<double>(flow.completed_ns)});
    }
    tracer->Messages("flow", std::move(flows));
    if (!tracer->Finish(options.trace_file, options.quiet)) {
      status = kExitFailure;
    }
  }
  if (!options.stats_file.empty()) {
    if (auto error = WriteJson(scenario, seed, params, plan, workload, figures,
                               pauses, integrity, deadlock, ranks, counters,
                               sim_ns, wall_s, options.stats_file);
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
  ExitWithoutTeardown(status);  // every output is written (process_exit.h)
}

}  // namespace lq::app
