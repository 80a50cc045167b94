// SPDX-License-Identifier: Apache-2.0
// A fault on the stack, and its restore: a link cut fails every lane of
// both PHYs of its cable (PHY-5.6); a node failure cuts each of the node's
// links at once and stops its router and network interface (NET-7.10).
// The cluster's FabricControl carries them out: on tlm links each
// surviving end's link controller leaves L0 and its port agent (NET-7.3)
// takes the router's port down (NET-7.1) and reports it to the fabric
// manager, which computes tables around the fault and installs them, out
// of band or in band (NET-7.7); on ideal links, which have no controller to
// notice, each surviving end's port goes down at the fault's time.
// Meanwhile the transport resends what the fault lost (TRN-7), and gives
// up on a failed node (TRN-7.9). A cut link may come back: its lanes are
// repaired, its controllers retrain, and the manager takes it back
// (NET-7.11); the run then lasts until it has.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/link/ltssm.h"
#include "models/network/failover.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/cluster/fabric_control.h"

namespace lq::app {

// The fault keys the stack takes, with why it refuses a restored node.
std::optional<std::string> CheckStackFault(const ParamSet& params,
                                           const StackPlan& plan);

// Why a link cut would leave a card with no link at all, or nothing.
std::optional<std::string> CheckCutLeavesCardsLinked(
    const FaultPlan& plan, const topo::Topology& topology);

class StackFailover : public sc_core::sc_module {
 public:
  // Schedules `plan`'s fault, and its restore, in `assembly`'s cluster at
  // plan.at_cycles of the routers' clock, and builds the fabric manager. A
  // failed node's router and interface stop at that time, after which
  // `node_failed` tells the workload. Precondition: on tlm links, the
  // assembly was built with this object's OnLinkState as its link-state
  // handler.
  StackFailover(const sc_core::sc_module_name& name, const FaultPlan& plan,
                const StackPlan& stack, StackAssembly& assembly,
                std::function<void(unsigned node)> node_failed);

  // A port's LTSSM changed: the port agents' cue.
  void OnLinkState(unsigned node, unsigned port, link::LtssmState state,
                   uint64_t at_ps) {
    control_->OnLinkState(node, port, state, at_ps);
  }

  // The workload is done: the run ends now or, with a restore, once the
  // fabric manager has taken the link back, or `SettleLimit` after the
  // restore if it never does. It ends by sc_stop(), or by what OnSettled
  // gave instead.
  void WorkloadDone();
  void OnSettled(std::function<void()> settled) {
    settled_ = std::move(settled);
  }

  // What the run measured: the repair, the packets the fault dropped, the
  // restore, and each affected connection's failover by its `messages`
  // (NET-7.13). Every rank calls it; rank 0 gets what every rank measured
  // (over MPI ranks each holds a replica of the manager, and its own
  // nodes' counts).
  FaultOutcome Measure(const std::vector<net::MessageTimes>& messages);

 private:
  void Inject();   // SC_METHOD at the fault's time
  void Restore();  // SC_METHOD at the restore's time
  void Settle();   // SC_METHOD: stops the run once the restore is taken
  bool RestoreTaken() const;
  // How long after the restore the run waits for the manager at most: its
  // restore holdoff, a computation and two drains, and the longest the
  // links take to train again.
  sc_core::sc_time SettleLimit() const;

  FaultPlan plan_;
  std::function<void(unsigned)> node_failed_;
  std::function<void()> settled_ = [] { sc_core::sc_stop(); };
  double at_ns_ = 0;
  sc_core::sc_event inject_, restore_, settle_, deadline_;
  sc_core::sc_time deadline_at_;  // the restore's time plus SettleLimit
  std::unique_ptr<cluster::FabricControl> control_;
  std::optional<RestoreSample> restore_sample_;
  const StackPlan& stack_;
};

}  // namespace lq::app
