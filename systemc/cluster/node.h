// SPDX-License-Identifier: Apache-2.0
// Node: one card of a cluster: its board (the MCU and its devices), if it
// has one, one LinkPort per network port, and — on a node of a fabric — the
// router above those ports with, at its local port, either a bare network
// interface or a transport engine (which has one of its own), and with
// the engine possibly a logical unit and the card's memory. The board maps
// every link controller's registers and interrupt, the router's registers,
// the transport engine's and the logical unit's, and lets the engine's DMA
// master its bus — through the logical unit when there is one
// (docs/board.md).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "systemc/board/board.h"
#include "systemc/cluster/link_port.h"
#include "systemc/link/slot_sink.h"
#include "systemc/logical/card_memory.h"
#include "systemc/logical/logical_registers.h"
#include "systemc/logical/logical_unit.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"
#include "systemc/network/slot_channel.h"
#include "systemc/network/traffic_source.h"
#include "systemc/transport/router_flow_control.h"
#include "systemc/transport/transport_engine.h"
#include "systemc/transport/transport_registers.h"

namespace lq::cluster {

// The network layer of a node: the router (its network_ports are the
// board's ports) and the interface at its local port, which hands what it
// receives to `on_delivery` — or, with `transport`, a transport engine
// whose interface takes `interface`'s settings and whose node is the
// router's; the engine takes what arrives, and `on_delivery` is unused —
// or, with `traffic`, a synthetic source of `pattern`'s packets (which has
// an interface of its own, and measures what arrives), seeded
// traffic->seed + node. A switch's router (router.local_port false) has
// nothing at a local port (NET-1). With `interface_latency` the local
// port and what sits at it are joined by a channel of that latency each
// way.
// With `flow_control` the router does PFC and ECN marking (TRN-8, TRN-9),
// its PFC messages riding in the link controllers' CONTROL flits (TRN-8.3).
// With `logical` (and `transport`) the card has a logical unit and a card
// memory of `logical->space.direct_bytes` between the engine's DMA and the
// board's bus (decision 0016); its node is the router's.
struct NodeNetworkConfig {
  net::RouterConfig router;
  net::NetworkInterfaceConfig interface;
  std::function<void(net::Delivered)> on_delivery;
  std::optional<transport::TransportEngineConfig> transport;
  std::optional<net::TrafficConfig> traffic;
  std::shared_ptr<const net::TrafficPattern> pattern;  // with `traffic`
  sc_core::sc_time interface_latency = sc_core::SC_ZERO_TIME;
  std::optional<transport::FlowControlConfig> flow_control;
  std::optional<logical::LogicalUnitConfig> logical;
  logical::CardMemoryConfig card_memory;
  // The path MTU (TRN-6.1) and local ACK timeout code (TRN-7.4) of the
  // units' connections.
  uint32_t logical_pmtu = 1024;
  uint8_t logical_timeout = transport::QpAttributes{}.timeout;
};

class Node : public sc_core::sc_module {
 public:
  // One link port per entry of `ports`, but none for an ideal one, whose
  // router port the owner joins to the far router's. With `board` (whose
  // `ports` must match, else std::invalid_argument) the board maps every
  // block's registers and interrupt, and the transport engine's DMA
  // masters its bus. Without one the registers stay unmapped (a card without
  // firmware: its link controllers train by themselves, DLL-6.12), and the
  // owner binds the engine's memory socket unless a logical unit's card memory
  // serves it. Without `network` the ports' network sides end in SlotSinks;
  // a node needs a board or a network, and ideal ports and switches a
  // network and no board.
  Node(const sc_core::sc_module_name& name,
       const std::optional<board::BoardConfig>& board,
       const std::vector<LinkPortConfig>& ports,
       const std::optional<NodeNetworkConfig>& network = std::nullopt);

  bool has_board() const { return board_ != nullptr; }
  // Precondition: has_board().
  board::Board& board() { return *board_; }
  // Precondition: !ideal_port(index).
  LinkPort& port(unsigned index) { return *ports_.at(index); }
  bool ideal_port(unsigned index) const { return ports_.at(index) == nullptr; }
  unsigned port_count() const { return static_cast<unsigned>(ports_.size()); }
  // The network layer; nullptr on a node built without one. The interface
  // is the transport engine's or the traffic source's on a node that has
  // one; a switch has none.
  net::Router* router() { return router_.get(); }
  net::NetworkInterface* interface();
  // The synthetic source; nullptr on a node built without one.
  net::TrafficSource* source() { return source_.get(); }
  // The transport engine; nullptr on a node built without one.
  transport::TransportEngine* transport() { return engine_.get(); }
  // The router's flow control; nullptr on a node built without it.
  transport::RouterFlowControl* flow_control() { return flow_.get(); }
  // The logical unit and the card's memory; nullptr without them.
  logical::LogicalUnit* logical() { return unit_.get(); }
  logical::CardMemory* card_memory() { return card_memory_.get(); }
  StatList Stats() const;
  // Attaches `probe` (nullptr: none) to every part on a packet's path: link
  // controllers and PHYs, router, transport engine, logical unit, memory.
  void SetProbe(PathProbe* probe);

 private:
  void BuildLocalSide(const NodeNetworkConfig& network, topo::NodeId node);
  void BuildFlowControl(const NodeNetworkConfig& network, topo::NodeId node);

  std::unique_ptr<board::Board> board_;  // none on a card without firmware
  std::vector<std::unique_ptr<LinkPort>> ports_;  // nullptr: an ideal port
  std::unique_ptr<net::Router> router_;
  std::unique_ptr<net::NetworkInterface> interface_;
  std::unique_ptr<net::TrafficSource> source_;
  std::unique_ptr<net::SlotChannel> local_channel_;  // interface_latency
  std::unique_ptr<transport::TransportEngine> engine_;
  std::unique_ptr<transport::TransportRegisters> engine_registers_;
  std::unique_ptr<transport::RouterFlowControl> flow_;
  std::unique_ptr<logical::CardMemory> card_memory_;
  std::unique_ptr<logical::LogicalUnit> unit_;
  std::unique_ptr<logical::LogicalRegisters> unit_registers_;
  std::vector<std::unique_ptr<link::SlotSink>> sinks_;
};

}  // namespace lq::cluster
