// SPDX-License-Identifier: Apache-2.0
// A network study's injected fault and its repair (docs/spec/net.md
// section 7): the fault.* and fm.* keys, the cut at its time, and what the
// run measured of the fabric manager's update and of each affected flow's
// failover (NET-7.9).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/network/failover.h"
#include "models/topology/routing.h"
#include "systemc/app/key_usage.h"
#include "systemc/cluster/network.h"
#include "systemc/common/param.h"
#include "systemc/network/fabric_manager.h"

namespace lq::app {

std::vector<ParamSpec> NetworkFaultParamSpecs();

// fault.kind, and with a fault the fault.* and fm.* keys it reads.
void UseFaultKeys(const ParamSet& params, KeyUsage& usage);

// A link to cut or a node to kill, when, and the fabric manager that
// repairs it.
struct FaultPlan {
  enum class Kind { kLink, kNode };
  Kind kind = Kind::kLink;
  topo::NodeId node = 0;
  topo::PortId port = 0;
  double at_cycles = 0;
  double restore_at_cycles = 0;  // it comes back (0: never)
  net::FabricManagerConfig fabric_manager;
};

// The moment the cut link or failed node came back (NET-7.11, NET-7.12),
// and the slots its links had carried both ways until then.
struct RestoreSample {
  double at_ns = 0;
  uint64_t link_flits = 0;
};

// The scenario's fault, nothing if fault.kind is none, or why it is bad
// input (a port with no cable, a time outside a run of `run_cycles`; none:
// the run goes on until its workload is done).
Result<std::optional<FaultPlan>> ScenarioFault(
    const ParamSet& params, const topo::Topology& topology, unsigned vc_classes,
    std::optional<uint64_t> run_cycles);

// What the run measured of the fault.
// The packets a failure dropped at every router, by cause (NET-7.8: each
// counted once, by one router).
struct FailureDrops {
  uint64_t link_down = 0;    // no way on over the cut link (NET-7.1)
  uint64_t node_down = 0;    // lost inside the failed node
  uint64_t stale_epoch = 0;  // of the old routing epoch (NET-7.7)
  uint64_t no_route = 0;     // no route left: to the dead node, mostly
  uint64_t total() const {
    return link_down + node_down + stale_epoch + no_route;
  }
};

struct FaultOutcome {
  FaultPlan plan;
  double at_ns = 0;
  std::optional<net::RouteUpdate> update;  // none: no update finished
  net::FailoverReport failover;
  std::optional<RestoreSample> restore;            // it came back
  std::optional<net::RouteUpdate> restore_update;  // none: not finished
  uint64_t link_flits_after_restore = 0;  // both ways, to the run's end
  FailureDrops drops;
  // On the stack: the first port agent's count of a link down (NET-7.3);
  // the flows are connections, measured by their messages (NET-7.13).
  std::optional<double> detected_ns;
  bool by_messages = false;
  bool Repaired() const { return update && update->failure.empty(); }
};

// Whether the route from src to dst under `routing` (the routing before
// the fault) crossed what `plan` failed; false for a flow from or to a
// failed node, which cannot recover.
std::function<bool(uint32_t src, uint32_t dst)> CrossesFault(
    const FaultPlan& plan, const topo::RoutingFunction& routing);

// Carries out `plan` through `control` now.
void InjectFault(cluster::FabricControl& control, const FaultPlan& plan);
// Brings the link `plan` cut, or the node it killed, back now.
RestoreSample RestoreFault(cluster::FabricControl& control,
                           const FaultPlan& plan);

// What `control` measured of the repair of outcome.plan's fault, and of
// its restore if `restore`: the manager's updates, the slots dropped for the
// fault (at every router), the slots over the restored links since (over
// MPI ranks, at this rank's routers).
void MeasureRepair(cluster::FabricControl& control,
                   std::optional<RestoreSample> restore, FaultOutcome& outcome);

// Measures `network` after a run in which `plan` was carried out at
// `at_ns`, and brought back as `restore` says, from every packet
// delivered (`deliveries`); `routing` is the routing before the fault
// (its paths decide which flows the fault affected; flows from or to a
// failed node cannot recover and are left out). Every rank calls it; rank
// 0 gets the outcome.
FaultOutcome MeasureFault(cluster::Network& network, const FaultPlan& plan,
                          double at_ns, std::optional<RestoreSample> restore,
                          const topo::RoutingFunction& routing,
                          const std::vector<net::FlowDelivery>& deliveries);

// Over MPI ranks (decision 0050): rank 0's `outcome`, measured at its own
// nodes, gains what the other ranks' port agents and routers measured of
// the repair: their drops, the flits over the restored link since, and
// the earliest detection. Every rank calls it.
void AddOtherRanksRepair(FaultOutcome& outcome);

// Why `fault`'s fabric manager cannot run over MPI ranks whose lookahead
// is `lookahead`: an in-band manager runs in one process, and each rank's
// replica of the out-of-band one must hear the others' reports
// fm.oob_latency after they are made, no sooner than a window's end.
std::optional<std::string> CheckFaultOverRanks(
    const FaultPlan& fault, const sc_core::sc_time& lookahead);

// The report's lines and the stats file's faults[] entry.
void PrintFault(const FaultOutcome& outcome, double clock_ns, std::FILE* out);
nlohmann::ordered_json FaultJson(const FaultOutcome& outcome);

}  // namespace lq::app
