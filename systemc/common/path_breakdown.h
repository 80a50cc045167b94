// SPDX-License-Identifier: Apache-2.0
// PathBreakdown: where the time of one access went, layer by layer, from
// the events a PathProbe recorded while it was the only traffic on the
// fabric (docs/validation.md, "Remote access latency, layer by layer").
//
// Times are those of each packet's last slot: a boundary's time is the
// latest crossing of it, so a packet of several slots is counted once, in
// the layer that serialises it. The path splits into legs, each ending
// where an engine takes a whole frame (the request, then the response),
// and the intervals between consecutive boundaries of a leg telescope: the
// layers' times add up to the access's latency exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "systemc/common/path_probe.h"

namespace lq {

enum class PathLayer : uint8_t {
  kLogical,    // the logical units, both ends
  kTransport,  // the transport engines' processing and DMA set-up
  kInterface,  // network interfaces: frames into and out of the routers
  kRouter,     // router pipelines, input to output
  kLink,       // link controllers: flit packing, CRC, replay buffer, check
  kPhy,        // PHY pipelines, FEC and serialisation
  kWire,       // propagation on the cable
  kMemory,     // the card memory's access time
};
inline constexpr size_t kPathLayers = 8;
const char* PathLayerName(PathLayer layer);

// The interval that ends at boundary `to`, reached from `from`.
struct PathSegment {
  unsigned leg = 0;  // 0: the request's way out; then each answer's
  PathLayer layer = PathLayer::kLogical;
  std::string where;  // the component whose boundary ends it
  PathPoint to = PathPoint::kIssued;
  uint64_t ps = 0;
};

struct PathBreakdown {
  uint64_t total_ps = 0;  // issue to answer
  std::vector<PathSegment> segments;
  unsigned legs = 0;
  std::vector<unsigned> routers;  // routers crossed, per leg
  std::vector<unsigned> links;    // cables crossed, per leg

  // Time of `layer` in leg `leg`, or in every leg.
  uint64_t LayerPs(PathLayer layer) const;
  uint64_t LayerPs(PathLayer layer, unsigned leg) const;
};

// The breakdown of the single access in `events`; an error unless they hold
// exactly one access (one kIssued, then one kAnswered).
Result<PathBreakdown> BreakDown(const std::vector<PathEvent>& events);

}  // namespace lq
