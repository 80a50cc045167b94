// SPDX-License-Identifier: Apache-2.0
// TRN-4.7: an engine acts on a frame when its last byte has arrived from
// its network interface, not when the interface first sees it. The router
// annotates the slots it hands to its local port with the cycles of switch
// traversal still ahead of them; an engine that answered at once would
// shave those cycles off every transport latency (the first PathProbe
// breakdown showed a READ's responder touching memory 2 ns before the
// request had left the router).
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <vector>

#include "systemc/cluster/engine_torus.h"
#include "systemc/common/path_probe.h"
#include "testbench/systemc/common/sc_thread.h"

namespace lq::transport {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;

// The time of the first `point` that `where` recorded, in ps.
uint64_t First(const PathProbe& probe, const std::string& where,
               PathPoint point) {
  for (const PathEvent& event : probe.events()) {
    if (event.where == where && event.point == point) {
      return event.ps;
    }
  }
  return 0;
}

TEST(FrameArrival, TRN_4_7_AnEngineActsOnAFrameOnceItHasArrived) {
  std::vector<EngineNode> nodes = BuildTorus("4", net::DeliveryFaults{});
  PathProbe probe;
  for (EngineNode& node : nodes) {
    node.router->set_probe(&probe);
    node.engine->set_probe(&probe);
  }
  std::vector<EngineCompletion> completions;
  testing::ScThread workload("workload", [&] {
    const auto connected = ConnectQps(nodes, 0, 1);
    ASSERT_TRUE(connected);
    SendWr read;
    read.wr_id = 1;
    read.kind = SendKind::kRead;
    read.length = 64;
    read.rkey = nodes[1].rkey;
    ASSERT_TRUE(nodes[0].engine->PostSend(connected->a, read, 0).ok());
    sc_core::wait(sc_time(20, SC_US));
    completions = nodes[0].engine->PollCompletions();
    sc_core::sc_stop();
  });
  sc_core::sc_start();

  ASSERT_EQ(completions.size(), 1u);
  EXPECT_EQ(completions[0].completion.status, CompletionStatus::kSuccess);
  const std::string responder = nodes[1].engine->name();
  const std::string router = nodes[1].router->name();
  const uint64_t left_router = First(probe, router, PathPoint::kRouterOut);
  const uint64_t taken = First(probe, responder, PathPoint::kFrameReceived);
  const uint64_t answered = First(probe, responder, PathPoint::kFrameSent);
  ASSERT_GT(left_router, 0u);
  // The request (one slot) leaves the responder's router for the local
  // port before the engine takes it, and the engine answers after that.
  EXPECT_GE(taken, left_router) << "the engine took the request early";
  EXPECT_GE(answered, taken);
}

}  // namespace
}  // namespace lq::transport
