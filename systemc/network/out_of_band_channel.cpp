// SPDX-License-Identifier: Apache-2.0
// OutOfBandChannel: the builder's management controller.
#include "systemc/network/out_of_band_channel.h"

#include <utility>

#include "systemc/network/fabric_manager.h"

namespace lq::net {

OutOfBandChannel::OutOfBandChannel(std::vector<Router*> routers,
                                   std::vector<NetworkInterface*> interfaces,
                                   const sc_core::sc_time& oob_latency,
                                   ManagerReplicas* replicas)
    : routers_(std::move(routers)),
      interfaces_(std::move(interfaces)),
      latency_(oob_latency),
      replicas_(replicas) {}

template <typename Act, typename Acted>
void OutOfBandChannel::Round(RouteUpdate& update, size_t messages,
                             const std::vector<topo::NodeId>& nodes, Act act,
                             Acted acted) {
  sc_core::wait(latency_);
  for (const topo::NodeId n : nodes) {
    if (routers_[n] != nullptr) {
      act(n);
    }
  }
  acted();
  sc_core::wait(latency_);
  update.messages += 2 * messages;
}

// Only `changed` are sent a message; the others' banks already hold the
// same tables, and writing them too keeps every bank a whole function.
void OutOfBandChannel::WriteTables(
    RouteUpdate& update, const std::vector<topo::NodeId>& changed,
    const std::vector<topo::NodeId>& working,
    const std::shared_ptr<const topo::TableRouting>& next) {
  Round(
      update, changed.size(), working,
      [&](topo::NodeId n) { routers_[n]->WriteShadowRouting(next); }, [] {});
}

void OutOfBandChannel::Command(RouteUpdate& update,
                               const std::vector<topo::NodeId>& nodes,
                               MgmtType type) {
  Round(
      update, nodes.size(), nodes,
      [&](topo::NodeId n) {
        NetworkInterface* local = interfaces_[n];
        if (type == MgmtType::kSwitch) {
          routers_[n]->SwitchRouting();
          if (local != nullptr) {
            local->SetEpoch(routers_[n]->epoch());
          }
        } else if (local != nullptr) {
          local->SetFrozen(type == MgmtType::kFreeze);
        }
      },
      [] {});
}

CountRepBody OutOfBandChannel::Count(RouteUpdate& update,
                                     const std::vector<topo::NodeId>& nodes) {
  CountRepBody sums;
  Round(
      update, nodes.size(), nodes,
      [&](topo::NodeId n) {
        // What the node injected includes what it lost waiting when it
        // failed, which its router counts as dropped (NET-7.8).
        sums.injected +=
            interfaces_[n] != nullptr ? interfaces_[n]->injected() : 0;
        sums.ejected += routers_[n]->counters().ejected;
        sums.dropped += routers_[n]->counters().Dropped();
      },
      [&] {
        if (replicas_ != nullptr) {
          replicas_->ShareCounts(sums, sc_core::sc_time_stamp() + latency_);
        }
      });
  if (replicas_ != nullptr) {
    const CountRepBody others = replicas_->TakeCounts(sc_core::sc_time_stamp());
    sums.injected += others.injected;
    sums.ejected += others.ejected;
    sums.dropped += others.dropped;
  }
  return sums;
}

}  // namespace lq::net
