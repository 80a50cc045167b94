// SPDX-License-Identifier: Apache-2.0
// Table computation for escalated up*/down* routing: one reverse BFS per
// destination over (node, VC class, phase) states, then a deterministic
// choice among the equally short next steps.
#include "models/topology/table_routing.h"

#include <array>
#include <limits>

namespace lq::topo {
namespace {

constexpr uint16_t kFar = std::numeric_limits<uint16_t>::max();
constexpr size_t kPhases = 2;

}  // namespace

TableRouting::TableRouting(std::shared_ptr<const Topology> topology,
                           VcClass classes, UpDownOrder order)
    : RoutingFunction(std::move(topology)),
      classes_(classes),
      order_(std::move(order)) {
  const Topology& topo = this->topology();
  for (NodeId node = 0; node < topo.NodeCount(); ++node) {
    link_offset_.push_back(links_.size());
    port_offset_.push_back(port_up_.size());
    for (PortId port = 0; port < topo.PortCount(node); ++port) {
      const std::optional<PortRef> far = topo.Neighbour(node, port);
      const bool peer_above = far && order_.Above(far->node, node);
      port_up_.push_back(peer_above);
      if (far) {
        links_.push_back(Link{far->node, far->port, port, peer_above});
      }
    }
  }
  link_offset_.push_back(links_.size());
  // The same links grouped for the reverse BFS: those whose peer is below
  // the node (hops into it are up hops) first, then those whose peer is
  // above it.
  for (NodeId node = 0; node < topo.NodeCount(); ++node) {
    for (bool peer_above : {false, true}) {
      if (peer_above) {
        bfs_split_.push_back(bfs_links_.size());
      }
      for (size_t i = link_offset_[node]; i < link_offset_[node + 1]; ++i) {
        if (links_[i].peer_above == peer_above) {
          bfs_links_.push_back(links_[i]);
        }
      }
    }
  }
  entries_.resize(static_cast<size_t>(topo.EndpointCount()) * topo.NodeCount() *
                  classes_ * kPhases);
}

Result<std::unique_ptr<TableRouting>> TableRouting::Build(
    std::shared_ptr<const Topology> topology, VcClass classes,
    std::optional<NodeId> root) {
  if (classes < 1 || classes > kMaxClasses) {
    return Fail("table: classes must be 1.." + std::to_string(kMaxClasses));
  }
  Result<UpDownOrder> order = UpDownOrder::Compute(*topology, root);
  if (!order) {
    return order.error();
  }
  std::unique_ptr<TableRouting> routing(
      new TableRouting(std::move(topology), classes, std::move(order).value()));
  const Topology& topo = routing->topology();
  std::vector<uint16_t> distance(topo.NodeCount() * classes * kPhases);
  std::vector<uint32_t> queue;
  queue.reserve(distance.size());
  for (NodeId dst = 0; dst < topo.EndpointCount(); ++dst) {
    if (topo.NodeUp(dst)) {
      routing->BuildDestination(dst, distance, queue);
    }
  }
  return routing;
}

uint32_t TableRouting::State(NodeId node, VcClass vc, Phase phase) const {
  return static_cast<uint32_t>((static_cast<size_t>(node) * classes_ + vc) *
                                   kPhases +
                               static_cast<size_t>(phase));
}

void TableRouting::BuildDestination(NodeId dst, std::vector<uint16_t>& distance,
                                    std::vector<uint32_t>& queue) {
  ComputeDistances(dst, distance, queue);
  // dst mod count for every possible candidate count, one division each.
  PickTable pick{};
  for (size_t count = 1; count < pick.size(); ++count) {
    pick[count] = static_cast<uint8_t>(dst % count);
  }
  for (NodeId node = 0; node < topology().NodeCount(); ++node) {
    for (VcClass vc = 0; vc < classes_; ++vc) {
      for (Phase phase : {Phase::kUp, Phase::kDown}) {
        entries_[Index(node, dst, vc, phase)] =
            ChooseEntry(pick, node, vc, phase, distance);
      }
    }
  }
}

void TableRouting::ComputeDistances(NodeId dst, std::vector<uint16_t>& distance,
                                    std::vector<uint32_t>& queue) const {
  std::fill(distance.begin(), distance.end(), kFar);
  queue.clear();
  // The queue holds states packed as node << 3 | class << 1 | phase, which
  // decodes without division (classes <= 4).
  auto offer = [&](NodeId node, VcClass vc, Phase phase, uint16_t value) {
    uint16_t& slot = distance[State(node, vc, phase)];
    if (slot == kFar) {
      slot = value;
      queue.push_back((node << 3) | (vc << 1) | static_cast<uint32_t>(phase));
    }
  };
  for (VcClass vc = 0; vc < classes_; ++vc) {
    offer(dst, vc, Phase::kUp, 0);
    offer(dst, vc, Phase::kDown, 0);
  }
  // Reverse BFS: which states lead to the popped state in one hop. A state
  // in phase up was entered by an up hop, i.e. from a peer below; one in
  // phase down by a down hop, from a peer above.
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeId node = queue[head] >> 3;
    const VcClass vc = (queue[head] >> 1) & TableEntry::kClassMask;
    const Phase phase = static_cast<Phase>(queue[head] & 1);
    const uint16_t next = distance[State(node, vc, phase)] + 1;
    if (phase == Phase::kUp) {
      for (size_t i = link_offset_[node]; i < bfs_split_[node]; ++i) {
        offer(bfs_links_[i].peer, vc, Phase::kUp, next);
        if (vc > 0) {
          offer(bfs_links_[i].peer, vc - 1, Phase::kDown, next);
        }
      }
    } else {
      for (size_t i = bfs_split_[node]; i < link_offset_[node + 1]; ++i) {
        offer(bfs_links_[i].peer, vc, Phase::kUp, next);
        offer(bfs_links_[i].peer, vc, Phase::kDown, next);
      }
    }
  }
}

TableEntry TableRouting::ChooseEntry(
    const PickTable& pick, NodeId node, VcClass vc, Phase phase,
    const std::vector<uint16_t>& distance) const {
  const uint16_t here = distance[State(node, vc, phase)];
  if (here == 0) {  // Only the destination's own states are at 0.
    return TableEntry::Make(topology().LocalPort(node), vc);
  }
  if (here == kFar) {
    return TableEntry{};
  }
  // Collect, in port order, the hops up*/down* allows from this state that
  // lie on a shortest path (no initialisation: only `count` are written).
  std::array<uint16_t, kMaxPortsPerNode> candidates;  // TableEntry::raw.
  size_t count = 0;
  for (size_t i = link_offset_[node]; i < link_offset_[node + 1]; ++i) {
    const Link& link = links_[i];
    VcClass next_vc = vc;
    if (link.peer_above && phase == Phase::kDown) {
      next_vc = vc + 1;  // A down->up turn escalates (NET-5.4).
      if (next_vc >= classes_) {
        continue;
      }
    }
    const Phase next_phase = link.peer_above ? Phase::kUp : Phase::kDown;
    if (distance[State(link.peer, next_vc, next_phase)] + 1 == here) {
      candidates[count++] = TableEntry::Make(link.port, next_vc).raw;
    }
  }
  // BFS reached `here` from some link, so count >= 1.
  return TableEntry{candidates[pick[count]]};
}

Result<RouteStep> TableRouting::Route(NodeId current, PortId in_port,
                                      VcClass in_vc, NodeId dst) const {
  const Topology& topo = topology();
  if (current >= topo.NodeCount() || dst >= topo.EndpointCount() ||
      in_vc >= classes_ || in_port > topo.PortCount(current)) {
    return Fail("table: node, port or VC class out of range");
  }
  const bool injected = in_port == topo.PortCount(current);
  const Phase phase =
      !injected && PortLeadsUp(current, in_port) ? Phase::kDown : Phase::kUp;
  const TableEntry entry = Entry(current, dst, in_vc, phase);
  if (!entry.valid()) {
    return Fail("table: " + topo.NodeName(current) + " has no route to " +
                topo.NodeName(dst));
  }
  return RouteStep{entry.port(), entry.vc()};
}

}  // namespace lq::topo
