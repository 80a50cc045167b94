// SPDX-License-Identifier: Apache-2.0
// The up*/down* link orientation the fabric manager computes on a (possibly
// degraded) graph: BFS levels from a root per connected component (NET-5.4).
#pragma once

#include <optional>
#include <vector>

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// Node u is "above" v when (level, ID) of u is smaller; the hop v->u is then
// an up hop. Every node but a root has a neighbour above it (its BFS
// parent), so climbing to the root and descending reaches every node of a
// component by a legal up*/down* path.
class UpDownOrder {
 public:
  // Roots: `root` if given (it must be up) for its component; every other
  // component's root is its node of highest tier, lowest ID (NET-5.4).
  static Result<UpDownOrder> Compute(const Topology& topology,
                                     std::optional<NodeId> root);

  bool Above(NodeId a, NodeId b) const {
    return level_[a] != level_[b] ? level_[a] < level_[b] : a < b;
  }
  // BFS distance from its component's root; kUnreached for failed nodes.
  uint32_t Level(NodeId node) const { return level_[node]; }
  const std::vector<NodeId>& roots() const { return roots_; }

  static constexpr uint32_t kUnreached = 0xFFFFFFFF;

 private:
  std::vector<uint32_t> level_;
  std::vector<NodeId> roots_;
};

}  // namespace lq::topo
