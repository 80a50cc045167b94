// SPDX-License-Identifier: Apache-2.0
// Tests of the RoCEv2 packet builder and strict parser: round trips for
// every opcode and one test per rejection rule of TRN-4.5.
#include "models/roce/packet.h"

#include <gtest/gtest.h>

#include <string>

#include "models/roce/icrc.h"
#include "models/roce/opcode.h"
#include "models/roce/sample_packets.h"

namespace lq::roce {
namespace {

using testing::SamplePacket;

constexpr size_t kIp = 14;
constexpr size_t kUdp = 34;
constexpr size_t kBth = 42;
constexpr size_t kExt = 54;

Bytes Build(const RocePacket& packet) {
  Result<Bytes> frame = BuildPacket(packet);
  EXPECT_TRUE(frame.ok()) << frame.error().reason;
  return frame.ok() ? *frame : Bytes{};
}

// After a test edits a frame: makes the IP and UDP lengths match its size
// and recomputes the IPv4 checksum and, when there is room, the ICRC, so
// that only the edited rule is broken.
void Reseal(Bytes& frame, bool with_icrc = true) {
  StoreBigEndian(&frame[kIp + 2], 2, frame.size() - kIp);
  StoreBigEndian(&frame[kUdp + 4], 2, frame.size() - kUdp);
  StoreBigEndian(&frame[kIp + 10], 2,
                 Ipv4Checksum(ByteView(frame.data() + kIp, 20)));
  if (with_icrc) {
    const size_t icrc_at = frame.size() - kIcrcSize;
    StoreLittleEndian(&frame[icrc_at], kIcrcSize,
                      *ComputeIcrc(ByteView(frame.data(), icrc_at)));
  }
}

// Expects `frame` to be rejected for `reason` found at byte `offset`.
void ExpectRejected(const Bytes& frame, const std::string& reason,
                    size_t offset) {
  Result<RocePacket> parsed = ParsePacket(frame);
  ASSERT_FALSE(parsed.ok()) << "expected rejection: " << reason;
  EXPECT_NE(parsed.error().reason.find(reason), std::string::npos)
      << "wrong reason: " << parsed.error().reason;
  EXPECT_EQ(parsed.error().offset, offset)
      << "the error must point at the offending byte";
}

TEST(Packet, TRN_4_1_and_TRN_4_3_RoundTripEveryOpcode) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    for (size_t payload : {0, 1, 2, 3, 4, 13, 256, 4096}) {
      if (!info.has_payload && payload != 0) {
        continue;
      }
      RocePacket expected = SamplePacket(info.opcode, payload);
      const Bytes frame = Build(expected);
      Result<RocePacket> parsed = ParsePacket(frame);
      ASSERT_TRUE(parsed.ok())
          << info.name << "/" << payload << ": " << parsed.error().reason;
      expected.ip.total_length = static_cast<uint16_t>(frame.size() - kIp);
      expected.udp.length = static_cast<uint16_t>(frame.size() - kUdp);
      expected.bth.pad_count = static_cast<uint8_t>((4 - payload % 4) % 4);
      EXPECT_EQ(*parsed, expected)
          << info.name << "/" << payload << " must survive build and parse";
      EXPECT_EQ(Build(*parsed), frame)
          << info.name << "/" << payload << " must re-encode identically";
      EXPECT_EQ(FrameSize(info.opcode, payload), frame.size())
          << info.name << "/" << payload << ": FrameSize";
    }
  }
}

TEST(Packet, TRN_4_3_PayloadIsPaddedToFourBytes) {
  const Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 13));
  EXPECT_EQ(frame.size(), kExt + 13 + 3 + kIcrcSize) << "13 bytes + 3 pad";
  EXPECT_EQ((frame[kBth + 1] >> 4) & 3, 3) << "PadCnt carries the pad";
  for (size_t i = kExt + 13; i < kExt + 16; ++i) {
    EXPECT_EQ(frame[i], 0) << "pad bytes are zero";
  }
  EXPECT_EQ((frame.size() - kBth) % 4, 0u) << "transport part is 4-aligned";
}

TEST(Packet, TRN_4_2_ExtensionHeadersFollowIbaOrder) {
  const Bytes write_imm =
      Build(SamplePacket(Opcode::kWriteOnlyWithImmediate, 8));
  EXPECT_EQ(write_imm[kExt + 15], 8) << "RETH (DMA length 8) comes first";
  EXPECT_EQ(LoadBigEndian(&write_imm[kExt + 16], 4), 0xDEADBEEFu)
      << "ImmDt follows the RETH";
  const Bytes atomic_ack = Build(SamplePacket(Opcode::kAtomicAcknowledge));
  EXPECT_EQ(atomic_ack[kExt], 0x1F) << "AETH first";
  EXPECT_EQ(LoadBigEndian(&atomic_ack[kExt + 4], 8), 0x0123456789ABCDEFu)
      << "AtomicAckETH after the AETH";
  EXPECT_EQ(atomic_ack.size(), kExt + 12 + kIcrcSize) << "no payload";
}

TEST(Packet, TRN_4_1_BuildRejectsInconsistentPackets) {
  RocePacket unknown = SamplePacket(Opcode::kSendOnly);
  unknown.bth.opcode = 0x15;
  EXPECT_FALSE(BuildPacket(unknown).ok()) << "opcode outside the table";

  RocePacket missing = SamplePacket(Opcode::kWriteFirst);
  missing.reth.reset();
  EXPECT_FALSE(BuildPacket(missing).ok()) << "WRITE_FIRST without RETH";

  RocePacket extra = SamplePacket(Opcode::kSendOnly);
  extra.aeth = Aeth::Ack(0);
  EXPECT_FALSE(BuildPacket(extra).ok()) << "SEND_ONLY with an AETH";

  RocePacket payload = SamplePacket(Opcode::kAcknowledge);
  payload.payload = {1, 2, 3, 4};
  EXPECT_FALSE(BuildPacket(payload).ok()) << "ACK with payload";

  RocePacket nak_response = SamplePacket(Opcode::kReadResponseOnly);
  nak_response.aeth = Aeth::Nak(0, NakCode::kRemoteAccessError);
  EXPECT_FALSE(BuildPacket(nak_response).ok()) << "read response with a NAK";

  RocePacket range = SamplePacket(Opcode::kSendOnly);
  range.bth.psn = 0x1000000;
  EXPECT_FALSE(BuildPacket(range).ok()) << "25-bit PSN";
  range = SamplePacket(Opcode::kSendOnly);
  range.ip.dscp = 64;
  EXPECT_FALSE(BuildPacket(range).ok()) << "7-bit DSCP";
  range = SamplePacket(Opcode::kSendOnly);
  range.udp.dst_port = 4792;
  EXPECT_FALSE(BuildPacket(range).ok()) << "UDP port other than 4791";

  EXPECT_FALSE(BuildPacket(SamplePacket(Opcode::kSendOnly, 65535)).ok())
      << "packet longer than IPv4's total length allows";
}

TEST(Packet, TRN_4_5_RejectsTruncatedAtEveryOffset) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    const Bytes frame = Build(SamplePacket(info.opcode, 37));
    for (size_t size = 0; size < frame.size(); ++size) {
      const Bytes prefix(frame.begin(), frame.begin() + size);
      EXPECT_FALSE(ParsePacket(prefix).ok())
          << info.name << " cut to " << size << " bytes must be rejected";
    }
  }
}

TEST(Packet, TRN_4_5_RejectsTruncatedHeaders) {
  const Bytes frame = Build(SamplePacket(Opcode::kAcknowledge));
  ExpectRejected(Bytes(frame.begin(), frame.begin() + 10),
                 "truncated Ethernet header", 10);
  ExpectRejected(Bytes(frame.begin(), frame.begin() + 30),
                 "truncated IPv4 header", 30);
  Bytes short_udp(frame.begin(), frame.begin() + kUdp + 4);
  StoreBigEndian(&short_udp[kIp + 2], 2, short_udp.size() - kIp);
  StoreBigEndian(&short_udp[kIp + 10], 2,
                 Ipv4Checksum(ByteView(short_udp.data() + kIp, 20)));
  ExpectRejected(short_udp, "truncated UDP header", kUdp + 4);
  Bytes short_bth(frame.begin(), frame.begin() + kBth + 11);
  Reseal(short_bth, false);
  ExpectRejected(short_bth, "truncated BTH", kBth + 11);
  Bytes short_icrc(frame.begin(), frame.begin() + kExt + 2);
  Reseal(short_icrc, false);
  ExpectRejected(short_icrc, "truncated ICRC", kExt + 2);
}

TEST(Packet, TRN_1_3_RejectsWrongEtherType) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[12] = 0x86;
  frame[13] = 0xDD;
  ExpectRejected(frame, "EtherType", 12);
}

TEST(Packet, TRN_1_4_RejectsWrongIpVersion) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kIp] = 0x65;
  Reseal(frame);
  ExpectRejected(frame, "IP version", kIp);
}

TEST(Packet, TRN_1_4_RejectsIpOptions) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kIp] = 0x46;
  Reseal(frame);
  ExpectRejected(frame, "options", kIp);
}

TEST(Packet, TRN_1_4_RejectsIpFragment) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kIp + 6] = 0x20;  // More Fragments
  Reseal(frame);
  ExpectRejected(frame, "fragment", kIp + 6);
}

TEST(Packet, TRN_1_4_RejectsBadIpChecksum) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kIp + 11] ^= 0x01;
  ExpectRejected(frame, "IPv4 header checksum", kIp + 10);
}

TEST(Packet, TRN_1_4_RejectsNonUdpProtocol) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kIp + 9] = 6;
  Reseal(frame);
  ExpectRejected(frame, "not UDP", kIp + 9);
}

TEST(Packet, TRN_1_1_RejectsIpTotalLengthInconsistentWithFrame) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame.push_back(0);  // Ethernet padding is not allowed (TRN-1.1).
  ExpectRejected(frame, "IP total length", kIp + 2);
}

TEST(Packet, TRN_1_6_RejectsWrongUdpPort) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kUdp + 3] = 0xB8;  // 4792
  Reseal(frame);
  ExpectRejected(frame, "4791", kUdp + 2);
}

TEST(Packet, TRN_1_6_RejectsUdpLengthInconsistentWithIp) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly));
  frame[kUdp + 5] -= 4;
  ExpectRejected(frame, "UDP length", kUdp + 4);
}

TEST(Packet, TRN_3_4_RejectsBadIcrc) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 20));
  frame[kExt + 5] ^= 0x10;
  ExpectRejected(frame, "bad ICRC", frame.size() - kIcrcSize);
}

TEST(Packet, TRN_4_5_RejectsUnknownOpcode) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 16));
  frame[kBth] = 0x64;  // UD SEND_ONLY: not part of lqemu's subset.
  Reseal(frame);
  ExpectRejected(frame, "unknown opcode 0x64", kBth);
}

TEST(Packet, TRN_2_3_RejectsNonZeroTver) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 16));
  frame[kBth + 1] |= 0x01;
  Reseal(frame);
  ExpectRejected(frame, "transport version", kBth + 1);
}

TEST(Packet, TRN_4_5_RejectsHeaderChainTooShortForOpcode) {
  Bytes frame = Build(SamplePacket(Opcode::kWriteOnly, 0));
  frame[kBth] = static_cast<uint8_t>(Opcode::kCompareSwap);  // Needs 28 B.
  Reseal(frame);
  ExpectRejected(frame, "too short for the headers of COMPARE_SWAP",
                 frame.size() - kIcrcSize);
}

TEST(Packet, TRN_4_5_RejectsPayloadOnOpcodeWithoutPayload) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 8));
  frame[kBth] = static_cast<uint8_t>(Opcode::kAcknowledge);
  frame[kExt] = 0x1F;  // A valid ACK syndrome in the would-be AETH.
  Reseal(frame);
  ExpectRejected(frame, "payload on ACKNOWLEDGE", kExt + 4);
}

TEST(Packet, TRN_4_3_RejectsPadCountOnOpcodeWithoutPayload) {
  Bytes frame = Build(SamplePacket(Opcode::kAcknowledge));
  frame[kBth + 1] |= 0x10;
  Reseal(frame);
  ExpectRejected(frame, "pad count on ACKNOWLEDGE", kBth + 1);
}

TEST(Packet, TRN_4_3_RejectsPayloadNotMultipleOfFour) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 8));
  frame.erase(frame.begin() + kExt);
  Reseal(frame);
  ExpectRejected(frame, "multiple of 4", kExt);
}

TEST(Packet, TRN_4_3_RejectsPadCountExceedingPayload) {
  Bytes frame = Build(SamplePacket(Opcode::kSendOnly, 0));
  frame[kBth + 1] |= 0x10;
  Reseal(frame);
  ExpectRejected(frame, "pad count exceeds", kBth + 1);
}

TEST(Packet, TRN_2_6_RejectsReservedAethSyndrome) {
  Bytes frame = Build(SamplePacket(Opcode::kAcknowledge));
  frame[kExt] = 0x40;
  Reseal(frame);
  ExpectRejected(frame, "reserved AETH syndrome", kExt);
}

TEST(Packet, TRN_4_4_RejectsNakOnReadResponse) {
  Bytes frame = Build(SamplePacket(Opcode::kReadResponseLast, 4));
  frame[kExt] = 0x60;
  Reseal(frame);
  ExpectRejected(frame, "is not an ACK", kExt);
}

TEST(Packet, TRN_3_4_EverySingleBitErrorOutsideMaskedFieldsIsRejected) {
  const Bytes frame = Build(SamplePacket(Opcode::kWriteFirst, 24));
  for (size_t byte = 0; byte < frame.size(); ++byte) {
    // Bits nobody checks end to end: Ethernet addresses (protected by the
    // link layer), the UDP checksum and FECN/BECN/resv of BTH byte 4.
    const bool unchecked =
        byte < 12 || byte == kUdp + 6 || byte == kUdp + 7 || byte == kBth + 4;
    for (int bit = 0; bit < 8; ++bit) {
      Bytes corrupted = frame;
      corrupted[byte] ^= static_cast<uint8_t>(1 << bit);
      EXPECT_EQ(ParsePacket(corrupted).ok(), unchecked)
          << "bit " << bit << " of byte " << byte;
    }
  }
}

}  // namespace
}  // namespace lq::roce
