// SPDX-License-Identifier: Apache-2.0
// FaultInjector: applies injected faults (models/phy/fault_event.h) to the
// cables and cards of a cluster of boards, at their simulated times or at
// once (GDB's `monitor`). A cut fails every lane of both ends' PHYs
// (PHY-5.6) and a repair restores them; a lane fault touches one lane of
// one end's transmit direction (PHY-5.4); a BER change applies to both
// directions (PHY-5.1); a node failure is Cluster::FailNode. The link
// controllers then do what they do on real lanes: leave L0, raise LINK_DOWN,
// retrain, and the firmware handles it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/result.h"
#include "models/phy/fault_event.h"
#include "systemc/cluster/cluster.h"

namespace lq::cluster {

class FaultInjector : public sc_core::sc_module {
 public:
  // `on_applied` hears each fault as it is applied, as its Describe() text,
  // and why a scheduled one could not be (a reset of a failed node), with
  // the node the fault names; over MPI ranks, on that node's rank only.
  FaultInjector(
      const sc_core::sc_module_name& name, Cluster& cluster,
      std::function<void(unsigned node, const std::string&)> on_applied);

  // GDB debugs node `node`'s CPU: a failure of that node is refused, as
  // it would end the debugging session. Call before Schedule().
  void SetDebuggedNode(unsigned node) { debugged_node_ = node; }
  // Schedules `faults` at their times, or returns the first one the
  // cluster cannot take (no such node, port or lane, no cable, an ideal
  // port, the failure of the node GDB debugs) and schedules nothing. Call
  // before the simulation starts. Over MPI ranks every rank schedules
  // every fault and applies it to the cable ends and cards it has.
  std::optional<std::string> Schedule(std::vector<phy::TimedFault> faults);
  // Applies `command` now (GDB's `monitor`); the text of what was done, or
  // why not. Over MPI ranks it must reach only this rank's cards.
  Result<std::string> Apply(const phy::FaultCommand& command);

 private:
  // Why the cluster cannot take `command`, if it cannot: the same answer
  // on every rank.
  std::optional<std::string> Problem(const phy::FaultCommand& command);
  // Why `command`, applied at once, would miss another rank's cards.
  std::optional<std::string> Elsewhere(const phy::FaultCommand& command);
  // Applies `command` to what this rank has; its text, or why not.
  Result<std::string> Act(const phy::FaultCommand& command);
  // Tells on_applied_ `text` about node `node`, on the node's rank.
  void Tell(unsigned node, const std::string& text);
  void Run();  // SC_THREAD: the scheduled faults in time order

  Cluster& cluster_;
  std::function<void(unsigned node, const std::string&)> on_applied_;
  std::vector<phy::TimedFault> scheduled_;  // by time
  std::optional<unsigned> debugged_node_;
};

}  // namespace lq::cluster
