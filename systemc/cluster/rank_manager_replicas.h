// SPDX-License-Identifier: Apache-2.0
// RankManagerReplicas: net::ManagerReplicas over the ranks of a parallel
// run (decision 0050): what one rank's replica of the fabric manager
// shares goes to every other rank through the window synchronisation, as
// a message due when it arrives.
#pragma once

#include <functional>
#include <map>
#include <systemc>

#include "systemc/network/manager_replicas.h"
#include "systemc/parallel/window_sync.h"

namespace lq::cluster {

class RankManagerReplicas : public net::ManagerReplicas {
 public:
  // A report from another rank, to this rank's manager, arriving at
  // `arrives`.
  using ReportHandler =
      std::function<void(topo::NodeId node, topo::PortId port, bool up,
                         const sc_core::sc_time& arrives)>;

  // Listens on `sync` for the other ranks' replicas.
  explicit RankManagerReplicas(parallel::WindowSync& sync);
  // Where the other ranks' reports go (this rank's manager, once built).
  void OnReport(ReportHandler handler) { on_report_ = std::move(handler); }

  void ShareReport(topo::NodeId node, topo::PortId port, bool up,
                   const sc_core::sc_time& arrives) override;
  void ShareCounts(const net::CountRepBody& mine,
                   const sc_core::sc_time& due) override;
  net::CountRepBody TakeCounts(const sc_core::sc_time& due) override;

 private:
  void ToEveryOtherRank(uint64_t receiver, const sc_core::sc_time& due,
                        ByteView payload);

  parallel::WindowSync& sync_;
  ReportHandler on_report_;
  std::map<sc_core::sc_time, net::CountRepBody> counts_;  // by due time
};

}  // namespace lq::cluster
