// SPDX-License-Identifier: Apache-2.0
// Filled-in packets for one connection: the headers TRN-1 prescribes for a
// given opcode, and the ACK/NAK and CNP control packets (TRN-7, TRN-9).
#pragma once

#include <cstdint>

#include "models/roce/addressing.h"
#include "models/roce/ib_headers.h"
#include "models/roce/opcode.h"
#include "models/roce/packet.h"

namespace lq::roce {

// One direction of an RC connection: packets travel from the local QP to
// the remote one.
struct Path {
  uint32_t local_node = 0;
  uint32_t remote_node = 0;
  uint32_t local_qpn = 0;
  uint32_t remote_qpn = 0;
  uint16_t pkey = kDefaultPkey;
  uint8_t dscp = kDscpData;
};

// A packet of `opcode` on `path` with every header TRN-1 and TRN-2 fix
// filled in and the opcode's extension headers present but zero; the caller
// sets their fields, AckReq and the payload.
RocePacket NewPacket(const Path& path, Opcode opcode, uint32_t psn);

// An ACKNOWLEDGE carrying `aeth`: an ACK, an RNR NAK or a NAK (TRN-7.1).
RocePacket MakeAcknowledge(const Path& path, uint32_t psn, const Aeth& aeth);

// A CNP telling the remote QP (the congested flow's sender) to slow down
// (TRN-9.4).
RocePacket MakeCnp(const Path& path);

}  // namespace lq::roce
