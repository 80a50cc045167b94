// OutOfBandChannel: the `builder` placement's management controller
// (NET-7.2). Each message takes fm.oob_latency to reach every node and its
// reply as long to come back; it acts on the routers and network
// interfaces directly, as a management controller with its own wires to
// them would. It needs no management tree.
#pragma once

#include <vector>

#include "systemc/network/management_channel.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"

namespace lq::net {

class OutOfBandChannel : public ManagementChannel {
 public:
  // `interfaces[n]` is null for a switch.
  OutOfBandChannel(std::vector<Router*> routers,
                   std::vector<NetworkInterface*> interfaces,
                   const sc_core::sc_time& oob_latency);

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
  // One round: `messages` out, `act` at each of `nodes` on arrival, the
  // replies back.
  template <typename Act>
  void Round(RouteUpdate& update, size_t messages,
             const std::vector<topo::NodeId>& nodes, Act act);

  std::vector<Router*> routers_;
  std::vector<NetworkInterface*> interfaces_;
  sc_core::sc_time latency_;
};

}  // namespace lq::net
