// SPDX-License-Identifier: Apache-2.0
// Tests of the local ACK timeout and RNR timer code tables.
#include "models/roce/timers.h"

#include <gtest/gtest.h>

namespace lq::roce {
namespace {

TEST(Timers, TRN_7_4_LocalAckTimeoutIs4096NsTimesPowerOfTwo) {
  EXPECT_EQ(*LocalAckTimeoutNs(0), kNoTimeout) << "0 means infinite";
  EXPECT_EQ(*LocalAckTimeoutNs(1), 8'192u) << "4.096 us x 2";
  EXPECT_EQ(*LocalAckTimeoutNs(8), 1'048'576u) << "lqemu default, 1.05 ms";
  EXPECT_EQ(*LocalAckTimeoutNs(14), 67'108'864u) << "67.1 ms";
  EXPECT_EQ(*LocalAckTimeoutNs(31), 4096ull << 31) << "largest code";
  EXPECT_FALSE(LocalAckTimeoutNs(32).ok()) << "the field has 5 bits";
}

TEST(Timers, TRN_7_6_RnrTimerTable) {
  EXPECT_EQ(*RnrTimerNs(0), 655'360'000u) << "code 0 is the longest";
  EXPECT_EQ(*RnrTimerNs(1), 10'000u) << "0.01 ms";
  EXPECT_EQ(*RnrTimerNs(12), 640'000u) << "0.64 ms";
  EXPECT_EQ(*RnrTimerNs(25), 61'440'000u) << "61.44 ms";
  EXPECT_EQ(*RnrTimerNs(31), 491'520'000u) << "491.52 ms";
  for (uint8_t code = 2; code <= kTimerCodeMax; ++code) {
    EXPECT_GT(*RnrTimerNs(code), *RnrTimerNs(code - 1))
        << "codes 1..31 increase";
  }
  EXPECT_FALSE(RnrTimerNs(32).ok()) << "the field has 5 bits";
}

}  // namespace
}  // namespace lq::roce
