// StackFailover: the cut, its detection by the links, the port agent,
// the repair.
#include "systemc/app/stack_failover.h"

#include <algorithm>
#include <cstdio>

#include "generated/cpp/lc_regs.h"
#include "systemc/network/out_of_band_channel.h"

namespace lq::app {
namespace {

// The fabric manager's update of `manager`, if one finished.
const net::RouteUpdate* Finished(const net::FabricManager* manager) {
  if (manager == nullptr || manager->updates().empty()) {
    return nullptr;
  }
  const net::RouteUpdate& update = manager->updates().front();
  return update.resumed > sc_core::SC_ZERO_TIME ? &update : nullptr;
}

}  // namespace

std::optional<std::string> CheckStackFault(const ParamSet& params,
                                           const StackPlan& plan) {
  if (params.Text("fault.kind") == "none") {
    return std::nullopt;
  }
  if (!plan.tlm_links) {
    return "fault.kind: the stack cuts links in their PHYs, and "
           "link.fidelity ideal has none (run.study network cuts ideal "
           "links)";
  }
  if (params.Text("fault.kind") != "link") {
    return "fault.kind: the stack cuts links so far (run.study network "
           "fails nodes)";
  }
  if (params.Integer("fault.restore_at_cycles") != 0) {
    return "fault.restore_at_cycles: the stack does not bring cut links "
           "back yet (run.study network does)";
  }
  if (params.Text("fm.placement") != "builder") {
    return "fm.placement: the stack's fabric manager works out of band "
           "(builder) so far";
  }
  const auto fault = ScenarioFault(params, *plan.topology,
                                   plan.fabric.router.vc_classes, std::nullopt);
  if (!fault) {
    return fault.error().reason;
  }
  return std::nullopt;
}

StackFailover::StackFailover(const sc_core::sc_module_name& name,
                             const FaultPlan& plan, const StackPlan& stack,
                             StackAssembly& assembly)
    : sc_module(name), plan_(plan), assembly_(assembly) {
  SC_HAS_PROCESS(StackFailover);
  SC_THREAD(Agent);
  cluster::Cluster& cluster = *assembly.cluster();
  at_ns_ = plan.at_cycles * stack.fabric.router.clock_ns;
  const sc_core::sc_time at(at_ns_, sc_core::SC_NS);
  const auto far = stack.topology->Neighbour(plan.node, plan.port).value();
  phy::PhyPort& near_phy = cluster.node(plan.node).port(plan.port).phy;
  phy::PhyPort& far_phy = cluster.node(far.node).port(far.port).phy;
  near_phy.ScheduleLaneFailure(near_phy.AllLanes(), at);
  far_phy.ScheduleLaneFailure(far_phy.AllLanes(), at);
  // The port agent's reach into the two controllers the cut takes down
  // (their register sockets are otherwise unbound on a card without a
  // board).
  for (const auto& [node, port] : {std::make_pair(plan.node, plan.port),
                                   std::make_pair(far.node, far.port)}) {
    auto master = std::make_unique<RegisterMaster>(
        ("csr_" + std::to_string(node) + "_" + std::to_string(port)).c_str());
    master->socket.bind(
        cluster.node(node).port(port).controller().csr_socket());
    masters_.emplace(std::make_pair(unsigned{node}, unsigned{port}),
                     std::move(master));
  }

  std::vector<net::Router*> routers;
  std::vector<net::NetworkInterface*> interfaces;
  for (const NodeParts& node : assembly.nodes()) {
    routers.push_back(node.router);
    interfaces.push_back(&node.engine->interface());
  }
  manager_ = std::make_unique<net::FabricManager>(
      "fabric_manager", stack.topology, stack.fabric.router.routing,
      std::make_unique<net::OutOfBandChannel>(routers, interfaces,
                                              plan.fabric_manager.oob_latency),
      plan.fabric_manager);
}

void StackFailover::OnLinkState(unsigned node, unsigned port,
                                link::LtssmState state, uint64_t at_ps) {
  const auto key = std::make_pair(node, port);
  // NET-7.3's port agent: a link that leaves L0 after the cut is down; it
  // does not wait for Recovery's 24 ms timeout (DLL-6), which outlasts the
  // transport's retries. (Before the cut, nothing is news.)
  if (state == link::LtssmState::kL0 ||
      static_cast<double>(at_ps) / 1000.0 < at_ns_ ||
      std::find(down_.begin(), down_.end(), key) != down_.end()) {
    return;
  }
  down_.push_back(key);
  if (!detected_ns_) {
    detected_ns_ = static_cast<double>(at_ps) / 1000.0;
  }
  // Slots already on their way in land within a microsecond (NET-7.1).
  assembly_.nodes()[node].router->SetPortDown(
      port, sc_core::sc_time(1, sc_core::SC_US));
  manager_->ReportLinkDown(node, port);
  to_disable_.push_back(key);
  disable_.notify(sc_core::SC_ZERO_TIME);
}

void StackFailover::Agent() {
  while (true) {
    wait(disable_);
    while (!to_disable_.empty()) {
      const auto port = to_disable_.front();
      to_disable_.pop_front();
      if (const auto master = masters_.find(port); master != masters_.end()) {
        RegisterMaster& csr = *master->second;
        csr.Write(regs::lc::kCtrlOffset, csr.Read(regs::lc::kCtrlOffset) &
                                             ~regs::lc::kCtrlEnable.Mask());
      }
    }
  }
}

bool StackFailover::Repaired() const {
  const net::RouteUpdate* update = Finished(manager_.get());
  return update != nullptr && update->failure.empty();
}

std::string StackFailover::Line() const {
  const net::RouteUpdate* update = Finished(manager_.get());
  char line[256];
  std::snprintf(line, sizeof(line),
                "link cut at node %u port %u at %.1f us: found down by its "
                "links at %.1f us, rerouted by %.1f us",
                plan_.node, plan_.port, at_ns_ / 1e3,
                detected_ns_.value_or(0) / 1e3,
                update != nullptr ? update->resumed.to_seconds() * 1e6 : 0);
  return update != nullptr ? line : std::string(line) + " (NOT rerouted)";
}

nlohmann::ordered_json StackFailover::Json() const {
  const net::RouteUpdate* update = Finished(manager_.get());
  uint64_t dropped = 0;
  for (const NodeParts& node : assembly_.nodes()) {
    dropped += node.router->counters().FailureDropped();
  }
  nlohmann::ordered_json json = {
      {"at_ns", at_ns_},
      {"kind", "link"},
      {"node", plan_.node},
      {"port", plan_.port},
      {"detected_ns", detected_ns_ ? nlohmann::ordered_json(*detected_ns_)
                                   : nlohmann::ordered_json(nullptr)},
      {"recovered_ns",
       update != nullptr
           ? nlohmann::ordered_json(update->resumed.to_seconds() * 1e9)
           : nlohmann::ordered_json(nullptr)},
      {"dropped", dropped}};
  return json;
}

}  // namespace lq::app
