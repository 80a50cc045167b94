// SPDX-License-Identifier: Apache-2.0
// ManagementChannel: how the fabric manager's messages reach the nodes and
// take effect there (docs/spec/net.md NET-7.2's placements). The manager's
// procedure (NET-7.6, NET-7.7) is the same in both; the out-of-band channel
// of the `builder` placement acts on routers directly after fm.oob_latency,
// the in-band channel sends MGMT packets to the nodes' firmware.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "models/network/mgmt_message.h"
#include "models/topology/management_tree.h"
#include "models/topology/table_routing.h"

namespace lq::net {

struct RouteUpdate;

// fm.msg_timeout and fm.msg_retries (NET-7.5).
struct MgmtTimers {
  sc_core::sc_time msg_timeout = sc_core::sc_time(100, sc_core::SC_US);
  unsigned msg_retries = 5;
};

// Every method that exchanges messages is called from the manager's thread
// and returns when every target has answered (or, in band, has been given
// up on); the messages, replies included, are added to update.messages.
class ManagementChannel {
 public:
  virtual ~ManagementChannel() = default;

  // How long a node's LINK_EVENT takes to reach the manager once the
  // channel hands it over (the in-band channel hands it over on arrival).
  virtual sc_core::sc_time report_latency() const = 0;
  // Step 1 of NET-7.7: the new MGMT_PARENT_PORT of each node whose parent
  // changes, root outward; later messages follow `tree`. False if a node
  // gave no answer: the nodes below it may then not hear the manager, so
  // the update stops and the next one routes around it.
  virtual bool SetTree(RouteUpdate& update,
                       std::shared_ptr<const topo::ManagementTree> tree) = 0;
  // Step 2: `next`'s tables and PORT_UP into the shadow banks of `changed`.
  // Every node of `working` then holds them in its shadow bank.
  virtual void WriteTables(
      RouteUpdate& update, const std::vector<topo::NodeId>& changed,
      const std::vector<topo::NodeId>& working,
      const std::shared_ptr<const topo::TableRouting>& next) = 0;
  // FREEZE, SWITCH or RESUME at each of `nodes` (switches take only
  // SWITCH: the others act on an endpoint's injection).
  virtual void Command(RouteUpdate& update,
                       const std::vector<topo::NodeId>& nodes,
                       MgmtType type) = 0;
  // COUNT_REQ at each of `nodes`: the sums of their COUNT_REPs.
  virtual CountRepBody Count(RouteUpdate& update,
                             const std::vector<topo::NodeId>& nodes) = 0;
  // Nodes that left a message unanswered after fm.msg_retries resends
  // since the last call: the manager treats them as failed (NET-7.5), and
  // the channel asks them nothing more until then.
  virtual std::vector<topo::NodeId> TakeSilent() { return {}; }
};

}  // namespace lq::net
