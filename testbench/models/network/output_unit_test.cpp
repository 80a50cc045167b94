// SPDX-License-Identifier: Apache-2.0
// Tests of the router's output side shared by both kernels: credits,
// credit stalls and ownership per output VC (NET-8.2, NET-8.3) and the
// output queue's departures (NET-8.11), in ticks of any size.
#include "models/network/output_unit.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace lq::net {
namespace {

RouterParams Params() {
  RouterParams params;
  params.vc_classes = 2;
  params.vc_sets = 1;
  params.output_buffer_flits = 2;
  return params;  // SA 1 + ST 1 cycles
}

TEST(OutputUnit, NET_8_2_AFlitNeedsACreditAndSpendsIt) {
  OutputUnit out(2, Params(), 1);
  const unsigned o = out.index(1, 1);
  EXPECT_FALSE(out.CanSend(1, 1, 0)) << "no credit granted yet";
  out.Grant(o, 2, 0);
  EXPECT_TRUE(out.CanSend(1, 1, 0));
  out.Spend(o, 0);
  out.Spend(o, 0);
  EXPECT_FALSE(out.CanSend(1, 1, 0)) << "both credits spent";
  out.Grant(o, 1, 0);
  EXPECT_EQ(out.credits(o), 1u);
  out.Reset(o, 0, 0);
  EXPECT_EQ(out.credits(o), 0u) << "a link going down voids its credits";
}

TEST(OutputUnit, NET_8_3_AnOutputVcIsHeldFromAllocationToTheLastFlit) {
  OutputUnit out(2, Params(), 1);
  const unsigned o = out.index(0, 1);
  EXPECT_FALSE(out.owned(o));
  out.Take(o, 0);
  EXPECT_TRUE(out.owned(o));
  EXPECT_FALSE(out.owned(out.index(0, 0))) << "the other VC stays free";
  out.Release(o, 0);
  EXPECT_FALSE(out.owned(o));
}

// A credit stall is the time a packet holds the output VC with no credit
// left, in whole cycles (10 ticks each here): a free VC with no credit is
// not stalled, and a stall still open counts up to the time asked.
TEST(OutputUnit, NET_8_2_AHeldVcWithNoCreditCountsItsStall) {
  constexpr uint64_t kCycle = 10;
  OutputUnit out(2, Params(), kCycle);
  const unsigned o = out.index(1, 0);
  EXPECT_EQ(out.stall_cycles(o, 50 * kCycle), 0u) << "free: no stall";
  out.Take(o, 2 * kCycle);  // held with no credit from cycle 2
  out.Grant(o, 1, 5 * kCycle);
  EXPECT_EQ(out.stall_cycles(o, 6 * kCycle), 3u);
  out.Spend(o, 6 * kCycle);  // the last credit: stalled again
  EXPECT_EQ(out.stall_cycles(o, 10 * kCycle), 7u) << "3 + 4 still open";
  out.Grant(o, 0, 8 * kCycle);
  EXPECT_EQ(out.stall_cycles(o, 10 * kCycle), 7u) << "no credit in it";
  out.Release(o, 11 * kCycle);
  EXPECT_EQ(out.stall_cycles(o, 90 * kCycle), 8u) << "ended when released";
  out.Take(o, 91 * kCycle);
  out.Reset(o, 4, 93 * kCycle);
  EXPECT_EQ(out.stall_cycles(o, 99 * kCycle), 10u)
      << "a reset ends the stall and keeps the count";
  const unsigned vcs = out.vcs();
  std::vector<uint64_t> reported(2 * vcs, 0);
  reported[o] = 10;
  EXPECT_EQ(out.StallCycles(2, 99 * kCycle), reported) << "every output VC's";
  reported.resize(vcs);
  EXPECT_EQ(out.StallCycles(1, 99 * kCycle), reported) << "port 0's only";
}

// With a period of 1000 ticks (a 1 GHz router in picoseconds): a flit
// leaves SA + ST after its grant; flits granted in one cycle (a speedup)
// leave a cycle apart; with router.output_buffer_flits (2) booked beyond
// the first, the port is full until one has left.
TEST(OutputUnit, NET_8_11_FlitsGrantedTogetherLeaveInTurn) {
  constexpr uint64_t kCycle = 1000;
  OutputUnit out(2, Params(), kCycle);
  const unsigned o = out.index(1, 0);
  out.Grant(o, 10, 0);
  EXPECT_EQ(out.Departure(1, 0), 2 * kCycle) << "SA + ST";
  EXPECT_EQ(out.BookDeparture(1, 0), 2 * kCycle);
  EXPECT_EQ(out.BookDeparture(1, 0), 3 * kCycle);
  EXPECT_EQ(out.BookDeparture(0, 0), 2 * kCycle) << "ports queue apart";
  EXPECT_EQ(out.Departure(1, 0), 4 * kCycle);
  EXPECT_TRUE(out.CanSend(1, 0, 0)) << "one waits behind the first: room";
  EXPECT_EQ(out.BookDeparture(1, 0), 4 * kCycle);
  EXPECT_FALSE(out.CanSend(1, 0, 0)) << "two wait: full";
  EXPECT_TRUE(out.CanSend(1, 0, kCycle)) << "a cycle later one has left";
  EXPECT_EQ(out.BookDeparture(1, 10 * kCycle), 12 * kCycle)
      << "an empty queue costs nothing";
  EXPECT_EQ(out.flits_out(0), 1u);
  EXPECT_EQ(out.flits_out(1), 4u) << "every booked departure counts";
  EXPECT_THROW(out.flits_out(2), std::out_of_range);
  EXPECT_EQ(out.FlitsOut(2), (std::vector<uint64_t>{1, 4}));
  EXPECT_EQ(out.FlitsOut(1), (std::vector<uint64_t>{1})) << "port 0's only";
}

}  // namespace
}  // namespace lq::net
