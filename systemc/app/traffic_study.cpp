// SPDX-License-Identifier: Apache-2.0
// The traffic study: draw the schedule, build the stack, run, report.
#include "systemc/app/traffic_study.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <systemc>
#include <vector>

#include "models/roce/addressing.h"
#include "models/roce/packet.h"
#include "models/topology/analytics.h"
#include "systemc/app/exit_status.h"
#include "systemc/app/fabric_counters.h"
#include "systemc/app/frame_capture.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/pause_log.h"
#include "systemc/app/process_exit.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/run_report.h"
#include "systemc/app/run_tracer.h"
#include "systemc/app/scenario_schema.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/app/stack_failover.h"
#include "systemc/app/stack_figures.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/transport/traffic_workload.h"

namespace lq::app {
namespace {

// splitmix64: an independent, reproducible seed for each card's source.
uint64_t DeriveSeed(uint64_t seed, uint64_t component) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (component + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Every card's messages: traffic.messages_per_node each, exponential gaps
// whose mean puts traffic.load of one link's payload rate on the card's
// injection, destinations from the pattern; in posting order.
std::vector<transport::ScheduledMessage> DrawSchedule(
    const ParamSet& params, const StackPlan& plan,
    const net::TrafficPattern& pattern) {
  const auto messages =
      static_cast<uint64_t>(params.Integer("traffic.messages_per_node"));
  const double bytes =
      static_cast<double>(params.Integer("traffic.message_bytes"));
  const double payload_bits_per_ps =
      phy::PayloadGoodputGbps(plan.profile, plan.profile.max_lanes) *
      params.Real("traffic.load") / 1000.0;
  const double mean_gap_ps = 8.0 * bytes / payload_bits_per_ps;
  const auto seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  const uint32_t cards = plan.topology->EndpointCount();
  std::vector<transport::ScheduledMessage> schedule;
  schedule.reserve(messages * cards);
  for (uint32_t card = 0; card < cards; ++card) {
    std::mt19937_64 random(DeriveSeed(seed, card));
    std::exponential_distribution<double> gap(1.0 / mean_gap_ps);
    double at_ps = 0;
    for (uint64_t i = 0; i < messages; ++i) {
      at_ps += gap(random);
      schedule.push_back({card, pattern.Destination(card, random),
                          static_cast<uint64_t>(at_ps)});
    }
  }
  std::stable_sort(
      schedule.begin(), schedule.end(),
      [](const auto& a, const auto& b) { return a.at_ps < b.at_ps; });
  return schedule;
}

// The frames of node 0's conversations: those it sends and those sent to
// it.
void CaptureNode0(FrameCapture& capture, const std::vector<NodeParts>& cards) {
  const uint32_t node0 = roce::NodeIpv4(0);
  if (cards[0].engine != nullptr) {  // this rank's
    capture.Tap(*cards[0].engine);
  }
  for (size_t n = 1; n < cards.size(); ++n) {
    if (cards[n].engine == nullptr) {
      continue;  // another rank's
    }
    capture.Tap(*cards[n].engine, [node0](const Bytes& frame) {
      const auto packet = roce::ParsePacket(frame);
      return packet && packet->ip.dst == node0;
    });
  }
}

// Each message's posting and landing, for the failover measure.
std::vector<net::MessageTimes> MessageTimes(
    const transport::TrafficWorkload& workload) {
  std::vector<net::MessageTimes> times;
  times.reserve(workload.messages());
  for (uint64_t i = 0; i < workload.messages(); ++i) {
    const transport::ScheduledMessage& m = workload.schedule()[i];
    net::MessageTimes message{
        m.src, m.dst, static_cast<double>(m.at_ps) / 1000.0, std::nullopt};
    if (const auto landed = workload.landed_ps(i)) {
      message.landed_ns = static_cast<double>(*landed) / 1000.0;
    }
    times.push_back(message);
  }
  return times;
}

}  // namespace

void UseTrafficKeys(const ParamSet& params, KeyUsage& usage) {
  UseStackKeys(params, usage);
  UseFaultKeys(params, usage);
  usage.Use({"traffic.load", "traffic.message_bytes",
             "traffic.messages_per_node", "traffic.warmup_fraction"});
  UseTrafficPatternKeys(params, usage);
  usage.Skip("router.latency_ns",
             "the stack's routers take router.rc_cycles to router.st_cycles "
             "at the links' flit rate");
}

std::optional<std::string> ValidateTrafficStudy(const ParamSet& params) {
  const auto plan = PlanStack(params);
  if (!plan) {
    return plan.error().reason;
  }
  const uint32_t cards = plan->topology->EndpointCount();
  if (cards < 2) {
    return "topology: traffic needs at least 2 cards";
  }
  if (const auto pattern = ScenarioTrafficPattern(params, cards); !pattern) {
    return pattern.error().reason;
  }
  if (params.Text("traffic.pattern") == "uniform" &&
      params.Text("traffic.self") == "1") {
    return "traffic.self = 1: a card's transport connects to other cards, "
           "not to itself (run.study network sends packets to the source "
           "too)";
  }
  if (auto fault = CheckStackFault(params, *plan)) {
    return fault;
  }
  return std::nullopt;
}

namespace {

// The messages posted after the warm-up, the first traffic.warmup_fraction
// of the posting period, and their latencies: what the run measures, so
// that its figures do not depend on how long it runs (as a network
// study's window, sim.warmup_cycles).
MeasuredWindow Window(const transport::TrafficWorkload& workload,
                      const ParamSet& params, const StackPlan& plan) {
  MeasuredWindow window;
  const auto& schedule = workload.schedule();
  for (const transport::ScheduledMessage& m : schedule) {
    window.end_ns =
        std::max(window.end_ns, static_cast<double>(m.at_ps) / 1000);
  }
  window.warmup_ns = params.Real("traffic.warmup_fraction") * window.end_ns;
  uint64_t posted = 0;
  const double middle_ns = (window.warmup_ns + window.end_ns) / 2;
  std::vector<double> halves[2];
  for (uint64_t i = 0; i < schedule.size(); ++i) {
    const double at_ns = static_cast<double>(schedule[i].at_ps) / 1000;
    const auto landed = workload.landed_ps(i);
    posted += at_ns >= window.warmup_ns;
    if (landed && at_ns >= window.warmup_ns) {
      const double latency_ns = static_cast<double>(*landed) / 1000 - at_ns;
      window.latencies_ns.push_back(latency_ns);
      halves[at_ns >= middle_ns].push_back(latency_ns);
    }
  }
  window.first_half_ns = Summarise(halves[0]).mean;
  window.second_half_ns = Summarise(halves[1]).mean;
  // What landed in the window shifted by the mean latency: in a steady
  // fabric as much as was posted in the window, in a saturated one less.
  const double shift_ns = Summarise(window.latencies_ns).mean;
  uint64_t landed_in_window = 0;
  for (uint64_t i = 0; i < schedule.size(); ++i) {
    if (const auto landed = workload.landed_ps(i)) {
      const double landed_ns = static_cast<double>(*landed) / 1000 - shift_ns;
      landed_in_window +=
          landed_ns >= window.warmup_ns && landed_ns < window.end_ns;
    }
  }
  const double span_ns = window.end_ns - window.warmup_ns;
  if (span_ns > 0) {
    // Payload bytes per ns per card, as a fraction of a link's.
    const double per_message =
        static_cast<double>(params.Integer("traffic.message_bytes")) / span_ns /
        plan.topology->EndpointCount() /
        (phy::PayloadGoodputGbps(plan.profile, plan.profile.max_lanes) / 8);
    window.offered = static_cast<double>(posted) * per_message;
    window.accepted = static_cast<double>(landed_in_window) * per_message;
  }
  return window;
}

// The run's trace: link states (recorded as it ran), pauses, every SEND
// that landed, the fabric manager's steps. False if it cannot be written.
bool WriteTrace(RunTracer& tracer, const transport::TrafficWorkload& workload,
                const PauseLog& pauses, const RunReport& report,
                const RunOptions& options) {
  tracer.Pauses(pauses.Json());
  std::vector<MessageSpan> sends;
  const auto& schedule = workload.schedule();
  for (uint64_t i = 0; i < schedule.size(); ++i) {
    if (const auto landed = workload.landed_ps(i)) {
      sends.push_back({schedule[i].src, schedule[i].dst,
                       static_cast<double>(schedule[i].at_ps) / 1000,
                       static_cast<double>(*landed) / 1000});
    }
  }
  tracer.Messages("SEND", std::move(sends));
  if (report.fault) {
    tracer.FabricManager(*report.fault);
  }
  return tracer.Finish(options.trace_file, options.quiet);
}

}  // namespace

int RunTrafficStudy(const ParamSet& params, const RunOptions& options) {
  const StackPlan plan = PlanStack(params).value();  // checked when loaded
  const auto pattern =
      ScenarioTrafficPattern(params, plan.topology->EndpointCount()).value();
  std::unique_ptr<StackFailover> failover;  // with a fault
  const auto tracer = OptionalTracer(params, options.trace_file);
  StackAssembly assembly(
      plan, params,
      [&failover, traced = LinkStatesFor(tracer.get())](
          unsigned node, unsigned port, link::LtssmState state,
          uint64_t at_ps) {
        if (failover) {
          failover->OnLinkState(node, port, state, at_ps);
        }
        if (traced) {
          traced(node, port, state, at_ps);
        }
      },
      options.vcd_file);
  const std::vector<NodeParts> cards = assembly.cards();
  PauseLog pauses;
  if (tracer) {
    pauses.Attach(assembly.nodes());
    tracer->WatchRates(cards);
  }

  CardMemories memories;
  transport::TrafficWorkloadConfig config;
  config.message_bytes =
      static_cast<uint32_t>(params.Integer("traffic.message_bytes"));
  config.pmtu = plan.pmtu;
  config.congestion = plan.congestion;
  transport::TrafficWorkload workload("traffic", assembly.engines(),
                                      DrawSchedule(params, plan, *pattern),
                                      config, memories.Access());
  // The run ends when the last SEND ends or, with a fault, when its
  // repair has settled after that.
  workload.OnDone(assembly.WorkloadDone());
  if (!memories.Bind(cards, [&workload](unsigned n) {
        return workload.memory_bytes(n);
      })) {
    return kExitBadInput;
  }
  if (const auto fault =
          ScenarioFault(params, *plan.topology, plan.fabric.router.vc_classes,
                        std::nullopt)
              .value()) {  // checked when loaded
    failover = std::make_unique<StackFailover>(
        "failover", *fault, plan, assembly,
        [&workload](unsigned node) { workload.NodeFailed(node); });
    workload.OnDone([&failover] { failover->WorkloadDone(); });
    failover->OnSettled(assembly.WorkloadDone());
  }

  assembly.WatchForDeadlock(
      [&workload] { return workload.sends_ended() < workload.own_sends(); });
  std::unique_ptr<FrameCapture> capture;
  if (!OpenPcap(options.pcap_file, capture)) {
    return kExitBadInput;
  }
  if (capture) {
    CaptureNode0(*capture, cards);
  }
  const double wall_s = assembly.Run(options.progress, [&workload] {
    return DoneFraction(workload.sends_ended(), workload.own_sends());
  });
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  parallel::AbsorbOtherRanks(
      world, workload.PackShare(),
      [&workload](ByteView share) { workload.AbsorbShare(share); });
  const StackTotals totals = SumStackFigures(assembly);
  const FabricCounters counters =
      ReadFabricCounters(assembly.cluster(), *plan.topology,
                         {plan.profile, plan.fabric.router.clock_ns,
                          sc_core::sc_time_stamp().to_seconds() * 1e9});
  const DeadlockFinding deadlock = EarliestDeadlock(assembly.Deadlock());
  const std::optional<RankSummary> ranks = assembly.Ranks();
  std::optional<FaultOutcome> fault;
  if (failover) {
    fault = failover->Measure(MessageTimes(workload));
  }
  if (capture) {
    capture->Gather();
  }
  if (tracer) {
    pauses.Finish(sc_core::sc_time_stamp().to_seconds() * 1e9);
    tracer->Gather(assembly);
  }
  if (!world.root()) {
    ExitWithoutTeardown(kExitOk);  // rank 0 reports the run
  }

  RunReport report;
  report.scenario =
      options.scenario_file.empty() ? "default" : options.scenario_file;
  report.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  report.parameters = ParametersJson(params);
  report.wall_time_s = wall_s;
  report.nodes = static_cast<int>(plan.topology->EndpointCount());
  report.switches = static_cast<int>(plan.topology->NodeCount() -
                                     plan.topology->EndpointCount());
  report.links = static_cast<int>(plan.topology->CableCount());
  report.profile = plan.profile.name;
  report.tlm_links = plan.tlm_links;
  report.link_layer = LinkLayerLabel(plan);
  report.link_payload_gbps =
      phy::PayloadGoodputGbps(plan.profile, plan.profile.max_lanes);
  report.expected = workload.messages();
  report.connections = workload.connections();
  report.outcome = workload.outcome();
  report.transport = totals.transport;
  report.sim_time_ns =
      static_cast<double>(report.outcome.last_delivery_ps) / 1000.0;
  report.window = Window(workload, params, plan);
  report.mean_hops = totals.ejected == 0
                         ? 0
                         : static_cast<double>(totals.hops) /
                               static_cast<double>(totals.ejected);
  if (const auto minimal = topo::ShortestHopStats(*plan.topology)) {
    report.minimal_hops = minimal->mean_excluding_self;
  }
  if (plan.tlm_links) {
    report.link = totals.link;
  }
  report.counters = counters;
  report.deadlock = deadlock;
  report.ranks = ranks;
  if (fault) {
    report.fault = fault;
    report.router_clock_ns = plan.fabric.router.clock_ns;
  }
  if (!options.quiet) {
    PrintReport(report, stdout);
  }
  int status =
      report.IntegrityOk() && (!report.fault || report.fault->Repaired())
          ? kExitOk
          : kExitFailure;
  if (tracer && !WriteTrace(*tracer, workload, pauses, report, options)) {
    status = kExitFailure;
  }
  if (!options.stats_file.empty()) {
    if (auto error = WriteStatsJson(report, options.stats_file);
        !error.empty()) {
      std::fprintf(stderr, "lqemu run: %s\n", error.c_str());
      status = kExitFailure;
    }
  }
  if (!FinishPcap(capture)) {
    status = kExitFailure;
  }
  if (ReportDeadlock(report.deadlock)) {
    status = kExitFailure;
  }
  if (!report.IntegrityOk()) {
    std::fprintf(stderr, "lqemu run: data integrity failed (see the report)\n");
  }
  ExitWithoutTeardown(status);  // every output is written (process_exit.h)
}

}  // namespace lq::app
