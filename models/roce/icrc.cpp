// SPDX-License-Identifier: Apache-2.0
// ICRC computation through the shared CRC-32 engine's register-level API.
#include "models/roce/icrc.h"

#include <algorithm>
#include <array>

#include "models/crc/crc.h"
#include "models/roce/encap.h"
#include "models/roce/ib_headers.h"

namespace lq::roce {
namespace {

// Offsets inside the masked block (IPv4 + UDP + BTH) of the fields that
// routers may change in flight and that the ICRC therefore skips.
constexpr size_t kMaskedBlockSize =
    Ipv4Header::kSize + UdpHeader::kSize + Bth::kSize;
constexpr size_t kIpTosOffset = 1;
constexpr size_t kIpTtlOffset = 8;
constexpr size_t kIpChecksumOffset = 10;
constexpr size_t kUdpChecksumOffset = Ipv4Header::kSize + 6;
constexpr size_t kBthCongestionOffset =
    Ipv4Header::kSize + UdpHeader::kSize + 4;
constexpr uint8_t kMasked = 0xFF;

}  // namespace

Result<uint32_t> ComputeIcrc(ByteView frame) {
  if (frame.size() < EthernetHeader::kSize + kMaskedBlockSize) {
    return Fail("frame too short for an ICRC", frame.size());
  }
  std::array<uint8_t, kMaskedBlockSize> masked;
  std::copy_n(frame.data() + EthernetHeader::kSize, kMaskedBlockSize,
              masked.begin());
  for (size_t offset :
       {kIpTosOffset, kIpTtlOffset, kIpChecksumOffset, kIpChecksumOffset + 1,
        kUdpChecksumOffset, kUdpChecksumOffset + 1, kBthCongestionOffset}) {
    masked[offset] = kMasked;
  }
  const crc::CrcEngine& crc32 = crc::Crc32();
  const size_t rest = EthernetHeader::kSize + kMaskedBlockSize;
  uint64_t reg =
      crc32.Update(kIcrcSeed, ByteView(masked.data(), masked.size()));
  reg = crc32.Update(reg, frame.Sub(rest, frame.size() - rest));
  return static_cast<uint32_t>(crc32.Finish(reg));
}

}  // namespace lq::roce
