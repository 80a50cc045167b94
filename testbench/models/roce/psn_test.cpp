// SPDX-License-Identifier: Apache-2.0
// Tests of the 24-bit PSN arithmetic and its modulo-2^23 window compare.
#include "models/roce/psn.h"

#include <gtest/gtest.h>

namespace lq::roce {
namespace {

TEST(Psn, TRN_6_3_AddWrapsAt24Bits) {
  EXPECT_EQ(PsnAdd(0xFFFFFF, 1), 0u) << "PSN must wrap from 2^24-1 to 0";
  EXPECT_EQ(PsnAdd(0xFFFFFE, 5), 3u) << "PSN sum must be taken modulo 2^24";
  EXPECT_EQ(PsnAdd(0x000010, 0x20), 0x30u) << "plain addition below the wrap";
}

TEST(Psn, TRN_6_3_DistanceAcrossTheWrap) {
  EXPECT_EQ(PsnDistance(0xFFFFFE, 0x000001), 3)
      << "a PSN just past the wrap lies ahead, not 2^24 behind";
  EXPECT_EQ(PsnDistance(0x000001, 0xFFFFFE), -3)
      << "a PSN just before the wrap lies behind";
  EXPECT_EQ(PsnDistance(0x000100, 0x000100), 0) << "equal PSNs";
}

TEST(Psn, TRN_6_3_HalfSpaceBoundary) {
  // 2^23 - 1 ahead is the farthest PSN still "after"; 2^23 is "before".
  EXPECT_EQ(PsnDistance(0, kPsnHalfWindow - 1),
            static_cast<int32_t>(kPsnHalfWindow - 1))
      << "last PSN of the forward half-window";
  EXPECT_EQ(PsnDistance(0, kPsnHalfWindow),
            -static_cast<int32_t>(kPsnHalfWindow))
      << "first PSN of the backward half-window";
  EXPECT_TRUE(PsnAfter(PsnAdd(0xFFFFF0, kPsnHalfWindow - 1), 0xFFFFF0))
      << "window compare must survive the wrap";
  EXPECT_TRUE(PsnBefore(PsnAdd(0xFFFFF0, kPsnHalfWindow), 0xFFFFF0))
      << "2^23 ahead counts as behind (duplicate region)";
}

TEST(Psn, TRN_6_3_BeforeAndAfterAreStrict) {
  EXPECT_FALSE(PsnBefore(7, 7)) << "a PSN is not before itself";
  EXPECT_FALSE(PsnAfter(7, 7)) << "a PSN is not after itself";
  EXPECT_TRUE(PsnBefore(0xFFFFFF, 0)) << "2^24-1 precedes 0";
  EXPECT_TRUE(PsnAfter(0, 0xFFFFFF)) << "0 follows 2^24-1";
}

}  // namespace
}  // namespace lq::roce
