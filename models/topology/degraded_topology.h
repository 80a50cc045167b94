// SPDX-License-Identifier: Apache-2.0
// A view of a topology with some links and nodes failed (NET-7): what the
// fabric manager computes new routes on.
#pragma once

#include <memory>
#include <vector>

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// What has failed. A link is named by either of its ends.
struct FailureSet {
  std::vector<PortRef> links;
  std::vector<NodeId> nodes;
};

// Same nodes, ports and names as the base; a failed link, and every link of
// a failed node, has no neighbour in either direction.
class DegradedTopology : public Topology {
 public:
  // Fails if a failed node does not exist or a failed link is not cabled.
  static Result<std::shared_ptr<const DegradedTopology>> Create(
      std::shared_ptr<const Topology> base, const FailureSet& failures);

  std::string Describe() const override;
  NodeId NodeCount() const override { return base_->NodeCount(); }
  NodeId EndpointCount() const override { return base_->EndpointCount(); }
  NodeKind Kind(NodeId node) const override { return base_->Kind(node); }
  PortId PortCount(NodeId node) const override {
    return base_->PortCount(node);
  }
  std::optional<PortRef> Neighbour(NodeId node, PortId port) const override;
  std::string NodeName(NodeId node) const override {
    return base_->NodeName(node);
  }
  std::vector<uint32_t> Coordinates(NodeId node) const override {
    return base_->Coordinates(node);
  }
  bool NodeUp(NodeId node) const override { return !node_down_[node]; }

 private:
  explicit DegradedTopology(std::shared_ptr<const Topology> base);
  size_t PortIndex(NodeId node, PortId port) const {
    return port_offset_[node] + port;
  }

  std::shared_ptr<const Topology> base_;
  std::vector<bool> node_down_;
  std::vector<size_t> port_offset_;  // First flat port index of each node.
  std::vector<bool> link_down_;      // By flat port index, both ends marked.
  size_t failed_links_ = 0;
};

}  // namespace lq::topo
