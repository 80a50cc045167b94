// SPDX-License-Identifier: Apache-2.0
// FabricControl: the manager and its agents, the faults, the port agents'
// reading of the links.
// sc_spawn starts the port agents (before any SystemC header).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "systemc/cluster/fabric_control.h"

#include <stdexcept>
#include <string>

#include "generated/cpp/lc_regs.h"
#include "systemc/network/out_of_band_channel.h"

namespace lq::cluster {

namespace {

// Slots already on their way in over a tlm link that left L0 land within
// this long (NET-7.1).
const sc_core::sc_time kTlmFlush(1, sc_core::SC_US);

std::string PortName(topo::NodeId node, topo::PortId port) {
  return "node " + std::to_string(node) + " port " + std::to_string(port);
}

}  // namespace

FabricControl::FabricControl(
    const sc_core::sc_module_name& name, Cluster& cluster,
    std::shared_ptr<const topo::Topology> topology,
    std::shared_ptr<const topo::RoutingFunction> routing,
    const net::FabricManagerConfig& config,
    const std::vector<topo::PortRef>& tlm_ends)
    : sc_module(name), cluster_(cluster), topology_(std::move(topology)) {
  // Slots already granted the switch leave within SA + ST and a cycle,
  // and then cross the cable.
  const net::RouterConfig& pipeline = cluster.config().network.router;
  ideal_flush_ = cluster.config().port.ideal_latency +
                 sc_core::sc_time(pipeline.clock_ns, sc_core::SC_NS) *
                     (pipeline.sa_cycles + pipeline.st_cycles + 1);
  for (const topo::PortRef& end : tlm_ends) {
    if (!Tlm(end.node, end.port)) {
      throw std::invalid_argument(PortName(end.node, end.port) +
                                  " has no link controller to watch");
    }
    if (!Here(end.node)) {
      continue;  // another rank's agent watches it
    }
    // The port agent's reach into the controller (its register socket is
    // otherwise unbound on a card without a board); a failed card's
    // controllers are switched off through it, as its power goes.
    auto master = std::make_unique<RegisterMaster>(
        ("csr_" + std::to_string(end.node) + "_" + std::to_string(end.port))
            .c_str());
    master->socket.bind(
        cluster.node(end.node).port(end.port).controller().csr_socket());
    masters_.emplace(End{end.node, end.port}, std::move(master));
    ends_.emplace(End{end.node, end.port}, EndState::kUp);
    if (agent_queues_.count(end.node) == 0) {
      agent_queues_[end.node];
      sc_core::sc_spawn([this, node = end.node] { Agent(node); },
                        ("port_agent" + std::to_string(end.node)).c_str());
    }
  }
  const ClusterShare& share = cluster.config().share;
  report_latency_ = config.oob_latency;
  if (config.node) {
    if (share.partition) {
      throw std::invalid_argument(
          "fm.placement: an in-band fabric manager runs in one process only "
          "(so far; decision 0050)");
    }
    BuildInBandManagement(config, std::move(routing));
    return;
  }
  std::vector<net::Router*> routers;
  std::vector<net::NetworkInterface*> interfaces;
  for (topo::NodeId n = 0; n < cluster.node_count(); ++n) {
    routers.push_back(Here(n) ? &router(n) : nullptr);
    interfaces.push_back(Here(n) ? cluster.node(n).interface() : nullptr);
  }
  if (share.partition) {
    replicas_ = std::make_unique<RankManagerReplicas>(*share.sync);
  }
  manager_ = std::make_unique<net::FabricManager>(
      "fabric_manager", topology_, std::move(routing),
      std::make_unique<net::OutOfBandChannel>(
          std::move(routers), std::move(interfaces), config.oob_latency,
          replicas_.get()),
      config);
  if (replicas_) {
    replicas_->OnReport([this](topo::NodeId node, topo::PortId port, bool up,
                               const sc_core::sc_time& arrives) {
      manager_->ReportArriving(node, port, up, arrives);
    });
  }
}

// The builder presets the management tree, as it presets the routes; the
// manager rewrites it after each failure (NET-7.7 step 1).
void FabricControl::BuildInBandManagement(
    const net::FabricManagerConfig& config,
    std::shared_ptr<const topo::RoutingFunction> routing) {
  const topo::NodeId manager = *config.node;
  const topo::NodeId endpoints = topology_->EndpointCount();
  if (endpoints != topology_->NodeCount()) {
    throw std::invalid_argument(
        "an in-band fabric manager needs a topology without switches "
        "(NET-7.4: a switch has no local port to hear it)");
  }
  if (manager >= endpoints) {
    throw std::invalid_argument("fm.placement: no endpoint " +
                                std::to_string(manager) + " in " +
                                topology_->Describe());
  }
  if (cluster_.config().network.interface.vc_sets < 2) {
    throw std::invalid_argument(
        "an in-band fabric manager needs net.vc_sets >= 2: set S-1 carries "
        "MGMT packets only (NET-3.5)");
  }
  auto tree = topo::ManagementTree::Compute(*topology_, manager);
  if (!tree) {
    throw std::invalid_argument(tree.error().reason);
  }
  const auto shared_tree =
      std::make_shared<const topo::ManagementTree>(std::move(tree).value());
  manager_node_ = manager;
  for (topo::NodeId n = 0; n < endpoints; ++n) {
    router(n).SetMgmtParentPort(
        static_cast<uint8_t>(shared_tree->ParentPort(n)));
    net::NetworkInterface& here = *cluster_.node(n).interface();
    agents_.push_back(std::make_unique<net::ManagementAgent>(
        ("agent" + std::to_string(n)).c_str(), n, config.timers,
        [this, n, manager, &here](const net::MgmtMessage& message) {
          if (n == manager) {
            in_band_->Receive(message);
          } else {
            here.SendMgmt(static_cast<uint16_t>(manager),
                          net::EncodeMgmt(message));
          }
        }));
    agents_.back()->bus().socket.bind(router(n).csr());
  }
  std::vector<net::ManagementAgent*> agents;
  for (const auto& agent : agents_) {
    agents.push_back(agent.get());
  }
  net::NetworkInterface& local = *cluster_.node(manager).interface();
  auto channel = std::make_unique<net::InBandChannel>(
      manager, local, std::move(agents), config.timers,
      cluster_.config().network.interface.max_payload, shared_tree,
      [this](topo::NodeId node, topo::PortId port, bool up) {
        if (up) {
          manager_->ReportLinkUp(node, port);
        } else {
          manager_->ReportLinkDown(node, port);
        }
      });
  in_band_ = channel.get();
  for (topo::NodeId n = 0; n < endpoints; ++n) {
    net::ManagementAgent& agent = *agents_[n];
    cluster_.node(n).interface()->SetMgmtHandler(
        [this, n, manager, &agent](net::Delivered delivered) {
          if (n != manager) {
            agent.ReceivePayload(delivered.payload);
            return;
          }
          Result<net::MgmtMessage> message = net::DecodeMgmt(delivered.payload);
          if (message) {
            in_band_->Receive(*message);
          }
        });
  }
  manager_ = std::make_unique<net::FabricManager>("fabric_manager", topology_,
                                                  std::move(routing),
                                                  std::move(channel), config);
}

bool FabricControl::Tlm(topo::NodeId node, topo::PortId port) {
  if (node >= cluster_.node_count() || port >= topology_->PortCount(node)) {
    return false;
  }
  // Both ends of a cable are ports of one kind (Cluster).
  return Here(node) ? !cluster_.node(node).ideal_port(port)
                    : !cluster_.config().port.ideal;
}

void FabricControl::ReportLink(topo::NodeId node, topo::PortId port, bool up) {
  if (!agents_.empty()) {
    agents_.at(node)->OnLinkEvent(port, up);
    return;
  }
  if (up) {
    manager_->ReportLinkUp(node, port);
  } else {
    manager_->ReportLinkDown(node, port);
  }
  if (replicas_) {
    replicas_->ShareReport(node, port, up,
                           sc_core::sc_time_stamp() + report_latency_);
  }
}

void FabricControl::PortDown(topo::NodeId node, topo::PortId port,
                             const sc_core::sc_time& flush) {
  router(node).SetPortDown(port, flush);
  ReportLink(node, port, false);
}

void FabricControl::ChangeLanes(topo::NodeId node, topo::PortId port,
                                bool fail) {
  const topo::PortRef far = topology_->Neighbour(node, port).value();
  for (const End& end : {End{node, port}, End{far.node, far.port}}) {
    if (!Here(end.first)) {
      continue;  // another rank changes its own end
    }
    if (ends_.count(end) == 0) {
      throw std::invalid_argument(PortName(end.first, end.second) +
                                  ": its link controller is not watched");
    }
    phy::PhyPort& phy = cluster_.node(end.first).port(end.second).phy;
    if (fail) {
      phy.ScheduleLaneFailure(phy.AllLanes(), sc_core::sc_time_stamp());
    } else {
      phy.ScheduleLaneRepair(phy.AllLanes(), sc_core::sc_time_stamp());
    }
  }
}

void FabricControl::NoteDetected(double at_ns) {
  if (!detected_ns_) {
    detected_ns_ = at_ns;
  }
}

void FabricControl::SetEnable(const End& end, bool enable) {
  AgentQueue& agent = agent_queues_.at(end.first);
  agent.writes.emplace_back(end.second, enable);
  agent.write.notify(sc_core::SC_ZERO_TIME);
}

void FabricControl::CutLink(topo::NodeId node, topo::PortId port) {
  const auto far = node < cluster_.node_count()
                       ? topology_->Neighbour(node, port)
                       : std::nullopt;
  if (!far) {
    throw std::invalid_argument("no cable on " + PortName(node, port));
  }
  if (Tlm(node, port)) {
    ChangeLanes(node, port, true);
    for (const End& end : {End{node, port}, End{far->node, far->port}}) {
      if (Here(end.first)) {
        ends_.at(end) = EndState::kCut;
      }
    }
    return;
  }
  NoteDetected(sc_core::sc_time_stamp().to_seconds() * 1e9);
  for (const End& end : {End{node, port}, End{far->node, far->port}}) {
    if (Here(end.first)) {
      PortDown(end.first, end.second, ideal_flush_);
    }
  }
}

void FabricControl::RestoreLink(topo::NodeId node, topo::PortId port) {
  const auto far = node < cluster_.node_count()
                       ? topology_->Neighbour(node, port)
                       : std::nullopt;
  if (far && Tlm(node, port)) {
    const End ends[] = {{node, port}, {far->node, far->port}};
    bool here = false;
    bool cut = false;  // by the state of any end this rank holds
    for (const End& end : ends) {
      const auto state = ends_.find(end);
      here = here || Here(end.first);
      cut = cut || (state != ends_.end() && state->second != EndState::kUp);
    }
    if (!here) {
      return;  // the ranks that hold its ends restore it
    }
    if (cut) {
      ChangeLanes(node, port, false);
      for (const End& end : ends) {
        if (!Here(end.first)) {
          continue;
        }
        EndState& state = ends_.at(end);
        // An end still counting the cut never left L0: it has no news.
        state = state == EndState::kCut ? EndState::kUp : EndState::kRestoring;
        if (state == EndState::kRestoring) {
          SetEnable(end, true);
        }
      }
      return;
    }
  }
  // An ideal cable: both ends were taken down at once, so either end this
  // rank holds says whether it is cut.
  const End here = far && Here(node) ? End{node, port}
                   : far             ? End{far->node, far->port}
                                     : End{node, port};
  if (!far || Tlm(node, port) ||
      (Here(here.first) && !router(here.first).port_down(here.second))) {
    throw std::invalid_argument(PortName(node, port) +
                                " has no cut link to restore");
  }
  for (const End& end : {End{node, port}, End{far->node, far->port}}) {
    if (Here(end.first)) {
      router(end.first).SetPortUp(end.second);
      ReportLink(end.first, end.second, true);
    }
  }
}

void FabricControl::FailNode(topo::NodeId node) {
  if (node >= topology_->EndpointCount()) {
    throw std::invalid_argument("no endpoint " + std::to_string(node));
  }
  if (manager_node_ == node) {
    throw std::invalid_argument(
        "node " + std::to_string(node) +
        " is the in-band fabric manager's: nothing would repair its failure");
  }
  if (Here(node)) {
    Node& card = cluster_.node(node);
    if (!agents_.empty()) {
      agents_[node]->Fail();
    }
    if (card.source() != nullptr) {
      card.source()->Stop();
    }
    net::NetworkInterface& interface = *card.interface();
    const uint64_t handed_over = interface.injected();
    const uint64_t never_admitted = interface.Fail();
    router(node).Fail(handed_over, never_admitted);
  }
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    const auto far = topology_->Neighbour(node, p);
    if (!far) {
      continue;
    }
    if (Tlm(node, p)) {
      // Its neighbours' agents find the links down; its own controllers
      // are switched off, as its power goes.
      ChangeLanes(node, p, true);
      if (Here(far->node)) {
        ends_.at({far->node, far->port}) = EndState::kCut;
      }
      if (Here(node)) {
        ends_.at({node, p}) = EndState::kDown;
        SetEnable({node, p}, false);
      }
      continue;
    }
    NoteDetected(sc_core::sc_time_stamp().to_seconds() * 1e9);
    if (Here(far->node)) {
      PortDown(far->node, far->port, ideal_flush_);
    }
  }
}

void FabricControl::RestoreNode(topo::NodeId node) {
  if (node >= topology_->EndpointCount() ||
      (Here(node) && !router(node).failed())) {
    throw std::invalid_argument("no failed endpoint " + std::to_string(node) +
                                " to restore");
  }
  if (Here(node)) {
    net::Router& restored = router(node);
    restored.Restore();
    cluster_.node(node).interface()->Restore();
    restored.SetPortUp(restored.local_port());
    if (!agents_.empty()) {
      agents_[node]->Restore();
    }
  }
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    if (topology_->Neighbour(node, p)) {
      RestoreLink(node, p);  // Fail() took every port down
    }
  }
  if (Here(node) && cluster_.node(node).source() != nullptr) {
    cluster_.node(node).source()->Resume();
  }
}

void FabricControl::OnLinkState(topo::NodeId node, topo::PortId port,
                                link::LtssmState state, uint64_t at_ps) {
  const auto end = ends_.find({node, port});
  if (end == ends_.end() || router(node).failed()) {
    return;  // no fault touched it, or a dead card has no agent
  }
  const bool l0 = state == link::LtssmState::kL0;
  if (end->second == EndState::kCut && !l0) {
    NoteDetected(static_cast<double>(at_ps) / 1000.0);
    end->second = EndState::kDown;
    PortDown(node, port, kTlmFlush);
    SetEnable(end->first, false);
  } else if (end->second == EndState::kRestoring && l0) {
    end->second = EndState::kUp;
    cluster_.node(node).port(port).controller().ResetNetworkSide();
    router(node).SetPortUp(port);
    ReportLink(node, port, true);
  }
}

void FabricControl::Agent(topo::NodeId node) {
  AgentQueue& agent = agent_queues_.at(node);
  while (true) {
    sc_core::wait(agent.write);
    while (!agent.writes.empty()) {
      const auto [port, enable] = agent.writes.front();
      agent.writes.pop_front();
      RegisterMaster& csr = *masters_.at({node, port});
      const uint32_t ctrl = csr.Read(regs::lc::kCtrlOffset);
      const uint32_t mask = regs::lc::kCtrlEnable.Mask();
      csr.Write(regs::lc::kCtrlOffset, enable ? ctrl | mask : ctrl & ~mask);
    }
  }
}

}  // namespace lq::cluster
