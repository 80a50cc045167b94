// SPDX-License-Identifier: Apache-2.0
// Table routing (NET-5): per-node tables, destination x VC class x phase ->
// output port + VC class, as the fabric manager computes and programs them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/common/result.h"
#include "models/topology/routing.h"
#include "models/topology/updown_order.h"

namespace lq::topo {

// One 16-bit routing-table entry (NET-5.2): bit 15 VALID, bits 9:8 the
// output VC class, bits 7:0 the output port.
struct TableEntry {
  static constexpr uint16_t kValid = 0x8000;
  static constexpr unsigned kClassShift = 8;
  static constexpr uint16_t kClassMask = 0x3;
  static constexpr uint16_t kPortMask = 0xFF;

  uint16_t raw = 0;

  static TableEntry Make(PortId port, VcClass vc) {
    return TableEntry{static_cast<uint16_t>(
        kValid | ((vc & kClassMask) << kClassShift) | (port & kPortMask))};
  }
  bool valid() const { return (raw & kValid) != 0; }
  PortId port() const { return raw & kPortMask; }
  VcClass vc() const { return (raw >> kClassShift) & kClassMask; }
};

// Whether the hop into the current node was an up or a down hop (NET-5.3).
enum class Phase : uint32_t { kUp = 0, kDown = 1 };

// Escalated up*/down* (NET-5.4): within one VC class a path climbs then
// descends; taking an up hop after a down hop moves the packet to the next
// class. Among shortest such paths, ties go to candidate (dst mod count) in
// ascending (port) order, spreading destinations over equal paths.
class TableRouting : public RoutingFunction {
 public:
  static constexpr VcClass kDefaultClasses = 2;
  static constexpr VcClass kMaxClasses = TableEntry::kClassMask + 1;

  // Computes every node's table for `topology` (which may be a
  // DegradedTopology). Fails on a bad class count or root.
  static Result<std::unique_ptr<TableRouting>> Build(
      std::shared_ptr<const Topology> topology, VcClass classes,
      std::optional<NodeId> root);

  std::string Name() const override { return "table"; }
  VcClass VcClasses() const override { return classes_; }
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;

  // The entry node `node` holds for (dst, class, phase), i.e. what the
  // fabric manager writes at index (dst * classes + vc) * 2 + phase.
  TableEntry Entry(NodeId node, NodeId dst, VcClass vc, Phase phase) const {
    return entries_[Index(node, dst, vc, phase)];
  }
  // The per-port orientation bit the fabric manager programs (NET-5.3).
  bool PortLeadsUp(NodeId node, PortId port) const {
    return port_up_[port_offset_[node] + port];
  }
  const UpDownOrder& order() const { return order_; }
  // Memory the tables of all nodes occupy.
  size_t TableBytes() const { return entries_.size() * sizeof(TableEntry); }

 private:
  TableRouting(std::shared_ptr<const Topology> topology, VcClass classes,
               UpDownOrder order);
  size_t Index(NodeId node, NodeId dst, VcClass vc, Phase phase) const {
    const size_t nodes = topology().NodeCount();
    return ((static_cast<size_t>(dst) * nodes + node) * classes_ + vc) * 2 +
           static_cast<size_t>(phase);
  }
  // One destination's column of every table: distances from each (node,
  // class, phase) state to dst, then the chosen next step of each state.
  void BuildDestination(NodeId dst, std::vector<uint16_t>& distance,
                        std::vector<uint32_t>& queue);
  void ComputeDistances(NodeId dst, std::vector<uint16_t>& distance,
                        std::vector<uint32_t>& queue) const;
  // pick[count] is dst mod count: which of `count` equal next steps to use.
  using PickTable = std::array<uint8_t, kMaxPortsPerNode + 1>;
  TableEntry ChooseEntry(const PickTable& pick, NodeId node, VcClass vc,
                         Phase phase,
                         const std::vector<uint16_t>& distance) const;
  uint32_t State(NodeId node, VcClass vc, Phase phase) const;

  // One cabled, working port of a node, with the orientation of its link.
  struct Link {
    NodeId peer;
    PortId peer_port;  // The peer's port that leads back here.
    PortId port;
    bool peer_above;
  };

  VcClass classes_;
  UpDownOrder order_;
  std::vector<size_t> link_offset_;  // links_ of node n: [n], [n+1).
  std::vector<Link> links_;          // In port order.
  // The same links with peers below first; node n's peers above start at
  // bfs_split_[n]. Offsets as for links_.
  std::vector<Link> bfs_links_;
  std::vector<size_t> bfs_split_;
  std::vector<size_t> port_offset_;
  std::vector<bool> port_up_;
  std::vector<TableEntry> entries_;  // Destination-major, see Index().
};

}  // namespace lq::topo
