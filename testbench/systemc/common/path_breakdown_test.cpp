// SPDX-License-Identifier: Apache-2.0
// PathBreakdown on hand-made event streams: legs split where an engine
// takes a frame, each boundary counts at its latest crossing, the layers
// add up to the latency, and streams that hold anything but one access are
// refused.
#include "systemc/common/path_breakdown.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lq {
namespace {

// A 1-hop load: request out through two routers and one cable, the home's
// memory, the response back the same way. Times in ns; the request is one
// slot, the response two.
std::vector<PathEvent> OneHopLoad() {
  std::vector<PathEvent> events;
  const auto at = [&](double ns, const std::string& where, PathPoint point,
                      unsigned port = 0) {
    events.push_back({static_cast<uint64_t>(ns * 1000), where, port, point});
  };
  at(0, "n0.logical", PathPoint::kIssued);
  at(2, "n0.logical", PathPoint::kPosted);
  at(2, "n0.transport", PathPoint::kFrameSent);
  at(3, "n0.router", PathPoint::kRouterIn, 6);
  at(7, "n0.router", PathPoint::kRouterOut, 0);
  at(7, "n0.lc0", PathPoint::kLinkIn);
  at(8, "n0.lc0", PathPoint::kLinkToPhy);
  at(20, "n0.phy0", PathPoint::kWireIn);
  at(30, "n1.phy1", PathPoint::kWireOut);
  at(40, "n1.phy1", PathPoint::kPhyToLink);
  at(43, "n1.lc1", PathPoint::kLinkOut);
  at(43, "n1.router", PathPoint::kRouterIn, 1);
  at(47, "n1.router", PathPoint::kRouterOut, 6);
  at(47, "n1.transport", PathPoint::kFrameReceived);
  at(47, "n1.memory", PathPoint::kMemoryStart);
  at(97, "n1.memory", PathPoint::kMemoryDone);
  at(97, "n1.transport", PathPoint::kFrameSent);
  for (const double slot : {0.0, 1.0}) {  // two slots, a cycle apart
    at(98 + slot, "n1.router", PathPoint::kRouterIn, 6);
    at(102 + slot, "n1.router", PathPoint::kRouterOut, 0);
    at(102 + slot, "n1.lc0", PathPoint::kLinkIn);
    at(103 + slot * 2, "n1.lc0", PathPoint::kLinkToPhy);
    at(115 + slot * 2, "n1.phy0", PathPoint::kWireIn);
    at(125 + slot * 2, "n0.phy1", PathPoint::kWireOut);
    at(135 + slot * 2, "n0.phy1", PathPoint::kPhyToLink);
    at(138 + slot * 2, "n0.lc1", PathPoint::kLinkOut);
    at(138 + slot * 2, "n0.router", PathPoint::kRouterIn, 1);
    at(142 + slot * 2, "n0.router", PathPoint::kRouterOut, 6);
  }
  at(144, "n0.transport", PathPoint::kFrameReceived);
  at(144, "n0.transport", PathPoint::kCompleted);
  at(146, "n0.logical", PathPoint::kAnswered);
  return events;
}

TEST(PathBreakdown, LayersAddUpToTheLatencyAtEachPacketsLastSlot) {
  const Result<PathBreakdown> b = BreakDown(OneHopLoad());
  ASSERT_TRUE(b) << b.error().reason;
  EXPECT_EQ(b->total_ps, 146000u);
  EXPECT_EQ(b->legs, 3u);  // request, response, completion
  uint64_t sum = 0;
  for (size_t l = 0; l < kPathLayers; ++l) {
    sum += b->LayerPs(static_cast<PathLayer>(l));
  }
  EXPECT_EQ(sum, b->total_ps);
  EXPECT_EQ(b->routers, (std::vector<unsigned>{2, 2, 0}));
  EXPECT_EQ(b->links, (std::vector<unsigned>{1, 1, 0}));
  EXPECT_EQ(b->LayerPs(PathLayer::kLogical), 4000u);
  // 1 ns out; 2 ns back, the response's second slot a cycle behind.
  EXPECT_EQ(b->LayerPs(PathLayer::kInterface), 3000u);
  EXPECT_EQ(b->LayerPs(PathLayer::kMemory), 50000u);
  EXPECT_EQ(b->LayerPs(PathLayer::kWire, 0), 10000u);
  // The response's second slot waits a flit behind the first in the link
  // controller: that serialisation shows in the link layer.
  EXPECT_EQ(b->LayerPs(PathLayer::kLink, 0), 1000u + 3000u);
  EXPECT_EQ(b->LayerPs(PathLayer::kLink, 1), 2000u + 3000u);
  EXPECT_EQ(b->LayerPs(PathLayer::kRouter, 0), 8000u);
  EXPECT_EQ(b->LayerPs(PathLayer::kPhy), 4u * 11000u);
}

TEST(PathBreakdown, RecordingOrderBreaksTiesInTime) {
  // The link controller hands the slot to the router in the same instant:
  // the interval before the router's input belongs to the link, not to
  // the interface.
  const Result<PathBreakdown> b = BreakDown(OneHopLoad());
  ASSERT_TRUE(b);
  for (const PathSegment& segment : b->segments) {
    if (segment.to == PathPoint::kRouterIn && segment.where == "n1.router" &&
        segment.leg == 0) {
      EXPECT_EQ(segment.layer, PathLayer::kLink);
    }
  }
}

TEST(PathBreakdown, RefusesStreamsThatAreNotOneAccess) {
  std::vector<PathEvent> two = OneHopLoad();
  two.push_back({200000, "n0.logical", 0, PathPoint::kIssued});
  two.push_back({300000, "n0.logical", 0, PathPoint::kAnswered});
  EXPECT_FALSE(BreakDown(two));

  std::vector<PathEvent> after = OneHopLoad();
  after.push_back({500000, "n3.router", 2, PathPoint::kRouterIn});
  const Result<PathBreakdown> refused = BreakDown(after);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().reason.find("after"), std::string::npos);

  EXPECT_FALSE(BreakDown({}));
}

}  // namespace
}  // namespace lq
