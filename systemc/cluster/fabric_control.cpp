// FabricControl: the manager and its agents, the faults, the port agents'
// reading of the links.
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
  SC_HAS_PROCESS(FabricControl);
  SC_THREAD(Agent);
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
  }
  if (config.node) {
    BuildInBandManagement(config, std::move(routing));
    return;
  }
  std::vector<net::Router*> routers;
  std::vector<net::NetworkInterface*> interfaces;
  for (topo::NodeId n = 0; n < cluster.node_count(); ++n) {
    routers.push_back(&router(n));
    interfaces.push_back(cluster.node(n).interface());
  }
  manager_ = std::make_unique<net::FabricManager>(
      "fabric_manager", topology_, std::move(routing),
      std::make_unique<net::OutOfBandChannel>(
          std::move(routers), std::move(interfaces), config.oob_latency),
      config);
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
  return node < cluster_.node_count() &&
         port < cluster_.node(node).port_count() &&
         !cluster_.node(node).ideal_port(port);
}

void FabricControl::ReportLink(topo::NodeId node, topo::PortId port, bool up) {
  if (!agents_.empty()) {
    agents_.at(node)->OnLinkEvent(port, up);
  } else if (up) {
    manager_->ReportLinkUp(node, port);
  } else {
    manager_->ReportLinkDown(node, port);
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
  writes_.emplace_back(end, enable);
  write_.notify(sc_core::SC_ZERO_TIME);
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
    ends_.at({node, port}) = EndState::kCut;
    ends_.at({far->node, far->port}) = EndState::kCut;
    return;
  }
  NoteDetected(sc_core::sc_time_stamp().to_seconds() * 1e9);
  router(node).SetPortDown(port, ideal_flush_);
  router(far->node).SetPortDown(far->port, ideal_flush_);
  ReportLink(node, port, false);
  ReportLink(far->node, far->port, false);
}

void FabricControl::RestoreLink(topo::NodeId node, topo::PortId port) {
  const auto far = node < cluster_.node_count()
                       ? topology_->Neighbour(node, port)
                       : std::nullopt;
  if (far && Tlm(node, port) && ends_.count({node, port}) != 0 &&
      ends_.at({node, port}) != EndState::kUp) {
    ChangeLanes(node, port, false);
    for (const End& end : {End{node, port}, End{far->node, far->port}}) {
      EndState& state = ends_.at(end);
      // An end still counting the cut never left L0: it has no news.
      state = state == EndState::kCut ? EndState::kUp : EndState::kRestoring;
      if (state == EndState::kRestoring) {
        SetEnable(end, true);
      }
    }
    return;
  }
  if (!far || Tlm(node, port) || !router(node).port_down(port)) {
    throw std::invalid_argument(PortName(node, port) +
                                " has no cut link to restore");
  }
  router(node).SetPortUp(port);
  router(far->node).SetPortUp(far->port);
  ReportLink(node, port, true);
  ReportLink(far->node, far->port, true);
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
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    const auto far = topology_->Neighbour(node, p);
    if (!far) {
      continue;
    }
    if (Tlm(node, p)) {
      // Its neighbours' agents find the links down; its own controllers
      // are switched off, as its power goes.
      ChangeLanes(node, p, true);
      ends_.at({far->node, far->port}) = EndState::kCut;
      ends_.at({node, p}) = EndState::kDown;
      SetEnable({node, p}, false);
      continue;
    }
    NoteDetected(sc_core::sc_time_stamp().to_seconds() * 1e9);
    PortDown(far->node, far->port, ideal_flush_);
  }
}

void FabricControl::RestoreNode(topo::NodeId node) {
  if (node >= topology_->EndpointCount() || !router(node).failed()) {
    throw std::invalid_argument("no failed endpoint " + std::to_string(node) +
                                " to restore");
  }
  Node& card = cluster_.node(node);
  net::Router& restored = router(node);
  restored.Restore();
  card.interface()->Restore();
  restored.SetPortUp(restored.local_port());
  if (!agents_.empty()) {
    agents_[node]->Restore();
  }
  for (topo::PortId p = 0; p < topology_->PortCount(node); ++p) {
    if (topology_->Neighbour(node, p)) {
      RestoreLink(node, p);  // Fail() took every port down
    }
  }
  if (card.source() != nullptr) {
    card.source()->Resume();
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

void FabricControl::Agent() {
  while (true) {
    wait(write_);
    while (!writes_.empty()) {
      const auto [end, enable] = writes_.front();
      writes_.pop_front();
      RegisterMaster& csr = *masters_.at(end);
      const uint32_t ctrl = csr.Read(regs::lc::kCtrlOffset);
      const uint32_t mask = regs::lc::kCtrlEnable.Mask();
      csr.Write(regs::lc::kCtrlOffset, enable ? ctrl | mask : ctrl & ~mask);
    }
  }
}

}  // namespace lq::cluster
