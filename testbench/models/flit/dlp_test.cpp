// SPDX-License-Identifier: Apache-2.0
// Tests of the DLP link header: bit placement, field extremes, and strict
// rejection of reserved bits and fields that do not apply (DLL-1.x).
#include "models/flit/dlp.h"

#include <gtest/gtest.h>

#include <string>

namespace lq::flit {
namespace {

DlpHeader Payload(uint8_t vc, uint16_t seq) {
  DlpHeader header;
  header.type = FlitType::kPayload;
  header.payload_vc = vc;
  header.flit_seq = seq;
  return header;
}

TEST(Dlp, DLL_1_2_FieldsSitWhereTheBitMapSays) {
  // The worked example of the spec's "DLP bit map" table.
  DlpHeader header = Payload(3, 0x2A5);
  header.replay = ReplayCommand::kStandardNak;
  header.ack_seq = 0x15A;
  header.credit_vc = 2;
  header.credit_count = 0xABC;
  const DlpBytes bytes = EncodeDlp(header).value();
  EXPECT_EQ(bytes, (DlpBytes{0x4E, 0xA5, 0x81, 0x5A, 0x4A, 0xBC}))
      << "type 2|vc 3|seq 2A5, NAK 2|ack 15A, credit vc 2|count ABC";
  EXPECT_EQ(ParseDlp(ByteView(bytes.data(), bytes.size())).value(), header)
      << "parsing must invert encoding";
}

TEST(Dlp, DLL_1_1_EveryFieldRoundTripsAtItsExtremes) {
  int checked = 0;
  for (FlitType type : {FlitType::kIdle, FlitType::kNop, FlitType::kPayload,
                        FlitType::kControl}) {
    for (ReplayCommand replay :
         {ReplayCommand::kNone, ReplayCommand::kAck,
          ReplayCommand::kStandardNak, ReplayCommand::kSelectiveNak}) {
      for (uint16_t seq : {0, 1, 1022, 1023}) {
        for (uint8_t vc : {0, 3}) {
          for (uint16_t credits : {0, 1, 4095}) {
            DlpHeader header;
            header.type = type;
            header.payload_vc = type == FlitType::kPayload ? vc : 0;
            header.flit_seq = type == FlitType::kIdle ? 0 : seq;
            header.replay = replay;
            header.ack_seq = replay == ReplayCommand::kNone ? 0 : 1023 - seq;
            header.credit_vc = vc;
            header.credit_count = credits;
            const auto bytes = EncodeDlp(header);
            ASSERT_TRUE(bytes.ok()) << bytes.error().reason;
            const auto parsed = ParseDlp(ByteView(bytes->data(), kDlpBytes));
            ASSERT_TRUE(parsed.ok()) << parsed.error().reason;
            ASSERT_EQ(*parsed, header) << "field lost in the round trip";
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 4 * 4 * 4 * 2 * 3);
}

TEST(Dlp, DLL_1_3_RejectsEveryReservedBit) {
  const DlpBytes good = EncodeDlp(Payload(1, 5)).value();
  // Reserved: byte 2 bits 5..2 and byte 4 bit 4.
  const std::pair<size_t, uint8_t> reserved[] = {
      {2, 0x20}, {2, 0x10}, {2, 0x08}, {2, 0x04}, {4, 0x10}};
  for (const auto& [byte, bit] : reserved) {
    DlpBytes bad = good;
    bad[byte] |= bit;
    const auto parsed = ParseDlp(ByteView(bad.data(), bad.size()));
    ASSERT_FALSE(parsed.ok()) << "reserved bit accepted in byte " << byte;
    EXPECT_NE(parsed.error().reason.find("reserved DLP bits set"),
              std::string::npos)
        << parsed.error().reason;
    EXPECT_EQ(parsed.error().offset, byte) << "the offset names the byte";
  }
}

TEST(Dlp, DLL_1_3_RejectsReservedFlitTypeCodes) {
  for (uint8_t code = 5; code < 8; ++code) {
    DlpBytes bad = EncodeDlp(Payload(0, 0)).value();
    bad[0] = static_cast<uint8_t>((code << 5) | (bad[0] & 0x1F));
    const auto parsed = ParseDlp(ByteView(bad.data(), bad.size()));
    ASSERT_FALSE(parsed.ok()) << "type code " << int{code} << " is reserved";
    EXPECT_EQ(parsed.error().reason,
              "reserved flit type code " + std::to_string(code));
  }
}

TEST(Dlp, PeekFlitTypeReadsTheTypeOfEveryKind) {
  for (const FlitType type :
       {FlitType::kIdle, FlitType::kNop, FlitType::kPayload,
        FlitType::kTraining, FlitType::kControl}) {
    DlpHeader header;
    header.type = type;
    const DlpBytes bytes = EncodeDlp(header).value();
    EXPECT_EQ(PeekFlitType(bytes[0]), type)
        << "the PHY must recognise " << FlitTypeName(type) << " flits";
  }
}

TEST(Dlp, DLL_1_4_RejectsVirtualChannelsBeyondFour) {
  for (uint8_t vc = 4; vc < 8; ++vc) {
    DlpBytes bad = EncodeDlp(Payload(0, 9)).value();
    bad[0] |= static_cast<uint8_t>(vc << 2);
    EXPECT_FALSE(ParseDlp(ByteView(bad.data(), bad.size())).ok())
        << "payload VC " << int{vc} << " does not exist";
    bad = EncodeDlp(Payload(0, 9)).value();
    bad[4] |= static_cast<uint8_t>(vc << 5);
    EXPECT_FALSE(ParseDlp(ByteView(bad.data(), bad.size())).ok())
        << "credit VC " << int{vc} << " does not exist";
  }
  DlpHeader header = Payload(4, 0);
  EXPECT_FALSE(EncodeDlp(header).ok()) << "the encoder checks the same rule";
}

TEST(Dlp, DLL_1_5_RejectsFieldsThatDoNotApplyToTheFlitType) {
  DlpHeader nop;
  nop.type = FlitType::kNop;
  nop.payload_vc = 1;
  EXPECT_EQ(EncodeDlp(nop).error().reason, "payload VC set in NOP flit");

  DlpHeader control;
  control.type = FlitType::kControl;
  control.payload_vc = 2;
  EXPECT_EQ(EncodeDlp(control).error().reason,
            "payload VC set in CONTROL flit");

  DlpHeader idle;
  idle.flit_seq = 3;
  EXPECT_EQ(EncodeDlp(idle).error().reason, "sequence number set in IDLE flit");

  DlpHeader no_command = Payload(0, 1);
  no_command.ack_seq = 7;
  EXPECT_EQ(EncodeDlp(no_command).error().reason,
            "ack_seq set without a replay command");

  DlpHeader training;
  training.type = FlitType::kTraining;
  training.credit_count = 1;
  EXPECT_EQ(EncodeDlp(training).error().reason,
            "TRAINING flit with non-zero link fields");

  // The parser applies the same rules to bytes from the wire.
  const DlpBytes wire = {0x20 | 0x04, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(ParseDlp(ByteView(wire.data(), wire.size())).error().reason,
            "payload VC set in NOP flit");
}

TEST(Dlp, DLL_1_1_RejectsOutOfRangeValues_fail) {
  DlpHeader header = Payload(0, 1024);
  EXPECT_FALSE(EncodeDlp(header).ok()) << "sequence numbers have 10 bits";
  header = Payload(0, 0);
  header.credit_count = 4096;
  EXPECT_FALSE(EncodeDlp(header).ok()) << "credit counts have 12 bits";
  const uint8_t five[5] = {};
  EXPECT_EQ(ParseDlp(ByteView(five, 5)).error().reason,
            "DLP is 5 bytes, expected 6");
}

}  // namespace
}  // namespace lq::flit
