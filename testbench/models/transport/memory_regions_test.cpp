// SPDX-License-Identifier: Apache-2.0
// Memory regions and R_Keys (TRN-6.14).
#include "models/transport/memory_regions.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace lq::transport {
namespace {

TEST(MemoryRegions, TRN_6_14_KeysAreNeverZeroNorReusedWhileRegistered) {
  MemoryRegions regions;
  const uint32_t a = regions.Register({0, 100, kRemoteAll});
  const uint32_t b = regions.Register({0, 100, kRemoteAll});
  EXPECT_EQ(a, 0x100u);
  EXPECT_NE(a, b);
  EXPECT_NE(b, 0u);
  EXPECT_TRUE(regions.Deregister(a));
  EXPECT_FALSE(regions.Deregister(a)) << "already gone";
  EXPECT_FALSE(regions.Allows(a, 0, 1, kRemoteRead)) << "a stale key";
  EXPECT_NE(regions.Register({0, 1, kRemoteAll}), b);
}

TEST(MemoryRegions, TRN_6_14_KeysCountUpFrom0x100InRegistrationOrder) {
  MemoryRegions regions;
  for (uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(regions.Register({0, 8, kRemoteAll}), MemoryRegions::NthKey(k));
  }
  EXPECT_EQ(MemoryRegions::NthKey(0), 0x100u);
  EXPECT_EQ(MemoryRegions::NthKey(2), 0x102u);
}

TEST(MemoryRegions, TRN_6_14_TheRangeMustLieInsideTheRegion) {
  MemoryRegions regions;
  const uint32_t key = regions.Register({0x1000, 0x100, kRemoteAll});
  EXPECT_TRUE(regions.Allows(key, 0x1000, 0x100, kRemoteWrite)) << "all of it";
  EXPECT_TRUE(regions.Allows(key, 0x10F8, 8, kRemoteAtomic)) << "the end";
  EXPECT_FALSE(regions.Allows(key, 0xFFF, 2, kRemoteWrite)) << "before";
  EXPECT_FALSE(regions.Allows(key, 0x10F9, 8, kRemoteRead)) << "past the end";
  EXPECT_FALSE(regions.Allows(key, 0x1000, 0x101, kRemoteRead)) << "too long";
  EXPECT_FALSE(regions.Allows(key, UINT64_MAX, 2, kRemoteRead))
      << "no wrap-around";
  EXPECT_FALSE(regions.Allows(key + 1, 0x1000, 1, kRemoteRead)) << "no key";
  EXPECT_TRUE(regions.Allows(key + 1, 0, 0, kRemoteRead))
      << "zero length needs no region";
}

TEST(MemoryRegions, TRN_6_14_TheRegionMustGrantTheRight) {
  MemoryRegions regions;
  const uint32_t read_only = regions.Register({0, 64, kRemoteRead});
  EXPECT_TRUE(regions.Allows(read_only, 0, 8, kRemoteRead));
  EXPECT_FALSE(regions.Allows(read_only, 0, 8, kRemoteWrite));
  EXPECT_FALSE(regions.Allows(read_only, 0, 8, kRemoteAtomic));
}

}  // namespace
}  // namespace lq::transport
