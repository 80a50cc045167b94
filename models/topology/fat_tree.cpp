// SPDX-License-Identifier: Apache-2.0
// Fat-tree wiring: which port of which switch each port is cabled to.
#include "models/topology/fat_tree.h"

namespace lq::topo {

Result<FatTree> FatTree::Create(uint32_t k, uint32_t endpoints) {
  if (k < 2 || k % 2 != 0 || k > kMaxPortsPerNode) {
    return Fail("fattree: k must be even and in 2..254, got " +
                std::to_string(k));
  }
  const uint64_t slots = static_cast<uint64_t>(k) * k * k / 4;
  if (endpoints == 0 || endpoints > slots) {
    return Fail("fattree: k=" + std::to_string(k) + " holds 1.." +
                std::to_string(slots) + " endpoints, asked for " +
                std::to_string(endpoints));
  }
  const uint64_t switches = static_cast<uint64_t>(5) * k * k / 4;
  if (endpoints + switches > kMaxNodes) {
    return Fail("fattree: " + std::to_string(endpoints + switches) +
                " nodes do not fit 16-bit node IDs");
  }
  return FatTree(k, endpoints);
}

uint32_t FatTree::RadixFor(uint32_t endpoints) {
  uint32_t k = 2;
  while (static_cast<uint64_t>(k) * k * k / 4 < endpoints) {
    k += 2;
  }
  return k;
}

std::string FatTree::Describe() const {
  return "fattree k=" + std::to_string(k_) + " with " +
         std::to_string(endpoints_) + " endpoints";
}

NodeKind FatTree::Kind(NodeId node) const {
  const NodeId tier_size = k_ * half_;
  if (node < endpoints_) {
    return NodeKind::kEndpoint;
  }
  if (node < endpoints_ + tier_size) {
    return NodeKind::kEdgeSwitch;
  }
  if (node < endpoints_ + 2 * tier_size) {
    return NodeKind::kAggregationSwitch;
  }
  return NodeKind::kCoreSwitch;
}

PortId FatTree::PortCount(NodeId node) const {
  return Kind(node) == NodeKind::kEndpoint ? 1 : k_;
}

uint32_t FatTree::TierIndex(NodeId node) const {
  return (node - endpoints_) % (k_ * half_);
}

uint32_t FatTree::PodOf(NodeId node) const {
  return Kind(node) == NodeKind::kEndpoint ? node / (half_ * half_)
                                           : TierIndex(node) / half_;
}

std::optional<PortRef> FatTree::Neighbour(NodeId node, PortId port) const {
  if (node >= NodeCount() || port >= PortCount(node)) {
    return std::nullopt;
  }
  const uint32_t index = TierIndex(node);
  switch (Kind(node)) {
    case NodeKind::kEndpoint:
      return PortRef{EdgeSwitch(EdgeIndexOfHost(node)), node % half_};
    case NodeKind::kEdgeSwitch: {
      if (port < half_) {
        const NodeId host = index * half_ + port;
        if (host >= endpoints_) {
          return std::nullopt;
        }
        return PortRef{host, 0};
      }
      const uint32_t pod = index / half_;
      return PortRef{AggregationSwitch(pod * half_ + (port - half_)),
                     index % half_};
    }
    case NodeKind::kAggregationSwitch: {
      const uint32_t pod = index / half_;
      const uint32_t column = index % half_;
      if (port < half_) {
        return PortRef{EdgeSwitch(pod * half_ + port), half_ + column};
      }
      return PortRef{CoreSwitch(column * half_ + (port - half_)), pod};
    }
    case NodeKind::kCoreSwitch: {
      const uint32_t column = index / half_;
      return PortRef{AggregationSwitch(port * half_ + column),
                     half_ + index % half_};
    }
  }
  return std::nullopt;
}

std::string FatTree::NodeName(NodeId node) const {
  switch (Kind(node)) {
    case NodeKind::kEndpoint:
      return "node" + std::to_string(node);
    case NodeKind::kEdgeSwitch:
      return "edge" + std::to_string(TierIndex(node));
    case NodeKind::kAggregationSwitch:
      return "agg" + std::to_string(TierIndex(node));
    case NodeKind::kCoreSwitch:
      return "core" + std::to_string(TierIndex(node));
  }
  return "";
}

}  // namespace lq::topo
