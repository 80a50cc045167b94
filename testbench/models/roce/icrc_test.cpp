// SPDX-License-Identifier: Apache-2.0
// Tests of the RoCEv2 ICRC: the published seed, protocol-facts §7's vector
// and an independent cross-check against zlib's CRC-32.
#include "models/roce/icrc.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <array>

#include "models/crc/crc.h"
#include "models/roce/frame_edits.h"
#include "models/roce/packet.h"
#include "models/roce/sample_packets.h"

namespace lq::roce {
namespace {

// The ICRC as "standard CRC-32 over 0xFF x 8 || masked headers || payload",
// computed with zlib: an implementation independent of lq::crc.
uint32_t ZlibIcrc(ByteView frame) {
  Bytes input(8, 0xFF);
  input.insert(input.end(), frame.begin() + 14, frame.end());
  const size_t ip = 8;
  input[ip + 1] = 0xFF;                            // TOS
  input[ip + 8] = 0xFF;                            // TTL
  input[ip + 10] = input[ip + 11] = 0xFF;          // IPv4 checksum
  input[ip + 20 + 6] = input[ip + 20 + 7] = 0xFF;  // UDP checksum
  input[ip + 28 + 4] = 0xFF;                       // BTH FECN/BECN/resv
  return static_cast<uint32_t>(
      crc32(0, input.data(), static_cast<uInt>(input.size())));
}

TEST(Icrc, TRN_3_1_SeedIsRegisterAfterEightOnes) {
  const crc::CrcEngine& crc32_engine = crc::Crc32();
  const std::array<uint8_t, 8> ones{0xFF, 0xFF, 0xFF, 0xFF,
                                    0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(crc32_engine.Update(crc32_engine.Begin(),
                                ByteView(ones.data(), ones.size())),
            kIcrcSeed)
      << "seed must be the CRC-32 register after 8 x 0xFF (0xDEBB20E3)";
}

TEST(Icrc, TRN_3_5_ProtocolFactsVector) {
  const Bytes frame = testing::IcrcExampleFrame();
  Result<uint32_t> icrc = ComputeIcrc(frame);
  ASSERT_TRUE(icrc.ok()) << icrc.error().reason;
  EXPECT_EQ(*icrc, 0xF220AE5Au) << "ICRC of the protocol-facts §7 example";
  EXPECT_EQ(*icrc, ZlibIcrc(frame)) << "must equal zlib's CRC-32 formulation";
}

TEST(Icrc, TRN_3_3_WireBytesAreLittleEndian) {
  Bytes frame = testing::IcrcExampleFrame();
  const Bytes wire_icrc = {0x5a, 0xae, 0x20, 0xf2};
  frame.insert(frame.end(), wire_icrc.begin(), wire_icrc.end());
  Result<RocePacket> parsed = ParsePacket(frame);
  ASSERT_TRUE(parsed.ok()) << "the §7 frame with ICRC 5a ae 20 f2 appended "
                              "must parse: "
                           << parsed.error().reason;
  Result<Bytes> rebuilt = BuildPacket(*parsed);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().reason;
  EXPECT_EQ(*rebuilt, frame)
      << "the codec must reproduce the vector frame, ICRC trailer included";
}

TEST(Icrc, TRN_3_5_MatchesZlibForEveryOpcode) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    for (size_t payload : {0, 1, 3, 64, 4096}) {
      const Bytes frame =
          *BuildPacket(testing::SamplePacket(info.opcode, payload));
      const ByteView covered(frame.data(), frame.size() - kIcrcSize);
      EXPECT_EQ(*ComputeIcrc(covered), ZlibIcrc(covered))
          << info.name << " with " << payload << " payload bytes";
    }
  }
}

TEST(Icrc, TRN_3_2_MaskedFieldsDoNotChangeIcrc) {
  const Bytes frame = testing::IcrcExampleFrame();
  const uint32_t reference = *ComputeIcrc(frame);
  for (size_t offset :
       {14 + 1, 14 + 8, 14 + 10, 14 + 11, 34 + 6, 34 + 7, 42 + 4}) {
    Bytes changed = frame;
    changed[offset] ^= 0x5A;
    EXPECT_EQ(*ComputeIcrc(changed), reference)
        << "byte " << offset << " is masked and must not affect the ICRC";
  }
  for (size_t offset : {14 + 0, 14 + 2, 14 + 9, 14 + 12, 34 + 0, 34 + 2, 42 + 0,
                        42 + 5, 42 + 8, 54}) {
    Bytes changed = frame;
    changed[offset] ^= 0x01;
    EXPECT_NE(*ComputeIcrc(changed), reference)
        << "byte " << offset << " is covered by the ICRC";
  }
}

TEST(Icrc, TRN_9_2_EcnMarkingKeepsIcrcValid) {
  Bytes frame = *BuildPacket(testing::SamplePacket(Opcode::kWriteOnly, 100));
  ASSERT_EQ(*MarkCongestionExperienced(frame), Ecn::kEct0) << "was ECT(0)";
  Result<RocePacket> parsed = ParsePacket(frame);
  ASSERT_TRUE(parsed.ok()) << "a CE-marked packet must still parse: "
                           << parsed.error().reason;
  EXPECT_EQ(parsed->ip.ecn, Ecn::kCe) << "mark visible to the receiver";
}

TEST(Icrc, TRN_3_1_RejectsFrameWithoutTransportHeaders) {
  const Bytes frame = testing::IcrcExampleFrame();
  EXPECT_FALSE(ComputeIcrc(ByteView(frame.data(), 14 + 20 + 8 + 11)).ok())
      << "no ICRC without a whole BTH";
}

}  // namespace
}  // namespace lq::roce
