// SPDX-License-Identifier: Apache-2.0
// Adaptive routing's productive ports and its escape steps.
#include "models/topology/adaptive_routing.h"

#include <stdexcept>

namespace lq::topo {

AdaptiveRouting::AdaptiveRouting(std::shared_ptr<const Torus> torus,
                                 VcClass adaptive_classes)
    : RoutingFunction(torus),
      torus_(torus),
      escape_(std::move(torus), DorRouting::Dateline::kAtWrap),
      adaptive_classes_(adaptive_classes) {
  if (adaptive_classes_ < 1 || adaptive_classes_ > kMaxAdaptiveClasses) {
    throw std::invalid_argument(
        "adaptive routing takes 1 or 2 adaptive classes");
  }
}

Result<RouteStep> AdaptiveRouting::Route(NodeId current, PortId in_port,
                                         VcClass in_vc, NodeId dst) const {
  return RouteThroughTry(current, in_port, in_vc, dst);
}

bool AdaptiveRouting::TryRoute(NodeId current, PortId in_port, VcClass in_vc,
                               NodeId dst, RouteStep& step) const {
  if (in_vc >= kAdaptiveClass && current != dst) {
    // Leaving the adaptive class: the escape network as if injected here.
    return escape_.TryRoute(current, torus_->LocalPort(current), 0, dst, step);
  }
  return escape_.TryRoute(current, in_port, in_vc, dst, step);
}

void AdaptiveRouting::AdaptivePorts(NodeId current, NodeId dst,
                                    std::vector<PortId>& ports) const {
  ports.clear();
  const Torus& torus = *torus_;
  for (size_t dim = 0; dim < torus.Dimensions(); ++dim) {
    const uint32_t size = torus.sizes()[dim];
    const uint32_t ahead =
        (torus.Coordinate(dst, dim) + size - torus.Coordinate(current, dim)) %
        size;
    if (ahead == 0) {
      continue;
    }
    // Shorter way round; both ways on a tie (2*ahead == size).
    if (2 * ahead <= size) {
      ports.push_back(Torus::PlusPort(dim));
    }
    if (2 * ahead >= size) {
      ports.push_back(Torus::MinusPort(dim));
    }
  }
}

}  // namespace lq::topo
