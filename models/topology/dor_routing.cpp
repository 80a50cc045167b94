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
  // The first dimension in which the packet is not yet home, found
  // without a branch per dimension: which one it is depends on the
  // packet, so a branch on it would be mispredicted often.
  const size_t dim = torus.FirstDifference(current, dst);
  if (dim == torus.Dimensions()) {
    step = RouteStep{torus.LocalPort(current), in_vc};
    return true;
  }
  const uint32_t here = torus.Coordinate(current, dim);
  const uint32_t there = torus.Coordinate(dst, dim);
  const uint32_t size = torus.sizes()[dim];
  // Which way a packet goes, and whether it wraps, depend on the packet:
  // they are computed as data (bitwise on bools, a ternary on two
  // constants), not as branches, which would be mispredicted often.
  const bool behind = there < here;
  const uint32_t ahead = there - here + (behind ? size : 0u);
  // The + way is shorter, or a tie that goes +. A tie is met only on
  // entering the dimension: each hop after it is strictly shorter + or -.
  const bool tie = 2 * ahead == size;
  const bool plus =
      (2 * ahead < size) | (tie & ((tie_ == Tie::kPlus) | (here % 2 == 0)));
  step.port = static_cast<PortId>(Torus::PlusPort(dim) + !plus);
  const bool same_dimension = (in_port != torus.LocalPort(current)) &
                              (Torus::DimensionOf(in_port) == dim);
  switch (dateline_) {
    case Dateline::kOff:
      step.vc = 0;
      return true;
    case Dateline::kAtWrap: {
      // The k-1 <-> 0 wrap link.
      const bool crosses_dateline =
          (plus & (here == size - 1)) | (!plus & (here == 0));
      step.vc = (same_dimension & (in_vc == 1)) | crosses_dateline;
      return true;
    }
    case Dateline::kPerDimension: {
      const bool wraps = (plus & behind) | (!plus & (there > here));
      // Within a dimension the packet keeps its class, on entering one it
      // takes the wrap's: a select by mask, which GCC would otherwise
      // make a branch.
      const VcClass keep = 0u - VcClass{same_dimension};
      step.vc = (in_vc & keep) | (VcClass{wraps} & ~keep);
      return true;
    }
  }
  return true;
}

}  // namespace lq::topo
