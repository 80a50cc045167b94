// SPDX-License-Identifier: Apache-2.0
// The only edits a router makes to a transport frame in flight (TRN-1.7):
// reading and marking its ECN field (TRN-9) and decrementing its IPv4 TTL
// (NET-2.4), each with an incremental checksum update.
#pragma once

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/roce/encap.h"

namespace lq::roce {

// Whether `frame` is an Ethernet/IPv4 frame without IP options: the only
// kind these edits read or change.
bool IsIpv4Frame(ByteView frame);

// The ECN codepoint of an Ethernet/IPv4 frame.
Result<Ecn> ReadEcn(ByteView frame);

// Sets CE on an ECN-capable frame (ECT(0) or ECT(1)) and updates the IPv4
// checksum incrementally (RFC 1624), so that a header corrupted upstream
// stays detectably corrupt. A Not-ECT or CE frame is left unchanged. The
// ICRC needs no update: it masks the TOS byte (TRN-3.2). Returns the
// codepoint the frame carried before.
Result<Ecn> MarkCongestionExperienced(Bytes& frame);

// Decrements the IPv4 TTL of a frame being forwarded and updates the IPv4
// checksum incrementally (RFC 1624), as CE marking does. Fails, leaving the
// frame unchanged, on a frame that is not IPv4 or whose TTL is already 0
// (such a packet is dropped, NET-2.4). Returns the new TTL.
Result<uint8_t> DecrementTtl(Bytes& frame);
// The same on the `size` bytes of a frame at `frame`, in place: what a
// router does inside the slot that carries the frame's headers.
Result<uint8_t> DecrementTtl(uint8_t* frame, size_t size);

}  // namespace lq::roce
