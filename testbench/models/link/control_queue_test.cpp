// SPDX-License-Identifier: Apache-2.0
// Tests of ControlQueue: the transmitter's bounded, ordered queue of link
// control messages (docs/spec/dll.md DLL-11.4).
#include "models/link/control_queue.h"

#include <gtest/gtest.h>

#include "models/flit/control_slot.h"

namespace lq::link {
namespace {

constexpr size_t kSlot = 236;

TEST(ControlQueue, DLL_11_4_OldestFirstEachFromItsCycle) {
  ControlQueue queue(kSlot);
  EXPECT_FALSE(queue.NextCycle().has_value());
  ASSERT_TRUE(queue.Offer(Bytes{1}, 10).value());
  ASSERT_TRUE(queue.Offer(Bytes{2}, 12).value());
  EXPECT_FALSE(queue.Ready(9));
  EXPECT_EQ(queue.NextCycle(), 10u);
  EXPECT_TRUE(queue.Ready(10));
  EXPECT_EQ(flit::ParseControlSlot(queue.Pop()).value(), Bytes{1});
  EXPECT_FALSE(queue.Ready(11));
  EXPECT_EQ(flit::ParseControlSlot(queue.Pop()).value(), Bytes{2});
  EXPECT_FALSE(queue.NextCycle().has_value());
}

TEST(ControlQueue, DLL_11_4_ALaterOfferNeverOvertakes) {
  ControlQueue queue(kSlot);
  ASSERT_TRUE(queue.Offer(Bytes{1}, 20).value());
  ASSERT_TRUE(queue.Offer(Bytes{2}, 15).value());
  queue.Pop();
  EXPECT_EQ(queue.NextCycle(), 20u) << "held back to its predecessor's cycle";
}

TEST(ControlQueue, DLL_11_4_FullQueueDiscardsTheOldestAndCounts) {
  ControlQueue queue(kSlot);
  for (uint8_t m = 0; m < kControlQueueDepth; ++m) {
    ASSERT_TRUE(queue.Offer(Bytes{m}, 0).value());
  }
  EXPECT_FALSE(queue.Offer(Bytes{9}, 5).value()) << "CONTROL_QUEUE is 4";
  EXPECT_EQ(queue.dropped(), 1u);
  for (uint8_t m = 1; m < kControlQueueDepth; ++m) {
    EXPECT_EQ(flit::ParseControlSlot(queue.Pop()).value(), Bytes{m})
        << "the newer messages are kept, in order";
  }
  EXPECT_EQ(queue.NextCycle(), 5u);
  EXPECT_EQ(flit::ParseControlSlot(queue.Pop()).value(), Bytes{9})
      << "the newest is kept: after an outage a PFC XON is not lost behind "
         "stale XOFFs";
}

TEST(ControlQueue, DLL_11_4_MessageTooLongIsTheCallersError) {
  ControlQueue queue(kSlot);
  EXPECT_FALSE(queue.Offer(Bytes(kSlot - 1), 0).ok());
  EXPECT_FALSE(queue.Offer(Bytes{}, 0).ok());
  EXPECT_EQ(queue.dropped(), 0u) << "refused, not dropped";
  EXPECT_FALSE(queue.NextCycle().has_value());
}

}  // namespace
}  // namespace lq::link
