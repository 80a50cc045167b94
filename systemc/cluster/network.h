// Network: the network layer on its own, as network studies (validation,
// latency-versus-load, failover) use it: a Cluster of routers on ideal
// links, each cable a channel of the link latency (decision 0009), each
// endpoint's router with a traffic source behind its local port and each
// switch's without; and what the studies drive it with: the deadlock
// watchdog, the fabric manager (out of band, or in band through every
// endpoint's management agent), and the failures it repairs.
#pragma once

#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/cluster/cluster.h"
#include "systemc/network/deadlock_watchdog.h"
#include "systemc/network/fabric_manager.h"
#include "systemc/network/in_band_channel.h"
#include "systemc/network/management_agent.h"
#include "systemc/network/network_config.h"
#include "systemc/network/router.h"
#include "systemc/network/traffic_source.h"

namespace lq::cluster {

class Network : public sc_core::sc_module {
 public:
  // A port with no cable is capped (NET-1.5). Throws std::invalid_argument
  // if the endpoints are not nodes 0..E-1, or an in-band manager cannot work
  // here (a topology with switches, fewer than 2 VC sets, no such endpoint).
  Network(const sc_core::sc_module_name& name,
          std::shared_ptr<const topo::Topology> topology,
          std::shared_ptr<const topo::RoutingFunction> routing,
          std::shared_ptr<const net::TrafficPattern> pattern,
          const net::NetworkConfig& config);

  // Endpoints, IDs 0..nodes()-1, each with a router and a source.
  unsigned nodes() const { return topology_->EndpointCount(); }
  // Cables, each an ideal channel both ways.
  unsigned links() const {
    return static_cast<unsigned>(topology_->CableCount());
  }
  const topo::Topology& topology() const { return *topology_; }
  // Routers: the endpoints' and then any switches'.
  unsigned routers() const { return cluster_.node_count(); }
  net::Router& router(unsigned node) { return *cluster_.node(node).router(); }
  net::TrafficSource& source(unsigned node);
  // Every endpoint's source, by node.
  std::vector<net::TrafficSource*> sources();
  // The watchdog, if config.watchdog_window asked for one.
  const net::DeadlockWatchdog* watchdog() const { return watchdog_.get(); }
  // The fabric manager, if config.fabric_manager asked for one.
  const net::FabricManager* fabric_manager() const {
    return fabric_manager_.get();
  }
  // Endpoint `node`'s management firmware, with an in-band manager.
  net::ManagementAgent* agent(unsigned node) {
    return agents_.empty() ? nullptr : agents_.at(node).get();
  }

  // Cuts the cable on `node`'s port `port` now (NET-7.1): both routers take
  // the port down and, with a fabric manager, both nodes report it.
  // Throws std::invalid_argument if the port has no cable.
  void CutLink(topo::NodeId node, topo::PortId port);
  // NET-7.1, NET-7.11: the link of `node`'s port `port`, cut before, comes
  // back up at both ends, which report it to the fabric manager; routes
  // take it again once the manager has installed tables with it. Throws
  // std::invalid_argument if the port has no cable or is not down.
  void RestoreLink(topo::NodeId node, topo::PortId port);
  // Kills endpoint `node` now (NET-7.8): its source stops, what it holds is
  // lost and counted, and its neighbours see every link of it go down and
  // report them. Throws std::invalid_argument for an unknown endpoint.
  void FailNode(topo::NodeId node);
  // Brings failed endpoint `node` back now (NET-7.12): it restarts reset and
  // frozen, every cabled link of it comes up at both ends, which report it,
  // and its source sends again once the fabric manager has taken it back.
  // Throws std::invalid_argument unless `node` is a failed endpoint.
  void RestoreNode(topo::NodeId node);

 private:
  static ClusterConfig CardsOf(
      std::shared_ptr<const topo::RoutingFunction> routing,
      std::shared_ptr<const net::TrafficPattern> pattern,
      const net::NetworkConfig& config);
  // The in-band manager's channel and the endpoints' agents (NET-7.4).
  void BuildInBandManagement(
      const net::NetworkConfig& network,
      std::shared_ptr<const topo::RoutingFunction> routing);
  // Node `node`'s firmware learns that its port `port` went down or up,
  // and tells the fabric manager (NET-7.3).
  void ReportLink(topo::NodeId node, topo::PortId port, bool up);

  std::shared_ptr<const topo::Topology> topology_;
  // A slot sent before a cut lands within this long (NET-7.1's flush).
  sc_core::sc_time flush_;
  Cluster cluster_;
  std::unique_ptr<net::DeadlockWatchdog> watchdog_;
  std::unique_ptr<net::FabricManager> fabric_manager_;
  std::vector<std::unique_ptr<net::ManagementAgent>> agents_;  // in band only
  net::InBandChannel* in_band_ = nullptr;  // fabric_manager_'s
  std::optional<topo::NodeId> manager_;    // the in-band manager's node
};

}  // namespace lq::cluster
