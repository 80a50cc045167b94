// SPDX-License-Identifier: Apache-2.0
// The flit protocol between a link controller and its PHY, and between the
// two PHYs of a cable: owned messages with a delay, no pointers between
// models (DESIGN §4). A controller of either fidelity (RTL or TL) binds its
// PhyInitiatorSocket to a PhyPort's PhyTargetSocket with Connect().
#pragma once

#include <cstdint>
#include <systemc>

#include "models/common/bytes.h"
#include "systemc/common/socket_pair.h"

namespace lq::phy {

// One flit as a link controller hands it to its transmitter: the content
// (payload slot, DLP, flit CRC; the PHY adds the FEC).
struct PhyTxFlit {
  Bytes content;
  unsigned width = 0;         // Lanes the link trained to; 0 while untrained.
  uint8_t corrupt_bytes = 0;  // ERR_INJECT.CORRUPT: bytes to damage after FEC.
  // Stands for the NOP stream of an idle link, which a TL controller does not
  // send flit by flit: the BER process skips it (decision 0006).
  bool idle_fill = false;
  bool carries_slot = false;  // A payload flit: a PathProbe follows it.
};

// One flit as a receiver hands it to its link controller.
struct PhyRxFlit {
  Bytes content;               // Corrected content (meaningless when bad).
  bool bad = false;            // The FEC could not correct it (PHY-3.6).
  bool fec_corrected = false;  // The FEC corrected at least one symbol.
  unsigned lane = 0;           // TRAINING flits: the lane it came on.
};

// What a receiver reports of its lanes (PHY-5.4, DLL-6.4).
struct LaneStatus {
  uint32_t receivers = 0;  // Lanes that see a working far transmitter.
  uint32_t lock_lost = 0;  // Lanes that lost lock since the last report.
};

// The PHY's service to its link controller.
class PhyTxIf : public virtual sc_core::sc_interface {
 public:
  // Takes `flit` at `offset` past the kernel's current time. Returns how long
  // after `offset` the transmitter takes the next flit; offering one sooner
  // is a protocol error.
  virtual sc_core::sc_time Transmit(PhyTxFlit flit,
                                    const sc_core::sc_time& offset) = 0;
  // The least time from Transmit() to the far controller's Receive(): how far
  // ahead of the kernel a controller may run without missing a flit.
  virtual sc_core::sc_time Lookahead() const = 0;
};

// The link controller's side, called by its PHY.
class PhyRxIf : public virtual sc_core::sc_interface {
 public:
  // `flit` reaches the controller `delay` past the kernel's current time.
  virtual void Receive(PhyRxFlit flit, const sc_core::sc_time& delay) = 0;
  virtual void UpdateLanes(LaneStatus status,
                           const sc_core::sc_time& delay) = 0;
};

// A link controller's end of the protocol, and a PHY's; Connect() joins them.
using PhyInitiatorSocket = SocketPair<PhyTxIf, PhyRxIf>;
using PhyTargetSocket = SocketPair<PhyRxIf, PhyTxIf>;

}  // namespace lq::phy
