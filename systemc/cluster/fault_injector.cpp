// FaultInjector: faults on a cluster's cables.
#include "systemc/cluster/fault_injector.h"

#include <algorithm>

namespace lq::cluster {

using phy::FaultCommand;

FaultInjector::FaultInjector(const sc_core::sc_module_name& name,
                             Cluster& cluster,
                             std::function<void(const std::string&)> on_applied)
    : sc_module(name), cluster_(cluster), on_applied_(std::move(on_applied)) {
  SC_HAS_PROCESS(FaultInjector);
  SC_THREAD(Run);
}

std::optional<std::string> FaultInjector::Problem(const FaultCommand& command) {
  const std::string what = command.Describe() + ": ";
  if (command.node >= cluster_.node_count()) {
    return what + "the run has nodes 0.." +
           std::to_string(cluster_.node_count() - 1);
  }
  if (command.node_action()) {
    if (command.node == debugged_node_) {
      return what +
             "GDB debugs that node, and a failure or reset would take its "
             "firmware from under GDB (--gdb-node picks another)";
    }
    return std::nullopt;
  }
  Node& node = cluster_.node(command.node);
  if (command.port >= node.port_count()) {
    return what + "node " + std::to_string(command.node) + " has ports 0.." +
           std::to_string(node.port_count() - 1);
  }
  if (cluster_.FarEnd(command.node, command.port) == nullptr) {
    return what + "that port has no cable";
  }
  const uint32_t lanes = node.port(command.port).phy.AllLanes();
  if (command.lane_action() && lanes == 0) {
    return what + "the port has no lanes";
  }
  if (command.lane_action() &&
      (command.lane >= 32 || ((lanes >> command.lane) & 1) == 0)) {
    return what + "the port has lanes 0.." +
           std::to_string(32 - __builtin_clz(lanes) - 1);
  }
  return std::nullopt;
}

std::optional<std::string> FaultInjector::Schedule(
    std::vector<phy::TimedFault> faults) {
  for (const phy::TimedFault& fault : faults) {
    if (auto problem = Problem(fault.command)) {
      return problem;
    }
  }
  std::stable_sort(faults.begin(), faults.end(),
                   [](const phy::TimedFault& a, const phy::TimedFault& b) {
                     return a.at_ns < b.at_ns;
                   });
  scheduled_ = std::move(faults);
  return std::nullopt;
}

Result<std::string> FaultInjector::Apply(const FaultCommand& command) {
  if (auto problem = Problem(command)) {
    return Fail(*problem);
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  // The port's end and the far end of its cable: port faults only.
  const auto near = [&]() -> phy::PhyPort& {
    return cluster_.node(command.node).port(command.port).phy;
  };
  const auto far = [&]() -> phy::PhyPort& {
    return cluster_.FarEnd(command.node, command.port)->phy;
  };
  switch (command.action) {
    case FaultCommand::Action::kLinkCut:
    case FaultCommand::Action::kLinkRepair:
      cluster_.CutCable(command.node, command.port,
                        command.action == FaultCommand::Action::kLinkCut);
      break;
    case FaultCommand::Action::kLaneFail:
      near().ScheduleLaneFailure(uint32_t{1} << command.lane, now);
      break;
    case FaultCommand::Action::kLaneRepair:
      near().ScheduleLaneRepair(uint32_t{1} << command.lane, now);
      break;
    case FaultCommand::Action::kBer:
      near().SetBer(command.ber);
      far().SetBer(command.ber);
      break;
    case FaultCommand::Action::kNodeFail:
      cluster_.FailNode(command.node);
      break;
    case FaultCommand::Action::kNodeReset:
      if (!cluster_.ResetNode(command.node)) {
        return Fail(command.Describe() + ": node " +
                    std::to_string(command.node) +
                    " has failed (or has no board) and stays down");
      }
      break;
  }
  return Applied(command);
}

std::string FaultInjector::Applied(const FaultCommand& command) {
  const std::string text = command.Describe();
  if (on_applied_) {
    on_applied_(text);
  }
  return text;
}

void FaultInjector::Run() {
  for (const phy::TimedFault& fault : scheduled_) {
    const sc_core::sc_time at(fault.at_ns, sc_core::SC_NS);
    if (at > sc_core::sc_time_stamp()) {
      wait(at - sc_core::sc_time_stamp());
    }
    // Checked when scheduled, but for the node's state now.
    if (auto applied = Apply(fault.command); !applied && on_applied_) {
      on_applied_(applied.error().reason);
    }
  }
}

}  // namespace lq::cluster
