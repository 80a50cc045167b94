// SPDX-License-Identifier: Apache-2.0
// Network: the study's cards from a Cluster, its watchdog and its fabric
// control.
#include "systemc/cluster/network.h"

#include <stdexcept>
#include <string>

namespace lq::cluster {

ClusterConfig Network::CardsOf(
    std::shared_ptr<const topo::RoutingFunction> routing,
    std::shared_ptr<const net::TrafficPattern> pattern,
    const net::NetworkConfig& config, ClusterShare share) {
  ClusterConfig cards =
      IdealCards(std::move(routing), config.router, config.interface);
  cards.port.ideal_latency = config.link_latency;
  cards.network.traffic = config.traffic;
  cards.network.pattern = std::move(pattern);
  cards.network.interface_latency = config.interface_latency;
  cards.share = std::move(share);
  return cards;
}

Network::Network(const sc_core::sc_module_name& name,
                 std::shared_ptr<const topo::Topology> topology,
                 std::shared_ptr<const topo::RoutingFunction> routing,
                 std::shared_ptr<const net::TrafficPattern> pattern,
                 const net::NetworkConfig& config, ClusterShare share)
    : sc_module(name),
      topology_(topology),
      cluster_("cluster",
               CardsOf(routing, std::move(pattern), config, std::move(share)),
               topology) {
  if (config.watchdog_window > sc_core::SC_ZERO_TIME) {
    // Another rank's routers are nullptr: the watchdog there watches them.
    std::vector<net::Router*> routers;
    for (unsigned n = 0; n < cluster_.node_count(); ++n) {
      routers.push_back(built(n) ? &router(n) : nullptr);
    }
    watchdog_ = std::make_unique<net::DeadlockWatchdog>(
        "watchdog", std::move(routers), topology, config.watchdog_window,
        [this] {
          for (unsigned n = 0; n < nodes(); ++n) {
            if (built(n) && !source(n).finished()) {
              return true;
            }
          }
          return false;
        },
        config.stop_on_deadlock);
  }
  if (config.fabric_manager) {
    control_ = std::make_unique<FabricControl>("control", cluster_, topology,
                                               std::move(routing),
                                               *config.fabric_manager);
  }
}

std::vector<net::TrafficSource*> Network::sources() {
  std::vector<net::TrafficSource*> sources;
  for (unsigned n = 0; n < nodes(); ++n) {
    if (built(n)) {
      sources.push_back(&source(n));
    }
  }
  return sources;
}

net::TrafficSource& Network::source(unsigned node) {
  net::TrafficSource* source =
      node < nodes() ? cluster_.node(node).source() : nullptr;
  if (source == nullptr) {
    throw std::out_of_range("no endpoint " + std::to_string(node));
  }
  return *source;
}

}  // namespace lq::cluster
