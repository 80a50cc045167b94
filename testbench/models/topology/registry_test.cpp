// SPDX-License-Identifier: Apache-2.0
// Tests of the topology and routing registries and their parameter parsing:
// what `lqemu list` shows and what a scenario may ask for.
#include <gtest/gtest.h>

#include <tuple>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "models/topology/torus.h"

namespace lq::topo {
namespace {

std::shared_ptr<const Topology> Create(const std::string& name,
                                       const ParamMap& params = {}) {
  Result<std::shared_ptr<const Topology>> topology =
      CreateTopology(name, params);
  EXPECT_TRUE(topology.ok()) << topology.error().reason;
  return topology.ok() ? topology.value() : nullptr;
}

TEST(TopologyRegistry, NET_6_6_DefaultsBuildTheDocumentedShapes) {
  EXPECT_EQ(Create("torus")->Describe(), "torus 4x8x8");
  EXPECT_EQ(Create("fattree")->Describe(), "fattree k=12 with 256 endpoints")
      << "the default fat-tree matches the default torus's 256 cards";
  EXPECT_EQ(Create("fullmesh")->Describe(), "fullmesh 8x8");
  EXPECT_EQ(Create("torus", {{"dims", "16x16x32"}})->NodeCount(), 8192u);
  EXPECT_EQ(
      Create("fattree", {{"k", "4"}, {"endpoints", "10"}})->EndpointCount(),
      10u);
}

TEST(TopologyRegistry, NET_6_6_RejectsUnknownNamesKeysAndValues_fail) {
  EXPECT_FALSE(CreateTopology("mesh", {}).ok()) << "no such topology";
  Result<std::shared_ptr<const Topology>> typo =
      CreateTopology("torus", {{"dim", "4x4"}});
  ASSERT_FALSE(typo.ok()) << "a misspelt key must not fall back to defaults";
  EXPECT_NE(typo.error().reason.find("dims"), std::string::npos)
      << "the error lists the known keys: " << typo.error().reason;
  EXPECT_FALSE(CreateTopology("torus", {{"dims", "4xx4"}}).ok());
  EXPECT_FALSE(CreateTopology("torus", {{"dims", "4x-4"}}).ok());
  EXPECT_FALSE(CreateTopology("fattree", {{"k", "7"}}).ok()) << "odd k";
  EXPECT_FALSE(CreateTopology("fullmesh", {{"x", "99999999999"}}).ok());
}

TEST(TopologyRegistry, NET_6_6_CatalogueListsEveryParameterWithADefault) {
  const std::vector<ComponentInfo>& catalogue = TopologyCatalogue();
  ASSERT_EQ(catalogue.size(), 3u);
  for (const ComponentInfo& info : catalogue) {
    EXPECT_FALSE(info.summary.empty()) << info.name;
    for (const ParamSpec& param : info.params) {
      EXPECT_FALSE(param.meaning.empty()) << info.name << "." << param.name;
      EXPECT_TRUE(
          CreateTopology(info.name, {{param.name, param.default_value}}).ok())
          << "the documented default of " << info.name << "." << param.name
          << " must be accepted";
    }
  }
}

TEST(RoutingRegistry, NET_4_8_BuildsEachFunctionForItsTopology) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"dor", "torus"},         {"adaptive", "torus"}, {"updown", "fattree"},
      {"fullmesh", "fullmesh"}, {"table", "torus"},    {"table", "fattree"},
      {"table", "fullmesh"}};
  for (const auto& [routing, topology] : pairs) {
    Result<std::unique_ptr<RoutingFunction>> function =
        CreateRouting(routing, Create(topology), {});
    ASSERT_TRUE(function.ok()) << function.error().reason;
    EXPECT_EQ((*function)->Name(), routing);
  }
  Result<std::unique_ptr<RoutingFunction>> no_dateline =
      CreateRouting("dor", Create("torus"), {{"dateline", "off"}});
  ASSERT_TRUE(no_dateline.ok());
  EXPECT_EQ((*no_dateline)->VcClasses(), 1u);
  Result<std::unique_ptr<RoutingFunction>> two_adaptive =
      CreateRouting("adaptive", Create("torus"), {{"adaptive_classes", "2"}});
  ASSERT_TRUE(two_adaptive.ok()) << two_adaptive.error().reason;
  EXPECT_EQ((*two_adaptive)->VcClasses(), 4u) << "2 escape + 2 adaptive";
}

// The routers' hot path, TryRoute(), decides what Route() decides, for
// every function, node, input port, class and destination, and fails where
// Route() fails (a node out of range).
TEST(RoutingRegistry, NET_4_1_TryRouteDecidesAsRouteDoes) {
  const std::vector<std::tuple<std::string, std::string, ParamMap>> cases = {
      {"dor", "torus", {{"dims", "4x3x2"}}},
      {"dor", "torus", {{"dims", "4x4"}}},
      {"adaptive", "torus", {{"dims", "4x3x2"}}},
      {"updown", "fattree", {{"k", "4"}, {"endpoints", "16"}}},
      {"fullmesh", "fullmesh", {{"x", "3"}, {"y", "2"}}},
      {"table", "torus", {{"dims", "3x3"}}}};
  const std::vector<ParamMap> dor_options = {{{"dateline", "per_dimension"}},
                                             {{"dateline", "on"}},
                                             {{"dateline", "off"}},
                                             {{"tie", "parity"}},
                                             {{"tie", "plus"}}};
  for (const auto& [routing, topology_name, topology_params] : cases) {
    const auto topology = Create(topology_name, topology_params);
    const bool dor = routing == "dor";
    for (const ParamMap& params :
         dor ? dor_options : std::vector<ParamMap>{{}}) {
      const auto function = CreateRouting(routing, topology, params);
      ASSERT_TRUE(function.ok()) << function.error().reason;
      const RoutingFunction& f = **function;
      const NodeId nodes = topology->NodeCount();
      for (NodeId node = 0; node <= nodes; ++node) {
        const PortId ports =
            node < nodes ? topology->PortCount(node) + 1 : PortId{1};
        for (PortId port = 0; port < ports; ++port) {
          for (VcClass vc = 0; vc < f.VcClasses(); ++vc) {
            for (NodeId dst = 0; dst <= topology->EndpointCount(); ++dst) {
              const Result<RouteStep> route = f.Route(node, port, vc, dst);
              RouteStep step{99, 99};
              ASSERT_EQ(f.TryRoute(node, port, vc, dst, step), route.ok())
                  << routing << " at " << node << " port " << port << " vc "
                  << vc << " to " << dst;
              if (route.ok()) {
                EXPECT_EQ(step.port, route->port) << routing;
                EXPECT_EQ(step.vc, route->vc) << routing;
              }
            }
          }
        }
      }
    }
  }
}

TEST(RoutingRegistry,
     NET_4_8_RejectsMismatchedTopologiesAndBadParameters_fail) {
  Result<std::unique_ptr<RoutingFunction>> dor_on_tree =
      CreateRouting("dor", Create("fattree"), {});
  ASSERT_FALSE(dor_on_tree.ok()) << "DOR needs torus coordinates";
  EXPECT_NE(dor_on_tree.error().reason.find("torus"), std::string::npos);
  EXPECT_FALSE(CreateRouting("updown", Create("torus"), {}).ok());
  EXPECT_FALSE(CreateRouting("fullmesh", Create("torus"), {}).ok());
  EXPECT_FALSE(CreateRouting("adaptive", Create("fattree"), {}).ok())
      << "adaptive needs torus coordinates";
  EXPECT_FALSE(CreateRouting("dor", Create("torus"), {{"dateline", "1"}}).ok());
  for (const char* classes : {"0", "3", "x"}) {
    EXPECT_FALSE(CreateRouting("adaptive", Create("torus"),
                               {{"adaptive_classes", classes}})
                     .ok())
        << "adaptive_classes " << classes << " is outside 1..2";
  }
  EXPECT_FALSE(
      CreateRouting("fullmesh", Create("fullmesh"), {{"vls", "3"}}).ok());
  EXPECT_FALSE(CreateRouting("table", Create("torus"), {{"root", "x"}}).ok());
  EXPECT_FALSE(
      CreateRouting("table", Create("torus"), {{"classes", "5"}}).ok());
}

// NET-4.2: a tie at k/2 goes + from an even coordinate and - from an odd
// one unless the scenario asks for `plus`, which sends every tie +.
TEST(RoutingRegistry, NET_4_2_DorSplitsTiesByParityByDefault) {
  const auto ring =
      std::dynamic_pointer_cast<const Torus>(Create("torus", {{"dims", "4"}}));
  ASSERT_NE(ring, nullptr);
  const auto dor = CreateRouting("dor", ring, {});
  const auto plus = CreateRouting("dor", ring, {{"tie", "plus"}});
  ASSERT_TRUE(dor.ok() && plus.ok());
  const PortId local = ring->LocalPort(0);
  for (NodeId from = 0; from < 4; ++from) {
    const NodeId to = (from + 2) % 4;
    RouteStep step;
    ASSERT_TRUE((*dor)->TryRoute(from, local, 0, to, step));
    EXPECT_EQ(step.port,
              from % 2 == 0 ? Torus::PlusPort(0) : Torus::MinusPort(0))
        << "default tie from " << from;
    ASSERT_TRUE((*plus)->TryRoute(from, local, 0, to, step));
    EXPECT_EQ(step.port, Torus::PlusPort(0)) << "tie=plus from " << from;
  }
}

TEST(RoutingRegistry, NET_4_8_CatalogueDefaultsAreAccepted) {
  const std::vector<ComponentInfo>& catalogue = RoutingCatalogue();
  ASSERT_EQ(catalogue.size(), 5u) << "dor, adaptive, updown, fullmesh, table";
  const std::vector<std::string> topology_for = {"torus", "torus", "fattree",
                                                 "fullmesh", "torus"};
  for (size_t i = 0; i < catalogue.size(); ++i) {
    ParamMap defaults;
    for (const ParamSpec& param : catalogue[i].params) {
      defaults[param.name] = param.default_value;
    }
    EXPECT_TRUE(
        CreateRouting(catalogue[i].name, Create(topology_for[i]), defaults)
            .ok())
        << catalogue[i].name << " rejects its own defaults";
  }
}

}  // namespace
}  // namespace lq::topo
