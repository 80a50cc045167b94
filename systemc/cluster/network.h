// SPDX-License-Identifier: Apache-2.0
// Network: the network layer on its own, as network studies (validation,
// latency-versus-load, failover) use it: a Cluster of routers on ideal
// links, each cable a channel of the link latency (decision 0009), each
// endpoint's router with a traffic source behind its local port and each
// switch's without; and what the studies drive it with: the deadlock
// watchdog, and the fabric manager with the failures it repairs
// (FabricControl).
#pragma once

#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/cluster/cluster.h"
#include "systemc/cluster/fabric_control.h"
#include "systemc/network/deadlock_watchdog.h"
#include "systemc/network/fabric_manager.h"
#include "systemc/network/network_config.h"
#include "systemc/network/router.h"
#include "systemc/network/traffic_source.h"

namespace lq::cluster {

class Network : public sc_core::sc_module {
 public:
  // A port with no cable is capped (NET-1.5). In a parallel run, `share`
  // says which nodes are this rank's: only theirs are built. Throws
  // std::invalid_argument if the endpoints are not nodes 0..E-1, an
  // in-band manager cannot work here (a topology with switches, fewer than
  // 2 VC sets, no such endpoint), or a fabric manager is asked for in a
  // parallel run (not yet).
  Network(const sc_core::sc_module_name& name,
          std::shared_ptr<const topo::Topology> topology,
          std::shared_ptr<const topo::RoutingFunction> routing,
          std::shared_ptr<const net::TrafficPattern> pattern,
          const net::NetworkConfig& config, ClusterShare share = {});

  // Endpoints, IDs 0..nodes()-1, each with a router and a source.
  unsigned nodes() const { return topology_->EndpointCount(); }
  // Cables, each an ideal channel both ways.
  unsigned links() const {
    return static_cast<unsigned>(topology_->CableCount());
  }
  const topo::Topology& topology() const { return *topology_; }
  // The routers' nodes (for their statistics).
  Cluster& cluster() { return cluster_; }
  // Routers: the endpoints' and then any switches'.
  unsigned routers() const { return cluster_.node_count(); }
  // Whether node `node`'s router (and source) is built here: in a parallel
  // run, only this rank's are.
  bool built(unsigned node) const { return cluster_.built(node); }
  net::Router& router(unsigned node) { return *cluster_.node(node).router(); }
  net::TrafficSource& source(unsigned node);
  // Every endpoint's source built here, by node.
  std::vector<net::TrafficSource*> sources();
  // The watchdog, if config.watchdog_window asked for one.
  const net::DeadlockWatchdog* watchdog() const { return watchdog_.get(); }
  // The fabric manager, its agents and the faults it repairs, if
  // config.fabric_manager asked for one.
  FabricControl* control() { return control_.get(); }
  const net::FabricManager* fabric_manager() const {
    return control_ ? &control_->manager() : nullptr;
  }

 private:
  static ClusterConfig CardsOf(
      std::shared_ptr<const topo::RoutingFunction> routing,
      std::shared_ptr<const net::TrafficPattern> pattern,
      const net::NetworkConfig& config, ClusterShare share);
  std::shared_ptr<const topo::Topology> topology_;
  Cluster cluster_;
  std::unique_ptr<net::DeadlockWatchdog> watchdog_;
  std::unique_ptr<FabricControl> control_;
};

}  // namespace lq::cluster
