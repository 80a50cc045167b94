// Shared part of every routing function: the topology it is bound to.
#include "models/topology/routing.h"

namespace lq::topo {

RoutingFunction::RoutingFunction(std::shared_ptr<const Topology> topology)
    : topology_(std::move(topology)) {
  for (NodeId node = 0; node < topology_->NodeCount(); ++node) {
    input_count_ += topology_->PortCount(node) + 1;
  }
}

}  // namespace lq::topo
