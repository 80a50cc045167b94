// SPDX-License-Identifier: Apache-2.0
// FabricControl: a cluster's fabric manager (NET-7.6), out of band or in
// band through every endpoint's management agent (NET-7.4); the port
// agents that report each link's change to it (NET-7.3); and the failures
// and restores it repairs (NET-7.1, NET-7.8, NET-7.11, NET-7.12), on
// ideal and tlm ports alike.
//
// An ideal port has no controller to notice: a cut takes both router
// ports down at once, and a restore brings them up. A tlm cut fails every
// lane of both PHYs (PHY-5.6); each end's link controller leaves L0, and
// its port agent, told by OnLinkState, takes the router port down, reports
// it, and disables the controller so that it stops sending into the dead
// lanes (it does not wait for Recovery's timeout, DLL-6, which outlasts
// the transport's retries). A tlm restore repairs the lanes and enables
// both controllers again; each end comes up, and is reported, when its
// controller is back in L0.
//
// Over MPI ranks (decision 0050) each rank's FabricControl holds a replica
// of the out-of-band manager (net::ManagerReplicas): it does each step of
// a fault, a restore and a route update at the ends and nodes its rank
// holds, and shares its port agents' reports with the other replicas.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <systemc>
#include <utility>
#include <vector>

#include "models/link/ltssm.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/cluster/cluster.h"
#include "systemc/cluster/rank_manager_replicas.h"
#include "systemc/common/register_master.h"
#include "systemc/network/fabric_manager.h"
#include "systemc/network/in_band_channel.h"
#include "systemc/network/management_agent.h"

namespace lq::cluster {

class FabricControl : public sc_core::sc_module {
 public:
  // The manager of `config` (in band if config.node names its endpoint)
  // over `cluster`, whose routers route by `routing` until it rewrites
  // them. `tlm_ends` are the ends of tlm links a fault may touch: their
  // port agents get a reach into the controllers, which must be bound
  // before the simulation starts. Throws std::invalid_argument if an
  // in-band manager cannot work here (a topology with switches, fewer than
  // 2 VC sets, no such endpoint, a run over MPI ranks) or an end is not a
  // tlm port's.
  FabricControl(const sc_core::sc_module_name& name, Cluster& cluster,
                std::shared_ptr<const topo::Topology> topology,
                std::shared_ptr<const topo::RoutingFunction> routing,
                const net::FabricManagerConfig& config,
                const std::vector<topo::PortRef>& tlm_ends = {});

  Cluster& cluster() { return cluster_; }
  const topo::Topology& topology() const { return *topology_; }
  const net::FabricManager& manager() const { return *manager_; }
  // Endpoint `node`'s management firmware, with an in-band manager.
  net::ManagementAgent* agent(unsigned node) {
    return agents_.empty() ? nullptr : agents_.at(node).get();
  }
  // When a port agent first counted a port down, if one has (this rank's
  // agents, over MPI ranks).
  std::optional<double> detected_ns() const { return detected_ns_; }

  // Cuts the cable on `node`'s port `port` now (NET-7.1). Throws
  // std::invalid_argument if the port has no cable, or is a tlm port not
  // among the constructor's `tlm_ends`.
  void CutLink(topo::NodeId node, topo::PortId port);
  // NET-7.1, NET-7.11: the cable, cut before, works again now; each end
  // comes up and is reported (a tlm end once it has trained), and routes
  // take it again once the manager has installed tables with it. Throws
  // std::invalid_argument if the port has no cable or is not down.
  void RestoreLink(topo::NodeId node, topo::PortId port);
  // Kills endpoint `node` now (NET-7.8): its interface and router stop,
  // what they hold is lost and counted (a traffic source stops too), and
  // every link of it goes down: its neighbours' agents report them.
  // Throws std::invalid_argument for an unknown endpoint or the in-band
  // manager's.
  void FailNode(topo::NodeId node);
  // Brings failed endpoint `node` back now (NET-7.12): it restarts reset
  // and frozen, every cabled link of it comes back as RestoreLink says, and
  // a traffic source sends again once the manager has taken it back.
  // Throws std::invalid_argument unless `node` is a failed endpoint.
  void RestoreNode(topo::NodeId node);

  // A tlm port's LTSSM changed (the cluster's link-state handler): the
  // port agent's cue, at an end a fault touched.
  void OnLinkState(topo::NodeId node, topo::PortId port, link::LtssmState state,
                   uint64_t at_ps);

 private:
  using End = std::pair<topo::NodeId, topo::PortId>;
  // An end a fault touched, as its port agent sees it.
  enum class EndState {
    kUp,         // in use; leaving L0 is no news (Recovery after errors)
    kCut,        // its lanes failed: leaving L0 means down
    kDown,       // counted down, controller disabled
    kRestoring,  // lanes repaired, controller enabled: L0 means up
  };

  void BuildInBandManagement(
      const net::FabricManagerConfig& config,
      std::shared_ptr<const topo::RoutingFunction> routing);
  // Node `node`'s firmware learns that its port `port` went down or up,
  // and tells the fabric manager (NET-7.3).
  void ReportLink(topo::NodeId node, topo::PortId port, bool up);
  bool Tlm(topo::NodeId node, topo::PortId port);
  // Whether this rank holds `node` (every node, in one process).
  bool Here(topo::NodeId node) const { return cluster_.built(node); }
  net::Router& router(topo::NodeId node) {
    return *cluster_.node(node).router();
  }
  // A port is down: the router stops using it, and what was sent lands
  // within `flush`; the manager hears of it.
  void PortDown(topo::NodeId node, topo::PortId port,
                const sc_core::sc_time& flush);
  // Both ends of `node`'s port `port` fail or work again, at the PHYs.
  void ChangeLanes(topo::NodeId node, topo::PortId port, bool fail);
  // A port counted down at `at_ns`: the first such time is detected_ns().
  void NoteDetected(double at_ns);
  // CTRL.ENABLE of the controller at `end`, written by its node's agent.
  void SetEnable(const End& end, bool enable);
  // Node `node`'s port agent (SC_THREAD, one per node a fault may touch):
  // its queued register writes, one after another. Each node's firmware
  // writes its own controllers, in parallel with the other nodes'.
  void Agent(topo::NodeId node);

  Cluster& cluster_;
  std::shared_ptr<const topo::Topology> topology_;
  sc_core::sc_time ideal_flush_;  // what an ideal cable has in flight
  std::unique_ptr<RankManagerReplicas> replicas_;  // over MPI ranks
  sc_core::sc_time report_latency_;  // out of band: fm.oob_latency
  std::unique_ptr<net::FabricManager> manager_;
  std::vector<std::unique_ptr<net::ManagementAgent>> agents_;  // in band
  net::InBandChannel* in_band_ = nullptr;                      // manager_'s
  std::optional<topo::NodeId> manager_node_;
  std::map<End, std::unique_ptr<RegisterMaster>> masters_;  // tlm ends
  std::map<End, EndState> ends_;                            // tlm ends
  // Each node's CTRL.ENABLE writes to make, and the event that wakes its
  // agent.
  struct AgentQueue {
    std::deque<std::pair<topo::PortId, bool>> writes;
    sc_core::sc_event write;
  };
  std::map<topo::NodeId, AgentQueue> agent_queues_;
  std::optional<double> detected_ns_;
};

}  // namespace lq::cluster
