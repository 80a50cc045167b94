// SPDX-License-Identifier: Apache-2.0
// A whole RoCEv2 packet (Ethernet/IPv4/UDP/BTH/extension headers/payload/
// ICRC) with its builder and strict parser (docs/spec/trn.md, TRN-4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/roce/encap.h"
#include "models/roce/ib_headers.h"
#include "models/roce/opcode.h"

namespace lq::roce {

// The headers and payload of one packet. The length fields (ip.total_length,
// udp.length, bth.pad_count) are outputs: BuildPacket computes them and
// ParsePacket fills them from the wire.
struct RocePacket {
  EthernetHeader eth;
  Ipv4Header ip;
  UdpHeader udp;
  Bth bth;
  std::optional<Reth> reth;
  std::optional<AtomicEth> atomic_eth;
  std::optional<Aeth> aeth;
  std::optional<AtomicAckEth> atomic_ack_eth;
  std::optional<ImmDt> imm_dt;
  Bytes payload;  // Without pad.

  // HeaderBit set of the optional extension headers present (the CNP's
  // reserved bytes are implied by its opcode and not counted).
  uint8_t HeaderBits() const;
  bool operator==(const RocePacket& other) const;
};

// Encodes `packet` into an Ethernet frame without FCS: computes the length
// fields, the IPv4 checksum, the pad and the ICRC. Rejects a packet that
// ParsePacket would reject (unknown opcode, extension headers or payload
// not as the opcode table says, fields out of range, too long for IPv4).
Result<Bytes> BuildPacket(const RocePacket& packet);

// The size of the frame BuildPacket makes for a packet of `opcode` (one the
// opcode table defines) with `payload` bytes: headers, pad and ICRC.
size_t FrameSize(Opcode opcode, size_t payload);

// Parses an Ethernet frame without FCS. Rejects, with a reason and the
// offset of the offending byte, every frame that breaks a TRN-4 parsing
// rule; never reads outside `frame`.
Result<RocePacket> ParsePacket(ByteView frame);

}  // namespace lq::roce
