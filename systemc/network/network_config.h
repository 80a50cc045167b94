// SPDX-License-Identifier: Apache-2.0
// NetworkConfig: how a network study's fabric is made (cluster::Network):
// its routers, interfaces and sources, the latency of its ideal links, its
// deadlock watchdog and fabric manager.
#pragma once

#include <optional>
#include <systemc>

#include "systemc/network/fabric_manager.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/router.h"
#include "systemc/network/traffic_source.h"

namespace lq::net {

struct NetworkConfig {
  RouterConfig router;               // node, ports, routing, nodes: per node
  NetworkInterfaceConfig interface;  // node, nodes: per node
  TrafficConfig traffic;             // seed: per node (seed + node)
  sc_core::sc_time link_latency = sc_core::sc_time(2, sc_core::SC_NS);
  // Between each interface and its router, each way (zero: joined directly).
  sc_core::sc_time interface_latency = sc_core::SC_ZERO_TIME;
  // A deadlock is declared after this long without progress while packets
  // are held (zero: no watchdog); the simulation then stops if asked.
  sc_core::sc_time watchdog_window = sc_core::SC_ZERO_TIME;
  bool stop_on_deadlock = true;
  // A fabric manager (NET-7.2) that reroutes around cut links, out of band
  // or, with fabric_manager->node set, in band from that endpoint's
  // firmware, every endpoint then running a ManagementAgent; without one a
  // cut link stays cut and its routes keep dropping.
  std::optional<FabricManagerConfig> fabric_manager;
};

}  // namespace lq::net
