// SPDX-License-Identifier: Apache-2.0
// Shared part of every routing function: the topology it is bound to.
#include "models/topology/routing.h"

namespace lq::topo {

RoutingFunction::RoutingFunction(std::shared_ptr<const Topology> topology)
    : topology_(std::move(topology)) {
  for (NodeId node = 0; node < topology_->NodeCount(); ++node) {
    input_count_ += topology_->PortCount(node) + 1;
  }
}

bool RoutingFunction::TryRoute(NodeId current, PortId in_port, VcClass in_vc,
                               NodeId dst, RouteStep& step) const {
  const Result<RouteStep> route = Route(current, in_port, in_vc, dst);
  if (!route) {
    return false;
  }
  step = *route;
  return true;
}

Result<RouteStep> RoutingFunction::RouteThroughTry(NodeId current,
                                                   PortId in_port,
                                                   VcClass in_vc,
                                                   NodeId dst) const {
  RouteStep step;
  if (!TryRoute(current, in_port, in_vc, dst, step)) {
    return Fail(Name() + ": node out of range");
  }
  return step;
}

bool RoutingFunction::ChoosesAdaptively(PortId in_port, VcClass in_class,
                                        PortId out_port,
                                        PortId local_port) const {
  const std::optional<VcClass> adaptive = AdaptiveClass();
  return adaptive && out_port != local_port &&
         (in_port == local_port || in_class >= *adaptive);
}

RoutingFunction::VcRange RoutingFunction::AdaptiveVcs(
    unsigned vc, unsigned vc_classes) const {
  const unsigned set_first = (vc / vc_classes) * vc_classes;
  return {set_first + AdaptiveClass().value(), set_first + VcClasses()};
}

}  // namespace lq::topo
