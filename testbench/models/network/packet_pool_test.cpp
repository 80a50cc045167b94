// SPDX-License-Identifier: Apache-2.0
// Tests of the packet pool a fabric's routers share (decision 0053): an
// entry lives while anything holds it, and a freed one is reused.
#include "models/network/packet_pool.h"

#include <gtest/gtest.h>

namespace lq::net {
namespace {

TEST(PacketPoolTest, AnEntryLivesUntilItsLastHolderLetsGo) {
  PacketPool pool;
  const uint32_t packet = pool.New();
  pool.bytes(packet).assign({1, 2, 3});
  pool.Hold(packet);  // a chunk on its way
  pool.Release(packet);
  EXPECT_EQ(pool.live(), 1u);
  EXPECT_EQ(pool.bytes(packet), (Bytes{1, 2, 3}));
  pool.Release(packet);
  EXPECT_EQ(pool.live(), 0u);
}

TEST(PacketPoolTest, AFreedEntryIsReusedEmptyWithItsBuffer) {
  PacketPool pool;
  const uint32_t first = pool.New();
  pool.bytes(first).assign(100, 7);
  const size_t capacity = pool.bytes(first).capacity();
  const uint32_t second = pool.New();
  pool.Release(first);
  const uint32_t third = pool.New();
  EXPECT_EQ(third, first);
  EXPECT_NE(second, first);
  EXPECT_TRUE(pool.bytes(third).empty());
  EXPECT_EQ(pool.bytes(third).capacity(), capacity);
  EXPECT_EQ(pool.live(), 2u);
}

}  // namespace
}  // namespace lq::net
