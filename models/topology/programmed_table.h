// SPDX-License-Identifier: Apache-2.0
// One router's routing table as firmware or a fabric manager wrote it through
// the router's registers (NET-5.1 to NET-5.3, NET-5.5): raw 16-bit entries
// and PORT_UP bits for a single node, with no knowledge of how they were
// computed. TableRouting computes tables; this reads them back as a router
// does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/topology/routing.h"
#include "models/topology/table_routing.h"

namespace lq::topo {

class ProgrammedTableRouting : public RoutingFunction {
 public:
  // `entries` is indexed by (dst x classes + class) x 2 + phase and holds
  // EndpointCount() x classes x 2 entries; bit p of `port_up` is PORT_UP[p].
  ProgrammedTableRouting(std::shared_ptr<const Topology> topology, NodeId node,
                         VcClass classes, std::vector<TableEntry> entries,
                         uint32_t port_up);

  // E x C x 2 (NET-5.1).
  static size_t TableSize(const Topology& topology, VcClass classes);
  // Every entry invalid and no port up: a router's table after reset.
  static std::vector<TableEntry> EmptyTable(const Topology& topology,
                                            VcClass classes);
  // Node `node`'s own table and PORT_UP bits out of computed `tables`.
  static std::vector<TableEntry> TableOf(const TableRouting& tables,
                                         NodeId node);
  static uint32_t PortUpOf(const TableRouting& tables, NodeId node);

  std::string Name() const override { return "table"; }
  VcClass VcClasses() const override { return classes_; }
  // Fails, so that the router drops the packet (NET-5.5), on an invalid
  // entry, an entry naming a class >= C or a port with no cable, and for
  // any node but this table's.
  Result<RouteStep> Route(NodeId current, PortId in_port, VcClass in_vc,
                          NodeId dst) const override;

 private:
  NodeId node_;
  VcClass classes_;
  std::vector<TableEntry> entries_;
  uint32_t port_up_;
};

}  // namespace lq::topo
