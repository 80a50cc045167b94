// SPDX-License-Identifier: Apache-2.0
// FabricManager: NET-7's fabric manager. It hears of failed links from the
// nodes' firmware, computes table routes for what survives (NET-5.4) and a
// management tree, and installs them with NET-7.7's ordering — tree, write
// shadow banks, freeze injection, drain, switch epochs, resume — each step
// a round of NET-7.5's messages over its ManagementChannel: out of band
// (the `builder` placement) or in band (`node<ID>`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology/degraded_topology.h"
#include "models/topology/management_tree.h"
#include "models/topology/routing.h"
#include "systemc/network/management_agent.h"
#include "systemc/network/management_channel.h"

namespace lq::net {

// NET-7's timers (fm.*).
struct FabricManagerConfig {
  sc_core::sc_time oob_latency = sc_core::sc_time(1, sc_core::SC_US);
  sc_core::sc_time holdoff = sc_core::sc_time(100, sc_core::SC_US);
  sc_core::sc_time compute_time = sc_core::sc_time(1, sc_core::SC_MS);
  sc_core::sc_time drain_timeout = sc_core::sc_time(1, sc_core::SC_MS);
  // Drain rounds start at least this far apart (in band a round takes
  // well under a microsecond, and polling faster only loads the fabric).
  sc_core::sc_time drain_interval = sc_core::sc_time(10, sc_core::SC_US);
  sc_core::sc_time restore_holdoff = sc_core::sc_time(10, sc_core::SC_MS);
  topo::VcClass table_classes = 2;  // the tables' classes, <= net.vc_classes
  // fm.placement: the node whose firmware is the manager, in band
  // (NET-7.4); none: the builder, out of band.
  std::optional<topo::NodeId> node;
  MgmtTimers timers;  // in band: fm.msg_timeout, fm.msg_retries
};

// One route update, step by step (NET-7.6, NET-7.7).
struct RouteUpdate {
  sc_core::sc_time first_event;  // the first report of the burst arrived
  sc_core::sc_time computed;     // tables ready
  sc_core::sc_time frozen;       // every node acknowledged FREEZE
  sc_core::sc_time switched;     // every node acknowledged SWITCH
  sc_core::sc_time resumed;      // every node acknowledged RESUME
  unsigned failed_links = 0;     // in the graph the tables were computed on
  unsigned failed_nodes = 0;     // every cabled link reported down (NET-7.3)
  unsigned changed_nodes = 0;    // sent TABLE_WRITE (direct notification)
  unsigned drain_rounds = 0;     // COUNT_REQ rounds
  bool drained = false;          // the counts balanced before the timeout
  uint64_t messages = 0;         // management messages, ACKs included
  std::string failure;           // why no tables could be installed
  bool restore = false;          // NET-7.11: links came back, none went down
  unsigned restored_nodes = 0;   // failed nodes taken back (NET-7.12)
  unsigned silent_nodes = 0;     // gave no answer: treated as failed
  uint64_t resends = 0;          // in band: messages sent again (NET-7.5)
};

class FabricManager : public sc_core::sc_module {
 public:
  // `initial` is the routing the builder installed; `channel` carries the
  // messages.
  FabricManager(const sc_core::sc_module_name& name,
                std::shared_ptr<const topo::Topology> topology,
                std::shared_ptr<const topo::RoutingFunction> initial,
                std::unique_ptr<ManagementChannel> channel,
                const FabricManagerConfig& config);

  // Node `node`'s firmware saw its port `port` go down, or up, and sent
  // LINK_EVENT (NET-7.3); it arrives the channel's report latency later.
  void ReportLinkDown(topo::NodeId node, topo::PortId port);
  void ReportLinkUp(topo::NodeId node, topo::PortId port);
  // The same report, sent on another MPI rank, which reaches this replica
  // of the manager at `arrives` (at or after now; decision 0050).
  void ReportArriving(topo::NodeId node, topo::PortId port, bool up,
                      const sc_core::sc_time& arrives);

  const std::vector<RouteUpdate>& updates() const { return updates_; }
  // Notified each time an update has finished.
  const sc_core::sc_event& updated() const { return updated_; }

 private:
  struct Report {
    sc_core::sc_time arrives;
    topo::PortRef port;
    bool up = false;
  };
  // The link `end` belongs to, named by its lower end.
  std::pair<topo::NodeId, topo::PortId> LinkOf(const topo::PortRef& end) const;
  // Takes in the reports that have arrived: a down starts (or joins) a
  // failover burst and cancels a pending restore of its link; an up waits
  // for its restore.
  void TakeArrivedReports();
  void Run();  // SC_THREAD: one update per burst of reports
  void AddReport(topo::NodeId node, topo::PortId port, bool up,
                 const sc_core::sc_time& arrives);
  void Update(RouteUpdate& update);
  // The working nodes whose tables or ROUTE_MODE differ under `next` from
  // what is installed, and the rejoining nodes.
  std::vector<topo::NodeId> ChangedNodes(const topo::TableRouting& next) const;
  // Nodes the channel gave up on are failed from now on (NET-7.5); a later
  // update routes around them.
  void TakeSilentNodes(RouteUpdate& update);
  // NET-7.3: a node all of whose cabled links are down has failed.
  void MarkFailedNodes();
  // NET-7.3: a failed node one of whose cabled links is no longer down is
  // restored; it rejoins in the next update (NET-7.12).
  void MarkRestoredNodes();
  bool Working(topo::NodeId node) const { return !node_failed_[node]; }
  bool Rejoining(topo::NodeId node) const;
  std::vector<topo::NodeId> WorkingNodes(bool endpoints_only) const;

  std::shared_ptr<const topo::Topology> topology_;
  std::unique_ptr<ManagementChannel> channel_;
  FabricManagerConfig config_;
  // The tables in force (null: the builder's function, not tables).
  std::shared_ptr<const topo::TableRouting> installed_;
  uint8_t epoch_ = 0;            // the working nodes' EPOCH (NET-7.7)
  std::vector<Report> reports_;  // in arrival order, then as added
  size_t taken_ = 0;             // reports_ taken in
  // Links reported down since the last update, and when the first of them
  // arrived; links reported up and not down since, and when the last up
  // arrived (NET-7.11).
  std::set<std::pair<topo::NodeId, topo::PortId>> going_down_, coming_up_;
  sc_core::sc_time first_down_, last_up_;
  topo::FailureSet failures_;  // failed links (one end each), failed nodes
  std::vector<bool> node_failed_;
  std::vector<topo::NodeId> rejoining_;  // restored, not yet taken back
  // Failed because they gave no answer (NET-7.5), not because their links
  // went down: no link coming up restores them, only their links going
  // down and up again (a reboot).
  std::set<topo::NodeId> silent_;
  std::vector<RouteUpdate> updates_;
  bool silent_pending_ = false;  // nodes given up on: an update is due
  sc_core::sc_event report_arrived_;
  sc_core::sc_event updated_;
};

}  // namespace lq::net
