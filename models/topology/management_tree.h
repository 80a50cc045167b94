// SPDX-License-Identifier: Apache-2.0
// The fabric manager's management tree (docs/spec/net.md NET-7.4): a BFS
// spanning tree of the working graph rooted at the manager's node. Each
// node's parent port is what its MGMT_PARENT_PORT holds; the path down from
// the root is the source route of the manager's messages to it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

class ManagementTree {
 public:
  // A source route has at most this many hops (NET-7.5's SR field).
  static constexpr size_t kMaxDepth = 58;
  static constexpr PortId kNoPort = 0xFF;

  // BFS from `root` over cabled ports whose far node is up, ports in
  // increasing order, so the tree is the same whoever computes it. Fails
  // if the root does not exist or is down, or a reached node lies deeper
  // than kMaxDepth.
  static Result<ManagementTree> Compute(const Topology& topology, NodeId root);

  NodeId root() const { return root_; }
  bool Reached(NodeId node) const { return depth_[node] != kUnreached; }
  // The port toward the root: kNoPort at the root and at unreached nodes.
  PortId ParentPort(NodeId node) const { return parent_port_[node]; }
  // Reached nodes in BFS order, the root first.
  const std::vector<NodeId>& order() const { return order_; }
  // The output port at each hop from the root down to `node` (empty for
  // the root); nothing if the tree does not reach it.
  std::optional<std::vector<PortId>> RouteTo(NodeId node) const;

 private:
  static constexpr uint32_t kUnreached = 0xFFFFFFFF;

  NodeId root_ = 0;
  std::vector<uint32_t> depth_;
  std::vector<NodeId> parent_;
  std::vector<PortId> parent_port_;  // child side
  std::vector<PortId> down_port_;    // parent side, toward the node
  std::vector<NodeId> order_;
};

}  // namespace lq::topo
