// SPDX-License-Identifier: Apache-2.0
// A network study's fault: keys, the plan, and the repair's measurements.
#include "systemc/app/network_fault.h"

#include <cstdio>

#include "models/topology/path.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/parallel/wire.h"

namespace lq::app {
namespace {

double Ns(const sc_core::sc_time& t) { return t.to_seconds() * 1e9; }

// "node<ID>" (NET-1.2's name of an endpoint), or nothing.
std::optional<topo::NodeId> ParsePlacementNode(const std::string& text) {
  const std::string prefix = "node";
  if (text.size() <= prefix.size() ||
      text.compare(0, prefix.size(), prefix) != 0 ||
      text.size() > prefix.size() + 5 ||
      (text[prefix.size()] == '0' && text.size() > prefix.size() + 1)) {
    return std::nullopt;
  }
  topo::NodeId id = 0;
  for (size_t i = prefix.size(); i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return std::nullopt;
    }
    id = id * 10 + static_cast<topo::NodeId>(text[i] - '0');
  }
  return id;
}

// Slots the faulted links have carried, both ways, since the run began:
// the cut link, or every cabled link of the failed node.
uint64_t LinkFlits(cluster::FabricControl& control, const FaultPlan& plan) {
  const topo::Topology& topology = control.topology();
  const bool node = plan.kind == FaultPlan::Kind::kNode;
  uint64_t flits = 0;
  for (topo::PortId p = 0; p < topology.PortCount(plan.node); ++p) {
    const auto far = topology.Neighbour(plan.node, p);
    if (!far || (!node && p != plan.port)) {
      continue;
    }
    cluster::Cluster& cluster = control.cluster();
    for (const topo::PortRef end : {topo::PortRef{plan.node, p}, *far}) {
      if (cluster.built(end.node)) {  // this rank's, over MPI ranks
        flits += cluster.node(end.node).router()->flits_out(end.port);
      }
    }
  }
  return flits;
}

nlohmann::ordered_json UpdateJson(const net::RouteUpdate& u) {
  return {{"failure", u.failure},
          {"report_ns", Ns(u.first_event)},
          {"computed_ns", Ns(u.computed)},
          {"frozen_ns", Ns(u.frozen)},
          {"switched_ns", Ns(u.switched)},
          {"resumed_ns", Ns(u.resumed)},
          {"failed_links", u.failed_links},
          {"failed_nodes", u.failed_nodes},
          {"changed_nodes", u.changed_nodes},
          {"restored_nodes", u.restored_nodes},
          {"drain_rounds", u.drain_rounds},
          {"drained", u.drained},
          {"messages", u.messages},
          {"silent_nodes", u.silent_nodes},
          {"resends", u.resends}};
}

}  // namespace

std::vector<ParamSpec> NetworkFaultParamSpecs() {
  return {
      {"fault.kind",
       "injected fault (NET-7) at fault.at_cycles, in a network study or "
       "on the stack: link cuts fault.node's fault.port, "
       "node kills fault.node",
       "none",
       "",
       ParamType::kChoice,
       0,
       0,
       {"none", "link", "node"}},
      {"fault.at_cycles",
       "when the fault strikes, in router cycles",
       "0",
       "cycles",
       ParamType::kInteger,
       0,
       1e9,
       {}},
      {"fault.restore_at_cycles",
       "network study: when the cut link or failed node comes back "
       "(NET-7.11, NET-7.12); the fabric manager takes it back "
       "fm.restore_holdoff later (0: never)",
       "0",
       "cycles",
       ParamType::kInteger,
       0,
       1e9,
       {}},
      {"fault.node",
       "the node whose port is cut, or that fails",
       "0",
       "",
       ParamType::kInteger,
       0,
       65535,
       {}},
      {"fault.port",
       "the port cut (its link)",
       "0",
       "",
       ParamType::kInteger,
       0,
       255,
       {}},
      {"fm.placement",
       "fabric manager: `builder` (out of band) or `node<ID>`, that "
       "endpoint's firmware in band over MGMT packets (NET-7.2, NET-7.4; "
       "topologies without switches, net.vc_sets >= 2)",
       "builder",
       "",
       ParamType::kText,
       0,
       0,
       {}},
      RealParam("fm.msg_timeout",
                "fabric manager in band: resend an unacknowledged message "
                "(NET-7.5)",
                "100", "us", 0.001, 1e6),
      {"fm.msg_retries",
       "fabric manager in band: resends before the node is treated as "
       "failed (NET-7.5)",
       "5",
       "",
       ParamType::kInteger,
       0,
       100,
       {}},
      RealParam("fm.oob_latency",
                "fabric manager (builder): one management message, one way "
                "(NET-7.2)",
                "1", "us", 0.001, 1e6),
      RealParam("fm.holdoff",
                "fabric manager: first event to recomputation "
                "(NET-7.6)",
                "100", "us", 0, 1e6),
      RealParam("fm.compute_time",
                "fabric manager: table computation (NET-7.6)", "1", "ms", 0,
                1e4),
      RealParam("fm.drain_timeout",
                "fabric manager: longest drain wait (NET-7.7)", "1", "ms", 0,
                1e4),
      RealParam("fm.drain_interval",
                "fabric manager: shortest time between drain rounds "
                "(NET-7.7)",
                "10", "us", 0, 1e6),
      RealParam("fm.restore_holdoff",
                "fabric manager: last link-up report to taking the links "
                "back (NET-7.11)",
                "10", "ms", 0, 1e4),
  };
}

void UseFaultKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use("fault.kind");
  const std::string kind = params.Text("fault.kind");
  const std::string none = "fault.kind is none";
  const bool fault = kind != "none";
  usage.UseIf(fault,
              {"fault.at_cycles", "fault.node", "fault.restore_at_cycles",
               "fm.placement", "fm.holdoff", "fm.compute_time",
               "fm.drain_timeout", "fm.drain_interval"},
              none);
  usage.UseIf(kind == "link", {"fault.port"},
              fault ? "fault.kind node fails every port of fault.node" : none);
  usage.UseIf(
      fault && params.Integer("fault.restore_at_cycles") > 0,
      {"fm.restore_holdoff"},
      fault ? "fault.restore_at_cycles is 0: nothing comes back" : none);
  const bool in_band = params.Text("fm.placement") != "builder";
  usage.UseIf(fault && !in_band, {"fm.oob_latency"},
              fault ? "fm.placement puts the fabric manager in band" : none);
  usage.UseIf(fault && in_band, {"fm.msg_timeout", "fm.msg_retries"},
              fault ? "fm.placement is builder: the fabric manager works "
                      "out of band"
                    : none);
}

Result<std::optional<FaultPlan>> ScenarioFault(
    const ParamSet& params, const topo::Topology& topology, unsigned vc_classes,
    std::optional<uint64_t> run_cycles) {
  if (params.Text("fault.kind") == "none") {
    return std::optional<FaultPlan>();
  }
  FaultPlan plan;
  plan.kind = params.Text("fault.kind") == "node" ? FaultPlan::Kind::kNode
                                                  : FaultPlan::Kind::kLink;
  plan.node = static_cast<topo::NodeId>(params.Integer("fault.node"));
  plan.port = static_cast<topo::PortId>(params.Integer("fault.port"));
  plan.at_cycles = static_cast<double>(params.Integer("fault.at_cycles"));
  if (plan.kind == FaultPlan::Kind::kNode) {
    if (plan.node >= topology.EndpointCount()) {
      return Fail("fault.node: no endpoint " + std::to_string(plan.node) +
                  " in " + topology.Describe());
    }
  } else if (plan.node >= topology.NodeCount() ||
             plan.port >= topology.PortCount(plan.node) ||
             !topology.Neighbour(plan.node, plan.port)) {
    return Fail("fault.node/fault.port: node " + std::to_string(plan.node) +
                " port " + std::to_string(plan.port) + " has no cable in " +
                topology.Describe());
  }
  if (!run_cycles && plan.at_cycles < 1) {
    return Fail(
        "fault.at_cycles: the fault's time, in router cycles, is at least 1");
  }
  // A run to completion has no end to lie inside.
  const auto cycles = run_cycles.value_or(UINT64_MAX);
  if (plan.at_cycles < 1 || cycles == 0 ||
      plan.at_cycles >= static_cast<double>(cycles)) {
    return Fail(
        "fault.at_cycles must lie inside a timed run: 1 to "
        "sim.cycles - 1 (sim.cycles is " +
        std::to_string(cycles) + ")");
  }
  plan.restore_at_cycles =
      static_cast<double>(params.Integer("fault.restore_at_cycles"));
  if (plan.restore_at_cycles > 0 && plan.restore_at_cycles <= plan.at_cycles) {
    return Fail("fault.restore_at_cycles must lie after fault.at_cycles");
  }
  if (plan.restore_at_cycles >= static_cast<double>(cycles)) {
    return Fail(
        "fault.restore_at_cycles must lie inside the run (sim.cycles is " +
        std::to_string(cycles) + ")");
  }
  net::FabricManagerConfig& fm = plan.fabric_manager;
  fm.oob_latency =
      sc_core::sc_time(params.Real("fm.oob_latency"), sc_core::SC_US);
  fm.holdoff = sc_core::sc_time(params.Real("fm.holdoff"), sc_core::SC_US);
  fm.compute_time =
      sc_core::sc_time(params.Real("fm.compute_time"), sc_core::SC_MS);
  fm.drain_timeout =
      sc_core::sc_time(params.Real("fm.drain_timeout"), sc_core::SC_MS);
  fm.restore_holdoff =
      sc_core::sc_time(params.Real("fm.restore_holdoff"), sc_core::SC_MS);
  fm.drain_interval =
      sc_core::sc_time(params.Real("fm.drain_interval"), sc_core::SC_US);
  fm.table_classes = static_cast<topo::VcClass>(vc_classes);
  const std::string placement = params.Text("fm.placement");
  if (placement != "builder") {
    const auto node = ParsePlacementNode(placement);
    if (!node || *node >= topology.EndpointCount()) {
      return Fail(
          "fm.placement: expected builder or node<ID> naming an "
          "endpoint of " +
          topology.Describe() + ", got '" + placement + "'");
    }
    if (topology.EndpointCount() != topology.NodeCount()) {
      return Fail(
          "fm.placement: an in-band fabric manager needs a topology "
          "without switches (" +
          topology.Describe() + " has them)");
    }
    if (params.Integer("net.vc_sets") < 2) {
      return Fail(
          "fm.placement: an in-band fabric manager needs "
          "net.vc_sets >= 2 (NET-3.5: set S-1 carries MGMT only)");
    }
    if (plan.kind == FaultPlan::Kind::kNode && plan.node == *node) {
      return Fail("fault.node: node " + std::to_string(*node) +
                  " is the fabric manager's (fm.placement); nothing would "
                  "repair its failure");
    }
    fm.node = *node;
    fm.timers.msg_timeout =
        sc_core::sc_time(params.Real("fm.msg_timeout"), sc_core::SC_US);
    fm.timers.msg_retries =
        static_cast<unsigned>(params.Integer("fm.msg_retries"));
  }
  return std::optional<FaultPlan>(plan);
}

void InjectFault(cluster::FabricControl& control, const FaultPlan& plan) {
  if (plan.kind == FaultPlan::Kind::kNode) {
    control.FailNode(plan.node);
  } else {
    control.CutLink(plan.node, plan.port);
  }
}

RestoreSample RestoreFault(cluster::FabricControl& control,
                           const FaultPlan& plan) {
  if (plan.kind == FaultPlan::Kind::kNode) {
    control.RestoreNode(plan.node);
  } else {
    control.RestoreLink(plan.node, plan.port);
  }
  return {Ns(sc_core::sc_time_stamp()), LinkFlits(control, plan)};
}

std::function<bool(uint32_t src, uint32_t dst)> CrossesFault(
    const FaultPlan& plan, const topo::RoutingFunction& routing) {
  const bool node = plan.kind == FaultPlan::Kind::kNode;
  const auto far =
      node ? std::nullopt : routing.topology().Neighbour(plan.node, plan.port);
  return [&routing, plan, node, far, path = topo::Path()](
             uint32_t src, uint32_t dst) mutable {
    if ((node && (src == plan.node || dst == plan.node)) ||
        !topo::TracePathInto(routing, src, dst, path)) {
      return false;
    }
    for (const topo::Hop& hop : path) {
      const bool crosses =
          node ? hop.node == plan.node
               : (hop.node == plan.node && hop.port == plan.port) ||
                     (hop.node == far->node && hop.port == far->port);
      if (crosses) {
        return true;
      }
    }
    return false;
  };
}

void MeasureRepair(cluster::FabricControl& control,
                   std::optional<RestoreSample> restore,
                   FaultOutcome& outcome) {
  outcome.restore = restore;
  for (const net::RouteUpdate& update : control.manager().updates()) {
    auto& slot = update.restore ? outcome.restore_update : outcome.update;
    if (!slot) {
      slot = update;
    }
  }
  if (restore) {
    outcome.link_flits_after_restore =
        LinkFlits(control, outcome.plan) - restore->link_flits;
  }
  cluster::Cluster& cluster = control.cluster();
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    if (!cluster.built(n)) {
      continue;  // another rank's
    }
    const net::RouterCounters& c = cluster.node(n).router()->counters();
    outcome.drops.link_down += c.drops_link_down;
    outcome.drops.node_down += c.drops_node_down;
    outcome.drops.stale_epoch += c.drops_stale_epoch;
    outcome.drops.no_route += c.drops_no_route;
  }
}

// The counts of `o` that each rank takes at its own nodes, in one order
// for packing and unpacking.
template <typename Outcome, typename Visit>
void ForEachRankCount(Outcome& o, Visit visit) {
  for (auto* count :
       {&o.drops.link_down, &o.drops.node_down, &o.drops.stale_epoch,
        &o.drops.no_route, &o.link_flits_after_restore}) {
    visit(*count);
  }
}

void AddOtherRanksRepair(FaultOutcome& outcome) {
  Bytes mine;
  parallel::WireWriter out(mine);
  ForEachRankCount(outcome, [&out](uint64_t count) { out.U64(count); });
  out.U8(outcome.detected_ns ? 1 : 0);
  out.F64(outcome.detected_ns.value_or(0));
  parallel::AbsorbOtherRanks(
      parallel::RankWorld::Get(), mine, [&outcome](ByteView share) {
        parallel::WireReader in(share);
        ForEachRankCount(outcome,
                         [&in](uint64_t& count) { count += in.U64(); });
        const bool detected = in.U8() != 0;
        const double at_ns = in.F64();
        if (detected &&
            (!outcome.detected_ns || at_ns < *outcome.detected_ns)) {
          outcome.detected_ns = at_ns;
        }
      });
}

std::optional<std::string> CheckFaultOverRanks(
    const FaultPlan& fault, const sc_core::sc_time& lookahead) {
  if (fault.fabric_manager.node) {
    return "fm.placement node" + std::to_string(*fault.fabric_manager.node) +
           ": an in-band fabric manager runs in one process only (so far); "
           "fm.placement builder runs over ranks";
  }
  if (fault.fabric_manager.oob_latency < lookahead) {
    return "fm.oob_latency: " + fault.fabric_manager.oob_latency.to_string() +
           " is shorter than the ranks' lookahead (" + lookahead.to_string() +
           "): the fabric manager's replicas could not hear each other in "
           "time (decision 0050)";
  }
  return std::nullopt;
}

FaultOutcome MeasureFault(cluster::Network& network, const FaultPlan& plan,
                          double at_ns, std::optional<RestoreSample> restore,
                          const topo::RoutingFunction& routing,
                          const std::vector<net::FlowDelivery>& deliveries) {
  FaultOutcome outcome;
  outcome.plan = plan;
  outcome.at_ns = at_ns;
  MeasureRepair(*network.control(), restore, outcome);
  AddOtherRanksRepair(outcome);
  // The repaired epoch is any working router's, before a restore flipped
  // it back (EPOCH is one bit, NET-5.6): this rank's first.
  unsigned working = 0;
  while (working < network.routers() &&
         (!network.built(working) || network.router(working).failed())) {
    ++working;
  }
  if (working == network.routers()) {
    return outcome;  // none here: not rank 0's to report
  }
  const uint8_t repaired_epoch =
      network.router(working).epoch() ^ (outcome.restore_update ? 1 : 0);
  outcome.failover = net::MeasureFailover(deliveries, at_ns, repaired_epoch,
                                          CrossesFault(plan, routing));
  return outcome;
}

namespace {

// The restore's line, if the link or node came back.
void PrintRestore(const FaultOutcome& o, double clock_ns, std::FILE* out) {
  if (!o.restore) {
    return;
  }
  const bool node = o.plan.kind == FaultPlan::Kind::kNode;
  std::fprintf(out, "  restore    %s at %.0f cycles; ",
               node ? "node back" : "link up", o.restore->at_ns / clock_ns);
  if (!o.restore_update) {
    std::fprintf(out,
                 "the fabric manager had not taken it back by the run's end "
                 "(lengthen sim.cycles or shorten fm.restore_holdoff)\n");
    return;
  }
  const net::RouteUpdate& r = *o.restore_update;
  const double at = o.restore->at_ns;
  std::fprintf(out,
               "fabric manager: report +%.1f us, tables +%.1f us (%u nodes "
               "rewritten), switch +%.1f us, resume +%.1f us; %llu slots over "
               "%s since\n",
               (Ns(r.first_event) - at) / 1e3, (Ns(r.computed) - at) / 1e3,
               r.changed_nodes, (Ns(r.switched) - at) / 1e3,
               (Ns(r.resumed) - at) / 1e3,
               static_cast<unsigned long long>(o.link_flits_after_restore),
               node ? "its links" : "the link");
}

}  // namespace

void PrintFault(const FaultOutcome& o, double clock_ns, std::FILE* out) {
  if (o.plan.kind == FaultPlan::Kind::kNode) {
    std::fprintf(out, "  fault      node %u killed at %.0f cycles", o.plan.node,
                 o.at_ns / clock_ns);
  } else {
    std::fprintf(out, "  fault      link of node %u port %u cut at %.0f cycles",
                 o.plan.node, o.plan.port, o.at_ns / clock_ns);
  }
  if (o.detected_ns) {
    std::fprintf(out, "; found down by the links +%.2f us later",
                 (*o.detected_ns - o.at_ns) / 1e3);
  }
  std::fprintf(out, "\n");
  if (!o.update) {
    std::fprintf(out,
                 "  reroute    not finished within the run (lengthen "
                 "sim.cycles or shorten fm.*)\n");
    PrintRestore(o, clock_ns, out);
    return;
  }
  const net::RouteUpdate& u = *o.update;
  if (!u.failure.empty()) {
    std::fprintf(out, "  reroute    failed: %s\n", u.failure.c_str());
    PrintRestore(o, clock_ns, out);
    return;
  }
  std::fprintf(
      out,
      "  reroute    fabric manager: report +%.1f us, tables +%.1f us "
      "(%u nodes rewritten), drain %s in %u rounds, switch +%.1f "
      "us, resume +%.1f us; %llu messages\n",
      (Ns(u.first_event) - o.at_ns) / 1e3, (Ns(u.computed) - o.at_ns) / 1e3,
      u.changed_nodes, u.drained ? "balanced" : "timed out", u.drain_rounds,
      (Ns(u.switched) - o.at_ns) / 1e3, (Ns(u.resumed) - o.at_ns) / 1e3,
      static_cast<unsigned long long>(u.messages));
  if (u.silent_nodes > 0) {
    std::fprintf(out,
                 "  silent     %u nodes gave no answer after %llu resends and "
                 "count as failed (NET-7.5): lengthen fm.msg_timeout or raise "
                 "fm.msg_retries\n",
                 u.silent_nodes, static_cast<unsigned long long>(u.resends));
  }
  const net::FailoverReport& f = o.failover;
  std::fprintf(out,
               o.by_messages
                   ? "  failover   max %.1f us over %zu affected connections "
                     "(%zu unmeasured: no message landed after the fault)"
                   : "  failover   max %.1f us over %zu affected flows (%zu "
                     "unmeasured: no packet on one side)",
               f.max_ns / 1e3, f.flows.size() - f.unmeasured, f.unmeasured);
  if (!u.drained) {
    std::fprintf(out,
                 ", of which the drain's timeout (fm.drain_timeout) is most: "
                 "the dead node's lost packets never balance the counts");
  }
  std::fprintf(out, "\n");
  const FailureDrops& d = o.drops;
  std::fprintf(
      out,
      "  dropped    %llu packets by the failure, each counted once: %llu at "
      "the cut link, %llu inside the failed node, %llu of the old epoch, "
      "%llu with no route left; %s\n",
      static_cast<unsigned long long>(d.total()),
      static_cast<unsigned long long>(d.link_down),
      static_cast<unsigned long long>(d.node_down),
      static_cast<unsigned long long>(d.stale_epoch),
      static_cast<unsigned long long>(d.no_route),
      o.by_messages
          ? "the transport resends those between working nodes, so "
            "integrity OK means every message between working nodes "
            "landed once and intact"
          : "the network layer resends nothing (NET-7.8), so integrity OK "
            "means every loss is one of these and the routes were repaired");
  PrintRestore(o, clock_ns, out);
}

nlohmann::ordered_json FaultJson(const FaultOutcome& o) {
  nlohmann::ordered_json fault;
  fault["at_ns"] = o.at_ns;
  const bool node = o.plan.kind == FaultPlan::Kind::kNode;
  fault["kind"] = node ? "node" : "link";
  fault["node"] = o.plan.node;
  if (!node) {
    fault["port"] = o.plan.port;
  }
  fault["recovered_ns"] =
      o.Repaired() && o.failover.flows.size() > o.failover.unmeasured
          ? nlohmann::ordered_json(o.failover.max_ns)
          : nlohmann::ordered_json();
  fault["dropped"] = o.drops.total();
  fault["dropped_by_cause"] = {{"link_down", o.drops.link_down},
                               {"node_down", o.drops.node_down},
                               {"stale_epoch", o.drops.stale_epoch},
                               {"no_route", o.drops.no_route}};
  fault["detected_ns"] = o.detected_ns ? nlohmann::ordered_json(*o.detected_ns)
                                       : nlohmann::ordered_json();
  fault["measured_by"] = o.by_messages ? "messages" : "packets";
  if (o.update) {
    fault["update"] = UpdateJson(*o.update);
  }
  fault["restore"] = nlohmann::ordered_json();
  if (o.restore) {
    fault["restore"] = {
        {"at_ns", o.restore->at_ns},
        {"update", o.restore_update ? UpdateJson(*o.restore_update)
                                    : nlohmann::ordered_json()},
        {"link_flits_after", o.link_flits_after_restore}};
  }
  nlohmann::ordered_json flows = nlohmann::ordered_json::array();
  for (const net::FlowFailover& flow : o.failover.flows) {
    flows.push_back({{"src", flow.src},
                     {"dst", flow.dst},
                     {"tc", flow.tc},
                     {"failover_ns",
                      flow.measured ? nlohmann::ordered_json(flow.failover_ns())
                                    : nlohmann::ordered_json()}});
  }
  fault["flows"] = std::move(flows);
  fault["unmeasured"] = o.failover.unmeasured;
  return fault;
}

}  // namespace lq::app
