// SPDX-License-Identifier: Apache-2.0
// Cluster: declare the nodes, cable them, and end the run with the last
// board.
#include "systemc/cluster/cluster.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "models/flit/dlp.h"
#include "models/topology/programmed_table.h"
#include "models/topology/torus.h"
#include "systemc/link/lc_rtl_model.h"
#include "systemc/network/router_registers.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::cluster {
namespace {

// The fixed routing function a board straps for the router of a fabric
// (NET-4.8): dor on a torus; none otherwise.
std::optional<std::string> FixedRoutingName(const topo::Topology& topology) {
  if (dynamic_cast<const topo::Torus*>(&topology) != nullptr) {
    return "dor";
  }
  return std::nullopt;
}

// A TL port cabled to an RTL one trains at the RTL build's LTSSM time
// scale, so that both ends of the link keep the same timeouts (DLL-6.2).
void TrainAsRtl(LinkPortConfig& port) {
  port.controller.ltssm_time_scale = link::kLcRtlLtssmTimeScale;
}

}  // namespace

ClusterConfig IdealCards(std::shared_ptr<const topo::RoutingFunction> routing,
                         const net::RouterConfig& router,
                         const net::NetworkInterfaceConfig& interface) {
  ClusterConfig cards;
  cards.boards = false;
  cards.routing = std::move(routing);
  cards.port.ideal = true;
  cards.network.router = router;
  cards.network.interface = interface;
  return cards;
}

ClusterConfig EngineCards(std::shared_ptr<const topo::RoutingFunction> routing,
                          const transport::EngineFabricConfig& fabric) {
  ClusterConfig cards =
      IdealCards(std::move(routing), fabric.router, fabric.engine.interface);
  cards.network.interface.faults = fabric.faults;
  cards.network.transport = fabric.engine;
  cards.network.flow_control = fabric.flow_control;
  return cards;
}

board::BoardConfig Cluster::BoardFor(unsigned node_id,
                                     const std::string& node_name,
                                     unsigned ports,
                                     std::optional<uint32_t> cabled) {
  board::BoardConfig board = config_.board;
  board.node_id = node_id;
  board.ports = ports;
  board.cabled_ports = cabled;
  board.on_console_line = [this, node_name](const std::string& line) {
    config_.on_console_line(node_name, line);
  };
  if (config_.on_cpu_log) {
    board.cpu.on_log = [this, node_name](const sc_core::sc_time& at,
                                         const std::string& event) {
      config_.on_cpu_log(node_name, at, event);
    };
  }
  board.on_exit = [this](int) { OnBoardExit(); };
  return board;
}

void Cluster::ObserveLinkStates(Node& node, const std::string& node_name) {
  for (unsigned port = 0; config_.on_link_state && port < node.port_count();
       ++port) {
    if (node.ideal_port(port)) {
      continue;
    }
    node.port(port).controller().set_state_observer(
        [this, node_name, port](link::LtssmState state, uint64_t at_ps) {
          config_.on_link_state(node_name, port, state, at_ps);
        });
  }
}

std::vector<LinkPortConfig> Cluster::PortsFor(unsigned node_id,
                                              unsigned ports) const {
  std::vector<LinkPortConfig> configs(ports, config_.port);
  for (unsigned port = 0; port < ports; ++port) {
    const auto rtl = config_.rtl_ports.find({node_id, port});
    if (rtl != config_.rtl_ports.end()) {
      configs[port].rtl = rtl->second;
      continue;
    }
    const auto far =
        topology_ ? topology_->Neighbour(node_id, port) : std::nullopt;
    if (far && config_.rtl_ports.count({far->node, far->port}) > 0) {
      TrainAsRtl(configs[port]);
    }
  }
  return configs;
}

void Cluster::CheckRtlPorts() const {
  for (const auto& [where, rtl] : config_.rtl_ports) {
    if (where.first < nodes_.size() && !nodes_[where.first]) {
      continue;  // another rank's node checks its own
    }
    if (where.first >= nodes_.size() ||
        where.second >= nodes_[where.first]->port_count()) {
      throw std::invalid_argument("port " + std::to_string(where.second) +
                                  " of node " + std::to_string(where.first) +
                                  " is not in the cluster");
    }
    if (nodes_[where.first]->ideal_port(where.second)) {
      throw std::invalid_argument(
          "port " + std::to_string(where.second) + " of node " +
          std::to_string(where.first) +
          " is ideal: it has no link controller to run as RTL");
    }
  }
}

NodeNetworkConfig Cluster::NetworkFor(
    topo::NodeId node,
    const std::shared_ptr<const topo::Topology>& topology) const {
  NodeNetworkConfig network = config_.network;
  // A link port carries its profile's payload slot (PHY-2.4); routers
  // joined by ideal ports use the router's own.
  const size_t slot_bytes = config_.port.ideal
                                ? network.router.slot_bytes
                                : config_.port.controller.profile.payload_bytes;
  const topo::NodeId nodes = topology->EndpointCount();
  net::RouterConfig& router = network.router;
  router.node = node;
  router.local_port = topology->IsEndpoint(node);
  router.nodes = nodes;
  router.slot_bytes = slot_bytes;
  router.clock = router_clock_;
  router.pool = router_pool_;
  router.workspace = router_workspace_;
  router.routing = config_.boards
                       ? std::make_shared<topo::ProgrammedTableRouting>(
                             topology, node, router.vc_classes,
                             topo::ProgrammedTableRouting::EmptyTable(
                                 *topology, router.vc_classes),
                             0)
                       : config_.routing;
  net::NetworkInterfaceConfig& interface = network.interface;
  interface.node = static_cast<uint16_t>(node);
  interface.nodes = nodes;
  interface.slot_bytes = slot_bytes;
  interface.vc_classes = router.vc_classes;
  interface.vc_sets = router.vc_sets;
  interface.clock_ns = router.clock_ns;
  interface.tc_map = net::DefaultTcMap(router.vc_sets);
  interface.faults.seed = interface.faults.seed * 64 + node;  // NET-8.10
  if (network.logical) {
    network.logical->space.endpoints = nodes;
  }
  network.on_delivery = [this, node](net::Delivered delivered) {
    if (config_.on_delivery) {
      config_.on_delivery(node, std::move(delivered));
    }
  };
  return network;
}

Cluster::Cluster(const sc_core::sc_module_name& name,
                 const ClusterConfig& config,
                 std::shared_ptr<const topo::Topology> shared_topology)
    : sc_module(name),
      config_(config),
      topology_(shared_topology),
      router_clock_(std::make_shared<net::RouterClock>("router_clock")),
      router_pool_(std::make_shared<net::PacketPool>()),
      router_workspace_(std::make_shared<net::RouterWorkspace>(
          config.network.router.islip_rounds())) {
  const topo::Topology& topology = *shared_topology;
  if (!config.boards && !config.routing) {
    throw std::invalid_argument(
        "a cluster without boards needs a routing function");
  }
  if (config.share.partition &&
      (config.network.logical || config.share.sync == nullptr)) {
    throw std::invalid_argument(
        "a cluster over ranks has, so far, cards without logical units");
  }
  node_failed_.assign(topology.NodeCount(), false);
  const auto fixed = FixedRoutingName(topology);
  for (topo::NodeId id = 0; id < topology.NodeCount(); ++id) {
    const std::string node_name = topology.NodeName(id);
    const unsigned ports = topology.PortCount(id);
    if (topology.IsEndpoint(id) != (id < topology.EndpointCount())) {
      throw std::invalid_argument(topology.Describe() +
                                  ": endpoints must come first (NET-1)");
    }
    if (config_.boards && !topology.IsEndpoint(id)) {
      throw std::invalid_argument(
          node_name +
          " is a switch, and a switch has no board: a cluster of "
          "boards needs a topology without switches");
    }
    if (config_.boards && ports > board::AddressMap::kMaxPorts) {
      throw std::invalid_argument(node_name + " has " + std::to_string(ports) +
                                  " ports; a board maps at most 8");
    }
    uint32_t cabled = 0;
    for (unsigned port = 0; port < ports; ++port) {
      cabled |= topology.Neighbour(id, port) ? 1u << port : 0;
    }
    if (!config.share.Builds(id)) {
      nodes_.push_back(nullptr);  // another rank's
      continue;
    }
    ++built_;
    std::optional<board::BoardConfig> board;
    if (config.boards) {
      board = BoardFor(id, node_name, ports, cabled);
    }
    nodes_.push_back(std::make_unique<Node>(node_name.c_str(), board,
                                            PortsFor(id, ports),
                                            NetworkFor(id, shared_topology)));
    if (fixed && config.boards) {
      nodes_.back()->router()->registers().PresetMode(*fixed);
    }
    ObserveLinkStates(*nodes_.back(), node_name);
  }
  CheckRtlPorts();
  for (topo::NodeId id = 0; id < topology.NodeCount(); ++id) {
    if (!nodes_[id]) {
      continue;
    }
    for (topo::PortId port = 0; port < topology.PortCount(id); ++port) {
      const auto far = topology.Neighbour(id, port);
      if (nodes_[id]->ideal_port(port)) {
        CableIdealPort(id, port, far);
        continue;
      }
      if (!far) {  // a ring of one: no far end, and CABLED says so (NET-1.5)
        LinkPort& end = nodes_[id]->port(port);
        no_cables_.push_back(std::make_unique<phy::NoCable>(
            ("no_cable" + std::to_string(no_cables_.size())).c_str(),
            end.phy.AllLanes()));
        Connect(end.cable(), no_cables_.back()->cable);
        continue;
      }
      if (!nodes_[far->node]) {
        CableToRank(id, port, *far);
        continue;
      }
      // Each cable once, from its lower end.
      if (far->node > id || (far->node == id && far->port > port)) {
        Connect(nodes_[id]->port(port).cable(),
                nodes_[far->node]->port(far->port).cable());
      }
    }
  }
  if (config.network.transport && config.network.logical) {
    ConnectLogicalUnits();
  }
}

// An ideal port's cable joins the two routers' ports as a link of the
// network's fabric (decision 0053); one with no far end is capped
// (NET-1.5).
void Cluster::CableIdealPort(topo::NodeId id, topo::PortId port,
                             const std::optional<topo::PortRef>& far) {
  net::Router& router = *nodes_[id]->router();
  if (!far) {
    caps_.push_back(std::make_unique<net::PortCap>(
        ("cap" + std::to_string(caps_.size())).c_str()));
    Connect(router.port(port), caps_.back()->socket);
    return;
  }
  if (!nodes_[far->node]) {  // on another rank (decision 0050)
    cut_links_.push_back(std::make_unique<parallel::CutSlotLink>(
        ("cut_link" + std::to_string(cut_links_.size())).c_str(),
        *config_.share.sync, topo::PortRef{id, port}, *far,
        config_.share.partition->rank_of[far->node],
        config_.port.ideal_latency));
    Connect(router.port(port), cut_links_.back()->socket);
    return;
  }
  if (!nodes_[far->node]->ideal_port(far->port)) {
    throw std::invalid_argument(
        "a cable joins an ideal port and a link port: both ends of a cable "
        "have the same fidelity");
  }
  if (far->node < id || (far->node == id && far->port <= port)) {
    return;  // each cable once, from its lower end
  }
  net::JoinRouters(router, port, *nodes_[far->node]->router(), far->port,
                   config_.port.ideal_latency);
}

void Cluster::CableToRank(topo::NodeId id, topo::PortId port,
                          topo::PortRef far) {
  cut_cables_.push_back(std::make_unique<parallel::CutCable>(
      ("cut_cable" + std::to_string(cut_cables_.size())).c_str(),
      *config_.share.sync, topo::PortRef{id, port}, far,
      config_.share.partition->rank_of[far.node]));
  Connect(nodes_[id]->port(port).cable(), cut_cables_.back()->cable);
}

// LOG-3.7: one RC connection per pair of cards, set up out of band by the
// cluster's builder (TRN-5.6, decision 0016).
void Cluster::ConnectLogicalUnits() {
  const auto cards = static_cast<size_t>(std::count_if(
      nodes_.begin(), nodes_.end(),
      [](const auto& node) { return node->transport() != nullptr; }));
  for (size_t a = 0; a < cards; ++a) {
    for (size_t b = a + 1; b < cards; ++b) {
      const auto pair = transport::ConnectQps(
          *nodes_[a]->transport(), *nodes_[b]->transport(),
          config_.network.logical_pmtu, std::nullopt,
          config_.network.logical_timeout);
      if (!pair) {
        throw std::runtime_error("cannot connect the logical units of nodes " +
                                 std::to_string(a) + " and " +
                                 std::to_string(b));
      }
      logical::LogicalUnit& unit_a = *nodes_[a]->logical();
      logical::LogicalUnit& unit_b = *nodes_[b]->logical();
      unit_a.Connect(unit_b.node(), pair->a, unit_b.rkey());
      unit_b.Connect(unit_a.node(), pair->b, unit_a.rkey());
    }
  }
}

Cluster::Cluster(const sc_core::sc_module_name& name,
                 const ClusterConfig& config, unsigned ports)
    : sc_module(name), config_(config), built_(1), node_failed_(1, false) {
  nodes_.push_back(std::make_unique<Node>("node0", BoardFor(0, "node0", ports),
                                          PortsFor(0, ports)));
  ObserveLinkStates(*nodes_.back(), "node0");
  CheckRtlPorts();
  for (unsigned p = 0; p < ports; ++p) {
    LinkPortConfig partner = config.port;
    partner.phy.seed = config.port.phy.seed * 64 + 32 + p;
    if (config.rtl_ports.count({0, p}) > 0) {
      TrainAsRtl(partner);
    }
    partners_.push_back(std::make_unique<LinkPort>(
        ("partner" + std::to_string(p)).c_str(), partner));
    Connect(nodes_[0]->port(p).cable(), partners_.back()->cable());
    partner_sinks_.push_back(std::make_unique<link::SlotSink>(
        ("partner_sink" + std::to_string(p)).c_str(), flit::kLinkVcs,
        config.port.controller.tx_slots_per_vc));
    Connect(partners_.back()->controller().network_socket(),
            partner_sinks_.back()->socket);
  }
}

Node& Cluster::node(unsigned index) {
  Node* node = nodes_.at(index).get();
  if (node == nullptr) {
    throw std::out_of_range("node " + std::to_string(index) +
                            " is another rank's");
  }
  return *node;
}

Result<uint32_t> Cluster::Load(
    const elf::ElfImage& image,
    const std::map<uint32_t, elf::ElfImage>& per_node) {
  if (!config_.boards) {
    return Fail("a cluster without boards runs no firmware");
  }
  uint32_t entry = 0;
  for (uint32_t n = 0; n < nodes_.size(); ++n) {
    if (!nodes_[n]) {
      continue;  // another rank's
    }
    const auto own = per_node.find(n);
    auto loaded =
        nodes_[n]->board().Load(own == per_node.end() ? image : own->second);
    if (!loaded.ok()) {
      return loaded.error();
    }
    entry = *loaded;
  }
  return entry;
}

void Cluster::OnBoardExit() {
  ++finished_;
  StopWhenBoardsEnd();
}

int Cluster::worst_status() const {
  int worst = 0;
  for (const auto& node : nodes_) {
    if (node && node->has_board() && node->board().finished()) {
      worst = std::max(worst, node->board().exit_status());
    }
  }
  return worst;
}

bool Cluster::ResetNode(unsigned index) {
  if (!config_.boards || node_failed_.at(index)) {
    return false;
  }
  if (!nodes_[index]) {
    return true;  // another rank's
  }
  Node& node = *nodes_[index];
  if (node.board().Reset()) {
    --finished_;
  }
  return true;
}

void Cluster::StopWhenBoardsEnd() {
  if (config_.stop_when_boards_end && boards_ended()) {
    sc_core::sc_stop();
  }
}

bool Cluster::IsCabled(unsigned node, unsigned port) const {
  if (node >= node_count() || port >= PortCount(node) || config_.port.ideal) {
    return false;
  }
  return !topology_ || topology_->Neighbour(node, port).has_value();
}

topo::PortRef Cluster::FarPort(unsigned node, unsigned port) const {
  if (!topology_) {
    return {1, port};
  }
  return topology_->Neighbour(node, port).value();
}

unsigned Cluster::PortCount(unsigned node) const {
  return topology_ ? topology_->PortCount(node) : nodes_.at(0)->port_count();
}

std::vector<phy::PhyPort*> Cluster::CableEndsHere(unsigned node,
                                                  unsigned port) {
  std::vector<phy::PhyPort*> ends;
  if (nodes_.at(node)) {
    ends.push_back(&nodes_[node]->port(port).phy);
  }
  const topo::PortRef far = FarPort(node, port);
  if (!topology_) {
    ends.push_back(&partners_.at(port)->phy);
  } else if (nodes_.at(far.node)) {
    ends.push_back(&nodes_[far.node]->port(far.port).phy);
  }
  return ends;
}

void Cluster::CutCable(unsigned node, unsigned port, bool cut) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (phy::PhyPort* end : CableEndsHere(node, port)) {
    if (cut) {
      end->ScheduleLaneFailure(end->AllLanes(), now);
    } else {
      end->ScheduleLaneRepair(end->AllLanes(), now);
    }
  }
}

void Cluster::FailNode(unsigned index) {
  if (node_failed_.at(index)) {
    return;
  }
  node_failed_[index] = true;
  for (unsigned port = 0; port < PortCount(index); ++port) {
    if (IsCabled(index, port)) {
      CutCable(index, port, true);
    }
  }
  if (!nodes_[index]) {
    return;  // another rank's: the far ends of its cables were this rank's
  }
  Node& node = *nodes_[index];
  if (net::NetworkInterface* interface = node.interface()) {
    const uint64_t handed_over = interface->injected();
    node.router()->Fail(handed_over, interface->Fail());
  } else if (node.router() != nullptr) {
    node.router()->Fail(0, 0);
  }
  if (node.has_board()) {
    const bool running = !node.board().finished();
    node.board().Fail();
    if (running) {
      ++failed_;
      StopWhenBoardsEnd();
    }
  }
}

void Cluster::SetProbe(PathProbe* probe) {
  for (const auto& node : nodes_) {
    if (node) {
      node->SetProbe(probe);
    }
  }
}

LinkPort* Cluster::FarEnd(unsigned node, unsigned port) {
  if (node >= nodes_.size() || !nodes_[node] ||
      port >= nodes_[node]->port_count() || nodes_[node]->ideal_port(port)) {
    return nullptr;
  }
  if (!topology_) {
    return partners_.at(port).get();
  }
  const auto far = topology_->Neighbour(node, port);
  if (!far || !nodes_.at(far->node) ||
      nodes_.at(far->node)->ideal_port(far->port)) {
    return nullptr;
  }
  return &nodes_.at(far->node)->port(far->port);
}

unsigned Cluster::ports_up() {
  unsigned up = 0;
  for (unsigned n = 0; n < nodes_.size(); ++n) {
    up += nodes_[n] ? ports_up(n) : 0;
  }
  return up;
}

unsigned Cluster::ports_up(unsigned index) {
  Node& node = this->node(index);
  unsigned up = 0;
  for (unsigned p = 0; p < node.port_count(); ++p) {
    if (!node.ideal_port(p) &&
        node.port(p).controller().ltssm_state() == link::LtssmState::kL0) {
      ++up;
    }
  }
  return up;
}

void Cluster::FlushConsoles() {
  for (auto& node : nodes_) {
    if (node && node->has_board()) {
      node->board().FlushConsole();
    }
  }
}

}  // namespace lq::cluster
