// SPDX-License-Identifier: Apache-2.0
// LogicalFabric: a cluster of cards with logical units, connected.
#include "systemc/cluster/logical_fabric.h"

#include <stdexcept>
#include <utility>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::cluster {
namespace {

ClusterConfig CardsOf(std::shared_ptr<const topo::RoutingFunction> routing,
                      const LogicalFabricConfig& config) {
  if (config.unit.max_burst > config.pmtu) {
    throw std::invalid_argument(
        "log.max_burst above the path MTU: a store must be one packet "
        "(LOG-3.7)");
  }
  ClusterConfig cards = EngineCards(std::move(routing), config.fabric);
  cards.network.logical = config.unit;
  cards.network.card_memory = config.memory;
  cards.network.logical_pmtu = config.pmtu;
  cards.network.logical_timeout = config.timeout;
  return cards;
}

}  // namespace

LogicalFabric::LogicalFabric(
    std::shared_ptr<const topo::Topology> topology,
    std::shared_ptr<const topo::RoutingFunction> routing,
    const LogicalFabricConfig& config)
    : cards_(std::make_unique<Cluster>(sc_core::sc_gen_unique_name("cards"),
                                       CardsOf(std::move(routing), config),
                                       std::move(topology))) {}

std::unique_ptr<LogicalFabric> BuildTorusFabric(
    const std::string& dims, const LogicalFabricConfig& config) {
  auto topology = topo::CreateTopology("torus", {{"dims", dims}});
  if (!topology) {
    throw std::invalid_argument("torus " + dims + ": " +
                                topology.error().reason);
  }
  std::shared_ptr<const topo::RoutingFunction> routing =
      topo::CreateRouting("dor", *topology, {}).value();
  return std::make_unique<LogicalFabric>(std::move(topology).value(),
                                         std::move(routing), config);
}

}  // namespace lq::cluster
