// SPDX-License-Identifier: Apache-2.0
// The scenario schema's root: the keys every study shares (topology,
// routing, links, traffic, seed), and the topology and routing function a
// scenario names, built from the registries.
#include "systemc/app/scenario_schema.h"

#include <set>

#include "models/network/traffic_pattern.h"
#include "models/phy/link_profile.h"
#include "models/topology/partition.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::app {
namespace {

// The traffic workload's message index at the start of every message.
constexpr size_t kMessageHeaderBytes = 8;

// Keys "<prefix>.<param>" for every parameter of every catalogue entry, so
// the scenario reference follows the registries instead of a copy of them.
void AddCatalogueKeys(const std::string& prefix,
                      const std::vector<topo::ComponentInfo>& catalogue,
                      const std::string& default_name,
                      std::vector<ParamSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& info : catalogue) {
    names.push_back(info.name);
  }
  specs.push_back({prefix + ".name", "which " + prefix + " to build",
                   default_name, "", ParamType::kChoice, 0, 0, names});
  std::set<std::string> declared;
  for (const auto& info : catalogue) {
    for (const auto& param : info.params) {
      const std::string key = prefix + "." + param.name;
      if (declared.insert(key).second) {
        specs.push_back({key,
                         "[" + info.name + "] " + param.meaning,
                         param.default_value,
                         "",
                         ParamType::kText,
                         0,
                         0,
                         {}});
      }
    }
  }
}

// The values of `prefix`.* that component `name` declares.
topo::ParamMap ComponentParams(
    const ParamSet& params, const std::string& prefix,
    const std::vector<topo::ComponentInfo>& catalogue,
    const std::string& name) {
  topo::ParamMap values;
  for (const auto& info : catalogue) {
    if (info.name != name) {
      continue;
    }
    for (const auto& param : info.params) {
      values[param.name] = params.Text(prefix + "." + param.name);
    }
  }
  return values;
}

// Uses `prefix`.name and the keys of the entry it names; skips the keys
// only other entries take.
void UseCatalogueKeys(const ParamSet& params, const std::string& prefix,
                      const std::vector<topo::ComponentInfo>& catalogue,
                      KeyUsage& usage) {
  const std::string name = params.Text(prefix + ".name");
  usage.Use(prefix + ".name");
  usage.Use(ComponentKeys(prefix, catalogue, name));
  for (const auto& info : catalogue) {
    usage.Skip(ComponentKeys(prefix, catalogue, info.name),
               "a key of the " + info.name + " " + prefix + ", and " + prefix +
                   ".name is " + name);
  }
}

}  // namespace

void UseTopologyKeys(const ParamSet& params, KeyUsage& usage) {
  UseCatalogueKeys(params, "topology", topo::TopologyCatalogue(), usage);
}

void UseRoutingKeys(const ParamSet& params, KeyUsage& usage) {
  UseCatalogueKeys(params, "routing", topo::RoutingCatalogue(), usage);
}

void UseTrafficPatternKeys(const ParamSet& params, KeyUsage& usage) {
  const std::string name = params.Text("traffic.pattern");
  usage.Use("traffic.pattern");
  for (const auto& info : net::TrafficPatternCatalogue()) {
    for (const auto& [param, unused] : info.params) {
      if (info.name == name) {
        usage.Use("traffic." + param);
      } else {
        usage.Skip("traffic." + param, "a key of the " + info.name +
                                           " pattern, and traffic.pattern "
                                           "is " +
                                           name);
      }
    }
  }
}

Result<std::unique_ptr<net::TrafficPattern>> ScenarioTrafficPattern(
    const ParamSet& params, uint32_t endpoints) {
  const std::string name = params.Text("traffic.pattern");
  topo::ParamMap values;
  for (const auto& info : net::TrafficPatternCatalogue()) {
    if (info.name == name) {
      for (const auto& [param, unused] : info.params) {
        values[param] = params.Text("traffic." + param);
      }
    }
  }
  auto pattern = net::CreateTrafficPattern(name, endpoints, values);
  if (!pattern) {
    return Fail("traffic: " + pattern.error().reason);
  }
  return pattern;
}

std::vector<std::string> ComponentKeys(
    const std::string& prefix,
    const std::vector<topo::ComponentInfo>& catalogue,
    const std::string& name) {
  std::vector<std::string> keys;
  for (const auto& info : catalogue) {
    if (info.name == name) {
      for (const auto& param : info.params) {
        keys.push_back(prefix + "." + param.name);
      }
    }
  }
  return keys;
}

Result<std::shared_ptr<const topo::Topology>> ScenarioTopology(
    const ParamSet& params) {
  const std::string name = params.Text("topology.name");
  return topo::CreateTopology(
      name,
      ComponentParams(params, "topology", topo::TopologyCatalogue(), name));
}

Result<std::shared_ptr<const topo::RoutingFunction>> ScenarioRouting(
    const ParamSet& params, std::shared_ptr<const topo::Topology> topology) {
  const std::string name = params.Text("routing.name");
  auto routing = topo::CreateRouting(
      name, std::move(topology),
      ComponentParams(params, "routing", topo::RoutingCatalogue(), name));
  if (!routing) {
    return Fail("routing: " + routing.error().reason);
  }
  return std::shared_ptr<const topo::RoutingFunction>(
      std::move(routing).value());
}

Result<RoutedTopology> ScenarioRoutedTopology(const ParamSet& params) {
  auto topology = ScenarioTopology(params);
  if (!topology) {
    return Fail("topology: " + topology.error().reason);
  }
  auto routing = ScenarioRouting(params, *topology);
  if (!routing) {
    return routing.error();
  }
  return RoutedTopology{std::move(topology).value(),
                        std::move(routing).value()};
}

std::vector<ParamSpec> ScenarioRootParamSpecs() {
  std::vector<ParamSpec> specs;
  AddCatalogueKeys("topology", topo::TopologyCatalogue(), "torus", specs);
  AddCatalogueKeys("routing", topo::RoutingCatalogue(), "dor", specs);
  specs.push_back({"link.fidelity",
                   "run.study stack: tlm, link controllers and PHYs between "
                   "the routers; ideal, routers joined port to port "
                   "(decision 0009)",
                   "tlm",
                   "",
                   ParamType::kChoice,
                   0,
                   0,
                   {"tlm", "ideal"}});
  specs.push_back({"link.profile", "channel profile of every link (PHY-1)",
                   "pcie6", "", ParamType::kChoice, 0, 0,
                   phy::LinkProfileNames()});
  specs.push_back({"link.ber",
                   "independent bit-error rate on the wire",
                   "1e-6",
                   "",
                   ParamType::kReal,
                   0,
                   1e-2,
                   {}});
  specs.push_back({"link.cable_m",
                   "cable length of every link",
                   "2",
                   "m",
                   ParamType::kReal,
                   0,
                   1000,
                   {}});
  specs.push_back({"router.latency_ns",
                   "workload.name remote_access: the boards' router pipeline "
                   "latency per hop, input to output",
                   "40",
                   "ns",
                   ParamType::kReal,
                   0,
                   1e6,
                   {}});
  std::vector<std::string> patterns;
  for (const auto& info : net::TrafficPatternCatalogue()) {
    patterns.push_back(info.name);
  }
  specs.push_back({"traffic.pattern", "destination choice of each message",
                   "uniform", "", ParamType::kChoice, 0, 0, patterns});
  std::set<std::string> pattern_keys;
  for (const auto& info : net::TrafficPatternCatalogue()) {
    for (const auto& [param, default_value] : info.params) {
      if (pattern_keys.insert(param).second) {
        specs.push_back({"traffic." + param,
                         "[" + info.name + "] traffic pattern parameter",
                         default_value,
                         "",
                         ParamType::kText,
                         0,
                         0,
                         {}});
      }
    }
  }
  specs.push_back({"traffic.messages_per_node",
                   "messages each card sends",
                   "1000",
                   "",
                   ParamType::kInteger,
                   0,
                   1e7,
                   {}});
  specs.push_back(RealParam(
      "traffic.warmup_fraction",
      "stack traffic: the share of the posting period whose messages warm "
      "the fabric up, left out of the latency figures (network studies: "
      "sim.warmup_cycles)",
      "0.2", "", 0, 0.9));
  specs.push_back({"traffic.message_bytes",
                   "payload bytes per message",
                   "128",
                   "B",
                   ParamType::kInteger,
                   kMessageHeaderBytes,
                   1e6,
                   {}});
  specs.push_back({"traffic.load",
                   "offered load per card, fraction of one link's payload rate",
                   "0.1",
                   "",
                   ParamType::kReal,
                   1e-6,
                   1,
                   {}});
  specs.push_back({"sim.seed",
                   "seed of every random source",
                   "1",
                   "",
                   ParamType::kInteger,
                   0,
                   9.0e15,
                   {}});
  specs.push_back(
      {"sim.partition",
       "how a run over MPI ranks (mpirun -np N lqemu run) shares the nodes "
       "out: blocks of a torus, METIS's graph partition, or auto (blocks on "
       "a torus, else metis); decision 0050",
       "auto", "", ParamType::kChoice, 0, 0,
       std::vector<std::string>(std::begin(topo::kPartitionMethods),
                                std::end(topo::kPartitionMethods))});
  specs.push_back(
      {"events",
       "faults a board run injects at simulated times, separated "
       "by ';' or listed: 'TIME link cut|repair NODE PORT', "
       "'TIME lane fail|repair NODE PORT LANE', 'TIME ber NODE PORT RATE' "
       "(TIME e.g. 13ms)",
       "",
       "",
       ParamType::kText,
       0,
       0,
       {}});
  return specs;
}

}  // namespace lq::app
