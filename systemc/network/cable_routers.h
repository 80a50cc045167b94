// Routers joined port to port, with no link between them: how the studies
// that leave links out (decision 0009) cable a topology.
#pragma once

#include "models/topology/topology.h"
#include "systemc/network/router.h"

namespace lq::net {

// Joins the routers of `nodes` (one per node of `topology`, in order, each
// with a `router` pointer) port to port as its cables say.
template <typename Nodes>
void CableRouters(const topo::Topology& topology, Nodes& nodes) {
  for (topo::NodeId n = 0; n < topology.NodeCount(); ++n) {
    for (topo::PortId p = 0; p < topology.PortCount(n); ++p) {
      const auto far = topology.Neighbour(n, p).value();
      if (far.node > n || (far.node == n && far.port > p)) {
        Connect(nodes[n].router->port(p),
                nodes[far.node].router->port(far.port));
      }
    }
  }
}

}  // namespace lq::net
