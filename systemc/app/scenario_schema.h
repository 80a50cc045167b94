// SPDX-License-Identifier: Apache-2.0
// The scenario schema's root: the keys every study shares (topology and
// routing from their registries, links, traffic, seed), and the topology
// and routing function a scenario names. Each study adds its own keys.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "models/network/traffic_pattern.h"
#include "models/topology/params.h"
#include "models/topology/routing.h"
#include "models/topology/topology.h"
#include "systemc/app/key_usage.h"
#include "systemc/common/param.h"

namespace lq::app {

// topology.*, routing.* (one key per parameter of each registry entry),
// link.*, router.latency_ns, traffic.* and sim.seed.
std::vector<ParamSpec> ScenarioRootParamSpecs();

// The keys of `prefix` ("topology", "routing") that component `name` of
// `catalogue` declares, e.g. topology.dims for a torus.
std::vector<std::string> ComponentKeys(
    const std::string& prefix,
    const std::vector<topo::ComponentInfo>& catalogue, const std::string& name);

// topology.name and the keys of the topology it names; the keys only other
// topologies take are skipped, each saying whose it is.
void UseTopologyKeys(const ParamSet& params, KeyUsage& usage);
// The same for routing.name and the routing function it names.
void UseRoutingKeys(const ParamSet& params, KeyUsage& usage);
// The same for traffic.pattern and the pattern it names.
void UseTrafficPatternKeys(const ParamSet& params, KeyUsage& usage);

// The topology the scenario's topology.* keys describe.
Result<std::shared_ptr<const topo::Topology>> ScenarioTopology(
    const ParamSet& params);

// The routing function the scenario's routing.* keys name, for `topology`.
Result<std::shared_ptr<const topo::RoutingFunction>> ScenarioRouting(
    const ParamSet& params, std::shared_ptr<const topo::Topology> topology);

// The scenario's topology and the routing function it names for it.
struct RoutedTopology {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::RoutingFunction> routing;
};
// Both, or why either cannot be built ("topology: ..." or "routing: ...").
Result<RoutedTopology> ScenarioRoutedTopology(const ParamSet& params);

// The traffic pattern traffic.* names, for `endpoints` endpoints, or why
// it cannot be built ("traffic: ...").
Result<std::unique_ptr<net::TrafficPattern>> ScenarioTrafficPattern(
    const ParamSet& params, uint32_t endpoints);

}  // namespace lq::app
