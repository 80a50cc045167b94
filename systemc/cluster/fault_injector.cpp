// SPDX-License-Identifier: Apache-2.0
// FaultInjector: faults on a cluster's cables.
#include "systemc/cluster/fault_injector.h"

#include <algorithm>

namespace lq::cluster {

using phy::FaultCommand;

FaultInjector::FaultInjector(
    const sc_core::sc_module_name& name, Cluster& cluster,
    std::function<void(unsigned node, const std::string&)> on_applied)
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
  // From what every rank knows, so that each answers alike.
  const unsigned ports = cluster_.PortCount(command.node);
  if (command.port >= ports) {
    return what + "node " + std::to_string(command.node) + " has ports 0.." +
           std::to_string(ports - 1);
  }
  if (!cluster_.IsCabled(command.node, command.port)) {
    return what + "that port has no cable";
  }
  const unsigned lanes = cluster_.config().port.phy.profile.max_lanes;
  if (command.lane_action() && command.lane >= lanes) {
    return what + "the port has lanes 0.." + std::to_string(lanes - 1);
  }
  return std::nullopt;
}

std::optional<std::string> FaultInjector::Elsewhere(
    const FaultCommand& command) {
  if (!cluster_.config().share.partition) {
    return std::nullopt;
  }
  bool here = cluster_.built(command.node);
  const auto far_here = [&](unsigned port) {
    return cluster_.built(cluster_.FarPort(command.node, port).node);
  };
  if (command.action == FaultCommand::Action::kNodeFail) {
    for (unsigned port = 0; port < cluster_.PortCount(command.node); ++port) {
      here = here && (!cluster_.IsCabled(command.node, port) || far_here(port));
    }
  } else if (!command.node_action() && !command.lane_action()) {
    here = here && far_here(command.port);
  }
  if (here) {
    return std::nullopt;
  }
  return command.Describe() +
         ": it reaches cards on another MPI rank, which only a scheduled "
         "fault (events, --event) reaches";
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
  if (auto elsewhere = Elsewhere(command)) {
    return Fail(*elsewhere);
  }
  return Act(command);
}

Result<std::string> FaultInjector::Act(const FaultCommand& command) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  // The port's end, if this rank has it (lane faults).
  const auto near = [&]() -> phy::PhyPort* {
    return cluster_.built(command.node)
               ? &cluster_.node(command.node).port(command.port).phy
               : nullptr;
  };
  switch (command.action) {
    case FaultCommand::Action::kLinkCut:
    case FaultCommand::Action::kLinkRepair:
      cluster_.CutCable(command.node, command.port,
                        command.action == FaultCommand::Action::kLinkCut);
      break;
    case FaultCommand::Action::kLaneFail:
      if (phy::PhyPort* end = near()) {
        end->ScheduleLaneFailure(uint32_t{1} << command.lane, now);
      }
      break;
    case FaultCommand::Action::kLaneRepair:
      if (phy::PhyPort* end = near()) {
        end->ScheduleLaneRepair(uint32_t{1} << command.lane, now);
      }
      break;
    case FaultCommand::Action::kBer:
      for (phy::PhyPort* end :
           cluster_.CableEndsHere(command.node, command.port)) {
        end->SetBer(command.ber);
      }
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
  const std::string text = command.Describe();
  Tell(command.node, text);
  return text;
}

void FaultInjector::Tell(unsigned node, const std::string& text) {
  if (on_applied_ && cluster_.built(node)) {
    on_applied_(node, text);
  }
}

void FaultInjector::Run() {
  for (const phy::TimedFault& fault : scheduled_) {
    const sc_core::sc_time at(fault.at_ns, sc_core::SC_NS);
    if (at > sc_core::sc_time_stamp()) {
      wait(at - sc_core::sc_time_stamp());
    }
    // Checked when scheduled, but for the node's state now; every rank
    // acts on its own ends of what it reaches.
    if (auto acted = Act(fault.command); !acted) {
      Tell(fault.command.node, acted.error().reason);
    }
  }
}

}  // namespace lq::cluster
