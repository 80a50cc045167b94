// SPDX-License-Identifier: Apache-2.0
// CutCable: this rank's end of a cable between link ports (link.fidelity
// tlm) whose far end is on another rank (decision 0050). It stands where
// the far PhyPort's cable socket would be bound: the wire flits and lane
// changes the local PHY puts on the cable cross to the far rank through
// the window synchronisation, due when the PHY said they arrive (at least
// the cable's delay later), and what the far PHY sent arrives here, due
// as it would over the cable. The receiving PHY queues what arrives early
// by its due time, as it does a flit carried at its sending.
#pragma once

#include <cstdint>
#include <systemc>

#include "models/topology/topology.h"
#include "systemc/parallel/window_sync.h"
#include "systemc/phy/cable.h"

namespace lq::parallel {

class CutCable : public sc_core::sc_module, private phy::CableIf {
 public:
  // Bound to the local PhyPort's cable socket.
  phy::CableSocket cable;

  // `near` is the local end (node and port), `far` the far end, on rank
  // `far_rank`.
  CutCable(const sc_core::sc_module_name& name, WindowSync& sync,
           topo::PortRef near, topo::PortRef far, unsigned far_rank);

 private:
  enum class Kind : uint8_t { kFlit, kFailedLanes };
  void Carry(phy::WireFlit flit, const sc_core::sc_time& delay) override;
  void FailedLanes(uint32_t failed, const sc_core::sc_time& delay) override;
  void Take(ByteView message, const sc_core::sc_time& due);

  WindowSync& sync_;
  uint64_t far_receiver_;
  unsigned far_rank_;
  Bytes scratch_;
};

}  // namespace lq::parallel
