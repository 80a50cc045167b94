// SPDX-License-Identifier: Apache-2.0
// ManagerReplicas: the out-of-band fabric manager of a run over MPI ranks
// (decision 0050). Each rank runs a replica of the one manager, which
// takes the same reports at the same times and so computes the same
// tables and makes the same steps; each replica's channel acts on its own
// rank's routers and interfaces, fm.oob_latency after the step as the one
// manager's messages would. The replicas share what only one rank sees:
// a port agent's LINK_EVENT, and what the rank's nodes count for a drain
// round's COUNT_REPs. Both reach the other ranks within fm.oob_latency,
// which is at least the run's lookahead, so they arrive before they are
// due.
#pragma once

#include <systemc>

#include "models/network/mgmt_message.h"
#include "models/topology/topology.h"

namespace lq::net {

class ManagerReplicas {
 public:
  virtual ~ManagerReplicas() = default;

  // Node `node`'s port `port` went down or up here; the report reaches
  // every other replica at `arrives` (FabricManager::ReportArriving).
  virtual void ShareReport(topo::NodeId node, topo::PortId port, bool up,
                           const sc_core::sc_time& arrives) = 0;
  // What this rank's nodes counted for the drain round whose replies are
  // due at `due`, for every other replica.
  virtual void ShareCounts(const CountRepBody& mine,
                           const sc_core::sc_time& due) = 0;
  // The other replicas' counts for the replies due at `due`, summed: by
  // then every one has arrived.
  virtual CountRepBody TakeCounts(const sc_core::sc_time& due) = 0;
};

}  // namespace lq::net
