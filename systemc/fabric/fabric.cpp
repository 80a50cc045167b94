// Parameters, validation, construction and totals of the interim fabric.
#include "systemc/fabric/fabric.h"

#include <algorithm>
#include <set>

#include "models/flit/dlp.h"
#include "models/network/traffic_pattern.h"
#include "models/roce/packet.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::fabric {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

// Source, sequence and creation time at the start of every message.
constexpr size_t kMessageHeaderBytes = 16;

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

struct Built {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::RoutingFunction> routing;
  phy::LinkProfile profile;
};

// Builds what the parameters name, or says why it cannot be built.
Result<Built> Build(const ParamSet& params) {
  auto topology = ScenarioTopology(params);
  if (!topology) {
    return Fail("topology: " + topology.error().reason);
  }
  const std::string routing_name = params.Text("routing.name");
  auto routing = ScenarioRouting(params, topology.value());
  if (!routing) {
    return routing.error();
  }
  if (routing.value()->VcClasses() > flit::kLinkVcs) {
    return Fail("routing: " + routing_name + " needs " +
                std::to_string(routing.value()->VcClasses()) +
                " VC classes, links carry " + std::to_string(flit::kLinkVcs));
  }
  auto profile = phy::FindLinkProfile(params.Text("link.profile"));
  if (!profile) {
    return Fail("link.profile: " + profile.error().reason);
  }
  return Built{std::move(topology.value()), std::move(routing.value()),
               profile.value()};
}

// splitmix64: independent, reproducible seeds for every component.
uint64_t DeriveSeed(uint64_t seed, uint64_t component) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (component + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

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

std::vector<ParamSpec> FabricParamSpecs() {
  std::vector<ParamSpec> specs;
  AddCatalogueKeys("topology", topo::TopologyCatalogue(), "torus", specs);
  AddCatalogueKeys("routing", topo::RoutingCatalogue(), "dor", specs);
  specs.push_back({"link.fidelity",
                   "tlm: the card-to-card fabric with link and PHY models; "
                   "ideal: routers over ideal links, a network study "
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
  specs.push_back({"link.replay_timeout_flits",
                   "replay timer: unacknowledged flit times before a replay",
                   "375",
                   "flits",
                   ParamType::kInteger,
                   16,
                   4096,
                   {}});
  specs.push_back({"router.latency_ns",
                   "tlm: router pipeline latency per hop, input to output",
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
  specs.push_back({"traffic.pattern",
                   "destination choice of each message (tlm: uniform only)",
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
  specs.push_back({"traffic.message_bytes",
                   "transport payload bytes per message (one flit each)",
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
  return specs;
}

std::optional<std::string> ValidateFabricParams(const ParamSet& params) {
  const auto built = Build(params);
  if (!built) {
    return built.error().reason;
  }
  if (params.Text("traffic.pattern") != "uniform") {
    return "traffic.pattern " + params.Text("traffic.pattern") +
           " needs link.fidelity: ideal (the tlm fabric sends uniform traffic "
           "only)";
  }
  // The whole SEND frame, headers, pad and ICRC, rides in one slot.
  const size_t slot = built->profile.payload_bytes;
  const auto fits = [slot](size_t bytes) {
    return roce::FrameSize(roce::Opcode::kSendOnly, bytes) <= slot;
  };
  const auto bytes =
      static_cast<size_t>(params.Integer("traffic.message_bytes"));
  if (!fits(bytes)) {
    size_t largest = bytes;
    while (largest > 0 && !fits(largest)) {
      --largest;
    }
    return "traffic.message_bytes = " + std::to_string(bytes) +
           " does not fit one " + built->profile.name + " flit: at most " +
           std::to_string(largest) + " B";
  }
  if (built->topology->EndpointCount() < 2) {
    return "topology: traffic needs at least 2 endpoints";
  }
  return std::nullopt;
}

Fabric::Fabric(sc_core::sc_module_name name, const ParamSet& params)
    : sc_module(name), nodes_("node"), links_("link") {
  Built built = Build(params).value();
  topology_ = built.topology;
  routing_ = built.routing;
  profile_ = built.profile;
  const uint64_t seed = static_cast<uint64_t>(params.Integer("sim.seed"));
  const unsigned width = profile_.max_lanes;

  // Offered load is a fraction of one link's payload rate.
  TrafficConfig traffic;
  traffic.messages =
      static_cast<uint64_t>(params.Integer("traffic.messages_per_node"));
  traffic.message_bytes =
      static_cast<uint32_t>(params.Integer("traffic.message_bytes"));
  const double payload_bits_per_ns =
      phy::PayloadGoodputGbps(profile_, width) * params.Real("traffic.load");
  traffic.mean_gap =
      sc_time(8.0 * traffic.message_bytes / payload_bits_per_ns, SC_NS);

  const topo::Topology& topology = *topology_;
  nodes_.init(topology.NodeCount(), [&](const char* node_name, size_t i) {
    NodeConfig config;
    config.id = static_cast<topo::NodeId>(i);
    config.routing = routing_;
    config.router_latency = sc_time(params.Real("router.latency_ns"), SC_NS);
    config.traffic = traffic;
    if (!topology.IsEndpoint(config.id)) {
      config.traffic.messages = 0;  // Switches only forward.
    }
    config.seed = DeriveSeed(seed, i);
    config.capture = i == 0;
    return new FabricNode(node_name, config);
  });

  // One LinkChannel per direction of every working link.
  for (topo::NodeId node = 0; node < topology.NodeCount(); ++node) {
    for (topo::PortId port = 0; port < topology.PortCount(node); ++port) {
      if (auto far = topology.Neighbour(node, port)) {
        ends_.emplace_back(topo::PortRef{node, port}, *far);
      }
    }
  }
  LinkChannelConfig link;
  link.profile = profile_;
  link.width = width;
  link.ber = params.Real("link.ber");
  link.cable_metres = params.Real("link.cable_m");
  link.replay_timeout_flits =
      static_cast<uint64_t>(params.Integer("link.replay_timeout_flits"));
  links_.init(ends_.size(), [&](const char* link_name, size_t i) {
    LinkChannelConfig config = link;
    config.seed = DeriveSeed(seed, topology.NodeCount() + i);
    config.receiver_port = static_cast<int>(ends_[i].second.port);
    return new LinkChannel(link_name, config);
  });
  for (size_t i = 0; i < ends_.size(); ++i) {
    const auto& [from, to] = ends_[i];
    nodes_[from.node].ports[from.port](links_[i]);
    links_[i].to_node(nodes_[to.node]);
  }
}

uint64_t Fabric::MessagesExpected() const {
  uint64_t expected = 0;
  for (const auto& node : nodes_) {
    expected += node.expected_messages();
  }
  return expected;
}

uint64_t Fabric::MessagesDelivered() const {
  uint64_t delivered = 0;
  for (const auto& node : nodes_) {
    delivered += node.counters().delivered;
  }
  return delivered;
}

FabricTotals Fabric::Collect() const {
  FabricTotals totals;
  totals.messages_expected = MessagesExpected();
  for (const auto& node : nodes_) {
    totals.nodes += node.counters();
    totals.latencies_ns.insert(totals.latencies_ns.end(),
                               node.latencies_ns().begin(),
                               node.latencies_ns().end());
    totals.hops.insert(totals.hops.end(), node.hops().begin(),
                       node.hops().end());
    totals.last_delivery_ps =
        std::max(totals.last_delivery_ps, node.last_delivery_ps());
  }
  // Utilisation over the traffic's lifetime, not the trailing ACKs.
  const auto now_ps = static_cast<double>(totals.last_delivery_ps);
  for (size_t i = 0; i < links_.size(); ++i) {
    const LinkCounters& counters = links_[i].counters();
    totals.links += counters;
    const auto& [from, to] = ends_[i];
    LinkDirectionLoad load{from.node, from.port, to.node,
                           topology_->Coordinates(from.node), 0};
    if (now_ps > 0) {
      load.utilisation = static_cast<double>(counters.busy_ps) / now_ps;
    }
    totals.max_link_utilisation =
        std::max(totals.max_link_utilisation, load.utilisation);
    totals.directions.push_back(std::move(load));
  }
  return totals;
}

const std::vector<CapturedPacket>& Fabric::Captured() const {
  return nodes_[0].captured();
}

}  // namespace lq::fabric
