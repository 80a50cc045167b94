// SPDX-License-Identifier: Apache-2.0
// OutOfBandChannel: the `builder` placement's management controller
// (NET-7.2). Each message takes fm.oob_latency to reach every node and its
// reply as long to come back; it acts on the routers and network
// interfaces directly, as a management controller with its own wires to
// them would. It needs no management tree. Over MPI ranks it is one
// rank's replica (ManagerReplicas) and acts on that rank's nodes alone.
#pragma once

#include <vector>

#include "systemc/network/management_channel.h"
#include "systemc/network/manager_replicas.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"

namespace lq::net {

class OutOfBandChannel : public ManagementChannel {
 public:
  // `interfaces[n]` is null for a switch. Over MPI ranks `routers[n]` and
  // `interfaces[n]` are null for a node another rank holds, and
  // `replicas` reaches the other ranks' channels.
  OutOfBandChannel(std::vector<Router*> routers,
                   std::vector<NetworkInterface*> interfaces,
                   const sc_core::sc_time& oob_latency,
                   ManagerReplicas* replicas = nullptr);

  sc_core::sc_time report_latency() const override { return latency_; }
  bool SetTree(RouteUpdate&,
               std::shared_ptr<const topo::ManagementTree>) override {
    return true;  // out of band: no tree to keep
  }
  void WriteTables(
      RouteUpdate& update, const std::vector<topo::NodeId>& changed,
      const std::vector<topo::NodeId>& working,
      const std::shared_ptr<const topo::TableRouting>& next) override;
  void Command(RouteUpdate& update, const std::vector<topo::NodeId>& nodes,
               MgmtType type) override;
  CountRepBody Count(RouteUpdate& update,
                     const std::vector<topo::NodeId>& nodes) override;

 private:
  // One round: `messages` out, `act` at each of `nodes` this rank holds
  // on arrival, `acted` then, the replies back.
  template <typename Act, typename Acted>
  void Round(RouteUpdate& update, size_t messages,
             const std::vector<topo::NodeId>& nodes, Act act, Acted acted);

  std::vector<Router*> routers_;
  std::vector<NetworkInterface*> interfaces_;
  sc_core::sc_time latency_;
  ManagerReplicas* replicas_;
};

}  // namespace lq::net
