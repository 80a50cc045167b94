// SPDX-License-Identifier: Apache-2.0
// The stack's cards for the workloads that run through transport engines
// (workload.name traffic and incast): every endpoint of the topology a
// router with a RoCEv2 engine at its local port, every switch a router
// alone, and PFC and ECN marking at every router output (TRN-8, TRN-9),
// each VC sized to XOFF plus TRN-8.8's headroom; the routers joined port
// to port (link.fidelity ideal, decision 0009) or through each port's link
// controller and PHY at the scenario's bit-error rate and cable length, PFC
// messages riding in CONTROL flits (link.fidelity tlm, TRN-8.3). One plan
// from the keys; the nodes are a cluster::Cluster's at either fidelity.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/common/result.h"
#include "models/phy/link_profile.h"
#include "models/roce/addressing.h"
#include "models/topology/partition.h"
#include "models/topology/topology.h"
#include "systemc/app/key_usage.h"
#include "systemc/app/progress_meter.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/rtl_ports.h"
#include "systemc/app/run_report.h"
#include "systemc/board/memory.h"
#include "systemc/cluster/cluster.h"
#include "systemc/common/param.h"
#include "systemc/network/deadlock_watchdog.h"
#include "systemc/parallel/window_sync.h"
#include "systemc/transport/engine_fabric.h"
#include "systemc/transport/node_memories.h"

namespace lq::app {

inline constexpr uint8_t kDataPriority = roce::PriorityOfDscp(roce::kDscpData);

// Everything the cards are built from, derived from the keys.
struct StackPlan {
  std::shared_ptr<const topo::Topology> topology;
  phy::LinkProfile profile;
  bool tlm_links = false;  // link.fidelity tlm: link controllers and PHYs
  // link.rtl_ports: the controllers that are the Verilated RTL (tlm links).
  std::set<NodePort> rtl_ports;
  transport::EngineFabricConfig fabric;
  uint32_t pmtu = 4096;
  std::string congestion;       // transport.cc
  uint64_t headroom_bytes = 0;  // TRN-8.8's H of the scenario's links
  std::string marking;          // the ECN profile's name
};

// The plan, or why the keys name cards the stack cannot build: a PMTU
// TRN-6.1 does not allow, PFC thresholds that do not fit TRN-8.9, RTL
// ports this build or link.profile cannot have.
Result<StackPlan> PlanStack(const ParamSet& params);

// What a tlm run's links are, for its report: "link controllers and PHYs",
// and how many controllers are the Verilated RTL.
std::string LinkLayerLabel(const StackPlan& plan);
// The same with the fidelity, for a headline: "tlm (link controllers and
// PHYs...)" or "ideal".
std::string LinkFidelityLabel(const StackPlan& plan);

// The keys PlanStack and the builder read.
void UseStackKeys(const ParamSet& params, KeyUsage& usage);

// One card's parts a workload and its report read.
struct NodeParts {
  net::Router* router = nullptr;
  transport::TransportEngine* engine = nullptr;
  transport::RouterFlowControl* flow = nullptr;
};

// The built cards. Each engine's memory socket is left for the workload's
// owner to bind.
class StackAssembly {
 public:
  // Where a port's link controller reports each LTSSM change (tlm links).
  using LinkStateHandler = std::function<void(
      unsigned node, unsigned port, link::LtssmState state, uint64_t at_ps)>;

  // Each RTL port writes its waveform to `vcd_path` (RtlPortVcdPath) if
  // one is given.
  StackAssembly(const StackPlan& plan, const ParamSet& params,
                LinkStateHandler on_link_state = {},
                const std::string& vcd_path = "");

  // Every node, by node: the cards (endpoints, 0..E-1) and then any
  // switches, whose engine is nullptr. In a run over MPI ranks (decision
  // 0050) only this rank's nodes are built: another rank's are all
  // nullptr.
  const std::vector<NodeParts>& nodes() const { return nodes_; }
  bool built(unsigned node) const { return nodes_.at(node).router != nullptr; }
  // The cards alone.
  std::vector<NodeParts> cards() const;
  // The cards' transport engines, by node.
  std::vector<transport::TransportEngine*> engines() const;
  // The cards, with link controllers and PHYs on tlm links.
  cluster::Cluster& cluster() { return *cluster_; }

  // Watches the routers for a deadlock while `busy()` (the workload is
  // not done) or packets are held: packets held and no slot moved anywhere
  // for sim.watchdog_cycles router cycles stop the simulation (NET-4.7's
  // failure, seen in simulation). Without it a deadlocked run could go on
  // until the transport's retries ran out, or for ever.
  void WatchForDeadlock(std::function<bool()> busy);
  // What the watchdog found: whether it declared a deadlock, when, and
  // the cycle of input VCs waiting on one another.
  DeadlockFinding Deadlock() const;
  // What the workload calls once this rank's share of it is done: the
  // run ends then (sc_stop) or, if it goes in windows of a cable's delay
  // (tlm links that take time: decision 0050), at the end of the first
  // window after which every rank's share is done (WindowSync::Run), so
  // that where it ends, and every figure read then, does not depend on
  // the rank count.
  std::function<void()> WorkloadDone();
  // Runs the simulation until the workload ends it, with a progress line
  // on stderr if `progress` (rank 0's), from `done_fraction` (0..1) every
  // simulated microsecond; returns the wall-clock seconds it took.
  double Run(bool progress, std::function<double()> done_fraction);
  // What a parallel run's ranks did (every rank calls it; rank 0 gets
  // every rank's figures); none in one process.
  std::optional<RankSummary> Ranks() const;

 private:
  const StackPlan& plan_;
  sc_core::sc_time deadlock_window_;
  std::unique_ptr<parallel::WindowSync> sync_;
  std::shared_ptr<const topo::Partition> partition_;
  std::unique_ptr<cluster::Cluster> cluster_;
  std::vector<NodeParts> nodes_;
  std::unique_ptr<net::DeadlockWatchdog> watchdog_;
  std::unique_ptr<ProgressMeter> progress_;  // lives as long as the modules
  bool workload_done_ = false;               // here, in a windowed run
};

// The cards' memories a workload reads and writes: one per card, bound to
// its engine. Traffic and collectives take them answering at once
// (decision 0034: the engine's DMA is one access at a time, and a NIC
// pipelines its own); the incast's flows keep a board memory's time.
class CardMemories {
 public:
  // The workload's reach into the memories Bind() makes.
  transport::NodeMemories Access();
  // A memory of `bytes(n)` for card n, taking `access_time` per access,
  // bound to its engine; false, having said why on stderr, if a card would
  // need more than 4 GiB.
  bool Bind(const std::vector<NodeParts>& nodes,
            const std::function<uint64_t(unsigned node)>& bytes,
            const sc_core::sc_time& access_time = sc_core::SC_ZERO_TIME);

 private:
  std::vector<std::unique_ptr<board::Memory>> memories_;
};

// The link layer's counters summed over every port of a node (each
// direction's own are FabricCounters').
LinkTotals NodeLinkTotals(cluster::Node& node);

}  // namespace lq::app
