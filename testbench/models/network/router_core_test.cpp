// SPDX-License-Identifier: Apache-2.0
// Tests of the router core both network kernels drive
// (models/network/router_core.h): route computation's choice of output VC
// (NET-3.4, NET-4.3), VC allocation and the reuse of a VC after a tail
// (NET-8.3), the switch's requests (NET-8.5) and a flit's crossing
// (NET-8.2, NET-8.11), in ticks of any size.
#include "models/network/router_core.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace lq::net {
namespace {

constexpr uint64_t kPeriod = 10;  // ticks a cycle, as a SystemC router has
constexpr unsigned kLocal = 2;    // ports 0 and 1 face links

RouterParams Params(VcReuse reuse = VcReuse::kSameCycle) {
  RouterParams params;
  params.vc_classes = 2;
  params.vc_sets = 2;  // VCs 0-1 set 0, 2-3 set 1
  params.vc_reuse = reuse;
  return params;  // RC/VA/SA/ST 1 cycle each
}

PacketState Packet(uint32_t id, uint16_t flits) {
  PacketState packet;
  packet.packet = id;
  packet.arrived = flits;
  return packet;
}

TEST(RouterCore, NET_3_4_AHopTakesTheRoutesClassWithinThePacketsSet) {
  const RouterCore core(3, kLocal, Params(), kPeriod, 4);
  PacketState head;
  core.TakeRoute(head, 3, topo::RouteStep{1, 0}, false);  // set 1
  EXPECT_TRUE(head.routed);
  EXPECT_EQ(head.out_port, 1u);
  EXPECT_EQ(head.out_vc, 2u) << "class 0 of set 1";
  core.TakeRoute(head, 3, topo::RouteStep{kLocal, 0}, false);
  EXPECT_EQ(head.out_vc, 3u) << "ejecting keeps the VC it came on";
  EXPECT_EQ(core.InputClass(kLocal, 3), 0u)
      << "injected packets are all in class 0 (NET-8.8)";
  EXPECT_EQ(core.InputClass(0, 3), 1u);
}

TEST(RouterCore, NET_4_3_AnAdaptivePacketTakesThePortVcAllocationChose) {
  RouterCore core(3, kLocal, Params(), kPeriod, 4);
  const unsigned i = kLocal * 4;  // the local port's VC 0
  core.inputs.emplace_back(i) = Packet(7, 1);
  core.TakeRoute(core.inputs.front(i), 0, topo::RouteStep{0, 0}, true);
  EXPECT_TRUE(core.inputs.front(i).adaptive) << "port 0 is only its escape";
  core.TakeOutputVc(i, 1, 1, 4 * kPeriod, 5 * kPeriod);
  const PacketState& head = core.inputs.front(i);
  EXPECT_FALSE(head.adaptive);
  EXPECT_EQ(head.out_port, 1u);
  EXPECT_EQ(head.out_vc, 1u);
  EXPECT_TRUE(head.allocated);
  EXPECT_EQ(head.ready, 5 * kPeriod);
  EXPECT_TRUE(core.outputs.owned(core.outputs.index(1, 1)));
}

// A head that takes its output VC joins the switch's list when the
// cycle's allocations end: its switch stage cannot be due before the next
// cycle, so that cycle's requests need not look at it.
TEST(RouterCore, NET_8_3_AHeadAllocatedThisCycleJoinsTheSwitchsListAfterIt) {
  RouterCore core(3, kLocal, Params(), kPeriod, 4);
  const uint64_t bit = uint64_t{1} << 1;
  core.inputs.emplace_back(1) = Packet(7, 1);
  EXPECT_EQ(core.inputs.to_allocate(0), bit);
  core.TakeOutputVc(1, 0, 0, kPeriod, 2 * kPeriod);
  EXPECT_EQ(core.inputs.to_send(0), 0u) << "not in the cycle it is allocated";
  core.EndAllocations();
  EXPECT_EQ(core.inputs.to_allocate(0), 0u) << "no longer waits for VA";
  EXPECT_EQ(core.inputs.to_send(0), bit);
}

TEST(RouterCore, NET_8_5_AHeadAsksForTheSwitchWithAFlitACreditAndItsStageDue) {
  RouterCore core(3, kLocal, Params(), kPeriod, 4);
  const unsigned i = 0;
  const unsigned o = core.outputs.index(1, 0);
  core.inputs.emplace_back(i) = Packet(1, 0);
  core.TakeOutputVc(i, 1, 0, kPeriod, 2 * kPeriod);
  const PacketState& head = core.inputs.front(i);
  core.outputs.Grant(o, 1, 2 * kPeriod);
  EXPECT_FALSE(core.WantsSwitch(head, 2 * kPeriod)) << "no flit arrived";
  core.inputs.front(i).arrived = 1;
  EXPECT_FALSE(core.WantsSwitch(head, 2 * kPeriod - 1)) << "VA not done";
  EXPECT_TRUE(core.WantsSwitch(head, 2 * kPeriod));
  core.outputs.Spend(o, 2 * kPeriod);
  EXPECT_FALSE(core.WantsSwitch(head, 2 * kPeriod)) << "no credit";
  core.outputs.Grant(o, 1, 2 * kPeriod);
  core.inputs.front(i).discard = true;
  EXPECT_FALSE(core.WantsSwitch(head, 2 * kPeriod)) << "dropped";
}

// The requests both kernels make: one from each head that wants the
// switch, naming its output port; a dropped head goes to the kernel's
// drain and asks for nothing.
TEST(RouterCore, NET_8_5_HeadsThatWantTheSwitchAskAndDroppedHeadsDrain) {
  RouterCore core(3, kLocal, Params(), kPeriod, 4);
  const unsigned vcs = 4;
  core.outputs.Grant(core.outputs.index(1, 0), 1, 0);
  core.inputs.emplace_back(0) = Packet(1, 1);  // port 0 VC 0: may go
  core.TakeOutputVc(0, 1, 0, 0, kPeriod);
  core.outputs.Reset(core.outputs.index(kLocal, 1), 0, 0);
  core.inputs.emplace_back(5) = Packet(2, 1);  // port 1 VC 1: no credit
  core.TakeOutputVc(5, kLocal, 1, 0, kPeriod);
  const unsigned dropped = 2 * vcs + 2;  // the local port's VC 2
  core.inputs.emplace_back(dropped) = Packet(3, 1);
  core.inputs.front(dropped).discard = true;
  core.inputs.Allocated(dropped);
  core.EndAllocations();

  SeparableAllocator allocator(3, 0);
  std::vector<unsigned> drained;
  core.RequestSwitch(
      allocator, kPeriod, [vcs](unsigned i) { return i / vcs; },
      [&drained](unsigned i) {
        drained.push_back(i);
        return false;
      });
  std::vector<std::pair<unsigned, unsigned>> grants;
  allocator.Allocate(
      [&grants](unsigned port, unsigned vc) { grants.emplace_back(port, vc); });
  EXPECT_EQ(drained, std::vector<unsigned>{dropped});
  EXPECT_EQ(grants, (std::vector<std::pair<unsigned, unsigned>>{{0, 0}}))
      << "port 1's head has no credit; the dropped head asks for nothing";

  core.RequestSwitch(
      allocator, kPeriod - 1, [vcs](unsigned i) { return i / vcs; },
      [](unsigned) { return false; });
  grants.clear();
  allocator.Allocate(
      [&grants](unsigned port, unsigned vc) { grants.emplace_back(port, vc); });
  EXPECT_TRUE(grants.empty()) << "before its stage is due, no head asks";
}

TEST(RouterCore, NET_8_11_AFlitCrossingSpendsACreditAndTakesItsTurnOut) {
  RouterCore core(3, kLocal, Params(), kPeriod, 4);
  const unsigned o = core.outputs.index(1, 0);
  core.outputs.Grant(o, 5, 0);
  core.inputs.emplace_back(0) = Packet(1, 3);
  core.TakeOutputVc(0, 1, 0, 0, 0);
  EXPECT_EQ(core.CrossSwitch(0, 0), 2 * kPeriod) << "after SA and ST";
  EXPECT_EQ(core.inputs.front(0).sent, 1u);
  EXPECT_EQ(core.inputs.front(0).ready, kPeriod) << "the next flit follows";
  EXPECT_EQ(core.outputs.credits(o), 4u);
  EXPECT_EQ(core.CrossSwitch(0, 0), 3 * kPeriod)
      << "a second flit granted in the same cycle waits its turn";
}

// NET-8.3: with same_cycle the packet behind a tail keeps its own time;
// with after_tail it starts over from the cycle after the tail.
TEST(RouterCore, NET_8_3_TheNextPacketReachesTheHeadAsVcReuseSays) {
  for (const VcReuse reuse : {VcReuse::kSameCycle, VcReuse::kAfterTail}) {
    RouterCore core(3, kLocal, Params(reuse), kPeriod, 4);
    const unsigned o = core.outputs.index(1, 0);
    core.inputs.emplace_back(0) = Packet(1, 1);
    core.inputs.emplace_back(0) = Packet(2, 1);
    core.TakeOutputVc(0, 1, 0, 0, 0);
    core.FinishHead(0, 4 * kPeriod);
    EXPECT_FALSE(core.outputs.owned(o)) << "the tail frees its output VC";
    ASSERT_EQ(core.inputs.vc(0).size, 1u);
    EXPECT_EQ(core.inputs.front(0).packet, 2u);
    const uint64_t ready =
        reuse == VcReuse::kAfterTail ? 4 * kPeriod + 2 * kPeriod : 0;
    EXPECT_EQ(core.inputs.front(0).ready, ready)
        << (reuse == VcReuse::kAfterTail ? "after_tail" : "same_cycle");
  }
}

}  // namespace
}  // namespace lq::net
