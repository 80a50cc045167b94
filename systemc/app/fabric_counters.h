// SPDX-License-Identifier: Apache-2.0
// What a run's fabric counted, for its stats file, whatever the run's
// kind: every component's statistics under their hierarchical names (the
// `stats` object), and each link direction's load (`link.directions[]`),
// read from the routers on ideal links and from the link controllers and
// PHYs as well on tlm links, or from the cycle kernel's routers.
#pragma once

#include <nlohmann/json.hpp>

#include "models/network/cycle_fabric.h"
#include "models/phy/link_profile.h"
#include "models/topology/topology.h"
#include "systemc/cluster/cluster.h"

namespace lq::app {

// Every node's components' statistics, "<node>.<component>.<name>"
// ("node3.port1.lc.tx_flits"): the names are unique, and their meanings
// are the components' declarations (`lqemu list --markdown`). In a
// parallel run every rank calls it: rank 0 gets every rank's nodes, in
// node order; the others, nothing.
nlohmann::ordered_json ComponentStatsJson(cluster::Cluster& cluster);

// How a run's links are timed, for their utilisation.
struct LinkTiming {
  phy::LinkProfile profile;    // the links' (tlm links: PHY flit times)
  double router_clock_ns = 1;  // ideal links carry one slot per cycle
  double lifetime_ns = 0;      // the span a utilisation is a fraction of
};

// One entry per direction of every cabled link, `{node, port, to,
// coordinates, flits, bytes, utilisation, replays, crc_errors,
// paused_ns}`: flits the direction carried (on tlm links its PHY's, NOPs
// and replays included; on ideal links the router port's slots), their
// bytes on the wire (slots' bytes on ideal links), the fraction of
// `lifetime_ns` spent serialising payload, the replays its sender started,
// the flits its receiver found bad, and the time the sending router's
// output held the data priority paused (PFC, summed over its VC classes).
nlohmann::ordered_json LinkDirectionsJson(cluster::Cluster& cluster,
                                          const topo::Topology& topology,
                                          const LinkTiming& timing);

// The busiest direction's utilisation in LinkDirectionsJson's `directions`.
double MaxUtilisation(const nlohmann::ordered_json& directions);

// Both, read at the end of a run, for its stats file.
struct FabricCounters {
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  nlohmann::ordered_json directions = nlohmann::ordered_json::array();
  // Adds them to `json`: `stats`, and `link.directions`.
  void AddTo(nlohmann::ordered_json& json) const;
};
// In a parallel run every rank calls it: rank 0 gets every rank's nodes,
// in node order, as one process would read them; the others, nothing.
FabricCounters ReadFabricCounters(cluster::Cluster& cluster,
                                  const topo::Topology& topology,
                                  const LinkTiming& timing);
// The same from the cycle kernel, whose routers count under the SystemC
// router's names (the kinds of drop it cannot have, 0) and whose links
// are ideal.
FabricCounters ReadFabricCounters(const net::CycleFabric& fabric,
                                  const topo::Topology& topology,
                                  const LinkTiming& timing);

}  // namespace lq::app
