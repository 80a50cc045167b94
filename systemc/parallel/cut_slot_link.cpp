// SPDX-License-Identifier: Apache-2.0
// CutSlotLink: the slot protocol packed for another rank and back.
#include "systemc/parallel/cut_slot_link.h"

#include <stdexcept>

#include "systemc/parallel/cable_end.h"
#include "systemc/parallel/wire.h"

namespace lq::parallel {

CutSlotLink::CutSlotLink(const sc_core::sc_module_name& name, WindowSync& sync,
                         topo::PortRef near, topo::PortRef far,
                         unsigned far_rank, const sc_core::sc_time& latency)
    : sc_module(name),
      socket("socket"),
      sync_(sync),
      far_receiver_(CableEndReceiver(far)),
      far_rank_(far_rank),
      latency_(latency) {
  socket.in.bind(static_cast<link::SlotIf&>(*this));
  sync.Listen(CableEndReceiver(near),
              [this](ByteView message, const sc_core::sc_time& due) {
                Take(message, due);
              });
}

void CutSlotLink::Ship(Kind kind, unsigned vc, unsigned count, ByteView bytes,
                       const sc_core::sc_time& delay) {
  scratch_.clear();
  WireWriter out(scratch_);
  out.U8(static_cast<uint8_t>(kind));
  out.U32(vc);
  out.U32(count);
  out.Blob(bytes);
  sync_.Send(far_rank_, far_receiver_,
             sc_core::sc_time_stamp() + delay + latency_, scratch_);
}

void CutSlotLink::Put(link::Slot slot, const sc_core::sc_time& delay) {
  Ship(slot.abort ? Kind::kAbort : Kind::kSlot, slot.vc, 0, slot.bytes, delay);
}

void CutSlotLink::Credit(unsigned vc, unsigned count,
                         const sc_core::sc_time& delay) {
  Ship(Kind::kCredit, vc, count, ByteView(), delay);
}

void CutSlotLink::Control(Bytes message, const sc_core::sc_time& delay) {
  Ship(Kind::kControl, 0, 0, message, delay);
}

void CutSlotLink::Take(ByteView message, const sc_core::sc_time& due) {
  WireReader in(message);
  const auto kind = static_cast<Kind>(in.U8());
  const unsigned vc = in.U32();
  const unsigned count = in.U32();
  const ByteView bytes = in.Blob();
  const sc_core::sc_time delay = due - sc_core::sc_time_stamp();
  switch (kind) {
    case Kind::kSlot:
    case Kind::kAbort: {
      link::Slot slot;
      slot.vc = vc;
      slot.bytes.assign(bytes.begin(), bytes.end());
      slot.abort = kind == Kind::kAbort;
      socket.out->Put(std::move(slot), delay);
      return;
    }
    case Kind::kCredit:
      socket.out->Credit(vc, count, delay);
      return;
    case Kind::kControl:
      socket.out->Control(Bytes(bytes.begin(), bytes.end()), delay);
      return;
  }
  throw std::logic_error("a cut link's message of no kind");
}

}  // namespace lq::parallel
