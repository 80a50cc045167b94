// SPDX-License-Identifier: Apache-2.0
// A test node: a router and a network interface matching its configuration,
// joined at the local port, delivering into the test's list; CableRouters
// joins such nodes.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/topology/topology.h"
#include "systemc/network/network_interface.h"
#include "systemc/network/port_cap.h"
#include "systemc/network/router.h"
#include "testbench/systemc/network/cable_routers.h"

namespace lq::net {

struct RouterNode {
  std::unique_ptr<Router> router;
  std::unique_ptr<NetworkInterface> ni;
  std::vector<std::unique_ptr<PortCap>> caps;  // CableRouters': no cable
};

// Node `node`'s router of `topology` routed by `routing`, with `slot_bytes`
// slots and 8-slot VC buffers: the tests' small routers.
inline RouterConfig SmallRouterConfig(
    const topo::Topology& topology, topo::NodeId node,
    std::shared_ptr<const topo::RoutingFunction> routing, size_t slot_bytes) {
  RouterConfig config;
  config.node = node;
  config.network_ports = topology.PortCount(node);
  config.routing = std::move(routing);
  config.nodes = topology.NodeCount();
  config.slot_bytes = slot_bytes;
  config.vc_buffer_flits = 8;
  return config;
}

inline RouterNode MakeRouterNode(const RouterConfig& config,
                                 std::vector<Delivered>& delivered) {
  RouterNode node;
  const std::string id = std::to_string(config.node);
  node.router = std::make_unique<Router>(("router" + id).c_str(), config);
  NetworkInterfaceConfig ni;
  ni.node = static_cast<uint16_t>(config.node);
  ni.nodes = config.nodes;
  ni.slot_bytes = config.slot_bytes;
  ni.vc_buffer_flits = config.vc_buffer_flits;
  ni.vc_classes = config.vc_classes;
  ni.vc_sets = config.vc_sets;
  ni.tc_map = DefaultTcMap(config.vc_sets);
  node.ni = std::make_unique<NetworkInterface>(
      ("ni" + id).c_str(), ni,
      [&delivered](Delivered d) { delivered.push_back(std::move(d)); });
  Connect(node.router->port(node.router->local_port()), node.ni->socket);
  return node;
}

}  // namespace lq::net
