// A run's per-component statistics and per-link-direction loads.
#include "systemc/app/fabric_counters.h"

#include <algorithm>

#include "systemc/app/stack_assembly.h"
#include "systemc/cluster/link_port.h"
#include "systemc/cluster/node.h"
#include "systemc/transport/router_flow_control.h"

namespace lq::app {

nlohmann::ordered_json ComponentStatsJson(cluster::Cluster& cluster) {
  // The names are unique (hierarchical): appended without the ordered
  // map's search for each key, which made a cluster's file quadratic.
  using Entries = nlohmann::ordered_json::object_t::Container;
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  auto& entries =
      static_cast<Entries&>(stats.get_ref<nlohmann::ordered_json::object_t&>());
  // Named from the node on ("node3.router.injected"), whatever the
  // cluster's place in the module hierarchy.
  const size_t prefix = std::string(cluster.name()).size() + 1;
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
    for (const Stat& stat : cluster.node(n).Stats()) {
      entries.emplace_back(stat.name.substr(prefix), stat.value);
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

// A direction on an ideal link: the router port's slots, one a cycle.
DirectionLoad IdealLoad(const net::Router& router, unsigned port,
                        const LinkTiming& timing) {
  DirectionLoad load;
  load.flits = router.flits_out(port);
  load.bytes = load.flits * timing.profile.payload_bytes;
  load.utilisation = static_cast<double>(load.flits) * timing.router_clock_ns /
                     timing.lifetime_ns;
  return load;
}

}  // namespace

nlohmann::ordered_json LinkDirectionsJson(cluster::Cluster& cluster,
                                          const topo::Topology& topology,
                                          const LinkTiming& timing) {
  nlohmann::ordered_json directions = nlohmann::ordered_json::array();
  for (unsigned n = 0; n < cluster.node_count(); ++n) {
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
        load = node.ideal_port(p) ? IdealLoad(*router, p, timing)
                                  : TlmLoad(node.port(p), timing);
      }
      cluster::Node& far_node = cluster.node(far->node);
      if (!far_node.ideal_port(far->port)) {
        crc_errors = far_node.port(far->port)
                         .controller()
                         .Counters()
                         .value_or(link::LinkCounters{})
                         .crc_errors;
      }
      const transport::RouterFlowControl* flow = node.flow_control();
      const double paused_ns =
          flow != nullptr
              ? static_cast<double>(flow->paused_ps(p, kDataPriority)) / 1000
              : 0.0;
      directions.push_back({{"node", n},
                            {"port", p},
                            {"to", far->node},
                            {"coordinates", topology.Coordinates(n)},
                            {"flits", load.flits},
                            {"bytes", load.bytes},
                            {"utilisation", load.utilisation},
                            {"replays", load.replays},
                            {"crc_errors", crc_errors},
                            {"paused_ns", paused_ns}});
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
  return {ComponentStatsJson(cluster),
          LinkDirectionsJson(cluster, topology, timing)};
}

}  // namespace lq::app
