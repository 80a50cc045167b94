// SPDX-License-Identifier: Apache-2.0
// Three-tier k-ary fat-tree after Al-Fares et al. (NET-6.2): k pods of k/2
// edge and k/2 aggregation switches, (k/2)^2 core switches, k^3/4 host slots.
#pragma once

#include "models/common/result.h"
#include "models/topology/topology.h"

namespace lq::topo {

// IDs: hosts 0..E-1, then edge, aggregation and core switches (NET-6.2).
// Host h sits on edge switch h/(k/2) at its down port h%(k/2); slots beyond
// the populated endpoints are left uncabled.
class FatTree : public Topology {
 public:
  // Fails unless k is even and >= 2, 1 <= endpoints <= k^3/4, and every node
  // fits a 16-bit ID.
  static Result<FatTree> Create(uint32_t k, uint32_t endpoints);
  // The smallest even k whose fat-tree holds `endpoints` hosts.
  static uint32_t RadixFor(uint32_t endpoints);

  std::string Describe() const override;
  NodeId NodeCount() const override {
    return endpoints_ + 2 * k_ * half_ + half_ * half_;
  }
  NodeId EndpointCount() const override { return endpoints_; }
  NodeKind Kind(NodeId node) const override;
  PortId PortCount(NodeId node) const override;
  std::optional<PortRef> Neighbour(NodeId node, PortId port) const override;
  std::string NodeName(NodeId node) const override;

  uint32_t k() const { return k_; }
  uint32_t HalfK() const { return half_; }
  // Switch IDs from their index within their tier.
  NodeId EdgeSwitch(uint32_t index) const { return endpoints_ + index; }
  NodeId AggregationSwitch(uint32_t index) const {
    return endpoints_ + k_ * half_ + index;
  }
  NodeId CoreSwitch(uint32_t index) const {
    return endpoints_ + 2 * k_ * half_ + index;
  }
  // A switch's index within its tier (edge and aggregation: pod*(k/2)+j;
  // core: a*(k/2)+i, linked to aggregation switch a of every pod).
  uint32_t TierIndex(NodeId node) const;
  // The pod of a host or of an edge or aggregation switch.
  uint32_t PodOf(NodeId node) const;
  // The edge switch index (pod*(k/2)+j) a host hangs from.
  uint32_t EdgeIndexOfHost(NodeId host) const { return host / half_; }

 private:
  FatTree(uint32_t k, uint32_t endpoints)
      : k_(k), half_(k / 2), endpoints_(endpoints) {}

  uint32_t k_;
  uint32_t half_;
  NodeId endpoints_;
};

}  // namespace lq::topo
