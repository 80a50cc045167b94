// SPDX-License-Identifier: Apache-2.0
// ManagementTree: BFS from the fabric manager's node.
#include "models/topology/management_tree.h"

#include <algorithm>
#include <string>

namespace lq::topo {

Result<ManagementTree> ManagementTree::Compute(const Topology& topology,
                                               NodeId root) {
  const NodeId nodes = topology.NodeCount();
  if (root >= nodes || !topology.NodeUp(root)) {
    return Error{"management tree: root node " + std::to_string(root) +
                 " does not exist or is down"};
  }
  ManagementTree tree;
  tree.root_ = root;
  tree.depth_.assign(nodes, kUnreached);
  tree.parent_.assign(nodes, root);
  tree.parent_port_.assign(nodes, kNoPort);
  tree.down_port_.assign(nodes, kNoPort);
  tree.depth_[root] = 0;
  tree.order_.push_back(root);
  for (size_t next = 0; next < tree.order_.size(); ++next) {
    const NodeId node = tree.order_[next];
    for (PortId p = 0; p < topology.PortCount(node); ++p) {
      const auto far = topology.Neighbour(node, p);
      if (!far || !topology.NodeUp(far->node) || tree.Reached(far->node)) {
        continue;
      }
      if (tree.depth_[node] + 1 > kMaxDepth) {
        return Error{"management tree: " + topology.NodeName(far->node) +
                     " lies more than 58 hops from the fabric manager "
                     "(NET-7.5)"};
      }
      tree.depth_[far->node] = tree.depth_[node] + 1;
      tree.parent_[far->node] = node;
      tree.parent_port_[far->node] = far->port;
      tree.down_port_[far->node] = p;
      tree.order_.push_back(far->node);
    }
  }
  return tree;
}

std::optional<std::vector<PortId>> ManagementTree::RouteTo(NodeId node) const {
  if (!Reached(node)) {
    return std::nullopt;
  }
  std::vector<PortId> route;
  for (NodeId n = node; n != root_; n = parent_[n]) {
    route.push_back(down_port_[n]);
  }
  std::reverse(route.begin(), route.end());
  return route;
}

}  // namespace lq::topo
