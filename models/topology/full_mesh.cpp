// SPDX-License-Identifier: Apache-2.0
// 2D full-mesh wiring and names.
#include "models/topology/full_mesh.h"

namespace lq::topo {
namespace {

// Inverse of the port rule: the peer index reached through port offset p.
uint32_t PeerIndex(uint32_t self, uint32_t p) { return p < self ? p : p + 1; }

}  // namespace

Result<FullMesh2D> FullMesh2D::Create(uint32_t columns, uint32_t rows) {
  if (columns == 0 || rows == 0) {
    return Fail("fullmesh: both sizes must be at least 1");
  }
  if (columns + rows - 2 >= kMaxPortsPerNode) {
    return Fail("fullmesh: " + std::to_string(columns + rows - 2) +
                " ports per node do not fit 8-bit port numbers");
  }
  if (static_cast<uint64_t>(columns) * rows > kMaxNodes) {
    return Fail("fullmesh: too many nodes for 16-bit node IDs");
  }
  return FullMesh2D(columns, rows);
}

std::string FullMesh2D::Describe() const {
  return "fullmesh " + std::to_string(columns_) + "x" + std::to_string(rows_);
}

std::optional<PortRef> FullMesh2D::Neighbour(NodeId node, PortId port) const {
  if (node >= NodeCount() || port >= PortCount(node)) {
    return std::nullopt;
  }
  const uint32_t column = Column(node);
  const uint32_t row = Row(node);
  if (port < columns_ - 1) {
    const uint32_t peer = PeerIndex(column, port);
    return PortRef{peer + columns_ * row, ColumnPort(peer, column)};
  }
  const uint32_t peer = PeerIndex(row, port - (columns_ - 1));
  return PortRef{column + columns_ * peer, RowPort(peer, row)};
}

std::string FullMesh2D::NodeName(NodeId node) const {
  return "node" + std::to_string(node);
}

}  // namespace lq::topo
