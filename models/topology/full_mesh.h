// SPDX-License-Identifier: Apache-2.0
// UB-Mesh-style 2D full mesh (NET-6.3): an X-by-Y grid whose every row and
// every column is fully connected, e.g. one 8x8 rack of 64 NPUs [S1].
#pragma once

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// Node (column c, row r) has ID c + X*r. Ports 0..X-2 lead to the other
// columns of its row in increasing order, ports X-1..X+Y-3 to the other rows
// of its column; the local port is X+Y-2 (NET-6.3).
class FullMesh2D : public Topology {
 public:
  // Fails unless both sizes are >= 1, ports fit 8 bits and IDs 16 bits.
  static Result<FullMesh2D> Create(uint32_t columns, uint32_t rows);

  std::string Describe() const override;
  NodeId NodeCount() const override { return columns_ * rows_; }
  NodeId EndpointCount() const override { return NodeCount(); }
  NodeKind Kind(NodeId) const override { return NodeKind::kEndpoint; }
  PortId PortCount(NodeId) const override {
    return (columns_ - 1) + (rows_ - 1);
  }
  std::optional<PortRef> Neighbour(NodeId node, PortId port) const override;
  std::string NodeName(NodeId node) const override;
  std::vector<uint32_t> Coordinates(NodeId node) const override {
    return {Column(node), Row(node)};
  }

  uint32_t columns() const { return columns_; }
  uint32_t rows() const { return rows_; }
  uint32_t Column(NodeId node) const { return node % columns_; }
  uint32_t Row(NodeId node) const { return node / columns_; }
  // The port of a node in column `from` that leads to column `to` (to != from).
  static PortId ColumnPort(uint32_t from, uint32_t to) {
    return to < from ? to : to - 1;
  }
  PortId RowPort(uint32_t from, uint32_t to) const {
    return (columns_ - 1) + (to < from ? to : to - 1);
  }

 private:
  FullMesh2D(uint32_t columns, uint32_t rows)
      : columns_(columns), rows_(rows) {}

  uint32_t columns_;
  uint32_t rows_;
};

}  // namespace lq::topo
