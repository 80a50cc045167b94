// SPDX-License-Identifier: Apache-2.0
// ProgrammedTableRouting: a lookup with NET-5.5's checks on what was written.
#include "models/topology/programmed_table.h"

#include <stdexcept>
#include <utility>

namespace lq::topo {

ProgrammedTableRouting::ProgrammedTableRouting(
    std::shared_ptr<const Topology> topology, NodeId node, VcClass classes,
    std::vector<TableEntry> entries, uint32_t port_up)
    : RoutingFunction(std::move(topology)),
      node_(node),
      classes_(classes),
      entries_(std::move(entries)),
      port_up_(port_up) {
  if (entries_.size() != TableSize(this->topology(), classes_)) {
    throw std::invalid_argument("table: wrong number of entries");
  }
}

size_t ProgrammedTableRouting::TableSize(const Topology& topology,
                                         VcClass classes) {
  return static_cast<size_t>(topology.EndpointCount()) * classes * 2;
}

std::vector<TableEntry> ProgrammedTableRouting::EmptyTable(
    const Topology& topology, VcClass classes) {
  return std::vector<TableEntry>(TableSize(topology, classes));
}

std::vector<TableEntry> ProgrammedTableRouting::TableOf(
    const TableRouting& tables, NodeId node) {
  std::vector<TableEntry> table;
  const VcClass classes = tables.VcClasses();
  table.reserve(TableSize(tables.topology(), classes));
  for (NodeId dst = 0; dst < tables.topology().EndpointCount(); ++dst) {
    for (VcClass vc = 0; vc < classes; ++vc) {
      table.push_back(tables.Entry(node, dst, vc, Phase::kUp));
      table.push_back(tables.Entry(node, dst, vc, Phase::kDown));
    }
  }
  return table;
}

uint32_t ProgrammedTableRouting::PortUpOf(const TableRouting& tables,
                                          NodeId node) {
  uint32_t bits = 0;
  for (PortId port = 0; port < tables.topology().PortCount(node); ++port) {
    bits |= tables.PortLeadsUp(node, port) ? 1u << port : 0;
  }
  return bits;
}

Result<RouteStep> ProgrammedTableRouting::Route(NodeId current, PortId in_port,
                                                VcClass in_vc,
                                                NodeId dst) const {
  const Topology& topo = topology();
  const PortId local = topo.PortCount(node_);
  if (current != node_ || in_port > local || in_vc >= classes_ ||
      dst >= topo.EndpointCount()) {
    return Fail("table: node, port or VC class out of range");
  }
  // NET-5.3: arriving through a port that leads up puts a packet in phase 1.
  const bool down =
      in_port < local && in_port < 32 && (port_up_ >> in_port) & 1;
  const size_t index =
      (static_cast<size_t>(dst) * classes_ + in_vc) * 2 + (down ? 1 : 0);
  const TableEntry entry = entries_[index];
  if (!entry.valid()) {
    return Fail("table: " + topo.NodeName(node_) + " has no route to " +
                topo.NodeName(dst));
  }
  const bool cabled = entry.port() < local
                          ? topo.Neighbour(node_, entry.port()).has_value()
                          : entry.port() == local && topo.IsEndpoint(node_);
  if (entry.vc() >= classes_ || !cabled) {
    return Fail("table: " + topo.NodeName(node_) + "'s entry for " +
                topo.NodeName(dst) + " names class " +
                std::to_string(entry.vc()) + " port " +
                std::to_string(entry.port()) + ", which it lacks");
  }
  return RouteStep{entry.port(), entry.vc()};
}

}  // namespace lq::topo
