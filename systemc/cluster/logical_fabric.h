// SPDX-License-Identifier: Apache-2.0
// LogicalFabric: the logical layer's study fabric: a cluster of the stack's
// cards on ideal links (decision 0009), each with a transport engine, a
// logical unit and the card's memory between them, and the out-of-band
// set-up of log.md LOG-3.7: one RC connection per pair of cards, each unit
// told its peers' QPs and R_Keys.
#pragma once

#include <memory>
#include <string>

#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/cluster/cluster.h"
#include "systemc/logical/card_memory.h"
#include "systemc/logical/logical_unit.h"
#include "systemc/transport/engine_fabric.h"
#include "systemc/transport/transport_engine.h"

namespace lq::cluster {

struct LogicalFabricConfig {
  transport::EngineFabricConfig fabric;
  // Everything but node; the address space's endpoints come from the
  // topology.
  logical::LogicalUnitConfig unit;
  logical::CardMemoryConfig memory;  // its size is the direct region's
  uint32_t pmtu = 4096;              // of every connection (TRN-6.1)
  // Every connection's ACK timeout code (TRN-7.4): a dead home is given up
  // after its retries (LOG-6.12).
  uint8_t timeout = transport::QpAttributes{}.timeout;
};

class LogicalFabric {
 public:
  // A card's router and engine.
  struct Card {
    net::Router* router = nullptr;
    transport::TransportEngine* engine = nullptr;
  };

  // Throws std::invalid_argument for a burst above the path MTU, and
  // std::runtime_error if a connection cannot be set up.
  LogicalFabric(std::shared_ptr<const topo::Topology> topology,
                std::shared_ptr<const topo::RoutingFunction> routing,
                const LogicalFabricConfig& config);

  unsigned nodes() const { return cards_->node_count(); }
  logical::LogicalUnit& unit(unsigned node) {
    return *cards_->node(node).logical();
  }
  logical::CardMemory& memory(unsigned node) {
    return *cards_->node(node).card_memory();
  }
  Card node(unsigned node) {
    Node& card = cards_->node(node);
    return {card.router(), card.transport()};
  }

 private:
  std::unique_ptr<Cluster> cards_;
};

// The fabric of a torus of `dims` (e.g. "4x8x8") with dimension-order
// routing.
std::unique_ptr<LogicalFabric> BuildTorusFabric(
    const std::string& dims, const LogicalFabricConfig& config = {});

}  // namespace lq::cluster
