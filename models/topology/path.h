// SPDX-License-Identifier: Apache-2.0
// Path tracing: follow a routing function hop by hop from a source endpoint
// to a destination endpoint, as packets would (NET-4.1, NET-4.7).
#pragma once

#include <vector>

#include "models/common/result.h"
#include "models/topology/routing.h"

namespace lq::topo {

// One network hop: leave `node` through `port` on VC class `vc`.
struct Hop {
  NodeId node = 0;
  PortId port = 0;
  VcClass vc = 0;
};

// The hops from source to destination; the local-port delivery at the end
// is not a hop. Empty when source == destination.
using Path = std::vector<Hop>;

// Traces src -> dst into `path` (cleared first). Fails with the reason if a
// decision fails, names a VC class the function does not have, uses a port
// with no working link, delivers at the wrong node, or loops.
Result<bool> TracePathInto(const RoutingFunction& routing, NodeId src,
                           NodeId dst, Path& path);

inline Result<Path> TracePath(const RoutingFunction& routing, NodeId src,
                              NodeId dst) {
  Path path;
  Result<bool> traced = TracePathInto(routing, src, dst, path);
  if (!traced) {
    return traced.error();
  }
  return path;
}

// The working endpoint whose path from `src` has the most hops (the lowest
// id among equals), for latency probes of a topology's worst case.
struct FarthestEndpoint {
  NodeId node = 0;
  size_t hops = 0;
};
// `src` itself, at 0 hops, when no other endpoint works; the first failure
// of a trace if one fails.
Result<FarthestEndpoint> FindFarthestEndpoint(const RoutingFunction& routing,
                                              NodeId src);

}  // namespace lq::topo
