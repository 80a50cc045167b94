// A fault on the stack. A link cut fails every lane of both PHYs of its
// cable (PHY-5.6); a node failure cuts each of the node's links at once and
// stops its router and network interface (NET-7.10). On tlm links each
// surviving end's link controller leaves L0; the card's port agent
// (NET-7.3) then marks the router's port down (NET-7.1), reports it to the
// fabric manager, which computes tables around the fault and installs them
// out of band (NET-7.7), and disables the controller so that it stops
// sending into the dead lanes. Nothing tells the routers of the fault but
// their links. On ideal links, which have no controller to notice, each
// surviving end's port goes down and is reported at the fault's time.
// Meanwhile the transport resends what the fault lost (TRN-7), and gives
// up on a failed node (TRN-7.9).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "models/link/ltssm.h"
#include "models/network/failover.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/common/register_master.h"
#include "systemc/network/fabric_manager.h"

namespace lq::app {

// The fault keys the stack takes, with why it refuses the rest so far: a
// restore, an in-band fabric manager.
std::optional<std::string> CheckStackFault(const ParamSet& params,
                                           const StackPlan& plan);

// Why a link cut would leave a card with no link at all, or nothing.
std::optional<std::string> CheckCutLeavesCardsLinked(
    const FaultPlan& plan, const topo::Topology& topology);

class StackFailover : public sc_core::sc_module {
 public:
  // Schedules `plan`'s fault in `assembly`'s PHYs or ideal cables, at
  // plan.at_cycles of the routers' clock, and builds the fabric manager. A
  // failed node's router and interface stop at that time, after which
  // `node_failed` tells the workload. Precondition: on tlm links, the
  // assembly was built with this object's OnLinkState as its link-state
  // handler.
  StackFailover(const sc_core::sc_module_name& name, const FaultPlan& plan,
                const StackPlan& stack, StackAssembly& assembly,
                std::function<void(unsigned node)> node_failed);

  // A port's LTSSM changed: a surviving port leaving L0 after the fault is
  // the port agent's cue (NET-7.3), once per port.
  void OnLinkState(unsigned node, unsigned port, link::LtssmState state,
                   uint64_t at_ps);

  // What the run measured: the repair, the packets the fault dropped, and
  // each affected connection's failover by its `messages` (NET-7.13).
  FaultOutcome Measure(const std::vector<net::MessageTimes>& messages) const;

 private:
  // The port agents' register writes: each port they counted down gets
  // CTRL.ENABLE 0 (a register access waits, so a thread makes them).
  void Agent();     // SC_THREAD
  void FailNode();  // SC_METHOD at a node failure's time
  void CutIdeal();  // SC_METHOD at a link cut's time, on ideal links
  void FailPhys(const sc_core::sc_time& at);  // on tlm links
  // A surviving end's port is down: the router stops using it, what was
  // sent lands within `flush`, and the fabric manager hears of it.
  void PortDown(unsigned node, unsigned port, const sc_core::sc_time& flush);
  sc_core::sc_time IdealFlush() const;  // what an ideal cable has in flight

  FaultPlan plan_;
  const StackPlan& stack_;
  StackAssembly& assembly_;
  std::function<void(unsigned)> node_failed_;
  double at_ns_ = 0;
  sc_core::sc_event fail_node_, cut_ideal_;
  // The cut cables, each by its end at the fault's node.
  std::vector<topo::PortId> cut_ports_;
  // Register masters on the controllers at the ends of the cut links.
  std::map<std::pair<unsigned, unsigned>, std::unique_ptr<RegisterMaster>>
      masters_;
  std::deque<std::pair<unsigned, unsigned>> to_disable_;
  sc_core::sc_event disable_;
  std::unique_ptr<net::FabricManager> manager_;
  std::vector<std::pair<unsigned, unsigned>> down_;  // reported ports
  std::optional<double> detected_ns_;                // the first report
};

}  // namespace lq::app
