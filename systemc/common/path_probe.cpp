// SPDX-License-Identifier: Apache-2.0
#include "systemc/common/path_probe.h"

namespace lq {

const char* PathPointName(PathPoint point) {
  switch (point) {
    case PathPoint::kIssued:
      return "issued";
    case PathPoint::kPosted:
      return "posted";
    case PathPoint::kFrameSent:
      return "frame sent";
    case PathPoint::kRouterIn:
      return "router in";
    case PathPoint::kRouterOut:
      return "router out";
    case PathPoint::kLinkIn:
      return "link in";
    case PathPoint::kLinkToPhy:
      return "link to PHY";
    case PathPoint::kWireIn:
      return "wire in";
    case PathPoint::kWireOut:
      return "wire out";
    case PathPoint::kPhyToLink:
      return "PHY to link";
    case PathPoint::kLinkOut:
      return "link out";
    case PathPoint::kFrameReceived:
      return "frame received";
    case PathPoint::kMemoryStart:
      return "memory start";
    case PathPoint::kMemoryDone:
      return "memory done";
    case PathPoint::kCompleted:
      return "completed";
    case PathPoint::kAnswered:
      return "answered";
  }
  return "?";
}

void PathProbe::Record(const sc_core::sc_object& where, PathPoint point,
                       const sc_core::sc_time& delay, unsigned port) {
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  events_.push_back(
      {static_cast<uint64_t>(at.value()), where.name(), port, point});
}

}  // namespace lq
