// SPDX-License-Identifier: Apache-2.0
// Tests of SortedQueue: keys leave smallest first, equal ones in the order
// they came, against a multiset through long runs that make it compact.
#include "models/common/sorted_queue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>

namespace lq {
namespace {

TEST(SortedQueueTest, KeysLeaveSmallestFirst) {
  SortedQueue<int> queue;
  for (const int key : {5, 1, 4, 2, 3}) {
    queue.push(key);
  }
  EXPECT_EQ(queue.size(), 5u);
  for (int expected = 1; expected <= 5; ++expected) {
    EXPECT_EQ(queue.front(), expected);
    EXPECT_EQ(queue.pop(), expected);
  }
  EXPECT_TRUE(queue.empty());
}

// A key ordered by its first member only: equal keys keep their order.
struct Due {
  int due;
  int tag;
  bool operator<(const Due& other) const { return due < other.due; }
};

TEST(SortedQueueTest, EqualKeysLeaveInTheOrderTheyCame) {
  SortedQueue<Due> queue;
  queue.push({2, 0});
  queue.push({1, 1});
  queue.push({2, 2});
  queue.push({1, 3});
  for (const int tag : {1, 3, 0, 2}) {
    EXPECT_EQ(queue.pop().tag, tag);
  }
}

// Events due a few steps on, pushed and popped as a model's run would, so
// that the queue never empties and has to drop what it took out.
TEST(SortedQueueTest, MatchesAnOrderedSetThroughALongRun) {
  SortedQueue<std::pair<uint64_t, uint64_t>> queue;
  std::set<std::pair<uint64_t, uint64_t>> reference;
  std::mt19937 random(7);
  uint64_t now = 0;
  uint64_t sequence = 0;
  for (int step = 0; step < 20000; ++step) {
    const int pushes = static_cast<int>(random() % 3);
    for (int k = 0; k < pushes; ++k) {
      const std::pair<uint64_t, uint64_t> key{now + random() % 8, sequence++};
      queue.push(key);
      reference.insert(key);
    }
    while (!reference.empty() && reference.begin()->first <= now) {
      ASSERT_FALSE(queue.empty());
      ASSERT_EQ(queue.pop(), *reference.begin());
      reference.erase(reference.begin());
    }
    ASSERT_EQ(queue.size(), reference.size());
    ++now;
  }
}

}  // namespace
}  // namespace lq
