// SPDX-License-Identifier: Apache-2.0
// BFS levels for the up*/down* orientation.
#include "models/topology/updown_order.h"

namespace lq::topo {
namespace {

// Root preference: higher tier first (a fat-tree's core), then lower ID.
bool BetterRoot(const Topology& topology, NodeId a, NodeId b) {
  const int tier_a = static_cast<int>(topology.Kind(a));
  const int tier_b = static_cast<int>(topology.Kind(b));
  return tier_a != tier_b ? tier_a > tier_b : a < b;
}

// Visits the component of `start`, calling visit(node, level) in BFS order.
template <typename Visit>
void Bfs(const Topology& topology, NodeId start, std::vector<uint32_t>& level,
         Visit visit) {
  std::vector<NodeId> queue{start};
  level[start] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeId node = queue[head];
    visit(node);
    for (PortId port = 0; port < topology.PortCount(node); ++port) {
      const std::optional<PortRef> far = topology.Neighbour(node, port);
      if (far && level[far->node] == UpDownOrder::kUnreached) {
        level[far->node] = level[node] + 1;
        queue.push_back(far->node);
      }
    }
  }
}

}  // namespace

Result<UpDownOrder> UpDownOrder::Compute(const Topology& topology,
                                         std::optional<NodeId> root) {
  const NodeId nodes = topology.NodeCount();
  if (root && (*root >= nodes || !topology.NodeUp(*root))) {
    return Fail("up*/down* root " + std::to_string(*root) +
                " is not a working node");
  }
  UpDownOrder order;
  order.level_.assign(nodes, kUnreached);
  if (root) {
    order.roots_.push_back(*root);
    Bfs(topology, *root, order.level_, [](NodeId) {});
  }
  // Components without a given root: find each one's best node, then BFS
  // again from it for the levels (the scratch levels are discarded).
  std::vector<uint32_t> scratch = order.level_;
  for (NodeId start = 0; start < nodes; ++start) {
    if (!topology.NodeUp(start) || scratch[start] != kUnreached) {
      continue;
    }
    NodeId best = start;
    Bfs(topology, start, scratch, [&](NodeId node) {
      if (BetterRoot(topology, node, best)) {
        best = node;
      }
    });
    order.roots_.push_back(best);
    Bfs(topology, best, order.level_, [](NodeId) {});
  }
  return order;
}

}  // namespace lq::topo
