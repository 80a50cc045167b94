// SPDX-License-Identifier: Apache-2.0
// Byte layouts of the Ethernet II, IPv4 and UDP headers (TRN-1 tables).
#include "models/roce/encap.h"

#include <algorithm>

namespace lq::roce {
namespace {

constexpr size_t kU16 = sizeof(uint16_t);
constexpr size_t kU32 = sizeof(uint32_t);

uint16_t Load16(const uint8_t* p) {
  return static_cast<uint16_t>(LoadBigEndian(p, kU16));
}

uint32_t Load32(const uint8_t* p) {
  return static_cast<uint32_t>(LoadBigEndian(p, kU32));
}

constexpr size_t kEthDstOffset = 0;
constexpr size_t kEthSrcOffset = 6;
constexpr size_t kEthTypeOffset = 12;

constexpr size_t kIpVersionIhlOffset = 0;
constexpr size_t kIpTosOffset = 1;
constexpr size_t kIpTotalLengthOffset = 2;
constexpr size_t kIpIdentificationOffset = 4;
constexpr size_t kIpFlagsOffset = 6;
constexpr size_t kIpTtlOffset = 8;
constexpr size_t kIpProtocolOffset = 9;
constexpr size_t kIpChecksumOffset = 10;
constexpr size_t kIpSrcOffset = 12;
constexpr size_t kIpDstOffset = 16;
constexpr uint8_t kIpIhlNoOptions = 5;
constexpr uint16_t kIpFlagDontFragment = 0x4000;
// Reserved flag, More Fragments and the 13-bit fragment offset.
constexpr uint16_t kIpFragmentBits = 0xBFFF;
constexpr unsigned kEcnBits = 2;
constexpr uint8_t kEcnMask = 0x03;

constexpr size_t kUdpSrcOffset = 0;
constexpr size_t kUdpDstOffset = 2;
constexpr size_t kUdpLengthOffset = 4;
constexpr size_t kUdpChecksumOffset = 6;

}  // namespace

void EthernetHeader::Encode(uint8_t* out) const {
  std::copy(dst.begin(), dst.end(), out + kEthDstOffset);
  std::copy(src.begin(), src.end(), out + kEthSrcOffset);
  StoreBigEndian(out + kEthTypeOffset, kU16, ether_type);
}

Result<EthernetHeader> EthernetHeader::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated Ethernet header", bytes.size());
  }
  EthernetHeader header;
  std::copy_n(bytes.data() + kEthDstOffset, header.dst.size(),
              header.dst.begin());
  std::copy_n(bytes.data() + kEthSrcOffset, header.src.size(),
              header.src.begin());
  header.ether_type = Load16(bytes.data() + kEthTypeOffset);
  return header;
}

bool EthernetHeader::operator==(const EthernetHeader& other) const {
  return dst == other.dst && src == other.src && ether_type == other.ether_type;
}

uint16_t Ipv4Checksum(ByteView header) {
  uint32_t sum = 0;
  for (size_t i = 0; i < Ipv4Header::kSize; i += 2) {
    if (i != kIpChecksumOffset) {
      sum += static_cast<uint32_t>(Load16(header.data() + i));
    }
  }
  while (sum > 0xFFFF) {
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  return static_cast<uint16_t>(~sum);
}

void Ipv4Header::Encode(uint8_t* out) const {
  out[kIpVersionIhlOffset] =
      static_cast<uint8_t>((kIpVersion4 << 4) | kIpIhlNoOptions);
  out[kIpTosOffset] =
      static_cast<uint8_t>((dscp << kEcnBits) | static_cast<uint8_t>(ecn));
  StoreBigEndian(out + kIpTotalLengthOffset, kU16, total_length);
  StoreBigEndian(out + kIpIdentificationOffset, kU16, identification);
  StoreBigEndian(out + kIpFlagsOffset, 2,
                 dont_fragment ? kIpFlagDontFragment : 0);
  out[kIpTtlOffset] = ttl;
  out[kIpProtocolOffset] = protocol;
  StoreBigEndian(out + kIpSrcOffset, kU32, src);
  StoreBigEndian(out + kIpDstOffset, kU32, dst);
  StoreBigEndian(out + kIpChecksumOffset, kU16,
                 Ipv4Checksum(ByteView(out, kSize)));
}

Result<Ipv4Header> Ipv4Header::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated IPv4 header", bytes.size());
  }
  const uint8_t* p = bytes.data();
  if ((p[kIpVersionIhlOffset] >> 4) != kIpVersion4) {
    return Fail("IP version is not 4", kIpVersionIhlOffset);
  }
  if ((p[kIpVersionIhlOffset] & 0x0F) != kIpIhlNoOptions) {
    return Fail("IPv4 header length is not 5 words (options)",
                kIpVersionIhlOffset);
  }
  const auto flags = Load16(p + kIpFlagsOffset);
  if ((flags & kIpFragmentBits) != 0) {
    return Fail("IPv4 fragment or reserved flag set", kIpFlagsOffset);
  }
  if (Load16(p + kIpChecksumOffset) != Ipv4Checksum(bytes)) {
    return Fail("bad IPv4 header checksum", kIpChecksumOffset);
  }
  Ipv4Header header;
  header.dscp = static_cast<uint8_t>(p[kIpTosOffset] >> kEcnBits);
  header.ecn = static_cast<Ecn>(p[kIpTosOffset] & kEcnMask);
  header.total_length = Load16(p + kIpTotalLengthOffset);
  header.identification = Load16(p + kIpIdentificationOffset);
  header.dont_fragment = (flags & kIpFlagDontFragment) != 0;
  header.ttl = p[kIpTtlOffset];
  header.protocol = p[kIpProtocolOffset];
  header.src = Load32(p + kIpSrcOffset);
  header.dst = Load32(p + kIpDstOffset);
  return header;
}

bool Ipv4Header::operator==(const Ipv4Header& other) const {
  return dscp == other.dscp && ecn == other.ecn &&
         total_length == other.total_length &&
         identification == other.identification &&
         dont_fragment == other.dont_fragment && ttl == other.ttl &&
         protocol == other.protocol && src == other.src && dst == other.dst;
}

void UdpHeader::Encode(uint8_t* out) const {
  StoreBigEndian(out + kUdpSrcOffset, kU16, src_port);
  StoreBigEndian(out + kUdpDstOffset, kU16, dst_port);
  StoreBigEndian(out + kUdpLengthOffset, kU16, length);
  StoreBigEndian(out + kUdpChecksumOffset, kU16, 0);
}

Result<UdpHeader> UdpHeader::Parse(ByteView bytes) {
  if (bytes.size() < kSize) {
    return Fail("truncated UDP header", bytes.size());
  }
  UdpHeader header;
  header.src_port = Load16(bytes.data() + kUdpSrcOffset);
  header.dst_port = Load16(bytes.data() + kUdpDstOffset);
  header.length = Load16(bytes.data() + kUdpLengthOffset);
  return header;
}

bool UdpHeader::operator==(const UdpHeader& other) const {
  return src_port == other.src_port && dst_port == other.dst_port &&
         length == other.length;
}

}  // namespace lq::roce
