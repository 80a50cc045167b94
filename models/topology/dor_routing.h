// SPDX-License-Identifier: Apache-2.0
// Dimension-order routing on a torus with dateline VC classes (NET-4.2).
#pragma once

#include <memory>

#include "models/common/result.h"
#include "models/topology/routing.h"
#include "models/topology/torus.h"

namespace lq::topo {

// Resolves dimensions in order X, Y, Z...; in each ring takes the shorter
// direction. The dateline parameter picks the VC classes: at the wrap link
// between coordinates k-1 and 0 a packet moves from class 0 to class 1
// (kAtWrap, NET-3.3), or it takes class 1 for the whole dimension on
// entering one whose way it will wrap (kPerDimension); with it off every hop
// uses class 0, which deadlocks on rings of 3 or more (kept to show the
// channel-dependency check and the deadlock watchdog failing). A tie at
// distance k/2 goes + (kPlus), or + from an even coordinate and - from an
// odd one (kParity), which loads every link of a ring alike when k is a
// multiple of 4.
class DorRouting : public RoutingFunction {
 public:
  enum class Dateline { kOff, kAtWrap, kPerDimension };
  enum class Tie { kPlus, kParity };

  DorRouting(std::shared_ptr<const Torus> torus, Dateline dateline,
             Tie tie = Tie::kPlus);

  std::string Name() const override { return "dor"; }
  VcClass VcClasses() const override {
    return dateline_ == Dateline::kOff ? 1 : 2;
  }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;
  bool TryRoute(NodeId current, PortId in_port, VcClass in_vc, NodeId dst,
                RouteStep& step) const override;

 private:
  std::shared_ptr<const Torus> torus_;
  Dateline dateline_;
  Tie tie_;
};

}  // namespace lq::topo
