// SPDX-License-Identifier: Apache-2.0
// Torus wiring: coordinates, wrap-around neighbours and names (NET-6.1).
#include "models/topology/torus.h"

namespace lq::topo {

Result<Torus> Torus::Create(const std::vector<uint32_t>& sizes) {
  if (sizes.empty() || sizes.size() > kMaxDimensions) {
    return Fail("torus: needs 1.." + std::to_string(kMaxDimensions) +
                " dimensions, got " + std::to_string(sizes.size()));
  }
  uint64_t nodes = 1;
  for (uint32_t size : sizes) {
    if (size == 0) {
      return Fail("torus: a dimension of size 0 has no nodes");
    }
    nodes *= size;
    if (nodes > kMaxNodes) {
      return Fail("torus: more than " + std::to_string(kMaxNodes) +
                  " nodes do not fit 16-bit node IDs");
    }
  }
  return Torus(sizes);
}

Torus::Torus(std::vector<uint32_t> sizes) : sizes_(std::move(sizes)) {
  NodeId stride = 1;
  for (uint32_t size : sizes_) {
    strides_.push_back(stride);
    stride *= size;
  }
  node_count_ = stride;
  unsigned bit = 0;
  for (size_t dim = 0; dim < sizes_.size(); ++dim) {
    unsigned width = 0;
    while ((uint32_t{1} << width) < sizes_[dim]) {
      ++width;
    }
    shift_[dim] = bit;
    mask_[dim] = (uint32_t{1} << width) - 1;
    for (unsigned b = bit; b < bit + width; ++b) {
      dimension_of_bit_[b] = static_cast<uint8_t>(dim);
    }
    bit += width;
  }
  dimension_of_bit_[kAlike] = static_cast<uint8_t>(sizes_.size());
  packed_.resize(node_count_);
  for (NodeId node = 0; node < node_count_; ++node) {
    for (size_t dim = 0; dim < sizes_.size(); ++dim) {
      packed_[node] |= (node / strides_[dim]) % sizes_[dim] << shift_[dim];
    }
  }
}

std::string Torus::Describe() const {
  std::string shape;
  for (uint32_t size : sizes_) {
    shape += (shape.empty() ? "" : "x") + std::to_string(size);
  }
  return "torus " + shape;
}

std::optional<PortRef> Torus::Neighbour(NodeId node, PortId port) const {
  const size_t dim = DimensionOf(port);
  if (node >= node_count_ || dim >= sizes_.size() || sizes_[dim] == 1) {
    return std::nullopt;
  }
  const uint32_t size = sizes_[dim];
  const uint32_t here = Coordinate(node, dim);
  const uint32_t there =
      IsPlus(port) ? (here + 1) % size : (here + size - 1) % size;
  const NodeId far = node - here * strides_[dim] + there * strides_[dim];
  // A link leaving on +d arrives on the far node's -d port and vice versa.
  return PortRef{far, IsPlus(port) ? MinusPort(dim) : PlusPort(dim)};
}

std::string Torus::NodeName(NodeId node) const {
  return "node" + std::to_string(node);
}

std::vector<uint32_t> Torus::Coordinates(NodeId node) const {
  std::vector<uint32_t> coordinates;
  for (size_t dim = 0; dim < sizes_.size(); ++dim) {
    coordinates.push_back(Coordinate(node, dim));
  }
  return coordinates;
}

NodeId Torus::NodeAt(const std::vector<uint32_t>& coordinates) const {
  NodeId node = 0;
  for (size_t dim = 0; dim < sizes_.size(); ++dim) {
    node += coordinates[dim] * strides_[dim];
  }
  return node;
}

}  // namespace lq::topo
