// SPDX-License-Identifier: Apache-2.0
// Tests of the router edits of frames in flight: CE marking, TTL decrement.
#include "models/roce/frame_edits.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/roce/packet.h"
#include "models/roce/sample_packets.h"

namespace lq::roce {
namespace {

using testing::SamplePacket;

TEST(Ecn, TRN_9_2_MarksEctAndKeepsChecksumValid) {
  for (Ecn start : {Ecn::kEct0, Ecn::kEct1}) {
    for (uint8_t dscp : {0, 26, 63}) {
      RocePacket packet = SamplePacket(Opcode::kWriteMiddle, 64);
      packet.ip.ecn = start;
      packet.ip.dscp = dscp;
      Bytes frame = *BuildPacket(packet);
      const Bytes original = frame;
      ASSERT_EQ(*MarkCongestionExperienced(frame), start) << "prior codepoint";
      EXPECT_EQ(*ReadEcn(frame), Ecn::kCe) << "frame now carries CE";
      Result<RocePacket> parsed = ParsePacket(frame);
      ASSERT_TRUE(parsed.ok()) << "IPv4 checksum and ICRC must stay valid: "
                               << parsed.error().reason;
      EXPECT_EQ(parsed->ip.dscp, dscp) << "DSCP untouched";
      EXPECT_TRUE(std::equal(frame.end() - 4, frame.end(), original.end() - 4))
          << "the ICRC is not rewritten: it masks the TOS byte";
    }
  }
}

TEST(Ecn, TRN_9_1_NotEctAndCeFramesAreLeftAlone) {
  Bytes ack = *BuildPacket(SamplePacket(Opcode::kAcknowledge));
  const Bytes original = ack;
  EXPECT_EQ(*MarkCongestionExperienced(ack), Ecn::kNotEct) << "Not-ECT";
  EXPECT_EQ(ack, original) << "a Not-ECT frame must never be marked";
  Bytes data = *BuildPacket(SamplePacket(Opcode::kSendOnly));
  ASSERT_EQ(*MarkCongestionExperienced(data), Ecn::kEct0) << "first mark";
  const Bytes marked = data;
  EXPECT_EQ(*MarkCongestionExperienced(data), Ecn::kCe) << "already CE";
  EXPECT_EQ(data, marked) << "marking twice changes nothing";
}

TEST(Ecn, TRN_9_2_CorruptHeaderStaysDetectable) {
  Bytes frame = *BuildPacket(SamplePacket(Opcode::kSendOnly));
  frame[14 + 8] ^= 0x04;  // Corrupt the TTL: the checksum no longer holds.
  ASSERT_TRUE(MarkCongestionExperienced(frame).ok()) << "still IPv4";
  EXPECT_FALSE(ParsePacket(frame).ok())
      << "incremental update must not repair an upstream corruption";
}

TEST(Ecn, TRN_9_2_RejectsNonIpv4Frames) {
  Bytes too_short(20, 0);
  EXPECT_FALSE(ReadEcn(too_short).ok()) << "no room for IPv4";
  EXPECT_FALSE(IsIpv4Frame(too_short));
  Bytes frame = *BuildPacket(SamplePacket(Opcode::kSendOnly));
  EXPECT_TRUE(IsIpv4Frame(frame));
  Bytes with_options = frame;
  with_options[14] = 0x46;  // IHL 6: one word of options
  EXPECT_FALSE(IsIpv4Frame(with_options)) << "IPv4 with options";
  frame[12] = 0x88;
  frame[13] = 0x08;
  EXPECT_FALSE(IsIpv4Frame(frame)) << "MAC control frame";
  EXPECT_FALSE(MarkCongestionExperienced(frame).ok()) << "MAC control frame";
}

TEST(Ttl, TRN_1_7_DecrementKeepsThePacketValid) {
  Bytes frame = *BuildPacket(SamplePacket(Opcode::kSendOnly, 64));
  const Bytes original = frame;
  for (int hop = 1; hop <= 64; ++hop) {
    ASSERT_EQ(*DecrementTtl(frame), 64 - hop) << "TTL after hop " << hop;
    Result<RocePacket> parsed = ParsePacket(frame);
    ASSERT_TRUE(parsed.ok()) << "hop " << hop << ": IPv4 checksum and ICRC "
                             << "must stay valid: " << parsed.error().reason;
  }
  EXPECT_TRUE(std::equal(frame.end() - 4, frame.end(), original.end() - 4))
      << "the ICRC is not rewritten: it masks the TTL";
}

TEST(Ttl, TRN_1_7_RejectsExpiredTtlAndChangesNothing) {
  Bytes frame = *BuildPacket(SamplePacket(Opcode::kSendOnly));
  while (frame[14 + 8] != 0) {
    ASSERT_TRUE(DecrementTtl(frame).ok());
  }
  const Bytes expired = frame;
  EXPECT_FALSE(DecrementTtl(frame).ok()) << "TTL 0 cannot be forwarded";
  EXPECT_EQ(frame, expired) << "a refused decrement changes nothing";
}

TEST(Ttl, TRN_1_7_CorruptHeaderStaysDetectable) {
  Bytes frame = *BuildPacket(SamplePacket(Opcode::kSendOnly));
  frame[14 + 12] ^= 0x01;  // Corrupt the source address.
  ASSERT_TRUE(DecrementTtl(frame).ok()) << "still IPv4";
  EXPECT_FALSE(ParsePacket(frame).ok())
      << "incremental update must not repair an upstream corruption";
}

}  // namespace
}  // namespace lq::roce
