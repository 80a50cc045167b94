// LogicalFabric: the logical layer's study fabric. The transport study's
// engine fabric (routers joined port to port, decision 0009; an engine per
// node) with, per node, the card's memory and a logical unit between them,
// and the out-of-band set-up of log.md LOG-3.7: one RC connection per pair
// of nodes, each unit told its peers' QPs and R_Keys.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/logical/card_memory.h"
#include "systemc/logical/logical_unit.h"
#include "systemc/transport/engine_fabric.h"

namespace lq::logical {

struct LogicalFabricConfig {
  transport::EngineFabricConfig fabric;
  // Everything but node; the address space's endpoints come from the
  // topology.
  LogicalUnitConfig unit;
  CardMemoryConfig memory;  // its size is the direct region's
  uint32_t pmtu = 4096;     // of every connection (TRN-6.1)
  // Every connection's ACK timeout code (TRN-7.4): a dead home is given up
  // after its retries (LOG-6.12).
  uint8_t timeout = transport::QpAttributes{}.timeout;
};

class LogicalFabric {
 public:
  // Module names "memory<N>", "unit<N>", and the engine fabric's. Throws
  // std::runtime_error if a connection cannot be set up.
  LogicalFabric(const topo::Topology& topology,
                std::shared_ptr<const topo::RoutingFunction> routing,
                const LogicalFabricConfig& config);

  unsigned nodes() const { return static_cast<unsigned>(units_.size()); }
  LogicalUnit& unit(unsigned node) { return *units_.at(node); }
  CardMemory& memory(unsigned node) { return *memories_.at(node); }
  transport::EngineFabricNode& node(unsigned node) { return engines_.at(node); }
  const std::vector<transport::EngineFabricNode>& engine_nodes() const {
    return engines_;
  }

 private:
  std::vector<transport::EngineFabricNode> engines_;
  std::vector<std::unique_ptr<CardMemory>> memories_;
  std::vector<std::unique_ptr<LogicalUnit>> units_;
};

// The fabric of a torus of `dims` (e.g. "4x8x8") with dimension-order
// routing.
std::unique_ptr<LogicalFabric> BuildTorusFabric(
    const std::string& dims, const LogicalFabricConfig& config = {});

}  // namespace lq::logical
