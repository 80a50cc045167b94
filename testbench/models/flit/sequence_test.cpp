// SPDX-License-Identifier: Apache-2.0
// Tests of modulo-1024 flit sequence arithmetic (DLL-2.x).
#include "models/flit/sequence.h"

#include <gtest/gtest.h>

namespace lq::flit {
namespace {

TEST(Sequence, DLL_2_1_NumbersWrapModulo1024) {
  EXPECT_EQ(SeqAdd(1023, 1), 0) << "1023 is followed by 0";
  EXPECT_EQ(SeqAdd(0, -1), 1023) << "ACKD_SEQ starts one before 0";
  EXPECT_EQ(SeqAdd(500, 600), 76);
  EXPECT_EQ(SeqDistance(1020, 3), 7) << "distance counts across the wrap";
  EXPECT_EQ(SeqDistance(3, 3), 0);
}

TEST(Sequence, DLL_2_3_AheadAndBehindSplitAtHalfTheSpace) {
  EXPECT_TRUE(SeqIsAfter(1, 0));
  EXPECT_TRUE(SeqIsAfter(2, 1000)) << "newer across the wrap";
  EXPECT_TRUE(SeqIsAfter(511, 0)) << "511 ahead is still newer";
  EXPECT_FALSE(SeqIsAfter(512, 0)) << "512 ahead counts as behind";
  EXPECT_FALSE(SeqIsAfter(0, 0)) << "a number is not after itself";
  EXPECT_FALSE(SeqIsAfter(1000, 2)) << "a duplicate from before the wrap";
}

}  // namespace
}  // namespace lq::flit
