// Parameters, validation, construction and totals of the interim fabric.
#include "systemc/fabric/fabric.h"

#include <algorithm>

#include "models/flit/dlp.h"
#include "models/roce/packet.h"
#include "systemc/app/scenario_schema.h"

namespace lq::fabric {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

struct Built {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::RoutingFunction> routing;
  phy::LinkProfile profile;
};

// Builds what the parameters name, or says why it cannot be built.
Result<Built> Build(const ParamSet& params) {
  auto topology = app::ScenarioTopology(params);
  if (!topology) {
    return Fail("topology: " + topology.error().reason);
  }
  const std::string routing_name = params.Text("routing.name");
  auto routing = app::ScenarioRouting(params, topology.value());
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

std::optional<std::string> ValidateFabricParams(const ParamSet& params) {
  const auto built = Build(params);
  if (!built) {
    return built.error().reason;
  }
  if (params.Text("traffic.pattern") != "uniform") {
    return "traffic.pattern " + params.Text("traffic.pattern") +
           ": the stack's tlm fabric sends uniform traffic only so far "
           "(run.study network runs every pattern)";
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
