// SPDX-License-Identifier: Apache-2.0
// Fat-tree up/down decisions per switch tier.
#include "models/topology/updown_routing.h"

namespace lq::topo {

UpDownRouting::UpDownRouting(std::shared_ptr<const FatTree> tree)
    : RoutingFunction(tree), tree_(std::move(tree)) {}

Result<RouteStep> UpDownRouting::Route(NodeId current, PortId /*in_port*/,
                                       VcClass /*in_vc*/, NodeId dst) const {
  const FatTree& tree = *tree_;
  if (current >= tree.NodeCount() || dst >= tree.EndpointCount()) {
    return Fail("updown: node out of range or destination not a host");
  }
  const uint32_t half = tree.HalfK();
  const uint32_t dst_edge = tree.EdgeIndexOfHost(dst);
  const uint32_t dst_pod = tree.PodOf(dst);
  // Destination-derived choices spread different destinations over the
  // parallel up links while keeping each destination's route fixed.
  const PortId up_at_edge = half + dst % half;
  const PortId up_at_aggregation = half + (dst / half) % half;
  switch (tree.Kind(current)) {
    case NodeKind::kEndpoint:
      return RouteStep{current == dst ? tree.LocalPort(current) : 0, 0};
    case NodeKind::kEdgeSwitch:
      if (tree.TierIndex(current) == dst_edge) {
        return RouteStep{dst % half, 0};
      }
      return RouteStep{up_at_edge, 0};
    case NodeKind::kAggregationSwitch:
      if (tree.PodOf(current) == dst_pod) {
        return RouteStep{dst_edge % half, 0};
      }
      return RouteStep{up_at_aggregation, 0};
    case NodeKind::kCoreSwitch:
      return RouteStep{dst_pod, 0};
  }
  return Fail("updown: unknown node kind");
}

}  // namespace lq::topo
