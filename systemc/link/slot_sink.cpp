// SPDX-License-Identifier: Apache-2.0
// SlotSink: room at start, a credit back for every slot.
#include "systemc/link/slot_sink.h"

namespace lq::link {

SlotSink::SlotSink(const sc_core::sc_module_name& name, unsigned vcs,
                   unsigned room_per_vc)
    : sc_module(name), socket("socket"), vcs_(vcs), room_per_vc_(room_per_vc) {
  socket.in.bind(static_cast<SlotIf&>(*this));
}

void SlotSink::start_of_simulation() {
  for (unsigned vc = 0; vc < vcs_; ++vc) {
    socket.out->Credit(vc, room_per_vc_, sc_core::SC_ZERO_TIME);
  }
}

void SlotSink::Put(Slot slot, const sc_core::sc_time& delay) {
  ++slots_received_;
  socket.out->Credit(slot.vc, 1, delay);
}

// Nothing is ever sent, so the controller's credits are not needed.
void SlotSink::Credit(unsigned, unsigned, const sc_core::sc_time&) {}

void SlotSink::Control(Bytes, const sc_core::sc_time&) { ++control_received_; }

}  // namespace lq::link
