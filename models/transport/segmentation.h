// SPDX-License-Identifier: Apache-2.0
// Segmentation of a message into packets (TRN-6.2) and the AckReq rule
// (TRN-6.7).
#pragma once

#include <cstdint>

#include "models/roce/opcode.h"
#include "models/transport/work_request.h"

namespace lq::transport {

// n = max(1, ceil(length / pmtu)).
uint32_t PacketCount(uint32_t length, uint32_t pmtu);

// The opcode of packet `index` (0-based) of `count` packets of a SEND or
// WRITE, with or without immediate data.
roce::Opcode SegmentOpcode(SendKind kind, bool immediate, uint32_t index,
                           uint32_t count);

// The opcode of READ response `index` of `count` (TRN-6.2).
roce::Opcode ReadResponseOpcode(uint32_t index, uint32_t count);

// PSNs a work request takes (TRN-6.4): a packet's each for SEND and WRITE,
// one per response packet for READ, one for an atomic.
uint32_t PsnCount(SendKind kind, uint32_t length, uint32_t pmtu);

// Payload bytes of packet `index`: PMTU for FIRST and MIDDLE, the rest for
// LAST and ONLY.
uint32_t SegmentLength(uint32_t length, uint32_t pmtu, uint32_t index,
                       uint32_t count);

// TRN-6.7: AckReq on the last packet of a message, and on packet k
// (1-based) when k is a multiple of `every`.
bool SegmentAckReq(uint32_t index, uint32_t count, uint32_t every);

}  // namespace lq::transport
