// SPDX-License-Identifier: Apache-2.0
// Hop-count analytics over all endpoint pairs: the figures NET-6.4 states
// for tori (average hops, diameter), from routes or from shortest paths.
#pragma once

#include <cstddef>

#include "models/common/result.h"
#include "models/topology/routing.h"

namespace lq::topo {

// Hop counts over every ordered pair of working endpoints.
struct HopStats {
  size_t endpoints = 0;
  double mean_including_self = 0;  // Self pairs count as 0 hops.
  double mean_excluding_self = 0;
  size_t max_hops = 0;  // The diameter along these paths.
};

// Hops along the routes `routing` chooses; fails if any pair has no route.
Result<HopStats> RouteHopStats(const RoutingFunction& routing);

// Hops along shortest paths of the working graph (BFS), for comparing a
// routing function's paths with the minimum. Fails if the graph is split.
Result<HopStats> ShortestHopStats(const Topology& topology);

}  // namespace lq::topo
