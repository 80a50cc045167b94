// SPDX-License-Identifier: Apache-2.0
// Failure bookkeeping for DegradedTopology.
#include "models/topology/degraded_topology.h"

namespace lq::topo {

DegradedTopology::DegradedTopology(std::shared_ptr<const Topology> base)
    : base_(std::move(base)), node_down_(base_->NodeCount(), false) {
  size_t ports = 0;
  for (NodeId node = 0; node < base_->NodeCount(); ++node) {
    port_offset_.push_back(ports);
    ports += base_->PortCount(node);
  }
  link_down_.assign(ports, false);
}

Result<std::shared_ptr<const DegradedTopology>> DegradedTopology::Create(
    std::shared_ptr<const Topology> base, const FailureSet& failures) {
  std::shared_ptr<DegradedTopology> view(new DegradedTopology(base));
  for (NodeId node : failures.nodes) {
    if (node >= base->NodeCount()) {
      return Fail("failed node " + std::to_string(node) + " does not exist");
    }
    view->node_down_[node] = true;
  }
  for (const PortRef& end : failures.links) {
    const std::optional<PortRef> far = end.node < base->NodeCount()
                                           ? base->Neighbour(end.node, end.port)
                                           : std::nullopt;
    if (!far) {
      return Fail("failed link " + std::to_string(end.node) + "." +
                  std::to_string(end.port) + " is not a cabled port");
    }
    view->link_down_[view->PortIndex(end.node, end.port)] = true;
    view->link_down_[view->PortIndex(far->node, far->port)] = true;
    ++view->failed_links_;
  }
  return std::shared_ptr<const DegradedTopology>(std::move(view));
}

std::string DegradedTopology::Describe() const {
  size_t nodes_down = 0;
  for (bool down : node_down_) {
    nodes_down += down ? 1 : 0;
  }
  return base_->Describe() + " with " + std::to_string(failed_links_) +
         " failed links and " + std::to_string(nodes_down) + " failed nodes";
}

std::optional<PortRef> DegradedTopology::Neighbour(NodeId node,
                                                   PortId port) const {
  if (node >= NodeCount() || port >= PortCount(node) || node_down_[node] ||
      link_down_[PortIndex(node, port)]) {
    return std::nullopt;
  }
  const std::optional<PortRef> far = base_->Neighbour(node, port);
  if (!far || node_down_[far->node]) {
    return std::nullopt;
  }
  return far;
}

}  // namespace lq::topo
