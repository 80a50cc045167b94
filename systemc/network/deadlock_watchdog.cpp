// SPDX-License-Identifier: Apache-2.0
// DeadlockWatchdog: progress sampling and the wait-for cycle.
#include "systemc/network/deadlock_watchdog.h"

#include "models/network/wait_cycle.h"

namespace lq::net {

DeadlockWatchdog::DeadlockWatchdog(
    const sc_core::sc_module_name& name, std::vector<Router*> routers,
    std::shared_ptr<const topo::Topology> topology, sc_core::sc_time window,
    std::function<bool()> busy, bool stop_on_deadlock)
    : sc_module(name),
      routers_(std::move(routers)),
      topology_(std::move(topology)),
      window_(window),
      busy_(std::move(busy)),
      stop_on_deadlock_(stop_on_deadlock) {
  SC_HAS_PROCESS(DeadlockWatchdog);
  SC_METHOD(Check);
  sensitive << tick_;
  dont_initialize();
}

void DeadlockWatchdog::start_of_simulation() { Arm(); }

void DeadlockWatchdog::Arm() {
  if (!ticking_ && !deadlocked_) {
    ticking_ = true;
    tick_.notify(window_);
  }
}

uint64_t DeadlockWatchdog::SlotsMoved() const {
  uint64_t moved = 0;
  for (const Router* router : routers_) {
    moved += router != nullptr ? router->slots_moved() : 0;
  }
  return moved;
}

uint64_t DeadlockWatchdog::PacketsHeld() const {
  uint64_t held = 0;
  for (const Router* router : routers_) {
    held += router != nullptr ? router->packets_held() : 0;
  }
  return held;
}

void DeadlockWatchdog::Check() {
  ticking_ = false;
  const uint64_t moved = SlotsMoved();
  const uint64_t held = PacketsHeld();
  if (held > 0 && moved == last_moved_) {
    deadlocked_ = true;
    detected_at_ = sc_core::sc_time_stamp();
    report_ = std::to_string(held) + " packets held and no slot moved for " +
              window_.to_string() + "; waiting cycle: " + DescribeWaitCycle();
    if (stop_on_deadlock_) {
      sc_core::sc_stop();
    }
    return;
  }
  last_moved_ = moved;
  if (held > 0 || busy_()) {
    Arm();
  }
}

// Every held head packet waits on the input VC its output leads to.
std::string DeadlockWatchdog::DescribeWaitCycle() const {
  std::vector<VcWait> waits;
  for (topo::NodeId node = 0; node < routers_.size(); ++node) {
    if (routers_[node] == nullptr) {
      continue;  // another rank's
    }
    for (const HeadWait& wait : routers_[node]->HeadWaits()) {
      const auto far = topology_->Neighbour(node, wait.out_port);
      if (wait.out_port == routers_[node]->local_port() || !far) {
        continue;
      }
      waits.push_back({{node, wait.in_port, wait.in_vc},
                       {far->node, far->port, wait.out_vc}});
    }
  }
  return net::DescribeWaitCycle(*topology_, waits);
}

}  // namespace lq::net
