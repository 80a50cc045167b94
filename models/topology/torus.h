// SPDX-License-Identifier: Apache-2.0
// k-ary n-cube torus of any number of dimensions and sizes (NET-6.1).
#pragma once

#include <vector>

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// Node IDs count dimension 0 (X) fastest (NET-6.1). Port 2d leads to +d and
// port 2d+1 to -d; the local port is 2n. A ring of size 1 leaves its two
// ports uncabled; a ring of size 2 has two distinct links between its nodes.
class Torus final : public Topology {
 public:
  static constexpr size_t kMaxDimensions = 8;

  // Fails unless 1..kMaxDimensions sizes, each >= 1, with at most kMaxNodes
  // nodes in all.
  static Result<Torus> Create(const std::vector<uint32_t>& sizes);

  std::string Describe() const override;
  NodeId NodeCount() const override { return node_count_; }
  NodeId EndpointCount() const override { return node_count_; }
  NodeKind Kind(NodeId) const override { return NodeKind::kEndpoint; }
  PortId PortCount(NodeId) const override {
    return static_cast<PortId>(2 * sizes_.size());
  }
  std::optional<PortRef> Neighbour(NodeId node, PortId port) const override;
  std::string NodeName(NodeId node) const override;
  std::vector<uint32_t> Coordinates(NodeId node) const override;

  size_t Dimensions() const { return sizes_.size(); }
  const std::vector<uint32_t>& sizes() const { return sizes_; }
  uint32_t Coordinate(NodeId node, size_t dim) const {
    return (packed_[node] >> shift_[dim]) & mask_[dim];
  }
  // The lowest dimension in which nodes `a` and `b` differ, Dimensions()
  // if they are one node: one lookup, not a loop over the dimensions.
  size_t FirstDifference(NodeId a, NodeId b) const {
    // Bit kAlike is above every field, so it is the lowest set bit only
    // when no coordinate differs.
    return dimension_of_bit_[__builtin_ctz((packed_[a] ^ packed_[b]) |
                                           (uint32_t{1} << kAlike))];
  }
  // Precondition: one coordinate per dimension, each below its size.
  NodeId NodeAt(const std::vector<uint32_t>& coordinates) const;

  static PortId PlusPort(size_t dim) { return static_cast<PortId>(2 * dim); }
  static PortId MinusPort(size_t dim) {
    return static_cast<PortId>(2 * dim + 1);
  }
  static size_t DimensionOf(PortId port) { return port / 2; }
  static bool IsPlus(PortId port) { return port % 2 == 0; }

 private:
  explicit Torus(std::vector<uint32_t> sizes);

  std::vector<uint32_t> sizes_;
  std::vector<NodeId> strides_;  // ID distance of one step in each dimension.
  NodeId node_count_ = 0;
  // Each node's coordinates packed into one word, dimension d in the
  // bits from shift_[d], mask_[d] wide: a dimension of size s takes
  // ceil(log2 s) bits, so all take at most 16 + kMaxDimensions (the
  // sizes' product is at most kMaxNodes), below kAlike.
  static constexpr unsigned kAlike = 31;
  std::vector<uint32_t> packed_;
  uint32_t shift_[kMaxDimensions] = {};
  uint32_t mask_[kMaxDimensions] = {};
  uint8_t dimension_of_bit_[kAlike + 1] = {};  // the field a bit is in
};

}  // namespace lq::topo
