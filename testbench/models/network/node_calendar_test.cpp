// SPDX-License-Identifier: Apache-2.0
// Tests of the calendar the cycle kernel's sources act by
// (models/network/node_calendar.h): each cycle's nodes in ascending order,
// whether they were added for a cycle within its wheel or far beyond it.
#include "models/network/node_calendar.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace lq::net {
namespace {

using Nodes = std::vector<uint32_t>;

Nodes Take(NodeCalendar& calendar, uint64_t cycle) {
  Nodes due;
  calendar.Take(cycle, due);
  return due;
}

TEST(NodeCalendar, TakesACyclesNodesInAscendingOrderOnce) {
  NodeCalendar calendar(200);
  for (const uint32_t node : {130u, 3u, 64u, 199u, 0u}) {
    calendar.Add(0, node);
  }
  calendar.Add(1, 5);
  EXPECT_EQ(Take(calendar, 0), (Nodes{0, 3, 64, 130, 199}));
  EXPECT_EQ(Take(calendar, 1), (Nodes{5}));
  EXPECT_TRUE(Take(calendar, 2).empty());
}

// A node added for a cycle past the wheel waits until the wheel reaches
// it, and comes out in order among the nodes added within it.
TEST(NodeCalendar, KeepsCyclesBeyondItsWheelUntilTheirTurn) {
  NodeCalendar calendar(70);
  calendar.Add(100000, 69);
  calendar.Add(3, 1);
  Nodes seen;
  uint64_t last = 0;
  for (uint64_t cycle = 0; cycle <= 100000; ++cycle) {
    const Nodes due = Take(calendar, cycle);
    if (!due.empty()) {
      seen.insert(seen.end(), due.begin(), due.end());
      last = cycle;
    }
    if (cycle == 99990) {
      calendar.Add(100000, 2);  // within the wheel by now
    }
  }
  EXPECT_EQ(seen, (Nodes{1, 2, 69}));
  EXPECT_EQ(last, 100000u);
}

// A node comes back cycle after cycle, each time some cycles ahead of the
// one it acts in, as a Bernoulli source does, round the wheel many times.
TEST(NodeCalendar, ANodeAddedAgainEachTimeItActsComesAtEachCycle) {
  NodeCalendar calendar(1);
  calendar.Add(0, 0);
  std::vector<uint64_t> acted;
  for (uint64_t cycle = 0; cycle < 2000; ++cycle) {
    if (!Take(calendar, cycle).empty()) {
      acted.push_back(cycle);
      calendar.Add(cycle + 1 + cycle % 300, 0);
    }
  }
  std::vector<uint64_t> expected{0};
  while (true) {
    const uint64_t next = expected.back() + 1 + expected.back() % 300;
    if (next >= 2000) {
      break;
    }
    expected.push_back(next);
  }
  EXPECT_EQ(acted, expected);
}

}  // namespace
}  // namespace lq::net
