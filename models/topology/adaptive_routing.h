// SPDX-License-Identifier: Apache-2.0
// Minimal adaptive routing on a torus with dor escape classes (NET-4.3).
#pragma once

#include <memory>
#include <vector>

#include "models/common/result.h"
#include "models/topology/dor_routing.h"
#include "models/topology/routing.h"
#include "models/topology/torus.h"

namespace lq::topo {

// Duato's method with an absorbing escape: classes 0 and 1 are `dor` with
// its dateline rule, classes 2 and up (one or two of them) are adaptive. A
// packet in an adaptive class (or just injected) may take any productive
// port on any adaptive class; when none is free the router sends it on
// Route()'s step, the dor step of a packet injected at this node, and from
// then on it follows dor in the escape classes. Route() alone therefore
// traces the escape network, which is dor and acyclic.
class AdaptiveRouting : public RoutingFunction {
 public:
  static constexpr VcClass kAdaptiveClass = 2;  // the lowest adaptive class
  static constexpr VcClass kMaxAdaptiveClasses = 2;

  AdaptiveRouting(std::shared_ptr<const Torus> torus,
                  VcClass adaptive_classes = 1);

  std::string Name() const override { return "adaptive"; }
  VcClass VcClasses() const override {
    return kAdaptiveClass + adaptive_classes_;
  }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;
  bool TryRoute(NodeId current, PortId in_port, VcClass in_vc, NodeId dst,
                RouteStep& step) const override;
  std::optional<VcClass> AdaptiveClass() const override {
    return kAdaptiveClass;
  }
  void AdaptivePorts(NodeId current, NodeId dst,
                     std::vector<PortId>& ports) const override;

 private:
  std::shared_ptr<const Torus> torus_;
  DorRouting escape_;
  VcClass adaptive_classes_;
};

}  // namespace lq::topo
