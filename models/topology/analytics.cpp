// SPDX-License-Identifier: Apache-2.0
// All-pairs hop statistics from traced routes and from BFS.
#include "models/topology/analytics.h"

#include <algorithm>
#include <vector>

#include "models/topology/path.h"

namespace lq::topo {
namespace {

// Accumulates hop counts of ordered pairs, self pairs included as zeros.
class HopTally {
 public:
  void Add(size_t hops) {
    total_ += hops;
    max_ = std::max(max_, hops);
  }
  HopStats Finish(size_t endpoints) const {
    HopStats stats;
    stats.endpoints = endpoints;
    const double pairs = static_cast<double>(endpoints) * endpoints;
    stats.mean_including_self = pairs > 0 ? total_ / pairs : 0;
    stats.mean_excluding_self =
        endpoints > 1 ? total_ / (pairs - static_cast<double>(endpoints)) : 0;
    stats.max_hops = max_;
    return stats;
  }

 private:
  double total_ = 0;
  size_t max_ = 0;
};

std::vector<NodeId> WorkingEndpoints(const Topology& topology) {
  std::vector<NodeId> endpoints;
  for (NodeId node = 0; node < topology.EndpointCount(); ++node) {
    if (topology.NodeUp(node)) {
      endpoints.push_back(node);
    }
  }
  return endpoints;
}

}  // namespace

Result<HopStats> RouteHopStats(const RoutingFunction& routing) {
  const std::vector<NodeId> endpoints = WorkingEndpoints(routing.topology());
  HopTally tally;
  Path path;
  for (NodeId src : endpoints) {
    for (NodeId dst : endpoints) {
      Result<bool> traced = TracePathInto(routing, src, dst, path);
      if (!traced) {
        return traced.error();
      }
      tally.Add(path.size());
    }
  }
  return tally.Finish(endpoints.size());
}

Result<HopStats> ShortestHopStats(const Topology& topology) {
  constexpr size_t kUnreached = static_cast<size_t>(-1);
  const std::vector<NodeId> endpoints = WorkingEndpoints(topology);
  HopTally tally;
  std::vector<size_t> distance(topology.NodeCount());
  std::vector<NodeId> queue;
  for (NodeId src : endpoints) {
    std::fill(distance.begin(), distance.end(), kUnreached);
    queue.assign(1, src);
    distance[src] = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
      const NodeId node = queue[head];
      for (PortId port = 0; port < topology.PortCount(node); ++port) {
        const std::optional<PortRef> far = topology.Neighbour(node, port);
        if (far && distance[far->node] == kUnreached) {
          distance[far->node] = distance[node] + 1;
          queue.push_back(far->node);
        }
      }
    }
    for (NodeId dst : endpoints) {
      if (distance[dst] == kUnreached) {
        return Fail("shortest paths: " + topology.NodeName(dst) +
                    " is unreachable from " + topology.NodeName(src));
      }
      tally.Add(distance[dst]);
    }
  }
  return tally.Finish(endpoints.size());
}

}  // namespace lq::topo
