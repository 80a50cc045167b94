// SPDX-License-Identifier: Apache-2.0
// Strict RoCEv2 frame parser: every length, checksum and header-chain rule
// of TRN-4.5, checked outside-in so that no read leaves the frame.
#include <string>

#include "models/roce/icrc.h"
#include "models/roce/opcode.h"
#include "models/roce/packet.h"

namespace lq::roce {
namespace {

constexpr size_t kIpOffset = EthernetHeader::kSize;
constexpr size_t kUdpOffset = kIpOffset + Ipv4Header::kSize;
constexpr size_t kBthOffset = kUdpOffset + UdpHeader::kSize;
constexpr size_t kExtOffset = kBthOffset + Bth::kSize;
constexpr size_t kEtherTypeOffset = 12;
constexpr size_t kIpProtocolOffset = kIpOffset + 9;
constexpr size_t kIpTotalLengthOffset = kIpOffset + 2;
constexpr size_t kUdpDstPortOffset = kUdpOffset + 2;
constexpr size_t kUdpLengthOffset = kUdpOffset + 4;
constexpr size_t kBthFlagsOffset = kBthOffset + 1;
constexpr size_t kPadAlignment = 4;

// An error found by a header parser, moved to frame coordinates.
Error At(size_t base, const Error& error) {
  return Error{error.reason, base + error.offset};
}

// Parses the extension header `T` at `*offset` if `bit` is in `headers`.
template <typename T>
Result<bool> ParseExtension(ByteView frame, uint8_t headers, HeaderBit bit,
                            size_t* offset, std::optional<T>* out) {
  if ((headers & bit) == 0) {
    return false;
  }
  Result<T> header = T::Parse(frame.Sub(*offset, frame.size() - *offset));
  if (!header) {
    return At(*offset, header.error());
  }
  *out = *header;
  *offset += T::kSize;
  return true;
}

}  // namespace

Result<RocePacket> ParsePacket(ByteView frame) {
  RocePacket packet;
  Result<EthernetHeader> eth = EthernetHeader::Parse(frame);
  if (!eth) {
    return eth.error();
  }
  if (eth->ether_type != kEtherTypeIpv4) {
    return Fail("EtherType is not IPv4", kEtherTypeOffset);
  }
  packet.eth = *eth;

  Result<Ipv4Header> ip =
      Ipv4Header::Parse(frame.Sub(kIpOffset, frame.size() - kIpOffset));
  if (!ip) {
    return At(kIpOffset, ip.error());
  }
  if (ip->protocol != kIpProtocolUdp) {
    return Fail("IP protocol is not UDP", kIpProtocolOffset);
  }
  if (ip->total_length != frame.size() - kIpOffset) {
    return Fail("IP total length does not match the frame",
                kIpTotalLengthOffset);
  }
  packet.ip = *ip;

  Result<UdpHeader> udp =
      UdpHeader::Parse(frame.Sub(kUdpOffset, frame.size() - kUdpOffset));
  if (!udp) {
    return At(kUdpOffset, udp.error());
  }
  if (udp->dst_port != kRoceUdpPort) {
    return Fail("UDP destination port is not 4791", kUdpDstPortOffset);
  }
  if (udp->length != frame.size() - kUdpOffset) {
    return Fail("UDP length does not match the IP total length",
                kUdpLengthOffset);
  }
  packet.udp = *udp;

  if (frame.size() < kExtOffset) {
    return Fail("truncated BTH", frame.size());
  }
  if (frame.size() < kExtOffset + kIcrcSize) {
    return Fail("truncated ICRC", frame.size());
  }
  const size_t icrc_offset = frame.size() - kIcrcSize;
  const uint32_t icrc = static_cast<uint32_t>(
      LoadLittleEndian(frame.data() + icrc_offset, kIcrcSize));
  if (icrc != *ComputeIcrc(frame.Sub(0, icrc_offset))) {
    return Fail("bad ICRC", icrc_offset);
  }

  packet.bth = *Bth::Parse(frame.Sub(kBthOffset, Bth::kSize));
  const OpcodeInfo* info = FindOpcode(packet.bth.opcode);
  if (info == nullptr) {
    return Fail("unknown " + DescribeOpcode(packet.bth.opcode), kBthOffset);
  }
  if (packet.bth.tver != 0) {
    return Fail("unsupported BTH transport version", kBthFlagsOffset);
  }
  // Error messages are built only on failure, off the fast path.
  const char* const name = info->name;
  const size_t ext_size = ExtensionHeadersSize(info->headers);
  if (icrc_offset < kExtOffset + ext_size) {
    return Fail(std::string("packet too short for the headers of ") + name,
                icrc_offset);
  }
  const size_t data_offset = kExtOffset + ext_size;
  const size_t data_size = icrc_offset - data_offset;
  if (!info->has_payload && data_size != 0) {
    return Fail(std::string("payload on ") + name + ", which carries none",
                data_offset);
  }
  if (!info->has_payload && packet.bth.pad_count != 0) {
    return Fail(
        std::string("pad count on ") + name + ", which carries no payload",
        kBthFlagsOffset);
  }
  if (data_size % kPadAlignment != 0) {
    return Fail("payload and pad not a multiple of 4 bytes", data_offset);
  }
  if (packet.bth.pad_count > data_size) {
    return Fail("pad count exceeds the payload", kBthFlagsOffset);
  }

  // The sizes were checked above, so only syndrome rules can fail here.
  const ByteView headers = frame.Sub(0, data_offset);
  size_t offset = kExtOffset;
  Result<bool> parsed = ParseExtension(headers, info->headers, kHeaderReth,
                                       &offset, &packet.reth);
  if (parsed) {
    parsed = ParseExtension(headers, info->headers, kHeaderAtomicEth, &offset,
                            &packet.atomic_eth);
  }
  if (parsed) {
    parsed = ParseExtension(headers, info->headers, kHeaderAeth, &offset,
                            &packet.aeth);
  }
  if (parsed) {
    parsed = ParseExtension(headers, info->headers, kHeaderAtomicAckEth,
                            &offset, &packet.atomic_ack_eth);
  }
  if (parsed) {
    parsed = ParseExtension(headers, info->headers, kHeaderImmDt, &offset,
                            &packet.imm_dt);
  }
  if (!parsed) {
    return parsed.error();
  }
  if (info->aeth_must_ack && packet.aeth->type() != AethType::kAck) {
    return Fail(std::string("AETH on ") + name + " is not an ACK", kExtOffset);
  }
  const size_t payload_size = data_size - packet.bth.pad_count;
  packet.payload.assign(frame.data() + data_offset,
                        frame.data() + data_offset + payload_size);
  return packet;
}

}  // namespace lq::roce
