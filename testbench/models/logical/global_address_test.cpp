// SPDX-License-Identifier: Apache-2.0
// Tests of global-address decoding (docs/spec/log.md section 2).
#include "models/logical/global_address.h"

#include <gtest/gtest.h>

namespace lq::logical {
namespace {

AddressSpace Space(uint32_t endpoints) {
  AddressSpace space;
  space.endpoints = endpoints;
  return space;
}

TEST(GlobalAddress, LOG_2_1_FieldsSitWhereTheFigureSays) {
  EXPECT_EQ(GlobalAddress(12, 0x1000), 0x00000C0000001000u)
      << "the spec's example: node 12, byte 0x1000";
  const auto decoded = Decode(Space(256), 0x00000C0000001000u);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->node, 12);
  EXPECT_EQ(decoded->offset, 0x1000u);
  EXPECT_EQ(decoded->region, Region::kDirect);
}

TEST(GlobalAddress, LOG_2_1_ReservedSpaceDecodesToNothing) {
  EXPECT_FALSE(Decode(Space(256), uint64_t{1} << 56 | 0x1000).has_value());
  EXPECT_FALSE(Decode(Space(256), ~uint64_t{0}).has_value());
}

TEST(GlobalAddress, LOG_2_2_OnlyEndpointsHaveWindows) {
  const AddressSpace space = Space(256);
  EXPECT_TRUE(Decode(space, GlobalAddress(255, 0)).has_value());
  EXPECT_FALSE(Decode(space, GlobalAddress(256, 0)).has_value());
  EXPECT_FALSE(Decode(space, GlobalAddress(0xFFFF, 0)).has_value());
  EXPECT_TRUE(Decode(Space(8192), GlobalAddress(8191, 5)).has_value())
      << "8192 cards fit";
}

TEST(GlobalAddress, LOG_2_3_And_LOG_2_4_DirectBelowDirectBytesPagedAbove) {
  const AddressSpace space = Space(4);  // 16 GiB direct regions
  const uint64_t direct = space.direct_bytes;
  EXPECT_EQ(Decode(space, GlobalAddress(3, direct - 1))->region,
            Region::kDirect);
  EXPECT_EQ(Decode(space, GlobalAddress(3, direct))->region, Region::kPaged);
  EXPECT_EQ(Decode(space, GlobalAddress(3, kWindowBytes - 1))->region,
            Region::kPaged);
  EXPECT_EQ(Decode(space, GlobalAddress(3, kWindowBytes - 1))->node, 3)
      << "the window's last byte is still node 3's";
}

TEST(GlobalAddress, LOG_3_1_AccessesStayInOnePage) {
  const AddressSpace space = Space(4);  // 64 KiB pages
  EXPECT_TRUE(WithinOnePage(space, 0x10000 - 256, 256));
  EXPECT_FALSE(WithinOnePage(space, 0x10000 - 255, 256));
  EXPECT_FALSE(WithinOnePage(space, 0x10000, 0)) << "no empty access";
  EXPECT_EQ(PageNumber(space, GlobalAddress(1, 0x30000)),
            (uint64_t{1} << 40 | 0x30000) >> 16);
  EXPECT_EQ(PageBase(space, GlobalAddress(1, 0x3FFFF)),
            GlobalAddress(1, 0x30000));
  EXPECT_EQ(PageBase(space, GlobalAddress(1, 0x30000)),
            GlobalAddress(1, 0x30000));
}

TEST(GlobalAddress, LOG_5_1_PageAndDirectSizes) {
  AddressSpace space = Space(4);
  EXPECT_TRUE(Valid(space));
  space.page_bytes = 3 * 4096;
  EXPECT_FALSE(Valid(space)) << "a power of two";
  space.page_bytes = 2048;
  EXPECT_FALSE(Valid(space)) << "at least 4 KiB";
  space.page_bytes = uint64_t{2} << 30;
  EXPECT_FALSE(Valid(space)) << "at most 1 GiB";
  space.page_bytes = 64 * 1024;
  space.direct_bytes = 64 * 1024 + 4096;
  EXPECT_FALSE(Valid(space)) << "direct region in whole pages";
  space.direct_bytes = kWindowBytes * 2;
  EXPECT_FALSE(Valid(space)) << "within a window";
  EXPECT_FALSE(Valid(Space(0)));
  EXPECT_FALSE(Valid(Space(0x10000)));
}

}  // namespace
}  // namespace lq::logical
