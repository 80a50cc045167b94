// A link cut on the stack (fault.kind link with link.fidelity tlm): both
// PHYs of the cable lose every lane at the fault's time (PHY-5.6). Each
// end's link controller leaves L0; the card's port agent (NET-7.3) then
// marks the router's port down (NET-7.1), reports it to the fabric
// manager, which computes tables around the cut and installs them out of
// band (NET-7.7), and disables the controller so that it stops sending
// into the dead lanes. Meanwhile the transport resends what the cut lost
// (TRN-7). Nothing tells the routers of the cut but their links.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/link/ltssm.h"
#include "systemc/app/network_fault.h"
#include "systemc/app/stack_assembly.h"
#include "systemc/common/register_master.h"
#include "systemc/network/fabric_manager.h"

namespace lq::app {

// The fault keys the stack takes, with why it refuses the rest so far: a
// node failure, a restore, an in-band fabric manager.
std::optional<std::string> CheckStackFault(const ParamSet& params,
                                           const StackPlan& plan);

class StackFailover : public sc_core::sc_module {
 public:
  // Schedules the cut of `plan`'s link in `assembly`'s PHYs, at
  // plan.at_cycles of the routers' clock, and builds the fabric manager.
  // Precondition: the assembly has tlm links and was built with this
  // object's OnLinkState as its link-state handler.
  StackFailover(const sc_core::sc_module_name& name, const FaultPlan& plan,
                const StackPlan& stack, StackAssembly& assembly);

  // A port's LTSSM changed: leaving L0 after the cut is the port agent's
  // cue (NET-7.3), once per port.
  void OnLinkState(unsigned node, unsigned port, link::LtssmState state,
                   uint64_t at_ps);

  // What happened, for the report and the stats file's faults[].
  std::string Line() const;
  nlohmann::ordered_json Json() const;
  // The routing was repaired: an update installed tables.
  bool Repaired() const;

 private:
  // The port agent's register writes: each port it counted down gets
  // CTRL.ENABLE 0 (a register access waits, so a thread makes them).
  void Agent();  // SC_THREAD

  FaultPlan plan_;
  // Register masters on the controllers at both ends of the cut.
  std::map<std::pair<unsigned, unsigned>, std::unique_ptr<RegisterMaster>>
      masters_;
  std::deque<std::pair<unsigned, unsigned>> to_disable_;
  sc_core::sc_event disable_;
  StackAssembly& assembly_;
  double at_ns_ = 0;
  std::unique_ptr<net::FabricManager> manager_;
  std::vector<std::pair<unsigned, unsigned>> down_;  // reported ports
  std::optional<double> detected_ns_;                // the first report
};

}  // namespace lq::app
