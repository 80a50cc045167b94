// SPDX-License-Identifier: Apache-2.0
// A collective on the stack: plan, build, run, check, report.
#include "systemc/app/collective_study.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "models/phy/link_profile.h"
#include "systemc/app/build_info.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/frame_capture.h"
#include "systemc/app/network_collective.h"
#include "systemc/app/pause_log.h"
#include "systemc/app/process_exit.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/run_report.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/app/stack_figures.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/transport/collective_workload.h"

namespace lq::app {
namespace {

struct CollectivePlan {
  StackPlan stack;
  net::CollectiveSchedule schedule;
};

Result<CollectivePlan> Plan(const ParamSet& params) {
  auto stack = PlanStack(params);
  if (!stack) {
    return stack.error();
  }
  auto schedule = ScenarioCollective(params, *stack->topology);
  if (!schedule) {
    return schedule.error();
  }
  return CollectivePlan{std::move(stack).value(),
                        std::move(schedule).value().value()};
}

// What a finished run measured.
struct Outcome {
  double done_ns = 0;  // the last message's landing; 0 if not done
  double sim_ns = 0;
  double wall_s = 0;
  IntegrityCounts integrity;
  transport::FabricFigures transport;
  std::optional<LinkTotals> links;  // tlm links
  FabricCounters counters;
  DeadlockFinding deadlock;
  std::optional<RankSummary> ranks;  // over MPI ranks
};

// Every card's local port and every link carry a payload slot per flit.
net::CollectiveBounds Bounds(const CollectivePlan& plan) {
  return ScheduleBounds(plan.schedule, *plan.stack.topology,
                        phy::PayloadGoodputGbps(plan.stack.profile,
                                                plan.stack.profile.max_lanes) /
                            8);
}

double AlgorithmGBps(const net::CollectiveSchedule& s, const Outcome& o) {
  return o.done_ns > 0 ? static_cast<double>(s.buffer_bytes) / o.done_ns : 0;
}

double AggregateGBps(const net::CollectiveSchedule& s, const Outcome& o) {
  return o.done_ns > 0 ? static_cast<double>(PayloadBytes(s)) / o.done_ns : 0;
}

void Print(const std::string& scenario, uint64_t seed,
           const CollectivePlan& plan,
           const transport::CollectiveWorkload& workload, const Outcome& o) {
  const net::CollectiveSchedule& s = plan.schedule;
  std::printf(
      "lqemu run: %s (seed %llu): %s on the stack, %u cards, %s links\n",
      scenario.c_str(), static_cast<unsigned long long>(seed), s.name.c_str(),
      plan.stack.topology->EndpointCount(),
      LinkFidelityLabel(plan.stack).c_str());
  if (o.done_ns > 0) {
    std::printf(
        "  collective %s of %llu B per node over %u nodes: %zu RDMA WRITEs "
        "in %u steps, done in %.2f us (%.2f GB/s per node)\n",
        s.name.c_str(), static_cast<unsigned long long>(s.buffer_bytes),
        s.nodes, s.messages.size(), s.steps, o.done_ns / 1e3,
        AlgorithmGBps(s, o));
  } else {
    std::printf("  collective %s: NOT complete, %llu of %zu messages landed\n",
                s.name.c_str(),
                static_cast<unsigned long long>(workload.delivered()),
                s.messages.size());
  }
  std::printf("  bandwidth  %.1f GB/s aggregate payload\n",
              AggregateGBps(s, o));
  PrintBounds(Bounds(plan), PayloadBytes(s), o.done_ns, stdout);
  if (o.links) {
    PrintLinkLine(*o.links, stdout);
  }
  PrintTransportLine(workload.connections(), o.transport, stdout);
  std::printf("  integrity  %s (corrupted: nodes whose buffer is wrong)\n",
              o.integrity.Line().c_str());
  PrintDeadlockLine(o.deadlock, stdout);
  if (o.ranks) {
    PrintRanks(*o.ranks, stdout);
  }
  std::printf("  %.1f us simulated in %.2f s\n", o.sim_ns / 1e3, o.wall_s);
}

std::string WriteJson(const std::string& scenario, uint64_t seed,
                      const ParamSet& params, const CollectivePlan& plan,
                      const transport::CollectiveWorkload& workload,
                      const Outcome& o, const std::string& path) {
  const net::CollectiveSchedule& s = plan.schedule;
  nlohmann::ordered_json json;
  json["scenario"] = scenario;
  json["seed"] = seed;
  json["lqemu"] = BuildJson();
  json["sim_time_ns"] = o.sim_ns;
  json["wall_time_s"] = o.wall_s;
  json["nodes"] = plan.stack.topology->EndpointCount();
  json["links"] = plan.stack.topology->CableCount();
  json["bandwidth"] = {{"aggregate_GBps", AggregateGBps(s, o)}};
  if (o.links) {
    json["link"] = LinkTotalsJson(*o.links);
  }
  json["transport"] = TransportJson(workload.posted(), workload.failed(),
                                    workload.connections(), o.transport);
  json["collective"] = {
      {"name", s.name},
      {"nodes", s.nodes},
      {"buffer_bytes", s.buffer_bytes},
      {"messages", s.messages.size()},
      {"steps", s.steps},
      {"completed", o.done_ns > 0},
      {"completed_ns", o.done_ns},
      {"algorithm_GBps_per_node", AlgorithmGBps(s, o)},
      {"bounds", BoundsJson(Bounds(plan), PayloadBytes(s), o.done_ns)}};
  json["faults"] = nlohmann::ordered_json::array();
  json["integrity"] = o.integrity.Json();
  json["deadlock"] = DeadlockJson(o.deadlock);
  o.counters.AddTo(json);
  if (o.ranks) {
    json["ranks"] = RanksJson(*o.ranks);
  }
  json["parameters"] = ParametersJson(params);
  return WriteJsonFile(json, path);
}

}  // namespace

void UseStackCollectiveKeys(const ParamSet& params, KeyUsage& usage) {
  UseStackKeys(params, usage);
  UseCollectiveKeys(params, usage);
}

std::optional<std::string> CheckStackCollective(const ParamSet& params,
                                                const RunOptions& /*options*/) {
  const auto plan = Plan(params);
  if (!plan) {
    return plan.error().reason;
  }
  return std::nullopt;
}

int RunStackCollective(const ParamSet& params, const RunOptions& options) {
  CollectivePlan plan = Plan(params).value();  // checked when loaded
  const auto tracer = OptionalTracer(params, options.trace_file);
  StackAssembly assembly(plan.stack, params, LinkStatesFor(tracer.get()),
                         options.vcd_file);
  const std::vector<NodeParts> cards = assembly.cards();
  PauseLog pauses;
  if (tracer) {
    pauses.Attach(assembly.nodes());
    tracer->WatchRates(cards);
  }
  CardMemories memories;
  transport::CollectiveWorkloadConfig config;
  config.pmtu = plan.stack.pmtu;
  config.congestion = plan.stack.congestion;
  transport::CollectiveWorkload workload("collective", assembly.engines(),
                                         plan.schedule, config,
                                         memories.Access());
  if (!memories.Bind(cards, [&workload](unsigned n) {
        return workload.memory_bytes(n);
      })) {
    return kExitBadInput;
  }
  workload.Fill();
  workload.OnDone(assembly.WorkloadDone());  // at the last WRITE's end
  assembly.WatchForDeadlock(
      [&workload] { return workload.sends_ended() < workload.own_sends(); });
  std::unique_ptr<FrameCapture> capture;
  if (!OpenPcap(options.pcap_file, capture)) {
    return kExitBadInput;
  }
  if (capture && cards[0].engine != nullptr) {
    capture->Tap(*cards[0].engine);  // node 0's WRITEs and ACKs
  }
  Outcome o;
  o.wall_s = assembly.Run(options.progress, [&workload] {
    return DoneFraction(workload.sends_ended(), workload.own_sends());
  });
  o.sim_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  parallel::AbsorbOtherRanks(
      world, workload.PackShare(),
      [&workload](ByteView share) { workload.AbsorbShare(share); });
  const StackTotals totals = SumStackFigures(assembly);
  o.transport = totals.transport;
  if (plan.stack.tlm_links) {
    o.links = totals.link;
  }
  o.counters = ReadFabricCounters(
      assembly.cluster(), *plan.stack.topology,
      {plan.stack.profile, plan.stack.fabric.router.clock_ns, o.sim_ns});
  o.deadlock = EarliestDeadlock(assembly.Deadlock());
  o.ranks = assembly.Ranks();
  if (capture) {
    capture->Gather();
  }
  if (tracer) {
    pauses.Finish(o.sim_ns);
    tracer->Gather(assembly);
  }
  if (!world.root()) {
    ExitWithoutTeardown(kExitOk);  // rank 0 reports the run
  }
  o.done_ns =
      workload.done() ? static_cast<double>(workload.finished_ps()) / 1000 : 0;
  o.integrity.sent = plan.schedule.messages.size();
  o.integrity.delivered = workload.delivered();
  o.integrity.lost = o.integrity.sent - o.integrity.delivered;
  o.integrity.duplicated = workload.duplicated();
  o.integrity.corrupted = workload.WrongNodes();

  const std::string scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  const auto seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  if (!options.quiet) {
    Print(scenario, seed, plan, workload, o);
  }
  int status = o.integrity.Ok() ? kExitOk : kExitFailure;
  if (tracer) {
    tracer->Pauses(pauses.Json());
    std::vector<MessageSpan> writes;
    for (const net::CollectiveMessage& m : plan.schedule.messages) {
      if (const auto span = workload.span_ps(m.id)) {
        writes.push_back({m.src, m.dst, static_cast<double>(span->first) / 1000,
                          static_cast<double>(span->second) / 1000});
      }
    }
    tracer->Messages("WRITE", std::move(writes));
    if (!tracer->Finish(options.trace_file, options.quiet)) {
      status = kExitFailure;
    }
  }
  if (!options.stats_file.empty()) {
    if (auto error = WriteJson(scenario, seed, params, plan, workload, o,
                               options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  if (!FinishPcap(capture)) {
    status = kExitFailure;
  }
  if (ReportDeadlock(o.deadlock)) {
    status = kExitFailure;
  }
  if (!o.integrity.Ok()) {
    std::fprintf(stderr,
                 "lqemu run: the collective lost messages or left wrong "
                 "buffers (see the report)\n");
  }
  ExitWithoutTeardown(status);  // every output is written (process_exit.h)
}

}  // namespace lq::app
