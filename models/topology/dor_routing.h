// Dimension-order routing on a torus with dateline VC classes (NET-4.2).
#pragma once

#include <memory>

#include "models/common/result.h"
#include "models/topology/routing.h"
#include "models/topology/torus.h"

namespace lq::topo {

// Resolves dimensions in order X, Y, Z...; in each ring takes the shorter
// direction, + on a tie. With the dateline on, a packet enters each
// dimension on VC class 0 and moves to class 1 on the wrap link between
// coordinates k-1 and 0 (NET-3.3). With it off every hop uses class 0, which
// deadlocks on rings of 3 or more (kept to show the channel-dependency check
// and the deadlock watchdog failing).
class DorRouting : public RoutingFunction {
 public:
  DorRouting(std::shared_ptr<const Torus> torus, bool dateline);

  std::string Name() const override { return "dor"; }
  VcClass VcClasses() const override { return dateline_ ? 2 : 1; }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;

 private:
  std::shared_ptr<const Torus> torus_;
  bool dateline_;
};

}  // namespace lq::topo
