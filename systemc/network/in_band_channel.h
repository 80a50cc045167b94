// SPDX-License-Identifier: Apache-2.0
// InBandChannel: the fabric manager as the firmware of one endpoint
// (`fm.placement: node<ID>`, NET-7.2), talking to the other nodes' firmware
// (ManagementAgent) in MGMT packets over the fabric itself (NET-7.4):
// source-routed down the management tree, answered up it. Every message
// but ACK and COUNT_REP is acknowledged; one left unanswered is resent
// after fm.msg_timeout, and after fm.msg_retries resends its node is given
// up (NET-7.5). Messages between the manager and its own node's firmware
// go straight across.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <vector>

#include "systemc/network/management_agent.h"
#include "systemc/network/management_channel.h"
#include "systemc/network/network_interface.h"

namespace lq::net {

class InBandChannel : public ManagementChannel {
 public:
  // `agents[n]` is node n's firmware; `local` is the manager node's
  // interface, whose packets carry at most `max_payload` bytes; `tree` is
  // the tree the builder preset. `on_link_event` takes each LINK_EVENT,
  // once, as it arrives.
  InBandChannel(
      topo::NodeId manager, NetworkInterface& local,
      std::vector<ManagementAgent*> agents, const MgmtTimers& timers,
      uint16_t max_payload, std::shared_ptr<const topo::ManagementTree> tree,
      std::function<void(topo::NodeId, topo::PortId, bool up)> on_link_event);

  // A message for the manager: ejected at its node, or from its own
  // node's firmware.
  void Receive(const MgmtMessage& message);

  sc_core::sc_time report_latency() const override {
    return sc_core::SC_ZERO_TIME;
  }
  bool SetTree(RouteUpdate& update,
               std::shared_ptr<const topo::ManagementTree> tree) override;
  void WriteTables(
      RouteUpdate& update, const std::vector<topo::NodeId>& changed,
      const std::vector<topo::NodeId>& working,
      const std::shared_ptr<const topo::TableRouting>& next) override;
  void Command(RouteUpdate& update, const std::vector<topo::NodeId>& nodes,
               MgmtType type) override;
  CountRepBody Count(RouteUpdate& update,
                     const std::vector<topo::NodeId>& nodes) override;
  std::vector<topo::NodeId> TakeSilent() override;

 private:
  // Sends each of `nodes` not given up on the message `make` builds for
  // it, resending as NET-7.5 says, and returns the replies of those that
  // answered. A node the tree does not reach is given up on at once.
  std::map<topo::NodeId, MgmtMessage> Round(
      RouteUpdate& update, const std::vector<topo::NodeId>& nodes,
      const std::function<MgmtMessage(topo::NodeId)>& make);
  // False if the tree does not reach `node`.
  bool Send(topo::NodeId node, MgmtMessage message);
  bool GivenUp(topo::NodeId node) const;

  topo::NodeId manager_;
  NetworkInterface& local_;
  std::vector<ManagementAgent*> agents_;
  MgmtTimers timers_;
  size_t table_entries_per_message_;
  std::shared_ptr<const topo::ManagementTree> tree_;
  // Each node's MGMT_PARENT_PORT as last acknowledged (NET-7.7 step 1).
  std::vector<topo::PortId> parent_written_;
  std::function<void(topo::NodeId, topo::PortId, bool)> on_link_event_;
  std::vector<uint8_t> seq_;    // per node: the latest SEQ sent
  std::vector<int> event_seq_;  // per node: the latest LINK_EVENT taken
  struct Pending {
    MgmtMessage message;
    unsigned resends = 0;
    sc_core::sc_time deadline;
  };
  std::map<topo::NodeId, Pending> pending_;      // of the round under way
  std::map<topo::NodeId, MgmtMessage> replies_;  // of the round under way
  sc_core::sc_event replied_;
  std::vector<topo::NodeId> silent_;  // given up on, not yet taken
};

}  // namespace lq::net
