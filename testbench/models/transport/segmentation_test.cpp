// SPDX-License-Identifier: Apache-2.0
// Tests of segmentation (TRN-6.2) and the AckReq rule (TRN-6.7).
#include "models/transport/segmentation.h"

#include <gtest/gtest.h>

#include <string>

#include "models/transport/work_request.h"

namespace lq::transport {
namespace {

using roce::Opcode;

TEST(Segmentation, TRN_6_2_PacketCountsOpcodesAndLengths) {
  EXPECT_EQ(PacketCount(0, 1024), 1u) << "an empty message is one packet";
  EXPECT_EQ(PacketCount(1024, 1024), 1u);
  EXPECT_EQ(PacketCount(1025, 1024), 2u);
  EXPECT_EQ(PacketCount(10000, 4096), 3u);

  EXPECT_EQ(SegmentOpcode(SendKind::kSend, false, 0, 1), Opcode::kSendOnly);
  EXPECT_EQ(SegmentOpcode(SendKind::kWrite, true, 0, 1),
            Opcode::kWriteOnlyWithImmediate);
  EXPECT_EQ(SegmentOpcode(SendKind::kSend, true, 0, 3), Opcode::kSendFirst);
  EXPECT_EQ(SegmentOpcode(SendKind::kSend, true, 1, 3), Opcode::kSendMiddle);
  EXPECT_EQ(SegmentOpcode(SendKind::kSend, true, 2, 3),
            Opcode::kSendLastWithImmediate);
  EXPECT_EQ(SegmentOpcode(SendKind::kWrite, false, 2, 3), Opcode::kWriteLast);

  // 10000 bytes at PMTU 4096: 4096, 4096, then 1808.
  EXPECT_EQ(SegmentLength(10000, 4096, 0, 3), 4096u);
  EXPECT_EQ(SegmentLength(10000, 4096, 1, 3), 4096u);
  EXPECT_EQ(SegmentLength(10000, 4096, 2, 3), 1808u);
  EXPECT_EQ(SegmentLength(0, 4096, 0, 1), 0u);
}

TEST(Segmentation, TRN_6_7_AckReqOnTheLastAndEveryKthPacket) {
  const uint32_t count = 20;
  for (uint32_t i = 0; i < count; ++i) {
    const bool want = i == 7 || i == 15 || i == 19;
    EXPECT_EQ(SegmentAckReq(i, count, 8), want) << "packet " << i;
  }
  EXPECT_TRUE(SegmentAckReq(0, 1, 8)) << "an ONLY packet asks";
}

TEST(Segmentation, TRN_6_4_PsnCountsOfEachKind) {
  EXPECT_EQ(PsnCount(SendKind::kSend, 5000, 1024), 5u);
  EXPECT_EQ(PsnCount(SendKind::kRead, 5000, 1024), 5u) << "one per response";
  EXPECT_EQ(PsnCount(SendKind::kRead, 0, 1024), 1u);
  EXPECT_EQ(PsnCount(SendKind::kFetchAdd, 8, 1024), 1u);
  EXPECT_EQ(PsnCount(SendKind::kCompareSwap, 8, 1024), 1u);
}

TEST(WorkRequest, CompletionStatusesHaveTheirVerbsNames) {
  EXPECT_EQ(std::string(CompletionStatusName(CompletionStatus::kSuccess)),
            "SUCCESS");
  EXPECT_EQ(std::string(CompletionStatusName(CompletionStatus::kFlushErr)),
            "FLUSH_ERR");
  EXPECT_EQ(std::string(CompletionStatusName(CompletionStatus::kRetryExcErr)),
            "RETRY_EXC_ERR");
  EXPECT_EQ(
      std::string(CompletionStatusName(CompletionStatus::kRnrRetryExcErr)),
      "RNR_RETRY_EXC_ERR");
  EXPECT_EQ(std::string(CompletionStatusName(CompletionStatus::kRemInvReqErr)),
            "REM_INV_REQ_ERR");
  EXPECT_EQ(std::string(CompletionStatusName(CompletionStatus::kRemAccessErr)),
            "REM_ACCESS_ERR");
  EXPECT_EQ(std::string(CompletionStatusName(CompletionStatus::kRemOpErr)),
            "REM_OP_ERR");
  EXPECT_TRUE(IsReadOrAtomic(SendKind::kRead));
  EXPECT_FALSE(IsReadOrAtomic(SendKind::kWrite));
}

}  // namespace
}  // namespace lq::transport
