// SPDX-License-Identifier: Apache-2.0
// Tests of the LOG messages and the fault record (docs/spec/log.md LOG-6.3,
// LOG-6.10).
#include "models/logical/log_message.h"

#include <gtest/gtest.h>

#include <vector>

namespace lq::logical {
namespace {

Bytes Hex(std::initializer_list<int> bytes) {
  Bytes out;
  for (const int byte : bytes) {
    out.push_back(static_cast<uint8_t>(byte));
  }
  return out;
}

std::vector<LogMessage> OneOfEach() {
  return {FaultRequest{AccessKind::kStore, FaultCause::kNoWrite, 0x0102, 0x0304,
                       0x0000030400001000, 256},
          FaultResponse{FaultStatus::kReject, RejectReason::kHomeLost, 9,
                        0x0000030400000000, 0},
          FaultResponse{FaultStatus::kAllocated, RejectReason::kNone, 9,
                        0x0000030400000000, 0x0000002800070007},
          InvalRequest{5, 0x0000030400010000, 16},
          InvalAck{5, 0x0000030400010000},
          FrameAllocRequest{77},
          FrameAllocResponse{true, 77, 0x0003FFFF},
          FrameAllocResponse{false, 78, 0},
          FrameFree{0x0003FFFF}};
}

TEST(LogMessage, LOG_6_10_FaultRequestBytesSitWhereTheTableSays) {
  const FaultRequest request{AccessKind::kStore,
                             FaultCause::kNoWrite,
                             0x0102,
                             0x0304,
                             0x1122334455667788,
                             0x0100};
  EXPECT_EQ(EncodeLogMessage(request),
            Hex({1,    1,    3,    0,    0x01, 0x02, 0x03, 0x04,
                 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                 0x01, 0x00, 0,    0,    0,    0,    0,    0}))
      << "TYPE, ACCESS, CAUSE, -, REQUESTER, FAULT_ID, GA, SIZE, big-endian";
}

TEST(LogMessage, LOG_6_10_FaultResponseAndFrameMessagesBytes) {
  const FaultResponse response{FaultStatus::kMigrated, RejectReason::kNone,
                               0xBEEF, 0x0102030405060708, 0xA1A2A3A4A5A6A7A8};
  EXPECT_EQ(EncodeLogMessage(response),
            Hex({2, 2, 0, 0, 0xBE, 0xEF, 0,    0,    1,    2,    3,    4,
                 5, 6, 7, 8, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8}));
  EXPECT_EQ(EncodeLogMessage(FrameAllocResponse{false, 0x0A0B, 0x01020304}),
            Hex({6, 1, 0, 0, 0x0A, 0x0B, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}))
      << "STATUS 1: none free";
  EXPECT_EQ(EncodeLogMessage(FrameAllocRequest{0x0A0B}),
            Hex({5, 0, 0, 0, 0x0A, 0x0B, 0, 0}));
  EXPECT_EQ(EncodeLogMessage(InvalRequest{3, 0x10, 0x01020304}).size(), 24u);
  EXPECT_EQ(EncodeLogMessage(InvalAck{3, 0x10}).size(), 16u);
  EXPECT_EQ(EncodeLogMessage(FrameFree{1}).size(), 16u);
}

TEST(LogMessage, LOG_6_10_EveryMessageParsesBackToItself) {
  for (const LogMessage& message : OneOfEach()) {
    const Bytes bytes = EncodeLogMessage(message);
    EXPECT_LE(bytes.size(), kMaxLogMessageBytes);
    const auto parsed = ParseLogMessage(bytes);
    ASSERT_TRUE(parsed.ok()) << parsed.error().reason;
    EXPECT_EQ(TypeOf(*parsed), TypeOf(message));
    EXPECT_EQ(EncodeLogMessage(*parsed), bytes);
  }
}

TEST(LogMessage, LOG_6_10_UnknownTypeOrWrongLengthIsRefused_fail) {
  EXPECT_FALSE(ParseLogMessage(Bytes{}).ok());
  for (const int type : {0, 8, 255}) {
    Bytes bytes(24, 0);
    bytes[0] = static_cast<uint8_t>(type);
    EXPECT_FALSE(ParseLogMessage(bytes).ok()) << "TYPE " << type;
  }
  for (const LogMessage& message : OneOfEach()) {
    Bytes longer = EncodeLogMessage(message);
    longer.push_back(0);
    EXPECT_FALSE(ParseLogMessage(longer).ok());
    Bytes shorter = EncodeLogMessage(message);
    shorter.pop_back();
    const auto parsed = ParseLogMessage(shorter);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().offset, shorter.size())
        << "the first byte missing";
  }
}

TEST(LogMessage, LOG_6_10_ReservedBytesAndCodesOutsideTheirTables_fail) {
  for (const LogMessage& message : OneOfEach()) {
    const Bytes good = EncodeLogMessage(message);
    // FAULT_RSP's bytes 3, 6, 7 and FAULT_REQ's 3 and 18-23 are reserved;
    // setting any byte must either change a field or be refused.
    for (size_t at = 1; at < good.size(); ++at) {
      Bytes bad = good;
      bad[at] ^= 0x80;
      const auto parsed = ParseLogMessage(bad);
      if (parsed.ok()) {
        EXPECT_EQ(EncodeLogMessage(*parsed), bad) << "byte " << at;
      } else {
        EXPECT_EQ(parsed.error().offset, at) << parsed.error().reason;
      }
    }
  }
  Bytes request = EncodeLogMessage(FaultRequest{});
  request[1] = 3;  // ACCESS 3
  EXPECT_FALSE(ParseLogMessage(request).ok());
  request[1] = 0;
  request[2] = 0;  // CAUSE 0
  EXPECT_FALSE(ParseLogMessage(request).ok());
  request[2] = 6;
  EXPECT_FALSE(ParseLogMessage(request).ok());
  Bytes response = EncodeLogMessage(FaultResponse{});
  response[2] = 1;  // a REASON with MAP
  EXPECT_FALSE(ParseLogMessage(response).ok());
  response[1] = 3;  // REJECT with REASON 1: fine
  EXPECT_TRUE(ParseLogMessage(response).ok());
  response[2] = 0;  // REJECT with no REASON
  EXPECT_FALSE(ParseLogMessage(response).ok());
  response[1] = 5;
  EXPECT_FALSE(ParseLogMessage(response).ok()) << "STATUS 5";
}

TEST(LogMessage, LOG_6_3_FaultRecordWords) {
  FaultRecord record;
  record.request = FaultRequest{AccessKind::kAtomic,
                                FaultCause::kMigrating,
                                0x00C8,
                                0x0011,
                                0x0000030400001234,
                                8};
  record.time_ns = 0x0000000123456789;
  record.seq = 42;
  const auto words = FaultRecordWords(record);
  EXPECT_EQ(words[0], 0x00001234u);
  EXPECT_EQ(words[1], 0x00000304u);
  EXPECT_EQ(words[2], 0x001100C8u) << "FAULT_ID 31:16, REQUESTER 15:0";
  EXPECT_EQ(words[3], 0x00080502u) << "SIZE 31:16, CAUSE 15:8, ACCESS 7:0";
  EXPECT_EQ(words[4], 0x23456789u);
  EXPECT_EQ(words[5], 0x00000001u);
  EXPECT_EQ(words[6], 42u);
  EXPECT_EQ(words[7], 0u);
}

}  // namespace
}  // namespace lq::logical
