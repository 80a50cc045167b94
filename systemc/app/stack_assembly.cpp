// SPDX-License-Identifier: Apache-2.0
// The stack's plan from the keys, its builder, the cards' memories and
// link totals.
#include "systemc/app/stack_assembly.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <utility>

#include "models/transport/qp_state.h"
#include "systemc/app/congestion_params.h"
#include "systemc/app/network_study.h"
#include "systemc/app/rank_summary.h"
#include "systemc/app/scenario_lossless.h"
#include "systemc/app/scenario_schema.h"

namespace lq::app {

Result<StackPlan> PlanStack(const ParamSet& params) {
  StackPlan plan;
  auto routed = ScenarioRoutedTopology(params);
  if (!routed) {
    return routed.error();
  }
  plan.topology = routed->topology;
  plan.tlm_links = params.Text("link.fidelity") == "tlm";
  if (plan.tlm_links) {
    auto rtl = ScenarioRtlPorts(
        params, plan.topology->NodeCount(),
        [&plan](uint32_t node) { return plan.topology->PortCount(node); });
    if (!rtl) {
      return rtl.error();
    }
    plan.rtl_ports = std::move(rtl).value();
  }
  plan.profile = phy::FindLinkProfile(params.Text("link.profile")).value();
  // One link's payload rate at full width: TRN-8.8's G, TRN-10.1's R.
  const double goodput_bps =
      phy::PayloadGoodputGbps(plan.profile, plan.profile.max_lanes) * 1e9;
  plan.pmtu = static_cast<uint32_t>(params.Integer("transport.pmtu"));
  if (!transport::ValidPmtu(plan.pmtu)) {
    return Fail("transport.pmtu = " + std::to_string(plan.pmtu) +
                " is not one of 256, 512, 1024, 2048, 4096 (TRN-6.1)");
  }

  // PFC (TRN-8), with every VC holding XOFF plus the headroom (TRN-8.9).
  plan.congestion = params.Text("transport.cc");
  auto lossless = ScenarioLosslessRouter(params, routed->routing, plan.profile,
                                         plan.pmtu, plan.congestion);
  if (!lossless) {
    return lossless.error();
  }
  plan.headroom_bytes = lossless->plan.headroom_bytes;
  plan.marking = lossless->plan.marking;

  transport::EngineFabricConfig& fabric = plan.fabric;
  fabric.router = lossless->router;
  fabric.flow_control = lossless->plan.flow;
  fabric.engine.interface = InterfaceFor(lossless->router);
  fabric.engine.congestion = plan.congestion;
  auto congestion = ScenarioCongestionParams(params, goodput_bps);
  if (!congestion) {
    return congestion.error();
  }
  fabric.engine.congestion_params = *congestion;
  fabric.faults.drop = params.Real("transport.drop");
  fabric.faults.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  return plan;
}

std::string LinkLayerLabel(const StackPlan& plan) {
  std::string label = "link controllers and PHYs";
  if (!plan.rtl_ports.empty()) {
    const size_t rtl = plan.rtl_ports.size();
    label += ", " + std::to_string(rtl) +
             (rtl == 1 ? " controller" : " controllers") + " in Verilated RTL";
  }
  return label;
}

std::string LinkFidelityLabel(const StackPlan& plan) {
  return plan.tlm_links ? "tlm (" + LinkLayerLabel(plan) + ")" : "ideal";
}

void UseStackKeys(const ParamSet& params, KeyUsage& usage) {
  usage.Use({"link.profile", "transport.cc", "transport.pmtu", "transport.drop",
             "sim.watchdog_cycles"});
  UseLosslessRouterKeys(params, usage);
  UseCongestionKeys(params.Text("transport.cc"), usage);
  usage.UseIf(params.Text("link.fidelity") == "tlm", {"link.ber"},
              "link.fidelity is ideal: ideal links have no bit errors");
  if (params.Text("link.fidelity") == "tlm") {
    UseRtlPortKeys(params, usage);
  } else {
    usage.UseIf(false, {"link.rtl_ports"},
                "link.fidelity is ideal: ideal links have no link "
                "controllers to run as RTL");
  }
}

StackAssembly::StackAssembly(const StackPlan& plan, const ParamSet& params,
                             LinkStateHandler on_link_state,
                             const std::string& vcd_path)
    : plan_(plan),
      deadlock_window_(
          static_cast<double>(params.Integer("sim.watchdog_cycles")) *
              plan.fabric.router.clock_ns,
          sc_core::SC_NS) {
  cluster::ClusterConfig config =
      cluster::EngineCards(plan.fabric.router.routing, plan.fabric);
  config.port.phy = phy::PhyPortConfig::ForProfile(plan.profile);
  config.port.phy.cable_metres = params.Real("link.cable_m");
  config.port.phy.errors.ber = params.Real("link.ber");
  config.port.phy.seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  config.port.controller.profile = plan.profile;
  config.port.controller.start_trained = true;  // no firmware: DLL-6.12
  config.port.ideal = !plan.tlm_links;
  if (!plan.rtl_ports.empty()) {
    // The Verilated controller trains; so must its partners, at its time
    // scale.
    config.port.controller.start_trained = false;
    PlaceRtlPorts(plan.rtl_ports, params, vcd_path, config);
  }
  if (on_link_state) {
    std::map<std::string, unsigned> index;  // the cluster names its nodes
    for (unsigned n = 0; n < plan.topology->NodeCount(); ++n) {
      index[plan.topology->NodeName(n)] = n;
    }
    config.on_link_state = [index = std::move(index),
                            on_link_state = std::move(on_link_state)](
                               const std::string& node, unsigned port,
                               link::LtssmState state, uint64_t at_ps) {
      on_link_state(index.at(node), port, state, at_ps);
    };
  }
  // Cables between ranks are the lookahead: tlm links take the cable's
  // delay at least (the PHY carries nothing sooner); ideal ones no time.
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  sync_ = std::make_unique<parallel::WindowSync>(
      world, plan.tlm_links ? sc_core::sc_time::from_value(phy::CableDelayPs(
                                  config.port.phy.cable_metres))
                            : config.port.ideal_latency);
  if (world.parallel()) {
    partition_ = std::make_shared<const topo::Partition>(
        PartitionForRun(params, *plan.topology).value());  // checked
    config.share = {partition_, sync_.get()};
  }
  cluster_ =
      std::make_unique<cluster::Cluster>("cluster", config, plan.topology);
  for (unsigned n = 0; n < cluster_->node_count(); ++n) {
    if (!cluster_->built(n)) {
      nodes_.push_back({});  // another rank's
      continue;
    }
    cluster::Node& node = cluster_->node(n);
    nodes_.push_back({node.router(), node.transport(), node.flow_control()});
  }
}

void StackAssembly::WatchForDeadlock(std::function<bool()> busy) {
  std::vector<net::Router*> routers;
  for (const NodeParts& node : nodes_) {
    routers.push_back(node.router);
  }
  watchdog_ = std::make_unique<net::DeadlockWatchdog>(
      "watchdog", std::move(routers), plan_.topology, deadlock_window_,
      std::move(busy), true);
}

DeadlockFinding StackAssembly::Deadlock() const {
  if (!watchdog_ || !watchdog_->deadlocked()) {
    return {};
  }
  return {true, watchdog_->detected_at().to_seconds() * 1e9,
          watchdog_->report()};
}

namespace {

// Whether `sync` runs in windows of a cable's delay.
bool Windowed(const parallel::WindowSync& sync) {
  return sync.lookahead() > sc_core::SC_ZERO_TIME;
}

}  // namespace

std::function<void()> StackAssembly::WorkloadDone() {
  return [this] {
    if (Windowed(*sync_)) {
      workload_done_ = true;
    } else {
      sc_core::sc_stop();
    }
  };
}

double StackAssembly::Run(bool progress,
                          std::function<double()> done_fraction) {
  if (progress && parallel::RankWorld::Get().root()) {
    progress_ = std::make_unique<ProgressMeter>(
        "progress", std::move(done_fraction),
        sc_core::sc_time(1, sc_core::SC_US), stderr);
  }
  // The workload ends the run: that is not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  sync_->Run(sc_core::sc_max_time(), Windowed(*sync_)
                                         ? [this] { return workload_done_; }
                                         : std::function<bool()>());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

std::optional<RankSummary> StackAssembly::Ranks() const {
  if (!partition_) {
    return std::nullopt;
  }
  return SummariseRanks(*partition_, *plan_.topology, *sync_);
}

std::vector<NodeParts> StackAssembly::cards() const {
  return {nodes_.begin(), nodes_.begin() + plan_.topology->EndpointCount()};
}

std::vector<transport::TransportEngine*> StackAssembly::engines() const {
  std::vector<transport::TransportEngine*> engines;
  for (const NodeParts& card : cards()) {
    engines.push_back(card.engine);
  }
  return engines;
}

transport::NodeMemories CardMemories::Access() {
  transport::NodeMemories access;
  access.write = [this](unsigned node, uint64_t address, const Bytes& bytes) {
    memories_[node]->Program(static_cast<uint32_t>(address), bytes,
                             static_cast<uint32_t>(bytes.size()));
  };
  access.read = [this](unsigned node, uint64_t address, uint32_t length) {
    return memories_[node]->View(static_cast<uint32_t>(address), length);
  };
  return access;
}

bool CardMemories::Bind(const std::vector<NodeParts>& nodes,
                        const std::function<uint64_t(unsigned node)>& bytes,
                        const sc_core::sc_time& access_time) {
  for (unsigned n = 0; n < nodes.size(); ++n) {
    const uint64_t size = std::max<uint64_t>(bytes(n), 1);
    if (size > std::numeric_limits<uint32_t>::max()) {
      std::fprintf(stderr,
                   "lqemu run: card %u needs %llu bytes of memory for the "
                   "workload, more than its 4 GiB\n",
                   n, static_cast<unsigned long long>(size));
      return false;
    }
    if (nodes[n].engine == nullptr) {
      memories_.push_back(nullptr);  // another rank's card
      continue;
    }
    memories_.push_back(std::make_unique<board::Memory>(
        ("memory" + std::to_string(n)).c_str(),
        board::MemoryConfig{static_cast<uint32_t>(size), false, access_time}));
    nodes[n].engine->memory.bind(memories_.back()->socket);
  }
  return true;
}

LinkTotals NodeLinkTotals(cluster::Node& node) {
  LinkTotals totals;
  for (unsigned p = 0; p < node.port_count(); ++p) {
    if (node.ideal_port(p)) {
      continue;
    }
    cluster::LinkPort& port = node.port(p);
    const phy::PhyPortStats& phy = port.phy.stats();
    // A controller whose RTL keeps its counters private counts none.
    const link::LinkCounters counters =
        port.controller().Counters().value_or(link::LinkCounters{});
    totals.flits += phy.tx_flits;
    totals.fec_corrected += phy.rx_fec_symbols;
    totals.crc_errors += counters.crc_errors;
    totals.replays += counters.replays;
  }
  return totals;
}

}  // namespace lq::app
