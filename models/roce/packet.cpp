// SPDX-License-Identifier: Apache-2.0
// Packet assembly: validates a RocePacket against the opcode table and
// encodes it with lengths, pad, IPv4 checksum and ICRC.
#include "models/roce/packet.h"

#include <algorithm>
#include <string>

#include "models/roce/icrc.h"
#include "models/roce/opcode.h"
#include "models/roce/psn.h"

namespace lq::roce {
namespace {

constexpr size_t kPadAlignment = 4;
constexpr size_t kMaxIpTotalLength = 0xFFFF;

// Why `packet` cannot be encoded, or an empty string when it can.
std::string Validate(const RocePacket& packet, const OpcodeInfo* info) {
  if (info == nullptr) {
    return "unknown " + DescribeOpcode(packet.bth.opcode);
  }
  const char* const name = info->name;
  if (packet.HeaderBits() != (info->headers & ~kHeaderCnpReserved)) {
    return std::string("extension headers do not match opcode ") + name;
  }
  if (!info->has_payload && !packet.payload.empty()) {
    return std::string("payload on opcode ") + name + ", which carries none";
  }
  if (info->aeth_must_ack && packet.aeth->type() != AethType::kAck) {
    return std::string("AETH on ") + name + " is not an ACK";
  }
  if (packet.aeth && (packet.aeth->reserved() || packet.aeth->msn > kMsnMask)) {
    return "AETH syndrome reserved or MSN beyond 24 bits";
  }
  if (packet.eth.ether_type != kEtherTypeIpv4 ||
      packet.ip.protocol != kIpProtocolUdp ||
      packet.udp.dst_port != kRoceUdpPort) {
    return "not an Ethernet/IPv4/UDP-4791 encapsulation";
  }
  if (packet.ip.dscp > kDscpMax || packet.bth.tver != 0 ||
      packet.bth.dest_qp > kQpnMask || packet.bth.psn > kPsnMask) {
    return "DSCP, TVer, DestQP or PSN out of range";
  }
  return {};
}

size_t PadOf(size_t payload) {
  return (kPadAlignment - payload % kPadAlignment) % kPadAlignment;
}

size_t UdpLength(const OpcodeInfo& info, size_t payload) {
  return UdpHeader::kSize + Bth::kSize + ExtensionHeadersSize(info.headers) +
         payload + PadOf(payload) + kIcrcSize;
}

}  // namespace

uint8_t RocePacket::HeaderBits() const {
  return static_cast<uint8_t>(
      (reth ? kHeaderReth : 0) | (atomic_eth ? kHeaderAtomicEth : 0) |
      (aeth ? kHeaderAeth : 0) | (atomic_ack_eth ? kHeaderAtomicAckEth : 0) |
      (imm_dt ? kHeaderImmDt : 0));
}

bool RocePacket::operator==(const RocePacket& other) const {
  return eth == other.eth && ip == other.ip && udp == other.udp &&
         bth == other.bth && reth == other.reth &&
         atomic_eth == other.atomic_eth && aeth == other.aeth &&
         atomic_ack_eth == other.atomic_ack_eth && imm_dt == other.imm_dt &&
         payload == other.payload;
}

size_t FrameSize(Opcode opcode, size_t payload) {
  const OpcodeInfo* info = FindOpcode(static_cast<uint8_t>(opcode));
  return EthernetHeader::kSize + Ipv4Header::kSize + UdpLength(*info, payload);
}

Result<Bytes> BuildPacket(const RocePacket& packet) {
  const OpcodeInfo* info = FindOpcode(packet.bth.opcode);
  const std::string problem = Validate(packet, info);
  if (!problem.empty()) {
    return Fail(problem);
  }
  const size_t pad = PadOf(packet.payload.size());
  const size_t udp_length = UdpLength(*info, packet.payload.size());
  const size_t total_length = Ipv4Header::kSize + udp_length;
  if (total_length > kMaxIpTotalLength) {
    return Fail("packet too long for IPv4");
  }

  Bytes frame(EthernetHeader::kSize + total_length, 0);
  uint8_t* out = frame.data();
  packet.eth.Encode(out);
  out += EthernetHeader::kSize;
  Ipv4Header ip = packet.ip;
  ip.total_length = static_cast<uint16_t>(total_length);
  ip.Encode(out);
  out += Ipv4Header::kSize;
  UdpHeader udp = packet.udp;
  udp.length = static_cast<uint16_t>(udp_length);
  udp.Encode(out);
  out += UdpHeader::kSize;
  Bth bth = packet.bth;
  bth.pad_count = static_cast<uint8_t>(pad);
  bth.Encode(out);
  out += Bth::kSize;
  // Extension headers in IBA order (TRN-4.2); the CNP's reserved bytes
  // stay zero.
  if (packet.reth) {
    packet.reth->Encode(out);
    out += Reth::kSize;
  }
  if (packet.atomic_eth) {
    packet.atomic_eth->Encode(out);
    out += AtomicEth::kSize;
  }
  if (packet.aeth) {
    packet.aeth->Encode(out);
    out += Aeth::kSize;
  }
  if (packet.atomic_ack_eth) {
    packet.atomic_ack_eth->Encode(out);
    out += AtomicAckEth::kSize;
  }
  if (packet.imm_dt) {
    packet.imm_dt->Encode(out);
    out += ImmDt::kSize;
  }
  std::copy(packet.payload.begin(), packet.payload.end(), out);

  const size_t icrc_offset = frame.size() - kIcrcSize;
  const Result<uint32_t> icrc =
      ComputeIcrc(ByteView(frame.data(), icrc_offset));
  StoreLittleEndian(frame.data() + icrc_offset, kIcrcSize, *icrc);
  return frame;
}

}  // namespace lq::roce
