// SPDX-License-Identifier: Apache-2.0
// Names of ports and the count of cables, shared by every topology (NET-1.2).
#include "models/topology/topology.h"

namespace lq::topo {

std::string Topology::PortName(NodeId node, PortId port) const {
  if (IsEndpoint(node) && port == LocalPort(node)) {
    return NodeName(node) + ".local";
  }
  return NodeName(node) + ".port" + std::to_string(port);
}

size_t Topology::CableCount() const {
  size_t ends = 0;
  for (NodeId n = 0; n < NodeCount(); ++n) {
    for (PortId p = 0; p < PortCount(n); ++p) {
      ends += Neighbour(n, p) ? 1 : 0;
    }
  }
  return ends / 2;
}

}  // namespace lq::topo
