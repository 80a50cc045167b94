// SPDX-License-Identifier: Apache-2.0
// A run's per-component statistics and per-link-direction loads.
#include "systemc/app/fabric_counters.h"

#include <algorithm>

#include "systemc/app/stack_assembly.h"
#include "systemc/cluster/link_port.h"
#include "systemc/cluster/node.h"
#include "systemc/parallel/node_gather.h"
#include "systemc/transport/router_flow_control.h"

namespace lq::app {

namespace {

using Entries = nlohmann::ordered_json::object_t::Container;

// The entries of the object `json`, to append to: the names are unique,
// and appending them skips the ordered map's search for each key, which
// made a cluster's file quadratic.
Entries& EntriesOf(nlohmann::ordered_json& json) {
  return static_cast<Entries&>(
      json.get_ref<nlohmann::ordered_json::object_t&>());
}

// Appends `list` to the object `stats`, each name without its first
// `strip` characters.
void Append(nlohmann::ordered_json& stats, const StatList& list,
            size_t strip = 0) {
  Entries& entries = EntriesOf(stats);
  for (const Stat& stat : list) {
    entries.emplace_back(stat.name.substr(strip), stat.value);
  }
}

}  // namespace

nlohmann::ordered_json ComponentStatsJson(cluster::Cluster& cluster) {
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  // Named from the node on ("node3.router.injected"), whatever the
  // cluster's place in the module hierarchy.
  const size_t prefix = std::string(cluster.name()).size() + 1;
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  if (!world.parallel()) {
    for (unsigned n = 0; n < cluster.node_count(); ++n) {
      Append(stats, cluster.node(n).Stats(), prefix);
    }
    return stats;
  }
  // Each rank's nodes' statistics, as CBOR, to rank 0 (decision 0050).
  const std::vector<Bytes> by_node = parallel::GatherByNode(
      world, cluster.node_count(),
      [&cluster](unsigned n) { return cluster.built(n); },
      [&cluster, prefix](unsigned n, Bytes& out) {
        nlohmann::ordered_json node = nlohmann::ordered_json::object();
        Append(node, cluster.node(n).Stats(), prefix);
        nlohmann::ordered_json::to_cbor(node, out);
      });
  Entries& entries = EntriesOf(stats);
  for (const Bytes& figures : by_node) {
    if (figures.empty()) {
      continue;
    }
    nlohmann::ordered_json node = nlohmann::ordered_json::from_cbor(figures);
    for (auto& [name, value] : EntriesOf(node)) {
      entries.emplace_back(name, std::move(value));
    }
  }
  return stats;
}

namespace {

struct DirectionLoad {
  uint64_t flits = 0;
  uint64_t bytes = 0;
  double utilisation = 0;
  uint64_t replays = 0;
};

// A direction leaving through the link controller and PHY of `port`.
DirectionLoad TlmLoad(cluster::LinkPort& port, const LinkTiming& timing) {
  const phy::PhyPortStats& phy = port.phy.stats();
  // A controller whose RTL keeps its counters private counts none.
  const link::LinkCounters counters =
      port.controller().Counters().value_or(link::LinkCounters{});
  DirectionLoad load;
  load.flits = phy.tx_flits;
  load.bytes = phy.tx_flits * timing.profile.flit_wire_bytes;
  const auto flit_ps = static_cast<double>(
      phy::FlitTimePs(timing.profile, timing.profile.max_lanes));
  load.utilisation = static_cast<double>(counters.tx_payload_flits) * flit_ps /
                     (timing.lifetime_ns * 1000);
  load.replays = counters.replays;
  return load;
}

// A direction on an ideal link that carried `flits` router slots, one a
// cycle.
DirectionLoad IdealLoad(uint64_t flits, const LinkTiming& timing) {
  DirectionLoad load;
  load.flits = flits;
  load.bytes = load.flits * timing.profile.payload_bytes;
  if (timing.lifetime_ns > 0) {
    load.utilisation = static_cast<double>(load.flits) *
                       timing.router_clock_ns / timing.lifetime_ns;
  }
  return load;
}

nlohmann::ordered_json DirectionJson(const topo::Topology& topology,
                                     unsigned node, unsigned port,
                                     const topo::PortRef& far,
                                     const DirectionLoad& load,
                                     uint64_t crc_errors, double paused_ns) {
  // Appended (an initialiser list cost 20 000 instructions a direction).
  nlohmann::ordered_json direction = nlohmann::ordered_json::object();
  Entries& entries = EntriesOf(direction);
  entries.reserve(10);
  entries.emplace_back("node", node);
  entries.emplace_back("port", port);
  entries.emplace_back("to", far.node);
  entries.emplace_back("coordinates", topology.Coordinates(node));
  entries.emplace_back("flits", load.flits);
  entries.emplace_back("bytes", load.bytes);
  entries.emplace_back("utilisation", load.utilisation);
  entries.emplace_back("replays", load.replays);
  entries.emplace_back("crc_errors", crc_errors);
  entries.emplace_back("paused_ns", paused_ns);
  return direction;
}

}  // namespace

namespace {

// The bad flits port `port` of node `n` received: its link controller's
// count; an ideal port has none.
uint64_t ReceivedBad(cluster::Node& node, unsigned port) {
  if (node.ideal_port(port)) {
    return 0;
  }
  return node.port(port)
      .controller()
      .Counters()
      .value_or(link::LinkCounters{})
      .crc_errors;
}

// Node `n`'s directions out, appended to `directions`. The far end's
// receiver counts the bad flits; one on another rank counts them there
// (ReadFabricCounters brings them over).
void AppendDirectionsOf(cluster::Cluster& cluster, unsigned n,
                        const topo::Topology& topology,
                        const LinkTiming& timing,
                        nlohmann::ordered_json& directions) {
  cluster::Node& node = cluster.node(n);
  net::Router* router = node.router();
  for (unsigned p = 0; p < node.port_count(); ++p) {
    const auto far = topology.Neighbour(n, p);
    if (!far || router == nullptr) {
      continue;
    }
    DirectionLoad load;
    uint64_t crc_errors = 0;
    if (timing.lifetime_ns > 0) {
      load = node.ideal_port(p) ? IdealLoad(router->flits_out(p), timing)
                                : TlmLoad(node.port(p), timing);
    }
    if (cluster.built(far->node)) {
      crc_errors = ReceivedBad(cluster.node(far->node), far->port);
    }
    const transport::RouterFlowControl* flow = node.flow_control();
    const double paused_ns =
        flow != nullptr
            ? static_cast<double>(flow->paused_ps(p, kDataPriority)) / 1000
            : 0.0;
    directions.push_back(
        DirectionJson(topology, n, p, *far, load, crc_errors, paused_ns));
  }
}

}  // namespace

nlohmann::ordered_json LinkDirectionsJson(cluster::Cluster& cluster,
                                          const topo::Topology& topology,
                                          const LinkTiming& timing) {
  nlohmann::ordered_json directions = nlohmann::ordered_json::array();
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    if (cluster.built(n)) {
      AppendDirectionsOf(cluster, n, topology, timing, directions);
    }
  }
  return directions;
}

double MaxUtilisation(const nlohmann::ordered_json& directions) {
  double most = 0;
  for (const auto& direction : directions) {
    most = std::max(most, direction.value("utilisation", 0.0));
  }
  return most;
}

void FabricCounters::AddTo(nlohmann::ordered_json& json) const {
  json["link"]["directions"] = directions;
  json["stats"] = stats;
}

FabricCounters ReadFabricCounters(cluster::Cluster& cluster,
                                  const topo::Topology& topology,
                                  const LinkTiming& timing) {
  const parallel::RankWorld& world = parallel::RankWorld::Get();
  if (!world.parallel()) {
    return {ComponentStatsJson(cluster),
            LinkDirectionsJson(cluster, topology, timing)};
  }
  // Each rank's nodes' figures, as CBOR, to rank 0 (decision 0050).
  const size_t prefix = std::string(cluster.name()).size() + 1;
  const std::vector<Bytes> by_node = parallel::GatherByNode(
      world, cluster.node_count(),
      [&cluster](unsigned n) { return cluster.built(n); },
      [&](unsigned n, Bytes& out) {
        nlohmann::ordered_json node = nlohmann::ordered_json::object();
        node["stats"] = nlohmann::ordered_json::object();
        Append(node["stats"], cluster.node(n).Stats(), prefix);
        node["directions"] = nlohmann::ordered_json::array();
        AppendDirectionsOf(cluster, n, topology, timing, node["directions"]);
        node["received_bad"] = nlohmann::ordered_json::array();
        for (unsigned p = 0; p < cluster.node(n).port_count(); ++p) {
          node["received_bad"].push_back(ReceivedBad(cluster.node(n), p));
        }
        nlohmann::ordered_json::to_cbor(node, out);
      });
  FabricCounters counters;
  std::vector<nlohmann::ordered_json> nodes;
  for (const Bytes& figures : by_node) {
    nodes.push_back(figures.empty()
                        ? nlohmann::ordered_json()
                        : nlohmann::ordered_json::from_cbor(figures));
  }
  for (nlohmann::ordered_json& node : nodes) {
    if (node.is_null()) {
      continue;
    }
    Entries& stats = EntriesOf(counters.stats);
    for (auto& [name, value] : EntriesOf(node["stats"])) {
      stats.emplace_back(name, std::move(value));
    }
    for (auto& direction : node["directions"]) {
      // The bad flits of a direction to another rank's node, counted there.
      const auto& far = nodes.at(direction["to"].get<unsigned>());
      direction["crc_errors"] = far["received_bad"].at(
          topology
              .Neighbour(direction["node"].get<unsigned>(),
                         direction["port"].get<unsigned>())
              ->port);
      counters.directions.push_back(std::move(direction));
    }
  }
  return counters;
}

namespace {

// A cycle-kernel router's counters under the SystemC router's declared
// names (the drops it cannot have, 0: it models no bytes, faults or MGMT
// traffic); its interface is on port `local`.
StatList CycleRouterStats(const net::CycleRouterCounts& counts, unsigned local,
                          const std::string& prefix) {
  net::RouterCounters counters;
  counters.injected = counts.injected;
  counters.ejected = counts.ejected;
  counters.forwarded = counts.forwarded;
  counters.hops = counts.hops;
  counters.drops_ttl = counts.drops_ttl;
  counters.drops_no_route = counts.drops_no_route;
  return net::Router::StatsOf(
      counters, {counts.flits_in, counts.flits_out, counts.stall_cycles, {}},
      local, prefix);
}

}  // namespace

FabricCounters ReadFabricCounters(const net::CycleFabric& fabric,
                                  const topo::Topology& topology,
                                  const LinkTiming& timing) {
  FabricCounters counters;
  const std::vector<net::CycleRouterCounts> routers = fabric.RouterCounts();
  for (unsigned n = 0; n < topology.NodeCount(); ++n) {
    const net::CycleRouterCounts& counts = routers[n];
    Append(counters.stats, CycleRouterStats(counts, fabric.local_port(n),
                                            topology.NodeName(n) + ".router."));
    for (unsigned p = 0; p < topology.PortCount(n); ++p) {
      if (const auto far = topology.Neighbour(n, p)) {
        counters.directions.push_back(
            DirectionJson(topology, n, p, *far,
                          IdealLoad(counts.flits_out[p], timing), 0, 0.0));
      }
    }
  }
  return counters;
}

}  // namespace lq::app
