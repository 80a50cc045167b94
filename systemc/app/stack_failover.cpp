// StackFailover: the fault, its detection by the links, the port agents,
// the repair, the measure.
#include "systemc/app/stack_failover.h"

#include <algorithm>

#include "generated/cpp/lc_regs.h"
#include "systemc/network/out_of_band_channel.h"

namespace lq::app {

std::optional<std::string> CheckStackFault(const ParamSet& params,
                                           const StackPlan& plan) {
  if (params.Text("fault.kind") == "none") {
    return std::nullopt;
  }
  if (params.Integer("fault.restore_at_cycles") != 0) {
    return "fault.restore_at_cycles: the stack does not bring cut links "
           "or failed nodes back yet (run.study network does)";
  }
  if (params.Text("fm.placement") != "builder") {
    return "fm.placement: the stack's fabric manager works out of band "
           "(builder) so far";
  }
  const auto fault = ScenarioFault(params, *plan.topology,
                                   plan.fabric.router.vc_classes, std::nullopt);
  if (!fault) {
    return fault.error().reason;
  }
  if (*fault && (*fault)->kind == FaultPlan::Kind::kLink) {
    return CheckCutLeavesCardsLinked(**fault, *plan.topology);
  }
  return std::nullopt;
}

// A card whose only cable is cut (a fat-tree host) is cut off: what it
// sends and what is sent to it can neither land nor count as a failed
// node's. A node failure says that of it instead.
std::optional<std::string> CheckCutLeavesCardsLinked(
    const FaultPlan& plan, const topo::Topology& topology) {
  const topo::PortRef far = topology.Neighbour(plan.node, plan.port).value();
  for (const topo::PortRef end : {topo::PortRef{plan.node, plan.port}, far}) {
    if (!topology.IsEndpoint(end.node)) {
      continue;
    }
    unsigned cabled = 0;
    for (topo::PortId p = 0; p < topology.PortCount(end.node); ++p) {
      cabled += topology.Neighbour(end.node, p) && p != end.port ? 1 : 0;
    }
    if (cabled == 0) {
      return "fault.node/fault.port: the cut would leave card " +
             std::to_string(end.node) +
             " with no link, so its messages could neither land nor fail "
             "as a failed node's; fault.kind node fails it instead";
    }
  }
  return std::nullopt;
}

StackFailover::StackFailover(const sc_core::sc_module_name& name,
                             const FaultPlan& plan, const StackPlan& stack,
                             StackAssembly& assembly,
                             std::function<void(unsigned node)> node_failed)
    : sc_module(name),
      plan_(plan),
      stack_(stack),
      assembly_(assembly),
      node_failed_(std::move(node_failed)) {
  SC_HAS_PROCESS(StackFailover);
  SC_THREAD(Agent);
  SC_METHOD(FailNode);
  sensitive << fail_node_;
  dont_initialize();
  SC_METHOD(CutIdeal);
  sensitive << cut_ideal_;
  dont_initialize();
  at_ns_ = plan.at_cycles * stack.fabric.router.clock_ns;
  const sc_core::sc_time at(at_ns_, sc_core::SC_NS);
  const topo::Topology& topology = *stack.topology;
  const bool node = plan.kind == FaultPlan::Kind::kNode;
  for (topo::PortId p = 0; p < topology.PortCount(plan.node); ++p) {
    if ((node || p == plan.port) && topology.Neighbour(plan.node, p)) {
      cut_ports_.push_back(p);
    }
  }
  if (stack.tlm_links) {
    FailPhys(at);
  }
  if (node) {
    fail_node_.notify(at);
  } else if (!stack.tlm_links) {
    cut_ideal_.notify(at);
  }

  std::vector<net::Router*> routers;
  std::vector<net::NetworkInterface*> interfaces;
  for (const NodeParts& parts : assembly.nodes()) {
    routers.push_back(parts.router);
    interfaces.push_back(parts.engine ? &parts.engine->interface() : nullptr);
  }
  manager_ = std::make_unique<net::FabricManager>(
      "fabric_manager", stack.topology, stack.fabric.router.routing,
      std::make_unique<net::OutOfBandChannel>(routers, interfaces,
                                              plan.fabric_manager.oob_latency),
      plan.fabric_manager);
}

// On tlm links every lane of both PHYs of each cut cable fails at `at`,
// and the port agents get their reach into the controllers at its ends.
void StackFailover::FailPhys(const sc_core::sc_time& at) {
  cluster::Cluster& cluster = assembly_.cluster();
  const topo::Topology& topology = *stack_.topology;
  for (const topo::PortId port : cut_ports_) {
    const auto far = topology.Neighbour(plan_.node, port).value();
    for (const auto& [n, p] : {std::make_pair(plan_.node, port),
                               std::make_pair(far.node, far.port)}) {
      phy::PhyPort& phy = cluster.node(n).port(p).phy;
      phy.ScheduleLaneFailure(phy.AllLanes(), at);
      // The port agent's reach into the controller (its register socket is
      // otherwise unbound on a card without a board); a failed card's
      // controllers are switched off through it, as its power goes.
      auto master = std::make_unique<RegisterMaster>(
          ("csr_" + std::to_string(n) + "_" + std::to_string(p)).c_str());
      master->socket.bind(cluster.node(n).port(p).controller().csr_socket());
      masters_.emplace(std::make_pair(unsigned{n}, unsigned{p}),
                       std::move(master));
    }
  }
}

void StackFailover::FailNode() {
  const NodeParts& parts = assembly_.nodes()[plan_.node];
  net::NetworkInterface& interface = parts.engine->interface();
  const uint64_t handed_over = interface.injected();
  parts.router->Fail(handed_over, interface.Fail());
  for (const auto& [port, unused] : masters_) {
    if (port.first == plan_.node) {
      to_disable_.push_back(port);
    }
  }
  disable_.notify(sc_core::SC_ZERO_TIME);
  if (!stack_.tlm_links) {
    for (const topo::PortId port : cut_ports_) {
      const topo::PortRef far =
          stack_.topology->Neighbour(plan_.node, port).value();
      PortDown(far.node, far.port, IdealFlush());
    }
  }
  node_failed_(plan_.node);
}

// Both ends of the cut cable go down at once: no controller has to notice.
void StackFailover::CutIdeal() {
  const topo::PortRef far =
      stack_.topology->Neighbour(plan_.node, plan_.port).value();
  PortDown(plan_.node, plan_.port, IdealFlush());
  PortDown(far.node, far.port, IdealFlush());
}

// Slots already granted the switch leave within SA + ST and a cycle.
sc_core::sc_time StackFailover::IdealFlush() const {
  const net::RouterConfig& router = stack_.fabric.router;
  return sc_core::sc_time(router.clock_ns, sc_core::SC_NS) *
         (router.sa_cycles + router.st_cycles + 1);
}

void StackFailover::PortDown(unsigned node, unsigned port,
                             const sc_core::sc_time& flush) {
  down_.emplace_back(node, port);
  if (!detected_ns_) {
    detected_ns_ = sc_core::sc_time_stamp().to_seconds() * 1e9;
  }
  assembly_.nodes()[node].router->SetPortDown(port, flush);
  manager_->ReportLinkDown(node, port);
}

void StackFailover::OnLinkState(unsigned node, unsigned port,
                                link::LtssmState state, uint64_t at_ps) {
  const auto key = std::make_pair(node, port);
  // NET-7.3's port agent: a link that leaves L0 after the fault is down;
  // it does not wait for Recovery's 24 ms timeout (DLL-6), which outlasts
  // the transport's retries. (Before the fault, nothing is news; a dead
  // card has no agent.)
  if (state == link::LtssmState::kL0 ||
      static_cast<double>(at_ps) / 1000.0 < at_ns_ ||
      (plan_.kind == FaultPlan::Kind::kNode && node == plan_.node) ||
      masters_.count(key) == 0 ||
      std::find(down_.begin(), down_.end(), key) != down_.end()) {
    return;
  }
  if (!detected_ns_) {
    detected_ns_ = static_cast<double>(at_ps) / 1000.0;
  }
  // Slots already on their way in land within a microsecond (NET-7.1).
  PortDown(node, port, sc_core::sc_time(1, sc_core::SC_US));
  to_disable_.push_back(key);
  disable_.notify(sc_core::SC_ZERO_TIME);
}

void StackFailover::Agent() {
  while (true) {
    wait(disable_);
    while (!to_disable_.empty()) {
      RegisterMaster& csr = *masters_.at(to_disable_.front());
      to_disable_.pop_front();
      csr.Write(regs::lc::kCtrlOffset, csr.Read(regs::lc::kCtrlOffset) &
                                           ~regs::lc::kCtrlEnable.Mask());
    }
  }
}

FaultOutcome StackFailover::Measure(
    const std::vector<net::MessageTimes>& messages) const {
  FaultOutcome outcome;
  outcome.plan = plan_;
  outcome.at_ns = at_ns_;
  outcome.detected_ns = detected_ns_;
  outcome.by_messages = true;
  if (!manager_->updates().empty()) {
    outcome.update = manager_->updates().front();
  }
  for (const NodeParts& node : assembly_.nodes()) {
    outcome.failure_drops += node.router->counters().FailureDropped();
  }
  outcome.failover = net::MeasureMessageFailover(
      messages, at_ns_, CrossesFault(plan_, *stack_.fabric.router.routing));
  return outcome;
}

}  // namespace lq::app
