// SPDX-License-Identifier: Apache-2.0
// Full-mesh dimension choice and VL assignment.
#include "models/topology/full_mesh_routing.h"

namespace lq::topo {

FullMeshRouting::FullMeshRouting(std::shared_ptr<const FullMesh2D> mesh,
                                 Order order, VcClass vls)
    : RoutingFunction(mesh), mesh_(std::move(mesh)), order_(order), vls_(vls) {}

Result<RouteStep> FullMeshRouting::Route(NodeId current, PortId in_port,
                                         VcClass in_vc, NodeId dst) const {
  const FullMesh2D& mesh = *mesh_;
  if (current >= mesh.NodeCount() || dst >= mesh.NodeCount()) {
    return Fail("fullmesh: node out of range");
  }
  const bool injected = in_port == mesh.LocalPort(current);
  if (current == dst) {
    return RouteStep{mesh.LocalPort(current), in_vc};
  }
  const uint32_t column = mesh.Column(current);
  const uint32_t row = mesh.Row(current);
  const bool column_differs = column != mesh.Column(dst);
  const bool row_differs = row != mesh.Row(dst);
  // At injection `current` is the source; odd squares of its checkerboard
  // go Y first.
  const bool y_first =
      injected && order_ == Order::kBalanced && (column + row) % 2 == 1;
  const bool go_x = column_differs && !(y_first && row_differs);
  const PortId port = go_x ? FullMesh2D::ColumnPort(column, mesh.Column(dst))
                           : mesh.RowPort(row, mesh.Row(dst));
  const VcClass vl = injected ? 0 : in_vc + 1;
  return RouteStep{port, vl < vls_ ? vl : vls_ - 1};
}

}  // namespace lq::topo
