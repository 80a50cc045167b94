// SPDX-License-Identifier: Apache-2.0
// NET-1.5: no routing function selects a port with no cable. On topologies
// that have such ports (a torus with rings of one, a fat-tree whose edge
// switches have empty host slots), every registered routing function takes
// every pair of endpoints to its destination over cabled ports (TracePath
// refuses any other), and adaptive routing never offers one as a choice.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/topology/path.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::topo {
namespace {

struct Case {
  std::string routing, topology;
  ParamMap shape;
};

// The number of ports of `topology` with no cable.
unsigned Uncabled(const Topology& topology) {
  unsigned count = 0;
  for (NodeId n = 0; n < topology.NodeCount(); ++n) {
    for (PortId p = 0; p < topology.PortCount(n); ++p) {
      count += topology.Neighbour(n, p) ? 0 : 1;
    }
  }
  return count;
}

TEST(UncabledPorts, NET_1_5_NoRoutingFunctionSelectsAPortWithoutACable) {
  const std::vector<Case> cases = {
      {"dor", "torus", {{"dims", "4x1x3"}}},
      {"dor", "torus", {{"dims", "1x4"}}},
      {"adaptive", "torus", {{"dims", "4x1x3"}}},
      {"table", "torus", {{"dims", "3x1x4"}}},
      {"updown", "fattree", {{"endpoints", "11"}}},
      {"table", "fattree", {{"endpoints", "11"}}},
  };
  std::vector<PortId> candidates;
  for (const Case& c : cases) {
    const std::shared_ptr<const Topology> topology =
        CreateTopology(c.topology, c.shape).value();
    ASSERT_GT(Uncabled(*topology), 0u) << topology->Describe();
    const auto routing = CreateRouting(c.routing, topology, {});
    ASSERT_TRUE(routing.ok()) << routing.error().reason;
    const std::string what = c.routing + " on " + topology->Describe();
    for (NodeId src = 0; src < topology->EndpointCount(); ++src) {
      for (NodeId dst = 0; dst < topology->EndpointCount(); ++dst) {
        const auto path = TracePath(**routing, src, dst);
        ASSERT_TRUE(path.ok()) << what << ": " << path.error().reason;
      }
    }
    for (NodeId at = 0; at < topology->NodeCount(); ++at) {
      for (NodeId dst = 0; dst < topology->EndpointCount(); ++dst) {
        (*routing)->AdaptivePorts(at, dst, candidates);
        for (const PortId port : candidates) {
          EXPECT_TRUE(topology->Neighbour(at, port).has_value())
              << what << ": " << topology->PortName(at, port)
              << " offered toward node " << dst;
        }
      }
    }
  }
}

}  // namespace
}  // namespace lq::topo
