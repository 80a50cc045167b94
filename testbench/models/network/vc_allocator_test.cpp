// SPDX-License-Identifier: Apache-2.0
// Tests of VC allocation shared by both kernels: which output VC a head
// packet asks for (NET-4.3's adaptive choice and escape rule, NET-8.3's
// ejection VC) and the round-robin arbiter per output VC (NET-8.3).
#include "models/network/vc_allocator.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "models/topology/routing_registry.h"
#include "models/topology/topology_registry.h"

namespace lq::net {
namespace {

std::shared_ptr<const topo::RoutingFunction> Routing(
    const std::string& name, const topo::ParamMap& params = {}) {
  auto torus = topo::CreateTopology("torus", {{"dims", "4x4"}}).value();
  return topo::CreateRouting(name, torus, params).value();
}

const auto kOpen = [](unsigned, unsigned) { return true; };

// ChooseOutputVc's answer as one value: the output VC, or none.
template <typename Open>
std::optional<unsigned> Wanted(const VcChoiceContext& at,
                               const RoutedHead& head, Open open,
                               std::vector<topo::PortId>& scratch) {
  unsigned o = 0;
  if (!ChooseOutputVc(at, head, open, scratch, o)) {
    return std::nullopt;
  }
  return o;
}

TEST(VcAllocator, NET_8_3_EachOutputVcGrantsRoundRobin) {
  VcAllocator va(2);
  VcAllocator::Pointers pointers(4, 2);
  std::vector<unsigned> winners;
  for (int cycle = 0; cycle < 4; ++cycle) {
    va.Clear(pointers);
    for (const unsigned input : {0u, 2u, 3u}) {
      va.Request(input, 1);
    }
    va.Allocate([&](unsigned input, unsigned output) {
      EXPECT_EQ(output, 1u);
      winners.push_back(input);
    });
  }
  EXPECT_EQ(winners, (std::vector<unsigned>{0, 2, 3, 0}))
      << "each winner's turn passes to the next asker";
}

// Allocation ends the round: granting again before new requests grants
// nothing, and the next round's requests are judged alone.
TEST(VcAllocator, NET_8_3_AllocationEndsTheRound) {
  VcAllocator va(3);
  VcAllocator::Pointers pointers(4, 3);
  va.Clear(pointers);
  va.Request(3, 2);
  std::vector<std::pair<unsigned, unsigned>> grants;
  const auto grant = [&](unsigned input, unsigned output) {
    grants.emplace_back(input, output);
  };
  va.Allocate(grant);
  va.Allocate(grant);
  EXPECT_EQ(grants, (std::vector<std::pair<unsigned, unsigned>>{{3, 2}}));
  grants.clear();
  va.Request(1, 0);
  va.Allocate(grant);
  EXPECT_EQ(grants, (std::vector<std::pair<unsigned, unsigned>>{{1, 0}}))
      << "output 2 is not granted again";
}

TEST(VcAllocator, NET_8_3_DistinctOutputVcsAreGrantedInOneCycle) {
  VcAllocator va(4);
  VcAllocator::Pointers pointers(4, 4);
  va.Clear(pointers);
  va.Request(0, 3);
  va.Request(1, 2);
  va.Request(2, 3);
  std::map<unsigned, unsigned> granted;  // output -> input
  va.Allocate(
      [&](unsigned input, unsigned output) { granted[output] = input; });
  EXPECT_EQ(granted, (std::map<unsigned, unsigned>{{2, 1}, {3, 0}}));
}

// NET-8.3: a deterministic head asks for its step's VC, and none while
// another packet holds it; router.eject_vc any lets an ejecting head take
// the other VC of its set.
TEST(VcAllocator, NET_8_3_AHeadAsksForItsStepsVcOrAnyFreeOneToEject) {
  const auto dor = Routing("dor");
  RouterParams params;
  params.vc_sets = 1;
  OutputUnit out(5, params, 1);
  std::vector<topo::PortId> scratch;
  const VcChoiceContext at{params, *dor, 0, 4, out};
  const RoutedHead step{0, 5, 0, 2, 1, false};
  EXPECT_EQ(Wanted(at, step, kOpen, scratch), out.index(2, 1));
  out.Take(out.index(2, 1), 0);
  EXPECT_FALSE(Wanted(at, step, kOpen, scratch)) << "held";
  const auto closed = [](unsigned, unsigned) { return false; };
  EXPECT_FALSE(Wanted(at, {0, 5, 0, 2, 0, false}, closed, scratch))
      << "a port that is down or paused takes no new packet";

  const RoutedHead eject{5, 0, 0, 4, 0, false};
  out.Take(out.index(4, 0), 0);
  EXPECT_FALSE(Wanted(at, eject, kOpen, scratch)) << "eject_vc same";
  params.eject_any_vc = true;
  EXPECT_EQ(Wanted(at, eject, kOpen, scratch), out.index(4, 1))
      << "eject_vc any";
}

// NET-4.3: an adaptive head takes the free adaptive-class VC of a
// productive port with the most credits; with none, its escape, but only
// once the escape has a credit.
TEST(VcAllocator, NET_4_3_AdaptiveHeadsTakeTheRoomiestVcElseTheEscape) {
  const auto adaptive = Routing("adaptive");
  RouterParams params;
  params.vc_classes = 3;
  params.vc_sets = 1;
  OutputUnit out(5, params, 1);
  std::vector<topo::PortId> scratch;
  const VcChoiceContext at{params, *adaptive, 0, 4, out};
  // Node 0 = (0,0) to node 5 = (1,1): + in X (port 0) and + in Y (port 2).
  const RoutedHead head{0, 5, 2, 0, 0, true};
  out.Grant(out.index(0, 2), 3, 0);
  out.Grant(out.index(2, 2), 5, 0);
  EXPECT_EQ(Wanted(at, head, kOpen, scratch), out.index(2, 2))
      << "the productive port with more credits";
  out.Take(out.index(2, 2), 0);
  EXPECT_EQ(Wanted(at, head, kOpen, scratch), out.index(0, 2));
  out.Take(out.index(0, 2), 0);
  EXPECT_FALSE(Wanted(at, head, kOpen, scratch))
      << "the escape has no credit yet";
  out.Grant(out.index(0, 0), 1, 0);
  EXPECT_EQ(Wanted(at, head, kOpen, scratch), out.index(0, 0))
      << "the escape step, with a credit";
}

}  // namespace
}  // namespace lq::net
