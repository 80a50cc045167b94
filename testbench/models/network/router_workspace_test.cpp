// SPDX-License-Identifier: Apache-2.0
// Tests of the allocators' working state that routers stepped in turn
// share (models/network/router_workspace.h): it serves the largest router
// it was fitted to, and one router's round leaves nothing behind for the
// next (NET-8.3, NET-8.5).
#include "models/network/router_workspace.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lq::net {
namespace {

using Grants = std::vector<std::pair<unsigned, unsigned>>;

// One cycle of VC allocation: each (input, output) request, then the
// grants.
Grants AllocateVcs(VcAllocator& va, VcAllocator::Pointers& pointers,
                   const Grants& requests) {
  va.Clear(pointers);
  for (const auto& [input, output] : requests) {
    va.Request(input, output);
  }
  Grants grants;
  va.Allocate([&](unsigned input, unsigned output) {
    grants.emplace_back(input, output);
  });
  return grants;
}

// Two routers whose VC allocation takes turns through one workspace grant
// what each would through an allocator of its own, cycle after cycle.
TEST(RouterWorkspace, NET_8_3_RoutersTakingTurnsGrantAsWithTheirOwn) {
  RouterWorkspace shared(0);
  shared.Fit(3, 2, 0);
  shared.Fit(2, 2, 0);  // a smaller router fits in what is there
  VcAllocator own_a(6), own_b(4);
  VcAllocator::Pointers a_shared(6, 6), a_own(6, 6);
  VcAllocator::Pointers b_shared(4, 4), b_own(4, 4);
  const Grants a_asks{{0, 5}, {3, 5}, {4, 1}, {5, 1}};
  const Grants b_asks{{1, 3}, {2, 3}, {3, 0}};
  for (int cycle = 0; cycle < 5; ++cycle) {
    EXPECT_EQ(AllocateVcs(shared.va(), a_shared, a_asks),
              AllocateVcs(own_a, a_own, a_asks))
        << "cycle " << cycle;
    EXPECT_EQ(AllocateVcs(shared.va(), b_shared, b_asks),
              AllocateVcs(own_b, b_own, b_asks))
        << "cycle " << cycle;
  }
}

// Fitted to a larger router, the switch allocator serves its last port.
TEST(RouterWorkspace, NET_8_5_FitGrowsToTheLargestRouter) {
  RouterWorkspace workspace(0);
  workspace.Fit(3, 1, 0);
  workspace.Fit(9, 1, 0);
  SeparableAllocator::Pointers pointers(9, 1);
  SeparableAllocator& allocator = workspace.switch_allocator();
  allocator.Clear(pointers);
  allocator.RequestFrom(8, 1,
                        [](unsigned) -> std::optional<unsigned> { return 7; });
  allocator.RequestFrom(2, 1,
                        [](unsigned) -> std::optional<unsigned> { return 8; });
  Grants grants;
  allocator.Allocate(
      [&](unsigned port, unsigned vc) { grants.emplace_back(port, vc); });
  EXPECT_EQ(grants, (Grants{{8, 0}, {2, 0}}));
}

// One working state cannot serve two kinds of switch allocator.
TEST(RouterWorkspace, NET_8_5_RoutersWithAnotherSwitchAllocatorAreRefused) {
  RouterWorkspace workspace(2);  // iSLIP, two iterations
  workspace.Fit(5, 2, 2);
  EXPECT_THROW(workspace.Fit(5, 2, 0), std::invalid_argument);
}

}  // namespace
}  // namespace lq::net
