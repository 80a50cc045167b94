// SPDX-License-Identifier: Apache-2.0
// Dimension-order routing decisions, the tie and the dateline rules.
#include "models/topology/dor_routing.h"

namespace lq::topo {

DorRouting::DorRouting(std::shared_ptr<const Torus> torus, Dateline dateline,
                       Tie tie)
    : RoutingFunction(torus),
      torus_(std::move(torus)),
      dateline_(dateline),
      tie_(tie) {}

Result<RouteStep> DorRouting::Route(NodeId current, PortId in_port,
                                    VcClass in_vc, NodeId dst) const {
  return RouteThroughTry(current, in_port, in_vc, dst);
}

bool DorRouting::TryRoute(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst, RouteStep& step) const {
  const Torus& torus = *torus_;
  if (current >= torus.NodeCount() || dst >= torus.NodeCount()) {
    return false;
  }
  const PortId local = torus.LocalPort(current);
  for (size_t dim = 0; dim < torus.Dimensions(); ++dim) {
    const uint32_t here = torus.Coordinate(current, dim);
    const uint32_t there = torus.Coordinate(dst, dim);
    if (here == there) {
      continue;
    }
    const uint32_t size = torus.sizes()[dim];
    const uint32_t ahead = there > here ? there - here : there + size - here;
    // The + way is shorter, or a tie that goes +. A tie is met only on
    // entering the dimension: each hop after it is strictly shorter + or -.
    const bool tie = 2 * ahead == size;
    const bool plus =
        2 * ahead < size || (tie && (tie_ == Tie::kPlus || here % 2 == 0));
    step.port = plus ? Torus::PlusPort(dim) : Torus::MinusPort(dim);
    const bool same_dimension =
        in_port != local && Torus::DimensionOf(in_port) == dim;
    switch (dateline_) {
      case Dateline::kOff:
        step.vc = 0;
        return true;
      case Dateline::kAtWrap: {
        const bool crosses_dateline =
            plus ? here == size - 1 : here == 0;  // The k-1 <-> 0 wrap link.
        step.vc = (same_dimension && in_vc == 1) || crosses_dateline;
        return true;
      }
      case Dateline::kPerDimension: {
        const bool wraps = plus ? there < here : there > here;
        step.vc = same_dimension ? in_vc : VcClass{wraps};
        return true;
      }
    }
  }
  step = RouteStep{local, in_vc};
  return true;
}

}  // namespace lq::topo
