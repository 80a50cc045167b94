// SPDX-License-Identifier: Apache-2.0
// ECN marking and TTL decrement on raw frames, with RFC 1624 checksum update.
#include "models/roce/frame_edits.h"

namespace lq::roce {
namespace {

constexpr size_t kIpOffset = EthernetHeader::kSize;
constexpr size_t kEtherTypeOffset = 12;
constexpr size_t kIpVersionIhlOffset = kIpOffset;
constexpr size_t kIpTosOffset = kIpOffset + 1;
constexpr size_t kIpTtlOffset = kIpOffset + 8;
constexpr size_t kIpChecksumOffset = kIpOffset + 10;
constexpr uint8_t kIpv4NoOptions = 0x45;
constexpr uint8_t kEcnMask = 0x03;
constexpr size_t kU16 = sizeof(uint16_t);
constexpr uint32_t kU16Mask = 0xFFFF;

// Ones-complement sum of two 16-bit values.
uint32_t OnesAdd(uint32_t a, uint32_t b) {
  const uint32_t sum = a + b;
  return (sum & kU16Mask) + (sum >> 16);
}

// Changes the IPv4 header byte at `offset` to `value` and updates the header
// checksum by RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), with m the 16-bit
// word holding the byte.
void RewriteHeaderByte(uint8_t* frame, size_t offset, uint8_t value) {
  uint8_t* word = frame + kIpOffset + ((offset - kIpOffset) & ~size_t{1});
  const auto old_word = static_cast<uint32_t>(LoadBigEndian(word, kU16));
  frame[offset] = value;
  const auto new_word = static_cast<uint32_t>(LoadBigEndian(word, kU16));
  uint8_t* checksum = frame + kIpChecksumOffset;
  const auto old_checksum =
      static_cast<uint32_t>(LoadBigEndian(checksum, kU16));
  uint32_t sum = OnesAdd(~old_checksum & kU16Mask, ~old_word & kU16Mask);
  sum = OnesAdd(sum, new_word);
  StoreBigEndian(checksum, kU16, ~sum & kU16Mask);
}

}  // namespace

bool IsIpv4Frame(ByteView frame) {
  return frame.size() >= kIpOffset + Ipv4Header::kSize &&
         LoadBigEndian(frame.data() + kEtherTypeOffset, kU16) ==
             kEtherTypeIpv4 &&
         frame[kIpVersionIhlOffset] == kIpv4NoOptions;
}

Result<Ecn> ReadEcn(ByteView frame) {
  if (frame.size() < kIpOffset + Ipv4Header::kSize) {
    return Fail("frame too short for an IPv4 header", frame.size());
  }
  if (!IsIpv4Frame(frame)) {
    return Fail("not an IPv4 frame without options", kEtherTypeOffset);
  }
  return static_cast<Ecn>(frame[kIpTosOffset] & kEcnMask);
}

Result<Ecn> MarkCongestionExperienced(Bytes& frame) {
  const Result<Ecn> before = ReadEcn(frame);
  if (!before || *before == Ecn::kNotEct || *before == Ecn::kCe) {
    return before;
  }
  RewriteHeaderByte(frame.data(), kIpTosOffset,
                    static_cast<uint8_t>(frame[kIpTosOffset] |
                                         static_cast<uint8_t>(Ecn::kCe)));
  return before;
}

Result<uint8_t> DecrementTtl(Bytes& frame) {
  return DecrementTtl(frame.data(), frame.size());
}

Result<uint8_t> DecrementTtl(uint8_t* frame, size_t size) {
  // Checks the frame is IPv4.
  const Result<Ecn> ipv4 = ReadEcn(ByteView(frame, size));
  if (!ipv4) {
    return ipv4.error();
  }
  if (frame[kIpTtlOffset] == 0) {
    return Fail("IPv4 TTL expired", kIpTtlOffset);
  }
  const auto ttl = static_cast<uint8_t>(frame[kIpTtlOffset] - 1);
  RewriteHeaderByte(frame, kIpTtlOffset, ttl);
  return ttl;
}

}  // namespace lq::roce
