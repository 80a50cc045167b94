// SPDX-License-Identifier: Apache-2.0
// Node: the board with its link ports and, on a fabric, its router.
#include "systemc/cluster/node.h"

#include <algorithm>
#include <stdexcept>

#include "models/flit/dlp.h"
#include "systemc/network/router_registers.h"

namespace lq::cluster {
namespace {

// The optional blocks the board's DEVICES register reports.
board::BoardConfig WithDevices(
    board::BoardConfig board, const std::optional<NodeNetworkConfig>& network) {
  board.router = network.has_value();
  board.transport = network.has_value() && network->transport.has_value();
  board.logical = board.transport && network->logical.has_value();
  return board;
}

}  // namespace

Node::Node(const sc_core::sc_module_name& name,
           const std::optional<board::BoardConfig>& board,
           const std::vector<LinkPortConfig>& ports,
           const std::optional<NodeNetworkConfig>& network)
    : sc_module(name) {
  const auto port_count = static_cast<unsigned>(ports.size());
  const bool any_ideal =
      std::any_of(ports.begin(), ports.end(),
                  [](const LinkPortConfig& port) { return port.ideal; });
  if (any_ideal && (board || !network)) {
    throw std::invalid_argument(
        std::string(this->name()) +
        ": ideal ports join routers, with no link controller for firmware "
        "to drive: they need a network layer and no board");
  }
  if (board) {
    if (port_count != board->ports) {
      throw std::invalid_argument(
          std::string(this->name()) + ": " + std::to_string(port_count) +
          " port settings for " + std::to_string(board->ports) + " ports");
    }
    board_ =
        std::make_unique<board::Board>("board", WithDevices(*board, network));
  } else if (!network) {
    throw std::invalid_argument(std::string(this->name()) +
                                ": a node needs a board or a network layer");
  }
  for (unsigned p = 0; p < port_count; ++p) {
    if (ports[p].ideal) {
      ports_.push_back(nullptr);
      continue;
    }
    LinkPortConfig config = ports[p];
    config.phy.seed = ports[p].phy.seed * 64 + p;  // one error stream per port
    ports_.push_back(std::make_unique<LinkPort>(
        ("port" + std::to_string(p)).c_str(), config));
    if (board_) {
      board_->AttachLinkController(p, ports_.back()->controller().csr_socket(),
                                   ports_.back()->irq);
    }
  }
  if (!network) {
    for (unsigned p = 0; p < port_count; ++p) {
      sinks_.push_back(std::make_unique<link::SlotSink>(
          ("sink" + std::to_string(p)).c_str(), flit::kLinkVcs,
          ports[p].controller.tx_slots_per_vc));
      Connect(ports_[p]->controller().network_socket(), sinks_.back()->socket);
    }
    return;
  }
  net::RouterConfig router = network->router;
  router.network_ports = port_count;
  if (!router.local_port && board_) {
    throw std::invalid_argument(std::string(this->name()) +
                                ": a switch has no local port for a board");
  }
  router_ = std::make_unique<net::Router>("router", router);
  for (unsigned p = 0; p < port_count; ++p) {
    if (ports_[p]) {
      Connect(ports_[p]->controller().network_socket(), router_->port(p));
    }
  }
  if (router.local_port) {
    BuildLocalSide(*network, router.node);
  } else if (network->flow_control) {
    BuildFlowControl(*network, router.node);
  }
}

// The local port's side: an engine (with a logical unit), a traffic source
// or a bare interface, joined to the router directly or by a channel.
void Node::BuildLocalSide(const NodeNetworkConfig& network, topo::NodeId node) {
  link::SlotSocket& local = router_->port(router_->local_port());
  const auto join = [this, &network, &local](link::SlotSocket& socket) {
    local_channel_ = net::JoinSlotSockets(
        local, socket, network.interface_latency, "interface_channel");
  };
  if (network.transport) {
    transport::TransportEngineConfig engine = *network.transport;
    engine.node = node;
    engine.interface = network.interface;
    engine_ = std::make_unique<transport::TransportEngine>("transport", engine);
    if (board_) {
      engine_registers_ = std::make_unique<transport::TransportRegisters>(
          "transport_registers", *engine_);
      board_->AttachTransport(engine_registers_->socket,
                              engine_registers_->irq);
    }
    join(engine_->network());
    if (network.logical) {
      logical::LogicalUnitConfig unit = *network.logical;
      unit.node = static_cast<uint16_t>(node);
      logical::CardMemoryConfig memory = network.card_memory;
      memory.size = unit.space.direct_bytes;
      card_memory_ =
          std::make_unique<logical::CardMemory>("card_memory", memory);
      unit_ = std::make_unique<logical::LogicalUnit>("logical", unit, *engine_);
      unit_->memory.bind(card_memory_->socket);
      engine_->memory.bind(unit_->dma);
      if (board_) {
        unit_registers_ = std::make_unique<logical::LogicalRegisters>(
            "logical_registers", *unit_);
        unit_->bus.bind(board_->dma_target());
        board_->AttachLogical(unit_registers_->socket, unit_->window,
                              unit_registers_->irq);
      }
    } else if (board_) {
      engine_->memory.bind(board_->dma_target());
    }
  } else if (network.traffic) {
    net::TrafficConfig traffic = *network.traffic;
    traffic.seed += node;
    source_ = std::make_unique<net::TrafficSource>("source", network.interface,
                                                   traffic, network.pattern);
    join(source_->socket());
  } else {
    interface_ = std::make_unique<net::NetworkInterface>(
        "interface", network.interface, network.on_delivery);
    join(interface_->socket);
  }
  router_->registers().SetHooks(net::LocalPortHooks(*interface()));
  if (board_) {
    board_->AttachRouter(router_->csr());
  }
  if (network.flow_control) {
    BuildFlowControl(network, node);
    flow_->AttachInterface(*interface());
  }
}

// PFC and ECN marking at the router (TRN-8, TRN-9), seeded per node.
void Node::BuildFlowControl(const NodeNetworkConfig& network,
                            topo::NodeId node) {
  transport::FlowControlConfig flow = *network.flow_control;
  flow.seed = flow.seed * 64 + node;
  flow_ =
      std::make_unique<transport::RouterFlowControl>("flow", *router_, flow);
}

net::NetworkInterface* Node::interface() {
  if (engine_) {
    return &engine_->interface();
  }
  return source_ ? &source_->interface() : interface_.get();
}

void Node::SetProbe(PathProbe* probe) {
  for (const auto& port : ports_) {
    if (port) {
      port->controller().set_probe(probe);
      port->phy.set_probe(probe);
    }
  }
  if (router_) {
    router_->set_probe(probe);
  }
  if (engine_) {
    engine_->set_probe(probe);
  }
  if (unit_) {
    unit_->set_probe(probe);
    card_memory_->set_probe(probe);
  }
}

StatList Node::Stats() const {
  StatList stats = board_ ? board_->Stats() : StatList{};
  for (const auto& port : ports_) {
    if (port) {
      Append(stats, port->controller().Stats());
      Append(stats, port->phy.Stats());
    }
  }
  if (router_) {
    Append(stats, router_->Stats());
  }
  if (engine_) {
    Append(stats, engine_->Stats());
  }
  if (flow_) {
    Append(stats, flow_->Stats());
  }
  if (unit_) {
    Append(stats, unit_->Stats());
  }
  return stats;
}

}  // namespace lq::cluster
