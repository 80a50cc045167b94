// LogicalFabric: engines, memories, units and their connections.
#include "systemc/logical/logical_fabric.h"

#include <optional>
#include <stdexcept>
#include <utility>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::logical {

LogicalFabric::LogicalFabric(
    const topo::Topology& topology,
    std::shared_ptr<const topo::RoutingFunction> routing,
    const LogicalFabricConfig& config)
    : engines_(transport::BuildEngineFabric(topology, std::move(routing),
                                            config.fabric)) {
  const unsigned count = topology.EndpointCount();
  if (config.unit.max_burst > config.pmtu) {
    throw std::invalid_argument(
        "log.max_burst above the path MTU: a store must be one packet "
        "(LOG-3.7)");
  }
  for (unsigned n = 0; n < count; ++n) {
    const std::string id = std::to_string(n);
    CardMemoryConfig memory = config.memory;
    memory.size = config.unit.space.direct_bytes;
    memories_.push_back(
        std::make_unique<CardMemory>(("memory" + id).c_str(), memory));
    LogicalUnitConfig unit = config.unit;
    unit.node = static_cast<uint16_t>(n);
    unit.space.endpoints = count;
    units_.push_back(std::make_unique<LogicalUnit>(("unit" + id).c_str(), unit,
                                                   *engines_[n].engine));
    units_.back()->memory.bind(memories_.back()->socket);
    engines_[n].engine->memory.bind(units_.back()->dma);
  }
  // LOG-3.7: one connection per pair, set up out of band (TRN-5.6).
  for (unsigned a = 0; a < count; ++a) {
    for (unsigned b = a + 1; b < count; ++b) {
      const auto pair =
          transport::ConnectQps(*engines_[a].engine, *engines_[b].engine,
                                config.pmtu, std::nullopt, config.timeout);
      if (!pair) {
        throw std::runtime_error("cannot connect nodes " + std::to_string(a) +
                                 " and " + std::to_string(b));
      }
      units_[a]->Connect(static_cast<uint16_t>(b), pair->a, units_[b]->rkey());
      units_[b]->Connect(static_cast<uint16_t>(a), pair->b, units_[a]->rkey());
    }
  }
}

std::unique_ptr<LogicalFabric> BuildTorusFabric(
    const std::string& dims, const LogicalFabricConfig& config) {
  const auto topology = topo::CreateTopology("torus", {{"dims", dims}});
  if (!topology) {
    throw std::invalid_argument("torus " + dims + ": " +
                                topology.error().reason);
  }
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", *topology, {}).value();
  return std::make_unique<LogicalFabric>(**topology, std::move(routing),
                                         config);
}

}  // namespace lq::logical
