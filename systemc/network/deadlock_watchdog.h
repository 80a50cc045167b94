// SPDX-License-Identifier: Apache-2.0
// DeadlockWatchdog: watches a network's routers and declares a deadlock
// when packets are held but no slot has crossed any crossbar for a whole
// window (NET-4.7's failure seen in simulation rather than by analysis).
// It then names the cycle of input VCs waiting on one another, so that a
// broken VC assignment shows where it closes the loop. It ticks only while
// the network has work: held packets or sources still to be heard from.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/topology.h"
#include "systemc/network/router.h"

namespace lq::net {

class DeadlockWatchdog : public sc_core::sc_module {
 public:
  // `routers[n]` is node n's (nullptr: on another rank of a parallel run,
  // whose own watchdog watches it); `busy` says whether anything outside
  // the routers may still inject (sources with packets to send or queued).
  DeadlockWatchdog(const sc_core::sc_module_name& name,
                   std::vector<Router*> routers,
                   std::shared_ptr<const topo::Topology> topology,
                   sc_core::sc_time window, std::function<bool()> busy,
                   bool stop_on_deadlock);

  bool deadlocked() const { return deadlocked_; }
  // When the deadlock was declared and the waiting cycle found, e.g.
  // "router3.port0.vc0 -> router0.port1.vc0 -> ... -> router3.port0.vc0".
  sc_core::sc_time detected_at() const { return detected_at_; }
  const std::string& report() const { return report_; }

 private:
  void Arm();  // ticks after a window unless already ticking or deadlocked
  void start_of_simulation() override;
  void Check();  // SC_METHOD: once per window while there is work
  uint64_t SlotsMoved() const;
  uint64_t PacketsHeld() const;
  std::string DescribeWaitCycle() const;

  std::vector<Router*> routers_;
  std::shared_ptr<const topo::Topology> topology_;
  sc_core::sc_time window_;
  std::function<bool()> busy_;
  bool stop_on_deadlock_;
  uint64_t last_moved_ = 0;
  bool ticking_ = false;
  bool deadlocked_ = false;
  sc_core::sc_time detected_at_;
  std::string report_;
  sc_core::sc_event tick_;
};

}  // namespace lq::net
