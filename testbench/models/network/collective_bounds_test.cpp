// SPDX-License-Identifier: Apache-2.0
// Unit tests of the collectives' injection and bisection bounds, against
// the figures worked by hand for the seed's 16-node all-to-all.
#include "models/network/collective_bounds.h"

#include "gtest/gtest.h"

namespace lq::net {
namespace {

// pcie6: 236-byte slots every 2 ns, 118 bytes per ns a port or link.
constexpr double kLink = 118;

TEST(CollectiveBounds, AllToAllOnTwoByTwoByFour) {
  // 16 cards, 1 MiB blocks: each sends 15 MiB through its port; the
  // 4-ring is cut twice, so 8 links cross each way, carrying 8 x 8 blocks.
  const auto bounds = AllToAllBounds(16, {2, 2, 4}, 1 << 20, kLink, kLink);
  EXPECT_NEAR(bounds.injection_ns, 15.0 * (1 << 20) / kLink, 1e-6);
  EXPECT_NEAR(bounds.bisection_ns, 64.0 * (1 << 20) / (8 * kLink), 1e-6);
  EXPECT_DOUBLE_EQ(bounds.bound_ns(), bounds.injection_ns)
      << "one local port binds before the bisection";
}

TEST(CollectiveBounds, AllToAllOnARingOfTwoUsesOneLink) {
  const auto bounds = AllToAllBounds(2, {2}, 1000, kLink, kLink);
  EXPECT_NEAR(bounds.bisection_ns, 1000 / kLink, 1e-9)
      << "1 x 1 block over the one link dimension order uses";
}

TEST(CollectiveBounds, NoBisectionForAnOddLargestDimension) {
  EXPECT_EQ(AllToAllBounds(9, {3, 3}, 1000, kLink, kLink).bisection_ns, 0);
  EXPECT_EQ(AllToAllBounds(9, {}, 1000, kLink, kLink).bisection_ns, 0)
      << "none but on a torus";
}

TEST(CollectiveBounds, AllReduceSendsTwiceItsShareOfTheBuffer) {
  const auto bounds = AllReduceBounds(64, 1 << 20, kLink);
  EXPECT_NEAR(bounds.injection_ns, 2.0 * 63 / 64 * (1 << 20) / kLink, 1e-6);
  EXPECT_EQ(bounds.bisection_ns, 0);
  EXPECT_EQ(AllReduceBounds(1, 1 << 20, kLink).bound_ns(), 0);
}

}  // namespace
}  // namespace lq::net
