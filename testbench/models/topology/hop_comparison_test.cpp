// SPDX-License-Identifier: Apache-2.0
// Hop counts that docs/validation.md pins: n·k/4 on the tori that
// dor_routing_test leaves out, the fat-tree's mix of 2-, 4- and 6-link paths
// in closed form, and the seed's claim that a 3D torus needs ~50 % fewer hops
// than a tree, measured at equal endpoint counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/topology/analytics.h"
#include "models/topology/fat_tree.h"
#include "models/topology/path.h"
#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::topo {
namespace {

// A routing function on a topology, both built by name from the registries
// as a scenario builds them (NET-4.8, NET-6.6).
Result<std::unique_ptr<RoutingFunction>> NamedRouting(
    const std::string& topology_name, const ParamMap& topology_params,
    const std::string& routing_name) {
  Result<std::shared_ptr<const Topology>> topology =
      CreateTopology(topology_name, topology_params);
  if (!topology) {
    return topology.error();
  }
  return CreateRouting(routing_name, *topology, {});
}

// A node switches a packet when it can forward one: a switch, or a card whose
// router has more than one network port. A fat-tree host has one port, so
// it is a network interface, not a switch; a torus or full-mesh card's
// router switches the packet at the source (local port to a network port)
// and at the destination (network port to the local port) too, which is why
// the zero-load latency model counts h + 1 routers on an h-hop path.
bool Switches(const Topology& topology, NodeId node) {
  return !topology.IsEndpoint(node) || topology.PortCount(node) > 1;
}

// What a packet to another endpoint costs, averaged over every ordered pair
// of distinct endpoints (uniform traffic; a card does not send to itself).
struct PacketCosts {
  size_t endpoints = 0;
  double mean_links = 0;       // Links crossed.
  double mean_switchings = 0;  // Nodes on the path that switch it.
  double mean_transits = 0;    // Nodes passed other than source and dest.
  size_t max_links = 0;
  size_t max_switchings = 0;
};

Result<PacketCosts> MeasurePacketCosts(const RoutingFunction& routing) {
  const Topology& topology = routing.topology();
  const NodeId endpoints = topology.EndpointCount();
  uint64_t links = 0;
  uint64_t switchings = 0;
  uint64_t transits = 0;
  PacketCosts costs;
  Path path;
  for (NodeId src = 0; src < endpoints; ++src) {
    for (NodeId dst = 0; dst < endpoints; ++dst) {
      if (src == dst) {
        continue;
      }
      Result<bool> traced = TracePathInto(routing, src, dst, path);
      if (!traced) {
        return traced.error();
      }
      // The path's nodes are the one each hop leaves from, then dst.
      size_t switched = Switches(topology, dst) ? 1 : 0;
      for (const Hop& hop : path) {
        switched += Switches(topology, hop.node) ? 1 : 0;
      }
      links += path.size();
      switchings += switched;
      transits += path.size() - 1;
      costs.max_links = std::max(costs.max_links, path.size());
      costs.max_switchings = std::max(costs.max_switchings, switched);
    }
  }
  const double pairs = static_cast<double>(endpoints) * (endpoints - 1);
  costs.endpoints = endpoints;
  costs.mean_links = static_cast<double>(links) / pairs;
  costs.mean_switchings = static_cast<double>(switchings) / pairs;
  costs.mean_transits = static_cast<double>(transits) / pairs;
  return costs;
}

// Ordered pairs of distinct hosts that share a group, when `hosts` hosts fill
// groups of `group` slots in ID order (the last group possibly part-full).
uint64_t OrderedPairsWithinGroups(uint64_t hosts, uint64_t group) {
  const uint64_t full_groups = hosts / group;
  const uint64_t last_group = hosts % group;
  uint64_t pairs = full_groups * group * (group - 1);
  if (last_group > 1) {
    pairs += last_group * (last_group - 1);
  }
  return pairs;
}

// Ordered pairs of distinct hosts by the links of their up/down path.
struct LinkMix {
  uint64_t two = 0;   // Same edge switch.
  uint64_t four = 0;  // Same pod, another edge switch.
  uint64_t six = 0;   // Another pod, through a core switch.
};

// NET-6.5 in closed form: k/2 hosts per edge switch, k²/4 per pod, and only
// the first `endpoints` host slots cabled (NET-6.2). A pod holds whole edge
// switches, so pairs within a pod include those within an edge switch.
LinkMix ClosedFormLinkMix(uint32_t k, uint32_t endpoints) {
  const uint64_t hosts = endpoints;
  const uint64_t same_edge = OrderedPairsWithinGroups(hosts, k / 2);
  const uint64_t same_pod = OrderedPairsWithinGroups(hosts, k * k / 4);
  return LinkMix{same_edge, same_pod - same_edge,
                 hosts * (hosts - 1) - same_pod};
}

// Mean links between distinct hosts of a fully populated tree whose tier-1
// switches each hold fanouts[0] hosts, tier-2 switches fanouts[1] tier-1
// switches, and so on: a path through a tier-L switch takes 2L links. Used
// for the trees the claim would need, which the library does not model.
double FullTreeMeanLinks(const std::vector<uint32_t>& fanouts) {
  double below = 1;  // Hosts under one switch of the tier below.
  double total = 0;
  for (size_t tier = 1; tier <= fanouts.size(); ++tier) {
    const double under = below * fanouts[tier - 1];
    total += 2.0 * tier * (under - below);
    below = under;
  }
  return total / (below - 1);
}

// The rows of the comparison (docs/validation.md).
struct Row {
  const char* topology;
  ParamMap params;
  const char* routing;
};

const Row kTorus4x4x4{"torus", {{"dims", "4x4x4"}}, "dor"};
const Row kTorus4x8x8{"torus", {{"dims", "4x8x8"}}, "dor"};
const Row kTorus8x8x8{"torus", {{"dims", "8x8x8"}}, "dor"};
const Row kFatTree64{"fattree", {{"endpoints", "64"}}, "updown"};
const Row kFatTree256{"fattree", {{"endpoints", "256"}}, "updown"};
const Row kFatTree512{"fattree", {{"endpoints", "512"}}, "updown"};
const Row kFullMesh8x8{"fullmesh", {{"x", "8"}, {"y", "8"}}, "fullmesh"};

Result<PacketCosts> CostsOf(const Row& row) {
  Result<std::unique_ptr<RoutingFunction>> routing =
      NamedRouting(row.topology, row.params, row.routing);
  if (!routing) {
    return routing.error();
  }
  return MeasurePacketCosts(**routing);
}

// Ring mean hops with self pairs, k/4 (even k) or k/4 - 1/(4k) (odd k).
double RingMeanHops(uint32_t k) {
  return k % 2 == 0 ? k / 4.0 : k / 4.0 - 1.0 / (4.0 * k);
}

TEST(HopComparison, NET_6_4_MeanHopsOnToriThatDorRoutingTestLeavesOut) {
  // dor_routing_test already checks 4x4x4, 8x8x8, 4x8x8, 6x6 and other
  // shapes; these add a long ring, rings of two (one link used of two) and a
  // 2D odd-k torus.
  struct Shape {
    const char* dims;
    std::vector<uint32_t> sizes;
    double mean;  // n·k/4, or n·(k/4 - 1/(4k)) for odd k.
    size_t diameter;
  };
  const std::vector<Shape> shapes = {
      {"16", {16}, 4.0, 8},
      {"2x2x2", {2, 2, 2}, 1.5, 3},
      {"5x5", {5, 5}, 2.4, 4},
  };
  for (const Shape& shape : shapes) {
    Result<std::unique_ptr<RoutingFunction>> dor =
        NamedRouting("torus", {{"dims", shape.dims}}, "dor");
    ASSERT_TRUE(dor.ok()) << dor.error().reason;
    Result<HopStats> stats = RouteHopStats(**dor);
    ASSERT_TRUE(stats.ok()) << stats.error().reason;
    double sum_of_ring_means = 0;
    for (uint32_t k : shape.sizes) {
      sum_of_ring_means += RingMeanHops(k);
    }
    EXPECT_NEAR(sum_of_ring_means, shape.mean, 1e-12)
        << "the closed form for equal rings is the sum of ring means";
    EXPECT_NEAR(stats->mean_including_self, shape.mean, 1e-12)
        << "dor must be minimal on torus " << shape.dims;
    EXPECT_EQ(stats->max_hops, shape.diameter)
        << "the diameter is the sum of half rings on torus " << shape.dims;
  }
}

TEST(HopComparison, NET_6_5_FatTreePathsSplitTwoFourSixAsTheClosedFormSays) {
  // 64 (k=8), 256 (k=12) and 512 (k=14) endpoints: the partly populated
  // trees of the comparison below; updown_routing_test checks the full k=8.
  for (uint32_t endpoints : {64u, 256u, 512u}) {
    Result<std::unique_ptr<RoutingFunction>> updown = NamedRouting(
        "fattree", {{"endpoints", std::to_string(endpoints)}}, "updown");
    ASSERT_TRUE(updown.ok()) << updown.error().reason;
    const auto& tree = dynamic_cast<const FatTree&>((*updown)->topology());
    LinkMix traced;
    Path path;
    for (NodeId src = 0; src < endpoints; ++src) {
      for (NodeId dst = 0; dst < endpoints; ++dst) {
        if (src == dst) {
          continue;
        }
        ASSERT_TRUE(TracePathInto(**updown, src, dst, path).ok());
        ASSERT_TRUE(path.size() == 2 || path.size() == 4 || path.size() == 6)
            << "node" << src << " -> node" << dst << ": " << path.size();
        if (path.size() == 2) {
          ++traced.two;
        } else if (path.size() == 4) {
          ++traced.four;
        } else {
          ++traced.six;
        }
      }
    }
    const LinkMix expected = ClosedFormLinkMix(tree.k(), endpoints);
    EXPECT_EQ(traced.two, expected.two) << endpoints << " hosts: same edge";
    EXPECT_EQ(traced.four, expected.four) << endpoints << " hosts: same pod";
    EXPECT_EQ(traced.six, expected.six) << endpoints << " hosts: via a core";
  }
  // The default 256-host tree: k=12, 6 hosts per edge switch, 36 per pod, so
  // 7 full pods and 4 hosts on edge switch 42 of pod 7.
  const LinkMix mix = ClosedFormLinkMix(12, 256);
  EXPECT_EQ(mix.two, 42u * 6 * 5 + 4 * 3) << "42 full edges + one of 4";
  EXPECT_EQ(mix.four, 7u * (36 * 35 - 6 * 6 * 5)) << "pod 7 has one edge";
  EXPECT_EQ(mix.six, 256u * 255 - 7 * 36 * 35 - 4 * 3);
  EXPECT_EQ(mix.two, 1272u);
  EXPECT_EQ(mix.four, 7560u);
  EXPECT_EQ(mix.six, 56448u);
  const double links = 2.0 * 1272 + 4.0 * 7560 + 6.0 * 56448;
  Result<std::unique_ptr<RoutingFunction>> updown =
      NamedRouting("fattree", {{"endpoints", "256"}}, "updown");
  ASSERT_TRUE(updown.ok()) << updown.error().reason;
  Result<HopStats> stats = RouteHopStats(**updown);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_DOUBLE_EQ(stats->mean_including_self, links / (256.0 * 256))
      << "371472 links over 65536 ordered pairs = 5.668212890625";
  EXPECT_DOUBLE_EQ(stats->mean_excluding_self, links / (256.0 * 255))
      << "371472 / 65280 = 5.690441...";
  EXPECT_EQ(stats->max_hops, 6u);
}

TEST(HopComparison, NET_6_5_UpDownIsMinimalSoTheTreeIsNotHandicapped) {
  for (const Row* row : {&kFatTree64, &kFatTree256, &kFatTree512}) {
    Result<std::unique_ptr<RoutingFunction>> updown =
        NamedRouting(row->topology, row->params, row->routing);
    ASSERT_TRUE(updown.ok()) << updown.error().reason;
    Result<HopStats> routed = RouteHopStats(**updown);
    Result<HopStats> shortest = ShortestHopStats((*updown)->topology());
    ASSERT_TRUE(routed.ok() && shortest.ok());
    EXPECT_DOUBLE_EQ(routed->mean_including_self, shortest->mean_including_self)
        << "updown must take shortest paths on "
        << (*updown)->topology().Describe();
  }
}

// Figures a row must show; every mean is over distinct ordered pairs.
struct Expected {
  double mean_links;
  double mean_switchings;
  double mean_transits;
  size_t max_links;
  size_t max_switchings;
};

void ExpectCosts(const Row& row, const Expected& expected) {
  Result<std::unique_ptr<RoutingFunction>> routing =
      NamedRouting(row.topology, row.params, row.routing);
  ASSERT_TRUE(routing.ok()) << routing.error().reason;
  Result<PacketCosts> costs = MeasurePacketCosts(**routing);
  ASSERT_TRUE(costs.ok()) << costs.error().reason;
  const std::string what =
      (*routing)->topology().Describe() + " with " + row.routing;
  EXPECT_NEAR(costs->mean_links, expected.mean_links, 1e-12) << what;
  EXPECT_NEAR(costs->mean_switchings, expected.mean_switchings, 1e-12) << what;
  EXPECT_NEAR(costs->mean_transits, expected.mean_transits, 1e-12) << what;
  EXPECT_EQ(costs->max_links, expected.max_links) << what;
  EXPECT_EQ(costs->max_switchings, expected.max_switchings) << what;
}

TEST(HopComparison, NET_6_4_TorusCostsPerPacketAt64_256And512Cards) {
  // Links: n·k/4 × N/(N-1). Every card on the path switches: links + 1.
  ExpectCosts(kTorus4x4x4, {192.0 / 63, 255.0 / 63, 129.0 / 63, 6, 7});
  ExpectCosts(kTorus4x8x8, {1280.0 / 255, 1535.0 / 255, 1025.0 / 255, 10, 11});
  ExpectCosts(kTorus8x8x8, {3072.0 / 511, 3583.0 / 511, 2561.0 / 511, 12, 13});
}

TEST(HopComparison, NET_6_5_FatTreeCostsPerPacketAt64_256And512Hosts) {
  // Switches on the path: links - 1 (1, 3 or 5), all of them transits.
  ExpectCosts(kFatTree64,
              {21888.0 / 4032, 17856.0 / 4032, 17856.0 / 4032, 6, 5});
  ExpectCosts(kFatTree256,
              {371472.0 / 65280, 306192.0 / 65280, 306192.0 / 65280, 6, 5});
  ExpectCosts(kFatTree512, {1515696.0 / 261632, 1254064.0 / 261632,
                            1254064.0 / 261632, 6, 5});
}

TEST(HopComparison, NET_4_5_FullMeshRackCostsPerPacket) {
  // 8x8: 7 of 63 others one X hop, 7 one Y hop, 49 both: 112/63 links.
  ExpectCosts(kFullMesh8x8, {112.0 / 63, 175.0 / 63, 49.0 / 63, 2, 3});
}

// direct / tree network for each figure, both measured from the models.
struct Ratios {
  double links;
  double switchings;
  double transits;
};

Ratios RatiosOf(const Row& direct, const Row& tree) {
  Result<PacketCosts> a = CostsOf(direct);
  Result<PacketCosts> b = CostsOf(tree);
  EXPECT_TRUE(a.ok() && b.ok()) << "both rows must build and route";
  if (!a.ok() || !b.ok()) {
    return {};
  }
  EXPECT_EQ(a->endpoints, b->endpoints) << "compare equal endpoint counts";
  return {a->mean_links / b->mean_links,
          a->mean_switchings / b->mean_switchings,
          a->mean_transits / b->mean_transits};
}

TEST(HopComparison, NET_6_4_SeedClaimOfHalfTheHopsOfATreeHoldsOnlyAt64) {
  // torus / tree at equal endpoint counts, from the figures pinned above.
  // "~50 % fewer hops" is read as a ratio below 0.6.
  const Ratios at64 = RatiosOf(kTorus4x4x4, kFatTree64);
  EXPECT_NEAR(at64.links, 0.561404, 1e-6) << "4x4x4: 44 % fewer links";
  EXPECT_NEAR(at64.switchings, 0.913978, 1e-6)
      << "4x4x4: 9 % fewer switchings when the cards' routers count";
  EXPECT_NEAR(at64.transits, 0.462366, 1e-6)
      << "4x4x4: 54 % fewer nodes passed through";
  EXPECT_LT(at64.links, 0.6) << "the claim holds for links at 64 cards";
  EXPECT_GT(at64.switchings, 0.6) << "but not for switchings";

  const Ratios at256 = RatiosOf(kTorus4x8x8, kFatTree256);
  EXPECT_NEAR(at256.links, 0.882112, 1e-6) << "4x8x8: 12 % fewer links";
  EXPECT_NEAR(at256.switchings, 1.283378, 1e-6)
      << "4x8x8: 28 % more switchings";
  EXPECT_NEAR(at256.transits, 0.856979, 1e-6) << "4x8x8: 14 % fewer transits";
  EXPECT_GT(at256.transits, 0.6) << "the claim fails for the default torus "
                                    "under every definition";

  const Ratios at512 = RatiosOf(kTorus8x8x8, kFatTree512);
  EXPECT_NEAR(at512.links, 1.037717, 1e-6) << "8x8x8: 4 % more links";
  EXPECT_NEAR(at512.switchings, 1.462841, 1e-6)
      << "8x8x8: 46 % more switchings";
  EXPECT_NEAR(at512.transits, 1.045586, 1e-6) << "8x8x8: 5 % more transits";
  EXPECT_GT(at512.links, 1.0) << "at 512 cards the torus needs more links";

  const Ratios mesh = RatiosOf(kFullMesh8x8, kFatTree64);
  EXPECT_NEAR(mesh.links, 0.327485, 1e-6) << "8x8 mesh: 67 % fewer links";
  EXPECT_NEAR(mesh.switchings, 0.627240, 1e-6)
      << "8x8 mesh: 37 % fewer switchings";
  EXPECT_NEAR(mesh.transits, 0.175627, 1e-6) << "8x8 mesh: 82 % fewer";
  const Ratios mesh_to_torus = RatiosOf(kFullMesh8x8, kTorus4x4x4);
  EXPECT_NEAR(mesh_to_torus.links, 0.583333, 1e-6)
      << "8x8 mesh: 42 % fewer links than the 4x4x4 torus";
}

TEST(HopComparison, NET_6_5_TreesTheClaimWouldNeedHaveFiveOrMoreTiers) {
  // The closed form agrees with the fat-tree model where they overlap: the
  // 64 hosts of the k=8 tree fill 4 pods of 4 edge switches of 4 hosts, and
  // 128 hosts fill all 8 pods.
  EXPECT_NEAR(FullTreeMeanLinks({4, 4, 4}), 21888.0 / 4032, 1e-12);
  Result<std::unique_ptr<RoutingFunction>> full_k8 =
      NamedRouting("fattree", {{"endpoints", "128"}}, "updown");
  ASSERT_TRUE(full_k8.ok()) << full_k8.error().reason;
  Result<HopStats> stats = RouteHopStats(**full_k8);
  ASSERT_TRUE(stats.ok()) << stats.error().reason;
  EXPECT_NEAR(FullTreeMeanLinks({4, 4, 8}), stats->mean_excluding_self, 1e-12)
      << "the full k=8 tree of 128 hosts";

  // 64 cards against a 2-tier leaf-spine (8 leaves of 8 hosts, k=16).
  EXPECT_NEAR((192.0 / 63) / FullTreeMeanLinks({8, 8}), 0.806723, 1e-6)
      << "4x4x4: 19 % fewer links than a 2-tier tree";
  // 256 cards: the claim needs a tree of mean ~10 links, 5 tiers or more.
  const double torus = 1280.0 / 255;  // 4x8x8, links over distinct pairs.
  const struct {
    std::vector<uint32_t> fanouts;
    double ratio;
    const char* what;
  } trees[] = {
      {{16, 16}, 1.292929, "2 tiers, 16 leaves of 16 hosts: 29 % more"},
      {{4, 4, 16}, 0.856760, "3 tiers, 16 pods of 16 hosts: 14 % fewer"},
      {{4, 4, 4, 4}, 0.681576, "4 tiers of radix-8 switches: 32 % fewer"},
      {{2, 2, 4, 4, 4}, 0.536463, "5 tiers: 46 % fewer"},
      {{2, 2, 2, 2, 4, 4}, 0.444136, "6 tiers: 56 % fewer"},
      {{2, 2, 2, 2, 2, 2, 2, 2}, 0.356944, "binary, 8 tiers: 64 % fewer"},
  };
  for (const auto& tree : trees) {
    const double ratio = torus / FullTreeMeanLinks(tree.fanouts);
    EXPECT_NEAR(ratio, tree.ratio, 1e-6) << tree.what;
    EXPECT_EQ(ratio < 0.6, tree.fanouts.size() >= 5)
        << "~50 % fewer links needs 5 or more tiers: " << tree.what;
  }
}

}  // namespace
}  // namespace lq::topo
