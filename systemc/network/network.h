// Network: a topology's routers — each endpoint's with a traffic source
// behind its local port, each switch's without — joined port to port by
// ideal slot channels: the network layer on its own, as network studies
// (validation, latency-versus-load, failover) use it. Built like a
// netlist: declare, connect.
#pragma once

#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "models/network/traffic_pattern.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/network/deadlock_watchdog.h"
#include "systemc/network/fabric_manager.h"
#include "systemc/network/in_band_channel.h"
#include "systemc/network/management_agent.h"
#include "systemc/network/port_cap.h"
#include "systemc/network/router.h"
#include "systemc/network/slot_channel.h"
#include "systemc/network/traffic_source.h"

namespace lq::net {

struct NetworkConfig {
  RouterConfig router;               // node, ports, routing, nodes: per node
  NetworkInterfaceConfig interface;  // node, nodes: per node
  TrafficConfig traffic;             // seed: per node (seed + node)
  sc_core::sc_time link_latency = sc_core::sc_time(2, sc_core::SC_NS);
  // Between each interface and its router, each way (zero: joined directly).
  sc_core::sc_time interface_latency = sc_core::SC_ZERO_TIME;
  // A deadlock is declared after this long without progress while packets
  // are held (zero: no watchdog); the simulation then stops if asked.
  sc_core::sc_time watchdog_window = sc_core::SC_ZERO_TIME;
  bool stop_on_deadlock = true;
  // A fabric manager (NET-7.2) that reroutes around cut links, out of band
  // or, with fabric_manager->node set, in band from that endpoint's
  // firmware, every endpoint then running a ManagementAgent; without one a
  // cut link stays cut and its routes keep dropping.
  std::optional<FabricManagerConfig> fabric_manager;
};

class Network : public sc_core::sc_module {
 public:
  // A port with no cable is capped (NET-1.5). Throws std::invalid_argument
  // if the endpoints are not nodes 0..E-1, or an in-band manager cannot work
  // here (a topology with switches, fewer than 2 VC sets, no such endpoint).
  Network(const sc_core::sc_module_name& name,
          std::shared_ptr<const topo::Topology> topology,
          std::shared_ptr<const topo::RoutingFunction> routing,
          std::shared_ptr<const TrafficPattern> pattern,
          const NetworkConfig& config);

  // Endpoints, IDs 0..nodes()-1, each with a router and a source.
  unsigned nodes() const { return static_cast<unsigned>(sources_.size()); }
  // Cables, each an ideal channel both ways.
  unsigned links() const { return static_cast<unsigned>(channels_.size()); }
  const topo::Topology& topology() const { return *topology_; }
  // Routers: the endpoints' and then any switches'.
  unsigned routers() const { return static_cast<unsigned>(routers_.size()); }
  Router& router(unsigned node) { return *routers_.at(node); }
  TrafficSource& source(unsigned node) { return *sources_.at(node); }
  // The watchdog, if config.watchdog_window asked for one.
  const DeadlockWatchdog* watchdog() const { return watchdog_.get(); }
  // The fabric manager, if config.fabric_manager asked for one.
  const FabricManager* fabric_manager() const { return fabric_manager_.get(); }
  // Endpoint `node`'s management firmware, with an in-band manager.
  ManagementAgent* agent(unsigned node) {
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
  // The in-band manager's channel and the endpoints' agents (NET-7.4).
  void BuildInBandManagement(
      const NetworkConfig& network,
      std::shared_ptr<const topo::RoutingFunction> routing);
  // Node `node`'s firmware learns that its port `port` went down or up,
  // and tells the fabric manager (NET-7.3).
  void ReportLink(topo::NodeId node, topo::PortId port, bool up);

  std::shared_ptr<const topo::Topology> topology_;
  // A slot sent before a cut lands within this long (NET-7.1's flush).
  sc_core::sc_time flush_;
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::unique_ptr<TrafficSource>> sources_;
  std::vector<std::unique_ptr<SlotChannel>> channels_;
  std::vector<std::unique_ptr<SlotChannel>> interface_channels_;
  std::unique_ptr<DeadlockWatchdog> watchdog_;
  std::unique_ptr<FabricManager> fabric_manager_;
  std::vector<std::unique_ptr<ManagementAgent>> agents_;  // in band only
  InBandChannel* in_band_ = nullptr;                      // fabric_manager_'s
  std::optional<topo::NodeId> manager_;         // the in-band manager's node
  std::vector<std::unique_ptr<PortCap>> caps_;  // ports with no cable
};

}  // namespace lq::net
