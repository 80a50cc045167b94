// SPDX-License-Identifier: Apache-2.0
// The payload-slot protocol between a link controller and the network layer
// above it: slots per virtual channel with credit-based flow control, and
// link control messages beside them, the same interface in both directions
// (DESIGN §4: owned values with a delay, no pointers between models).
#pragma once

#include <cstddef>
#include <cstdint>
#include <systemc>

#include "models/common/bytes.h"
#include "systemc/common/socket_pair.h"

namespace lq::link {

// One payload slot (PHY-2.4): opaque bytes on one virtual channel.
struct Slot {
  unsigned vc = 0;
  Bytes bytes;
  // NET-7.1: no bytes, no credit; the packet in progress on `vc` was cut
  // upstream (its input link failed) and ends here, incomplete. Only the
  // network layer's ideal channels carry it so far.
  bool abort = false;
};

class SlotIf : public virtual sc_core::sc_interface {
 public:
  // Takes `slot` `delay` past the kernel's current time. The sender must
  // hold a credit for slot.vc; it spends one.
  virtual void Put(Slot slot, const sc_core::sc_time& delay) = 0;
  // Grants the peer `count` more slots of room on `vc`.
  virtual void Credit(unsigned vc, unsigned count,
                      const sc_core::sc_time& delay) = 0;
  // A link control message for the layer above at the link's other end
  // (dll.md §11, e.g. a PFC message, trn.md TRN-8.3): outside the VCs and
  // their credits, never forwarded, and lost if the link must drop it.
  virtual void Control(Bytes message, const sc_core::sc_time& delay) = 0;
};

using SlotSocket = SocketPair<SlotIf, SlotIf>;

// Why a link controller must refuse `slot` from the network, or nullptr:
// `queues` holds the slots waiting per VC, each with room for `room_per_vc`
// (the credits the controller granted), and a slot is `slot_bytes` at most.
template <typename Queues>
const char* SlotRefusal(const Slot& slot, size_t slot_bytes,
                        const Queues& queues, size_t room_per_vc) {
  if (slot.vc >= queues.size() || slot.bytes.size() > slot_bytes) {
    return "slot on an unknown VC or longer than a slot";
  }
  if (queues[slot.vc].size() >= room_per_vc) {
    return "network sent a slot without a credit";
  }
  return nullptr;
}

}  // namespace lq::link
