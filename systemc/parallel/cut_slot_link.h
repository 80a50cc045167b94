// SPDX-License-Identifier: Apache-2.0
// CutSlotLink: this rank's end of an ideal cable (link.fidelity ideal)
// whose far end is on another rank (decision 0050). It stands where the
// far router's port would be bound: the slots, credits and control
// messages the local router sends cross to the far rank through the
// window synchronisation, due the cable's latency after they were sent,
// and what the far router sent arrives here, due as it would over the
// cable.
#pragma once

#include <cstdint>
#include <systemc>

#include "models/topology/topology.h"
#include "systemc/link/slot_socket.h"
#include "systemc/parallel/window_sync.h"

namespace lq::parallel {

class CutSlotLink : public sc_core::sc_module, private link::SlotIf {
 public:
  // Bound to the local router's port.
  link::SlotSocket socket;

  // `near` is the local end (node and port), `far` the far end, on rank
  // `far_rank`; `latency` the cable's, each way.
  CutSlotLink(const sc_core::sc_module_name& name, WindowSync& sync,
              topo::PortRef near, topo::PortRef far, unsigned far_rank,
              const sc_core::sc_time& latency);

 private:
  enum class Kind : uint8_t { kSlot, kAbort, kCredit, kControl };
  void Put(link::Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  void Control(Bytes message, const sc_core::sc_time& delay) override;
  void Ship(Kind kind, unsigned vc, unsigned count, ByteView bytes,
            const sc_core::sc_time& delay);
  void Take(ByteView message, const sc_core::sc_time& due);

  WindowSync& sync_;
  uint64_t far_receiver_;
  unsigned far_rank_;
  sc_core::sc_time latency_;
  Bytes scratch_;
};

}  // namespace lq::parallel
