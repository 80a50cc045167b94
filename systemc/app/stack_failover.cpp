// SPDX-License-Identifier: Apache-2.0
// StackFailover: the fault and its restore at their times, the run's end,
// the measure.
#include "systemc/app/stack_failover.h"

namespace lq::app {

namespace {

// The longest a link takes from CTRL.ENABLE to L0 at full time scale: the
// LTSSM's timeouts from Detect.Quiet through Configuration.Idle (DLL-6),
// each taken once.
const sc_core::sc_time kTrainingBound(12 + 24 + 48 + 24 + 2, sc_core::SC_MS);

}  // namespace

std::optional<std::string> CheckStackFault(const ParamSet& params,
                                           const StackPlan& plan) {
  if (params.Text("fault.kind") == "none") {
    return std::nullopt;
  }
  if (params.Integer("fault.restore_at_cycles") != 0 &&
      params.Text("fault.kind") == "node") {
    return "fault.restore_at_cycles: a restored card would need its "
           "connections set up anew, and the transport gives a failed "
           "card's up for good (TRN-7.9); run.study network restores nodes, "
           "and the stack restores cut links";
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
      node_failed_(std::move(node_failed)),
      stack_(stack) {
  SC_HAS_PROCESS(StackFailover);
  SC_METHOD(Inject);
  sensitive << inject_;
  dont_initialize();
  SC_METHOD(Restore);
  sensitive << restore_;
  dont_initialize();
  SC_METHOD(Settle);
  sensitive << settle_;
  dont_initialize();
  const double clock_ns = stack.fabric.router.clock_ns;
  at_ns_ = plan.at_cycles * clock_ns;
  const topo::Topology& topology = *stack.topology;
  // The port agents watch both ends of every cable the fault cuts.
  std::vector<topo::PortRef> ends;
  for (topo::PortId p = 0; p < topology.PortCount(plan.node); ++p) {
    const auto far = topology.Neighbour(plan.node, p);
    if (stack.tlm_links && far &&
        (plan.kind == FaultPlan::Kind::kNode || p == plan.port)) {
      ends.push_back({plan.node, p});
      ends.push_back(*far);
    }
  }
  control_ = std::make_unique<cluster::FabricControl>(
      "control", assembly.cluster(), stack.topology,
      stack.fabric.router.routing, plan.fabric_manager, ends);
  inject_.notify(sc_core::sc_time(at_ns_, sc_core::SC_NS));
  if (plan.restore_at_cycles > 0) {
    const sc_core::sc_time back(plan.restore_at_cycles * clock_ns,
                                sc_core::SC_NS);
    restore_.notify(back);
    deadline_at_ = back + SettleLimit();
    deadline_.notify(deadline_at_);
  }
}

sc_core::sc_time StackFailover::SettleLimit() const {
  const net::FabricManagerConfig& fm = plan_.fabric_manager;
  return fm.restore_holdoff + fm.compute_time + 2 * fm.drain_timeout +
         kTrainingBound;
}

void StackFailover::Inject() {
  InjectFault(*control_, plan_);
  if (plan_.kind == FaultPlan::Kind::kNode) {
    node_failed_(plan_.node);
  }
}

void StackFailover::Restore() {
  restore_sample_ = RestoreFault(*control_, plan_);
}

bool StackFailover::RestoreTaken() const {
  for (const net::RouteUpdate& update : control_->manager().updates()) {
    if (update.restore) {
      return true;
    }
  }
  return false;
}

void StackFailover::WorkloadDone() {
  if (plan_.restore_at_cycles > 0) {
    settle_.notify(sc_core::SC_ZERO_TIME);
  } else {
    settled_();
  }
}

void StackFailover::Settle() {
  if (RestoreTaken() || sc_core::sc_time_stamp() >= deadline_at_) {
    settled_();
    return;
  }
  next_trigger(control_->manager().updated() | deadline_);
}

FaultOutcome StackFailover::Measure(
    const std::vector<net::MessageTimes>& messages) {
  FaultOutcome outcome;
  outcome.plan = plan_;
  outcome.at_ns = at_ns_;
  outcome.detected_ns = control_->detected_ns();
  outcome.by_messages = true;
  MeasureRepair(*control_, restore_sample_, outcome);
  AddOtherRanksRepair(outcome);
  outcome.failover = net::MeasureMessageFailover(
      messages, at_ns_, CrossesFault(plan_, *stack_.fabric.router.routing));
  return outcome;
}

}  // namespace lq::app
