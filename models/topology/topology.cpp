// Names of ports, shared by every topology (NET-1.2).
#include "models/topology/topology.h"

namespace lq::topo {

std::string Topology::PortName(NodeId node, PortId port) const {
  if (IsEndpoint(node) && port == LocalPort(node)) {
    return NodeName(node) + ".local";
  }
  return NodeName(node) + ".port" + std::to_string(port);
}

}  // namespace lq::topo
