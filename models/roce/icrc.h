// SPDX-License-Identifier: Apache-2.0
// The RoCEv2 invariant CRC (docs/spec/trn.md, TRN-3): CRC-32 seeded with
// eight 0xFF bytes over the IPv4, UDP and transport headers with their
// variant fields masked, then the payload and pad.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::roce {

inline constexpr size_t kIcrcSize = 4;
// Register of CRC-32/ISO-HDLC after eight 0xFF bytes from its initial value:
// the stand-in for the masked LRH that RoCEv2 packets lack (TRN-3.1).
inline constexpr uint32_t kIcrcSeed = 0xDEBB20E3;

// ICRC of `frame`, which runs from the first byte of the Ethernet header to
// the last pad byte (the ICRC itself excluded). Rejects a frame too short to
// hold Ethernet, IPv4 (20 bytes), UDP and BTH headers.
Result<uint32_t> ComputeIcrc(ByteView frame);

}  // namespace lq::roce
