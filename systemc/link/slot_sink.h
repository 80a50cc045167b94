// SPDX-License-Identifier: Apache-2.0
// SlotSink: the network side of a link controller when nothing above it
// forwards traffic yet (a board on its own, a cluster brought up without
// routers): grants receive room, takes every slot with its credit returned
// at once, counts slots and control messages, and sends nothing.
#pragma once

#include <cstdint>
#include <systemc>

#include "systemc/link/slot_socket.h"

namespace lq::link {

class SlotSink : public sc_core::sc_module, private SlotIf {
 public:
  SlotSocket socket;

  SlotSink(const sc_core::sc_module_name& name, unsigned vcs,
           unsigned room_per_vc);

  uint64_t slots_received() const { return slots_received_; }
  uint64_t control_received() const { return control_received_; }

 private:
  void start_of_simulation() override;
  void Put(Slot slot, const sc_core::sc_time& delay) override;
  void Credit(unsigned vc, unsigned count,
              const sc_core::sc_time& delay) override;
  void Control(Bytes message, const sc_core::sc_time& delay) override;

  unsigned vcs_;
  unsigned room_per_vc_;
  uint64_t slots_received_ = 0;
  uint64_t control_received_ = 0;
};

}  // namespace lq::link
