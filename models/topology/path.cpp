// SPDX-License-Identifier: Apache-2.0
// Hop-by-hop path tracing with loop and dead-end detection.
#include "models/topology/path.h"

namespace lq::topo {

Result<bool> TracePathInto(const RoutingFunction& routing, NodeId src,
                           NodeId dst, Path& path) {
  const Topology& topo = routing.topology();
  path.clear();
  for (NodeId end : {src, dst}) {
    if (end >= topo.EndpointCount() || !topo.NodeUp(end)) {
      return Fail("trace: " + std::to_string(end) +
                  " is not a working endpoint");
    }
  }
  // A deterministic route that revisits a (node, input, VC) state loops
  // forever; more hops than there are states proves a revisit.
  const size_t max_hops = routing.InputCount() * routing.VcClasses();
  NodeId node = src;
  PortId in_port = topo.LocalPort(src);
  VcClass vc = 0;
  while (true) {
    Result<RouteStep> step = routing.Route(node, in_port, vc, dst);
    if (!step) {
      return step.error();
    }
    if (step->vc >= routing.VcClasses()) {
      return Fail("trace: " + topo.NodeName(node) + " chose VC class " +
                  std::to_string(step->vc) + " of " +
                  std::to_string(routing.VcClasses()));
    }
    if (topo.IsEndpoint(node) && step->port == topo.LocalPort(node)) {
      if (node != dst) {
        return Fail("trace: delivered at " + topo.NodeName(node) +
                    " instead of " + topo.NodeName(dst));
      }
      return true;
    }
    const std::optional<PortRef> far = topo.Neighbour(node, step->port);
    if (!far) {
      return Fail("trace: " + topo.PortName(node, step->port) +
                  " has no working link");
    }
    if (path.size() == max_hops) {
      return Fail("trace: routing loop from " + topo.NodeName(src) + " to " +
                  topo.NodeName(dst));
    }
    path.push_back(Hop{node, step->port, step->vc});
    node = far->node;
    in_port = far->port;
    vc = step->vc;
  }
}

Result<FarthestEndpoint> FindFarthestEndpoint(const RoutingFunction& routing,
                                              NodeId src) {
  const Topology& topo = routing.topology();
  FarthestEndpoint farthest{src, 0};
  Path path;
  for (NodeId dst = 0; dst < topo.EndpointCount(); ++dst) {
    if (dst == src || !topo.NodeUp(dst)) {
      continue;
    }
    Result<bool> traced = TracePathInto(routing, src, dst, path);
    if (!traced) {
      return traced.error();
    }
    if (path.size() > farthest.hops) {
      farthest = {dst, path.size()};
    }
  }
  return farthest;
}

}  // namespace lq::topo
