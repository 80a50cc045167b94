// SPDX-License-Identifier: Apache-2.0
// Tests of the router configuration's VC rules: a link carries at most 4
// VCs, S x C of them (NET-3.1), and C covers the routing function's
// classes (NET-3.2), including adaptive routing's second adaptive class;
// and the one rule of joining routers as a fabric: they share its pool.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <systemc>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"
#include "systemc/network/router.h"

namespace lq::net {
namespace {

RouterConfig Config(const std::string& routing, const topo::ParamMap& params,
                    unsigned classes, unsigned sets) {
  RouterConfig config;
  config.routing =
      topo::CreateRouting(
          routing, topo::CreateTopology("torus", {{"dims", "4x4"}}).value(),
          params)
          .value();
  config.vc_classes = classes;
  config.vc_sets = sets;
  return config;
}

TEST(RouterConfig, NET_3_1_ALinkCarriesOneToFourVcs_fail) {
  EXPECT_FALSE(RouterConfigProblem(Config("dor", {}, 2, 2))) << "2 x 2 = 4";
  const auto five = RouterConfigProblem(Config("dor", {}, 5, 1));
  ASSERT_TRUE(five);
  EXPECT_NE(five->find("NET-3.1"), std::string::npos) << *five;
  EXPECT_TRUE(RouterConfigProblem(Config("dor", {}, 3, 2))) << "3 x 2 = 6";
  EXPECT_TRUE(RouterConfigProblem(Config("dor", {}, 0, 1))) << "no VC at all";
}

TEST(RouterConfig, NET_3_2_ClassesCoverTheRoutingFunctions_fail) {
  EXPECT_FALSE(RouterConfigProblem(Config("adaptive", {}, 3, 1)));
  const auto short_of_adaptive =
      RouterConfigProblem(Config("adaptive", {}, 2, 2));
  ASSERT_TRUE(short_of_adaptive) << "adaptive needs 3 classes";
  EXPECT_NE(short_of_adaptive->find("NET-3.2"), std::string::npos)
      << *short_of_adaptive;
  EXPECT_TRUE(RouterConfigProblem(
      Config("adaptive", {{"adaptive_classes", "2"}}, 3, 1)))
      << "two adaptive classes need C = 4";
  EXPECT_FALSE(RouterConfigProblem(
      Config("adaptive", {{"adaptive_classes", "2"}}, 4, 1)));
  EXPECT_FALSE(RouterConfigProblem(Config("dor", {{"dateline", "off"}}, 1, 4)))
      << "dor without the dateline uses one class";
}

// Decision 0053: a chunk names a packet in the pool both ends read.
TEST(RouterConfig, RoutersJoinedAsOneFabricShareItsPool_fail) {
  RouterConfig config = Config("dor", {}, 2, 1);
  config.network_ports = 4;
  config.nodes = 16;
  Router own_pool("own_pool", config);
  config.node = 1;
  config.pool = std::make_shared<PacketPool>();
  Router shared_a("shared_a", config);
  config.node = 2;
  Router shared_b("shared_b", config);
  const sc_core::sc_time latency(1, sc_core::SC_NS);
  EXPECT_THROW(JoinRouters(own_pool, 0, shared_a, 1, latency),
               std::invalid_argument);
  EXPECT_NO_THROW(JoinRouters(shared_a, 0, shared_b, 1, latency));
}

}  // namespace
}  // namespace lq::net
