// SPDX-License-Identifier: Apache-2.0
// Tests of FifoVector: a queue in one vector, against std::deque through
// runs long enough to make it drop what it took out many times.
#include "models/common/fifo_vector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace lq {
namespace {

template <typename T>
std::vector<T> Waiting(const FifoVector<T>& queue) {
  return {queue.begin(), queue.end()};
}

TEST(FifoVectorTest, ItemsLeaveInTheOrderTheyCame) {
  FifoVector<int> queue;
  EXPECT_TRUE(queue.empty());
  const std::vector<int> items = {1, 2, 3, 4};
  queue.append(items.begin(), items.end());
  queue.push_back(5);
  queue.pop_front(2);
  EXPECT_EQ(queue.front(), 3);
  EXPECT_EQ(Waiting(queue), (std::vector<int>{3, 4, 5}));
  queue.insert(queue.begin() + 1, 9);  // among the waiting
  EXPECT_EQ(Waiting(queue), (std::vector<int>{3, 9, 4, 5}));
  queue.pop_front(4);
  EXPECT_TRUE(queue.empty());
  queue.push_back(6);
  EXPECT_EQ(Waiting(queue), (std::vector<int>{6}));
}

// Bytes appended and taken a slot at a time, as a VC's stream is, with an
// item now and then placed among those waiting.
TEST(FifoVectorTest, MatchesADequeThroughALongRun) {
  FifoVector<uint8_t> queue;
  std::deque<uint8_t> reference;
  std::mt19937 random(11);
  for (int step = 0; step < 20000; ++step) {
    const size_t count = random() % 300;
    for (size_t k = 0; k < count; ++k) {
      const auto byte = static_cast<uint8_t>(random());
      queue.push_back(byte);
      reference.push_back(byte);
    }
    if (!reference.empty() && random() % 4 == 0) {
      const size_t at = random() % reference.size();
      const auto byte = static_cast<uint8_t>(random());
      queue.insert(queue.begin() + static_cast<std::ptrdiff_t>(at), byte);
      reference.insert(reference.begin() + static_cast<std::ptrdiff_t>(at),
                       byte);
    }
    const size_t take = std::min<size_t>(random() % 300, reference.size());
    queue.pop_front(take);
    reference.erase(reference.begin(),
                    reference.begin() + static_cast<std::ptrdiff_t>(take));
    ASSERT_EQ(queue.size(), reference.size()) << "step " << step;
    ASSERT_TRUE(std::equal(queue.begin(), queue.end(), reference.begin()))
        << "step " << step;
  }
}

}  // namespace
}  // namespace lq
