// SPDX-License-Identifier: Apache-2.0
// Routers joined port to port, with no link between them, for the router
// tests that build their own nodes (RouterNode); every run of the product
// is cabled by cluster::Cluster.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "models/topology/topology.h"
#include "systemc/network/port_cap.h"
#include "systemc/network/router.h"

namespace lq::net {

// Joins the routers of `nodes` (one per node of `topology`, in order, each
// with a `router` pointer and a `caps` list of PortCap) port to port as its
// cables say. A port with no cable (NET-1.5) is bound to a PortCap that its
// node's caps keep. Throws std::invalid_argument unless there is one node
// per node of the topology.
template <typename Nodes>
void CableRouters(const topo::Topology& topology, Nodes& nodes) {
  if (nodes.size() != topology.NodeCount()) {
    throw std::invalid_argument("cabling " + topology.Describe() + " needs " +
                                std::to_string(topology.NodeCount()) +
                                " routers, not " +
                                std::to_string(nodes.size()));
  }
  for (topo::NodeId n = 0; n < topology.NodeCount(); ++n) {
    for (topo::PortId p = 0; p < topology.PortCount(n); ++p) {
      const auto far = topology.Neighbour(n, p);
      if (!far) {
        nodes[n].caps.push_back(std::make_unique<PortCap>(
            (std::string(nodes[n].router->basename()) + "_cap" +
             std::to_string(p))
                .c_str()));
        Connect(nodes[n].router->port(p), nodes[n].caps.back()->socket);
      } else if (far->node > n || (far->node == n && far->port > p)) {
        Connect(nodes[n].router->port(p),
                nodes[far->node].router->port(far->port));
      }
    }
  }
}

}  // namespace lq::net
