// SPDX-License-Identifier: Apache-2.0
// The Topology interface: nodes, their ports and which port of which node each
// port is cabled to, built from data (docs/spec/net.md, NET-1 and NET-6).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lq::topo {

// A node ID as carried in the routing header (NET-1.3): 16 bits on the wire.
using NodeId = uint32_t;
// A port number within one node (NET-1.4): 8 bits on the wire.
using PortId = uint32_t;
// A VC class: the deadlock-avoidance level of a VC within its VC set (NET-3.2).
using VcClass = uint32_t;

// 0xFFFF is not a node (NET-1.3), so at most 0xFFFF nodes, IDs 0..0xFFFE.
inline constexpr NodeId kMaxNodes = 0xFFFF;
// Port numbers 0..0xFE; 0xFF is "no port" in routing-table entries (NET-5.2).
inline constexpr PortId kMaxPortsPerNode = 0xFF;

// What a node is; the order is the tier used to pick a routing root (NET-5.4).
enum class NodeKind {
  kEndpoint = 0,    // A card: has a router and a local port.
  kEdgeSwitch = 1,  // Fat-tree tiers (NET-6.2).
  kAggregationSwitch = 2,
  kCoreSwitch = 3,
};

// One end of a link: a node and one of its ports.
struct PortRef {
  NodeId node = 0;
  PortId port = 0;
  friend bool operator==(const PortRef& a, const PortRef& b) {
    return a.node == b.node && a.port == b.port;
  }
};

// A network built from data. Endpoints are nodes 0..EndpointCount()-1; any
// switches follow (NET-1.3). An endpoint's network ports are
// 0..PortCount()-1 and its local port is PortCount() (NET-1.4).
class Topology {
 public:
  virtual ~Topology() = default;

  // One line naming the topology and its shape, e.g. "torus 4x8x8".
  virtual std::string Describe() const = 0;
  virtual NodeId NodeCount() const = 0;
  virtual NodeId EndpointCount() const = 0;
  virtual NodeKind Kind(NodeId node) const = 0;
  // Network ports of `node`, cabled or not; the local port is not counted.
  virtual PortId PortCount(NodeId node) const = 0;
  // The far end of the link on (node, port), or nothing if no working link
  // is there (uncabled, a degenerate ring, or failed).
  virtual std::optional<PortRef> Neighbour(NodeId node, PortId port) const = 0;
  // The hierarchical name of a node (NET-1.2), e.g. "node12" or "core3".
  virtual std::string NodeName(NodeId node) const = 0;
  // Coordinates where the topology has them (torus, full mesh), else empty.
  virtual std::vector<uint32_t> Coordinates(NodeId /*node*/) const {
    return {};
  }
  // False for a node that has failed (NET-7); intact topologies say true.
  virtual bool NodeUp(NodeId /*node*/) const { return true; }

  bool IsEndpoint(NodeId node) const {
    return Kind(node) == NodeKind::kEndpoint;
  }
  // The local (injection/ejection) port of an endpoint (NET-1.4).
  PortId LocalPort(NodeId node) const { return PortCount(node); }
  // "node12.port3", or "node12.local" for the local port (NET-1.2).
  std::string PortName(NodeId node, PortId port) const;
  // Cables, bidirectional links: two ports joined by Neighbour.
  size_t CableCount() const;
};

}  // namespace lq::topo
