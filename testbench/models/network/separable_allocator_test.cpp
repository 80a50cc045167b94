// SPDX-License-Identifier: Apache-2.0
// Tests of the switch allocator shared by both kernels (NET-8.5):
// round-robin and iSLIP matching, and one allocator serving many routers
// in turn, each with its own arbiters' pointers.
#include "models/network/separable_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace lq::net {
namespace {

using Grants = std::vector<std::pair<unsigned, unsigned>>;  // (port, vc)

// One cycle: VC v of port p asks for output wants[p][v], if any.
Grants Cycle(SeparableAllocator& allocator,
             SeparableAllocator::Pointers& pointers,
             const std::vector<std::vector<std::optional<unsigned>>>& wants) {
  allocator.Clear(pointers);
  for (unsigned port = 0; port < wants.size(); ++port) {
    const unsigned every_vc = (1u << wants[port].size()) - 1;
    allocator.RequestFrom(port, every_vc,
                          [&](unsigned vc) { return wants[port][vc]; });
  }
  Grants grants;
  allocator.Allocate(
      [&](unsigned port, unsigned vc) { grants.emplace_back(port, vc); });
  return grants;
}

// A port's VCs that are not listed (empty, or waiting for VC allocation)
// are not asked; the listed ones are, from the port's pointer round.
TEST(SeparableAllocator, NET_8_5_OnlyListedVcsAskFromThePointerRound) {
  SeparableAllocator allocator(2, 0);
  SeparableAllocator::Pointers pointers(2, 4);
  std::vector<unsigned> asked;
  const auto run = [&](unsigned listed) {
    allocator.Clear(pointers);
    allocator.RequestFrom(0, listed, [&](unsigned vc) {
      asked.push_back(vc);
      return vc == 0 ? std::optional<unsigned>(1) : std::nullopt;
    });
    Grants grants;
    allocator.Allocate(
        [&](unsigned port, unsigned vc) { grants.emplace_back(port, vc); });
    return grants;
  };
  EXPECT_EQ(run(0b1101), (Grants{{0, 0}}));
  EXPECT_EQ(asked, (std::vector<unsigned>{0})) << "VC 0 asks, and wins";
  asked.clear();
  EXPECT_EQ(run(0b1101), (Grants{{0, 0}}));
  EXPECT_EQ(asked, (std::vector<unsigned>{2, 3, 0}))
      << "from VC 1, the VC after the winner: 1 is not listed";
}

// Ports 0 and 1 both want output 2, each on both VCs.
const std::vector<std::vector<std::optional<unsigned>>> kContention = {
    {2u, 2u}, {2u, 2u}, {std::nullopt, std::nullopt}};

TEST(SeparableAllocator, NET_8_5_RoundRobinTurnsPassAmongInputsAndVcs) {
  SeparableAllocator allocator(3, 0);
  SeparableAllocator::Pointers pointers(3, 2);
  Grants all;
  for (int cycle = 0; cycle < 4; ++cycle) {
    const Grants grants = Cycle(allocator, pointers, kContention);
    ASSERT_EQ(grants.size(), 1u) << "one output, one grant a cycle";
    all.push_back(grants[0]);
  }
  EXPECT_EQ(all, (Grants{{0, 0}, {1, 0}, {0, 1}, {1, 1}}))
      << "the output's turn passes between inputs, each input's between "
         "its VCs";
}

// Port 0 wants outputs 1 and 2, port 1 only output 2. Both outputs grant
// port 0, which accepts output 1; a second iteration gives output 2 to
// port 1.
TEST(SeparableAllocator, NET_8_5_IslipsSecondIterationMatchesTheLeftOvers) {
  const std::vector<std::vector<std::optional<unsigned>>> wants = {
      {1u, 2u}, {2u, std::nullopt}, {std::nullopt, std::nullopt}};
  SeparableAllocator one(3, 1), two(3, 2);
  SeparableAllocator::Pointers for_one(3, 2), for_two(3, 2);
  EXPECT_EQ(Cycle(one, for_one, wants), (Grants{{0, 0}}));
  Grants grants = Cycle(two, for_two, wants);
  std::sort(grants.begin(), grants.end());
  EXPECT_EQ(grants, (Grants{{0, 0}, {1, 0}}));
}

// A round where no two inputs want one output grants every input at once,
// and moves the output's turn as arbitration would: when both inputs
// then want that output, the other input wins.
TEST(SeparableAllocator, NET_8_5_AnUncontendedRoundMovesTheTurnsToo) {
  for (const unsigned iterations : {0u, 1u}) {
    SeparableAllocator allocator(3, iterations);
    SeparableAllocator::Pointers pointers(3, 2);
    EXPECT_EQ(Cycle(allocator, pointers,
                    {{2u, std::nullopt},
                     {std::nullopt, 0u},
                     {std::nullopt, std::nullopt}}),
              (Grants{{0, 0}, {1, 1}}))
        << "iterations " << iterations;
    EXPECT_EQ(Cycle(allocator, pointers, kContention), (Grants{{1, 0}}))
        << "output 2's turn passed port 0; port 1's VC turn passed VC 1";
  }
}

TEST(SeparableAllocator, NET_8_5_RoutersSharingAnAllocatorKeepTheirOwnTurns) {
  SeparableAllocator shared(3, 1);
  SeparableAllocator::Pointers a(3, 2), b(3, 2);
  SeparableAllocator alone(3, 1);
  SeparableAllocator::Pointers c(3, 2);
  for (int cycle = 0; cycle < 6; ++cycle) {
    const Grants of_a = Cycle(shared, a, kContention);
    if (cycle % 2 == 0) {
      Cycle(shared, b, kContention);  // b's turns move, a's must not
    }
    EXPECT_EQ(of_a, Cycle(alone, c, kContention)) << "cycle " << cycle;
  }
}

}  // namespace
}  // namespace lq::net
