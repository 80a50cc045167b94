// SPDX-License-Identifier: Apache-2.0
#include "systemc/common/path_breakdown.h"

#include <algorithm>
#include <map>
#include <set>

namespace lq {
namespace {

// Events in time order; at equal times in the order they were recorded,
// which is cause before effect: a component records a boundary before it
// calls the next component, which records its own.
bool Earlier(const PathEvent& a, const PathEvent& b) { return a.ps < b.ps; }

// The layer of the interval from boundary `from` to boundary `to`.
PathLayer LayerOf(PathPoint from, PathPoint to) {
  switch (to) {
    case PathPoint::kIssued:
    case PathPoint::kPosted:
    case PathPoint::kAnswered:
      return PathLayer::kLogical;
    case PathPoint::kFrameSent:
    case PathPoint::kMemoryStart:
    case PathPoint::kCompleted:
      return PathLayer::kTransport;
    case PathPoint::kRouterIn:
      // From a link controller's delivery, or from the engine's interface.
      return from == PathPoint::kLinkOut ? PathLayer::kLink
                                         : PathLayer::kInterface;
    case PathPoint::kFrameReceived:
      return PathLayer::kInterface;
    case PathPoint::kRouterOut:
    case PathPoint::kLinkIn:
      return PathLayer::kRouter;
    case PathPoint::kLinkToPhy:
    case PathPoint::kLinkOut:
      return PathLayer::kLink;
    case PathPoint::kWireIn:
    case PathPoint::kPhyToLink:
      return PathLayer::kPhy;
    case PathPoint::kWireOut:
      return PathLayer::kWire;
    case PathPoint::kMemoryDone:
      return PathLayer::kMemory;
  }
  return PathLayer::kLogical;
}

using Boundary = std::tuple<std::string, unsigned, PathPoint>;

}  // namespace

const char* PathLayerName(PathLayer layer) {
  static constexpr std::array<const char*, kPathLayers> kNames = {
      "logical", "transport", "interface", "router",
      "link",    "PHY",       "wire",      "memory"};
  return kNames[static_cast<size_t>(layer)];
}

uint64_t PathBreakdown::LayerPs(PathLayer layer) const {
  uint64_t ps = 0;
  for (const PathSegment& segment : segments) {
    ps += segment.layer == layer ? segment.ps : 0;
  }
  return ps;
}

uint64_t PathBreakdown::LayerPs(PathLayer layer, unsigned leg) const {
  uint64_t ps = 0;
  for (const PathSegment& segment : segments) {
    ps += segment.layer == layer && segment.leg == leg ? segment.ps : 0;
  }
  return ps;
}

Result<PathBreakdown> BreakDown(const std::vector<PathEvent>& events) {
  std::vector<PathEvent> sorted = events;
  std::stable_sort(sorted.begin(), sorted.end(), Earlier);
  const auto count = [&](PathPoint point) {
    return std::count_if(sorted.begin(), sorted.end(),
                         [&](const PathEvent& e) { return e.point == point; });
  };
  if (count(PathPoint::kIssued) != 1 || count(PathPoint::kAnswered) != 1) {
    return Fail("a breakdown needs exactly one access: the probe saw " +
                std::to_string(count(PathPoint::kIssued)) + " issued and " +
                std::to_string(count(PathPoint::kAnswered)) + " answered");
  }
  if (sorted.front().point != PathPoint::kIssued ||
      sorted.back().point != PathPoint::kAnswered) {
    return Fail("the probe saw traffic before the access or after its answer");
  }

  // Each leg's boundaries at their latest crossing, in time order.
  std::vector<std::vector<PathEvent>> legs(1);
  std::map<Boundary, size_t> latest;  // index into legs.back()
  for (const PathEvent& event : sorted) {
    const Boundary key{event.where, event.port, event.point};
    const auto it = latest.find(key);
    if (it == latest.end()) {
      latest.emplace(key, legs.back().size());
      legs.back().push_back(event);
    } else {
      legs.back()[it->second].ps = event.ps;
    }
    if (event.point == PathPoint::kFrameReceived) {
      legs.emplace_back();
      latest.clear();
    }
  }

  PathBreakdown breakdown;
  breakdown.total_ps = sorted.back().ps - sorted.front().ps;
  const PathEvent* previous = nullptr;
  for (unsigned leg = 0; leg < legs.size(); ++leg) {
    std::stable_sort(legs[leg].begin(), legs[leg].end(), Earlier);
    std::set<std::string> routers;
    unsigned links = 0;
    for (const PathEvent& event : legs[leg]) {
      if (event.point == PathPoint::kRouterOut) {
        routers.insert(event.where);
      }
      links += event.point == PathPoint::kWireOut ? 1 : 0;
      if (previous != nullptr) {
        breakdown.segments.push_back(
            {leg, LayerOf(previous->point, event.point), event.where,
             event.point, event.ps - previous->ps});
      }
      previous = &event;
    }
    breakdown.routers.push_back(static_cast<unsigned>(routers.size()));
    breakdown.links.push_back(links);
  }
  breakdown.legs = static_cast<unsigned>(legs.size());
  return breakdown;
}

}  // namespace lq
