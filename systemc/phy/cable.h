// SPDX-License-Identifier: Apache-2.0
// What travels on a cable between two PhyPorts: wire flits and changes in
// which lanes carry a signal. Each PhyPort has one CableSocket; Connect()
// (systemc/common/socket_pair.h) joins two of them into a cable.
#pragma once

#include <cstdint>
#include <systemc>

#include "models/common/bytes.h"
#include "systemc/common/socket_pair.h"

namespace lq::phy {

// One flit on the wire, after the transmitter's FEC and errors.
struct WireFlit {
  // The wire image (content + FEC) when `encoded`; otherwise just the
  // content, which no error touched, so the FEC would pass it unchanged.
  Bytes bytes;
  bool encoded = false;
  bool noise = false;  // It crossed a failed lane: beyond any FEC (PHY-5.4).
  bool training = false;
  unsigned lane = 0;          // TRAINING flits: the physical lane of this copy.
  bool carries_slot = false;  // PhyTxFlit::carries_slot, for the far probe.
};

class CableIf : public virtual sc_core::sc_interface {
 public:
  // `flit` has fully arrived at the far PHY `delay` past the kernel's time.
  virtual void Carry(WireFlit flit, const sc_core::sc_time& delay) = 0;
  // From `delay` past the kernel's time the lanes in `failed` carry noise.
  virtual void FailedLanes(uint32_t failed, const sc_core::sc_time& delay) = 0;
};

using CableSocket = SocketPair<CableIf, CableIf>;

}  // namespace lq::phy
