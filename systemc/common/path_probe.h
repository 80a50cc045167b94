// SPDX-License-Identifier: Apache-2.0
// PathProbe: instrumentation that follows one access down the stack and
// back. Every component on the path of a remote access (logical unit,
// transport engine, router, link controller, PHY) reports to the probe,
// when one is attached, the simulated time at which a packet's bytes cross
// one of its boundaries. Components report packets, never idle, training
// or link-control flits, so that on an otherwise idle fabric every event
// belongs to the access under study; PathBreakdown turns the events into
// time per layer. Without a probe a component pays one pointer test per
// boundary.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

namespace lq {

// The boundaries, in the order a request meets them on its way out. The
// interval that ends at a point is spent in the layer PathLayerBefore()
// names.
enum class PathPoint : uint8_t {
  kIssued,         // an access enters the logical unit
  kPosted,         // the unit posts a work request to its transport engine
  kFrameSent,      // the engine hands a frame to its network interface
  kRouterIn,       // a packet's slot enters a router port (port = input)
  kRouterOut,      // a slot leaves a router port (port = output)
  kLinkIn,         // a slot enters a link controller from the network
  kLinkToPhy,      // a payload flit leaves the controller for its PHY
  kWireIn,         // that flit's last bit is on the wire
  kWireOut,        // its last bit reached the far PHY
  kPhyToLink,      // the far PHY hands the decoded flit to its controller
  kLinkOut,        // a slot leaves a link controller for the network
  kFrameReceived,  // the engine takes a whole frame from its interface
  kMemoryStart,    // the engine's DMA starts a memory access
  kMemoryDone,     // and ends it
  kCompleted,      // the engine completes a work request to the unit
  kAnswered,       // the unit answers the access
};

const char* PathPointName(PathPoint point);

// One boundary crossing: where (a component's hierarchical name and, for
// routers, the port) and when, in ps of simulated time.
struct PathEvent {
  uint64_t ps = 0;
  std::string where;
  unsigned port = 0;
  PathPoint point = PathPoint::kIssued;
};

class PathProbe {
 public:
  // Records `point` at `where` (port `port`) `delay` past the kernel's
  // current time; components that run ahead of the kernel annotate it.
  void Record(const sc_core::sc_object& where, PathPoint point,
              const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME,
              unsigned port = 0);
  void Clear() { events_.clear(); }
  // In the order they were recorded, which need not be time order.
  const std::vector<PathEvent>& events() const { return events_; }

 private:
  std::vector<PathEvent> events_;
};

// For components: records through `probe` if there is one.
inline void Probe(PathProbe* probe, const sc_core::sc_object& where,
                  PathPoint point,
                  const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME,
                  unsigned port = 0) {
  if (probe != nullptr) {
    probe->Record(where, point, delay, port);
  }
}

}  // namespace lq
