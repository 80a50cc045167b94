// SPDX-License-Identifier: Apache-2.0
// Tests of the logical layer's atomics and their CmpSwap loop (docs/spec/
// log.md LOG-3.3, LOG-3.4, LOG-3.7).
#include "models/logical/atomic.h"

#include <gtest/gtest.h>

namespace lq::logical {
namespace {

TEST(Atomic, LOG_3_3_SwapCasAndFadd) {
  EXPECT_EQ(AtomicResult(AtomicRequest{AtomicOp::kSwap, 8, 7}, 5), 7u);
  EXPECT_EQ(AtomicResult(AtomicRequest{AtomicOp::kCas, 8, 7, 5}, 5), 7u)
      << "equal: written";
  EXPECT_EQ(AtomicResult(AtomicRequest{AtomicOp::kCas, 8, 7, 4}, 5), 5u)
      << "not equal: unchanged";
  EXPECT_EQ(AtomicResult(AtomicRequest{AtomicOp::kFadd, 8, 3}, 5), 8u);
  EXPECT_EQ(AtomicResult(AtomicRequest{AtomicOp::kFadd, 8, 1}, ~uint64_t{0}),
            0u)
      << "modulo 2^64";
  EXPECT_EQ(AtomicResult(AtomicRequest{AtomicOp::kFadd, 4, 1}, 0xFFFFFFFF), 0u)
      << "modulo 2^32 for 4 bytes";
}

TEST(Atomic, LOG_3_4_FourOrEightBytesNaturallyAligned_fail) {
  EXPECT_TRUE(AtomicShapeOk(0x1000, 8));
  EXPECT_TRUE(AtomicShapeOk(0x1004, 4));
  EXPECT_FALSE(AtomicShapeOk(0x1004, 8));
  EXPECT_FALSE(AtomicShapeOk(0x1002, 4));
  EXPECT_FALSE(AtomicShapeOk(0x1000, 2));
  EXPECT_FALSE(AtomicShapeOk(0x1000, 16));
}

TEST(Atomic, LOG_3_7_OnlyEightByteCasAndFaddMapStraightOntoRdma) {
  EXPECT_TRUE(DirectRdmaAtomic(AtomicRequest{AtomicOp::kCas, 8, 0}));
  EXPECT_TRUE(DirectRdmaAtomic(AtomicRequest{AtomicOp::kFadd, 8, 0}));
  EXPECT_FALSE(DirectRdmaAtomic(AtomicRequest{AtomicOp::kSwap, 8, 0}));
  EXPECT_FALSE(DirectRdmaAtomic(AtomicRequest{AtomicOp::kFadd, 4, 0}));
}

TEST(Atomic, LOG_3_7_FourByteLoopChangesOnlyItsHalf) {
  const uint64_t word = 0x1111111122222222;
  const LoopStep low =
      AtomicLoopStep(AtomicRequest{AtomicOp::kFadd, 4, 1}, 0, word);
  EXPECT_EQ(low.old_value, 0x22222222u);
  EXPECT_EQ(low.swap_word, 0x1111111122222223u);
  const LoopStep high =
      AtomicLoopStep(AtomicRequest{AtomicOp::kSwap, 4, 0xABCD}, 4, word);
  EXPECT_EQ(high.old_value, 0x11111111u);
  EXPECT_EQ(high.swap_word, 0x0000ABCD22222222u);
  const LoopStep carry = AtomicLoopStep(AtomicRequest{AtomicOp::kFadd, 4, 1}, 0,
                                        0x00000005FFFFFFFF);
  EXPECT_EQ(carry.swap_word, 0x0000000500000000u)
      << "no carry into the other half";
  const LoopStep cas_miss =
      AtomicLoopStep(AtomicRequest{AtomicOp::kCas, 4, 9, 3}, 4, word);
  EXPECT_EQ(cas_miss.swap_word, word) << "a CAS that fails writes the same";
}

TEST(Atomic, LOG_3_7_EightByteSwapLoop) {
  const LoopStep step =
      AtomicLoopStep(AtomicRequest{AtomicOp::kSwap, 8, 0xFEED}, 0, 0x1234);
  EXPECT_EQ(step.old_value, 0x1234u);
  EXPECT_EQ(step.swap_word, 0xFEEDu);
}

}  // namespace
}  // namespace lq::logical
