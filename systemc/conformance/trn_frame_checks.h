// SPDX-License-Identifier: Apache-2.0
// Checks of the frames a transport engine sends (trn.md sections 1-4),
// made on the raw bytes, and the byte-level helpers the transport cases
// share to read and forge frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/common/bytes.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/frame_wire.h"

namespace lq::conformance {

// Offsets of TRN-1.1's layout.
inline constexpr size_t kIp = 14, kUdp = 34, kBth = 42, kExt = 54;

// Big-endian fields of a frame (TRN-2.9).
uint16_t Be16(const Bytes& bytes, size_t at);
uint32_t Be32(const Bytes& bytes, size_t at);
uint64_t Be64(const Bytes& bytes, size_t at);

// The RFC 791 checksum of the 20-byte IPv4 header at `at`, summed with its
// checksum field: 0xFFFF when the field is right.
uint16_t Ipv4Sum(const Bytes& bytes, size_t at);

// TRN-3.5: the ICRC the checks below compute reproduces the clause's worked
// example (0xF220AE5A); the checks of TRN-3.1 rest on it.
void CheckIcrcWorkedExample(Verdict& verdict);

// What the DUT's RETHs may carry: the partner's R_Key, and the address
// and length of one of the DUT's WRITEs or READs.
struct RethExpectation {
  uint32_t rkey = 0;
  std::vector<std::pair<uint64_t, uint32_t>> address_and_length;
};

// Checks one frame the DUT sent on connection `c` against sections 1 to 4,
// each check naming its clause. The checks read the raw bytes, so that
// each clause is judged even when the reference parser refuses the frame
// for another reason.
void CheckSentFrame(Verdict& verdict, const PortFrame& frame,
                    const Connection& c, const RethExpectation& reth);

}  // namespace lq::conformance
