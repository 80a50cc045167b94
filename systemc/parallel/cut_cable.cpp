// SPDX-License-Identifier: Apache-2.0
// CutCable: wire flits and lane changes packed for another rank and back.
#include "systemc/parallel/cut_cable.h"

#include <stdexcept>

#include "systemc/parallel/cable_end.h"
#include "systemc/parallel/wire.h"

namespace lq::parallel {
namespace {

// WireFlit's flags, one bit each.
enum FlitFlag : uint8_t {
  kEncoded = 1,
  kNoise = 2,
  kTraining = 4,
  kCarriesSlot = 8,
};

}  // namespace

CutCable::CutCable(const sc_core::sc_module_name& name, WindowSync& sync,
                   topo::PortRef near, topo::PortRef far, unsigned far_rank)
    : sc_module(name),
      cable("cable"),
      sync_(sync),
      far_receiver_(CableEndReceiver(far)),
      far_rank_(far_rank) {
  cable.in.bind(static_cast<phy::CableIf&>(*this));
  sync.Listen(CableEndReceiver(near),
              [this](ByteView message, const sc_core::sc_time& due) {
                Take(message, due);
              });
}

void CutCable::Carry(phy::WireFlit flit, const sc_core::sc_time& delay) {
  scratch_.clear();
  WireWriter out(scratch_);
  out.U8(static_cast<uint8_t>(Kind::kFlit));
  out.U8(static_cast<uint8_t>((flit.encoded ? kEncoded : 0) |
                              (flit.noise ? kNoise : 0) |
                              (flit.training ? kTraining : 0) |
                              (flit.carries_slot ? kCarriesSlot : 0)));
  out.U32(flit.lane);
  out.Blob(flit.bytes);
  sync_.Send(far_rank_, far_receiver_, sc_core::sc_time_stamp() + delay,
             scratch_);
}

void CutCable::FailedLanes(uint32_t failed, const sc_core::sc_time& delay) {
  scratch_.clear();
  WireWriter out(scratch_);
  out.U8(static_cast<uint8_t>(Kind::kFailedLanes));
  out.U32(failed);
  sync_.Send(far_rank_, far_receiver_, sc_core::sc_time_stamp() + delay,
             scratch_);
}

void CutCable::Take(ByteView message, const sc_core::sc_time& due) {
  WireReader in(message);
  const auto kind = static_cast<Kind>(in.U8());
  const sc_core::sc_time delay = due - sc_core::sc_time_stamp();
  switch (kind) {
    case Kind::kFlit: {
      phy::WireFlit flit;
      const uint8_t flags = in.U8();
      flit.encoded = (flags & kEncoded) != 0;
      flit.noise = (flags & kNoise) != 0;
      flit.training = (flags & kTraining) != 0;
      flit.carries_slot = (flags & kCarriesSlot) != 0;
      flit.lane = in.U32();
      const ByteView bytes = in.Blob();
      flit.bytes.assign(bytes.begin(), bytes.end());
      cable.out->Carry(std::move(flit), delay);
      return;
    }
    case Kind::kFailedLanes:
      cable.out->FailedLanes(in.U32(), delay);
      return;
  }
  throw std::logic_error("a cut cable's message of no kind");
}

}  // namespace lq::parallel
