// SPDX-License-Identifier: Apache-2.0
// Fuzz target for the RoCEv2 parser: any input is parsed without crashing,
// and whatever parses must rebuild into a frame that parses back equal.
// Each input is tried twice: as given, and "resealed" (lengths, IPv4
// checksum and ICRC made consistent), so that mutations reach the rules
// behind the checksums instead of dying at the ICRC.
#include <cstddef>
#include <cstdint>
#include <limits>

#include "models/roce/icrc.h"
#include "models/roce/packet.h"

namespace {

constexpr size_t kIp = lq::roce::EthernetHeader::kSize;
constexpr size_t kUdp = kIp + lq::roce::Ipv4Header::kSize;
constexpr size_t kMinFrame = kUdp + lq::roce::UdpHeader::kSize +
                             lq::roce::Bth::kSize + lq::roce::kIcrcSize;
constexpr size_t kMaxFrame = kIp + std::numeric_limits<uint16_t>::max();
constexpr size_t kIpTotalLengthOffset = kIp + 2;
constexpr size_t kIpChecksumOffset = kIp + 10;
constexpr size_t kUdpLengthOffset = kUdp + 4;
constexpr size_t kU16 = sizeof(uint16_t);

void CheckRoundTrip(lq::ByteView frame) {
  const lq::Result<lq::roce::RocePacket> parsed = lq::roce::ParsePacket(frame);
  if (!parsed) {
    return;
  }
  const lq::Result<lq::Bytes> rebuilt = lq::roce::BuildPacket(*parsed);
  if (!rebuilt) {
    __builtin_trap();  // The builder refused a packet the parser accepted.
  }
  const lq::Result<lq::roce::RocePacket> reparsed =
      lq::roce::ParsePacket(*rebuilt);
  if (!reparsed || !(*reparsed == *parsed)) {
    __builtin_trap();  // parse(build(parse(x))) != parse(x).
  }
}

void Reseal(lq::Bytes& frame) {
  lq::StoreBigEndian(&frame[kIpTotalLengthOffset], kU16, frame.size() - kIp);
  lq::StoreBigEndian(&frame[kUdpLengthOffset], kU16, frame.size() - kUdp);
  lq::StoreBigEndian(&frame[kIpChecksumOffset], kU16,
                     lq::roce::Ipv4Checksum(lq::ByteView(
                         frame.data() + kIp, lq::roce::Ipv4Header::kSize)));
  const size_t icrc_at = frame.size() - lq::roce::kIcrcSize;
  lq::StoreLittleEndian(
      &frame[icrc_at], lq::roce::kIcrcSize,
      *lq::roce::ComputeIcrc(lq::ByteView(frame.data(), icrc_at)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CheckRoundTrip(lq::ByteView(data, size));
  if (size >= kMinFrame && size <= kMaxFrame) {
    lq::Bytes resealed(data, data + size);
    Reseal(resealed);
    CheckRoundTrip(resealed);
  }
  return 0;
}
