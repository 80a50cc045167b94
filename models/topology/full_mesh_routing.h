// SPDX-License-Identifier: Apache-2.0
// Full-mesh routing for UB-Mesh's 2D full mesh (NET-4.5): at most one hop
// per dimension, VL (VC class) = hops taken so far.
#pragma once

#include <memory>

#include "models/common/result.h"
#include "models/topology/full_mesh.h"
#include "models/topology/routing.h"

namespace lq::topo {

// Order kXy resolves X then Y. Order kBalanced sends packets from sources
// whose (column + row) is even X first and the others Y first, spreading
// load over both minimal paths. With two VLs the first hop uses VL0 and the
// second VL1, which keeps either order deadlock-free; with one VL the balanced
// order deadlocks (kept to show the check failing).
class FullMeshRouting : public RoutingFunction {
 public:
  enum class Order { kXy, kBalanced };

  FullMeshRouting(std::shared_ptr<const FullMesh2D> mesh, Order order,
                  VcClass vls);

  std::string Name() const override { return "fullmesh"; }
  VcClass VcClasses() const override { return vls_; }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;

 private:
  std::shared_ptr<const FullMesh2D> mesh_;
  Order order_;
  VcClass vls_;
};

}  // namespace lq::topo
