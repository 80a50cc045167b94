// SPDX-License-Identifier: Apache-2.0
// Tests of the router's input side (models/network/input_unit.h): each
// input VC's packets in order with the head in place (NET-8.1), and the
// stages' work lists (NET-8.3, NET-8.5).
#include "models/network/input_unit.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace lq::net {
namespace {

PacketState Packet(uint32_t id) {
  PacketState packet;
  packet.packet = id;
  packet.arrived = 1;
  return packet;
}

// The VCs whose bit is set in the list `word` picks.
template <typename Word>
std::vector<unsigned> Listed(const InputUnit& unit, Word word) {
  std::vector<unsigned> vcs;
  unit.ForEachSet(word, [&](unsigned i) { vcs.push_back(i); });
  return vcs;
}

TEST(InputUnit, NET_8_1_AVcHoldsItsPacketsInOrderAcrossTheRingsWrap) {
  InputUnit unit(2, 3);  // up to 3 packets behind the head
  uint32_t next = 0, expected = 0;
  for (int round = 0; round < 4; ++round) {  // wraps the ring
    while (unit.vc(1).size < 4) {
      unit.emplace_back(1) = Packet(next++);
      EXPECT_EQ(unit.back(1).packet, next - 1) << "the tail is the newest";
    }
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(unit.front(1).packet, expected++) << "round " << round;
      unit.pop_front(1);
    }
  }
  EXPECT_TRUE(unit.vc(0).empty()) << "VC 0 shares nothing with VC 1";
}

// NET-8.2 counts a buffer in bytes, so a SystemC router's VC may hold more
// small packets than it has slots: the ring widens and keeps every VC's
// order, wrapped or not.
TEST(InputUnit, NET_8_2_AVcHoldingMorePacketsThanSlotsWidensTheRing) {
  InputUnit unit(3, 2);
  for (uint32_t id = 0; id < 3; ++id) {
    unit.emplace_back(0) = Packet(id);
  }
  unit.pop_front(0);  // VC 0's packets now wrap its slice of the ring
  unit.emplace_back(0) = Packet(3);
  unit.emplace_back(2) = Packet(100);
  for (uint32_t id = 4; id < 40; ++id) {
    unit.emplace_back(0) = Packet(id);
  }
  ASSERT_EQ(unit.vc(0).size, 39u);
  for (unsigned k = 0; k < 39; ++k) {
    EXPECT_EQ(unit.at(0, k).packet, k + 1) << "packet " << k;
  }
  EXPECT_EQ(unit.back(0).packet, 39u);
  EXPECT_EQ(unit.front(2).packet, 100u) << "other VCs keep theirs";
  EXPECT_TRUE(unit.vc(1).empty());
  for (uint32_t id = 1; id < 40; ++id) {
    EXPECT_EQ(unit.front(0).packet, id);
    unit.pop_front(0);
  }
  EXPECT_TRUE(unit.vc(0).empty());
}

TEST(InputUnit, NET_8_3_HeadsWaitForAllocationThenForTheSwitch) {
  InputUnit unit(70, 4);  // two words of VCs
  const auto to_allocate = [&](size_t w) { return unit.to_allocate(w); };
  const auto to_send = [&](size_t w) { return unit.to_send(w); };
  unit.emplace_back(3) = Packet(1);
  unit.emplace_back(3) = Packet(2);
  unit.emplace_back(66) = Packet(3);
  EXPECT_EQ(Listed(unit, to_allocate), (std::vector<unsigned>{3, 66}))
      << "a new head waits for route computation and VC allocation";
  EXPECT_TRUE(Listed(unit, to_send).empty());
  unit.Allocated(3);
  EXPECT_EQ(Listed(unit, to_allocate), (std::vector<unsigned>{66}));
  EXPECT_EQ(Listed(unit, to_send), (std::vector<unsigned>{3}))
      << "an allocated head waits for the switch";
  unit.pop_front(3);
  EXPECT_EQ(Listed(unit, to_allocate), (std::vector<unsigned>{3, 66}))
      << "the packet behind it is the head now, and waits for allocation";
  unit.Allocated(3);
  unit.pop_front(3);
  EXPECT_TRUE(unit.vc(3).empty());
  EXPECT_TRUE(Listed(unit, to_send).empty()) << "an empty VC is on no list";
}

// A VC emptied while its head still waited for allocation (a failed node
// drops every packet it holds, NET-7.8) leaves every list, and a VC that
// holds packets is listed as held whatever its head waits for.
TEST(InputUnit, NET_8_3_AVcEmptiedBeforeAllocationIsOnNoList) {
  InputUnit unit(70, 4);
  unit.emplace_back(5) = Packet(1);
  unit.emplace_back(67) = Packet(2);
  unit.Allocated(67);
  std::vector<unsigned> held, to_allocate;
  unit.ForEachHeld([&](unsigned i) { held.push_back(i); });
  unit.ForEachDueToAllocate(0, [&](unsigned i) { to_allocate.push_back(i); });
  EXPECT_EQ(held, (std::vector<unsigned>{5, 67}));
  EXPECT_EQ(to_allocate, (std::vector<unsigned>{5}));
  unit.pop_front(5);  // never allocated
  held.clear();
  to_allocate.clear();
  unit.ForEachHeld([&](unsigned i) { held.push_back(i); });
  unit.ForEachDueToAllocate(0, [&](unsigned i) { to_allocate.push_back(i); });
  EXPECT_EQ(held, (std::vector<unsigned>{67}));
  EXPECT_TRUE(to_allocate.empty()) << "an empty VC waits for nothing";
}

// A packet dropped while behind its VC's head (the buffered packets of a
// port gone down, NET-7.1) needs no route or VC when it comes to the head:
// it waits only for its flits, on the list the switch's requests walk,
// where they are absorbed.
TEST(InputUnit, NET_7_1_ADroppedPacketReachingTheHeadWaitsOnlyForItsFlits) {
  InputUnit unit(70, 4);
  const auto to_allocate = [&](size_t w) { return unit.to_allocate(w); };
  const auto to_send = [&](size_t w) { return unit.to_send(w); };
  unit.emplace_back(66) = Packet(1);
  unit.emplace_back(66) = Packet(2);
  unit.emplace_back(66) = Packet(3);
  unit.Allocated(66);
  unit.at(66, 1).discard = true;
  unit.pop_front(66);
  EXPECT_TRUE(Listed(unit, to_allocate).empty());
  EXPECT_EQ(Listed(unit, to_send), (std::vector<unsigned>{66}));
  unit.pop_front(66);
  EXPECT_EQ(Listed(unit, to_allocate), (std::vector<unsigned>{66}))
      << "the live packet behind it waits for allocation";
  EXPECT_TRUE(Listed(unit, to_send).empty());
}

// Dropped packets at a VC's head leave once their flits have all come,
// oldest first; a dropped packet still waiting for flits, or a live one,
// stops the drain (NET-7.1).
TEST(InputUnit, NET_7_1_DroppedPacketsLeaveTheHeadOnceTheirFlitsHaveCome) {
  InputUnit unit(8, 4);
  constexpr uint16_t kFlits = 2;
  const auto complete = [](const PacketState& head) {
    return head.arrived == kFlits;
  };
  std::vector<uint32_t> gone;
  const auto record = [&gone](const PacketState& head) {
    gone.push_back(head.packet);
  };
  for (const uint32_t id : {1u, 2u, 3u}) {
    unit.emplace_back(5) = Packet(id);
  }
  unit.at(5, 0).discard = unit.at(5, 1).discard = true;
  unit.at(5, 0).arrived = kFlits;  // packet 2 still waits for a flit
  EXPECT_TRUE(unit.DrainDropped(5, complete, record));
  EXPECT_EQ(gone, (std::vector<uint32_t>{1}));
  EXPECT_EQ(unit.front(5).packet, 2u) << "a dropped packet waits for its flits";
  unit.front(5).arrived = kFlits;
  EXPECT_TRUE(unit.DrainDropped(5, complete, record));
  EXPECT_EQ(gone, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(unit.front(5).packet, 3u) << "a live packet is not drained";

  unit.emplace_back(6) = Packet(4);
  unit.front(6).discard = true;
  unit.front(6).arrived = kFlits;
  EXPECT_FALSE(unit.DrainDropped(6, complete, record)) << "nothing left";
  EXPECT_TRUE(unit.vc(6).empty());
  EXPECT_EQ(gone, (std::vector<uint32_t>{1, 2, 4}));
}

// Route computation and VC allocation act on a head once its stage is due
// (NET-8.3): the walk leaves out heads whose `ready` is later, in any
// word, and visits each once the cycle comes.
TEST(InputUnit, NET_8_3_TheDueWalkVisitsHeadsWhoseStageIsDue) {
  InputUnit unit(130, 4);
  for (const unsigned i : {3u, 64u, 100u, 129u}) {
    PacketState packet = Packet(i);
    packet.ready = i % 2 == 0 ? 7 : 8;  // 64 and 100 at 7, 3 and 129 at 8
    unit.emplace_back(i) = packet;
  }
  const auto due_at = [&unit](uint64_t now) {
    std::vector<unsigned> due;
    unit.ForEachDueToAllocate(now, [&](unsigned i) { due.push_back(i); });
    return due;
  };
  EXPECT_TRUE(due_at(6).empty());
  EXPECT_EQ(due_at(7), (std::vector<unsigned>{64, 100}));
  EXPECT_EQ(due_at(8), (std::vector<unsigned>{3, 64, 100, 129}));
  unit.Allocated(64);
  EXPECT_EQ(due_at(9), (std::vector<unsigned>{3, 100, 129}))
      << "an allocated head waits for the switch, not here";
}

// Whether any head waits for route computation or VC allocation decides
// whether a router runs those stages in a cycle (NET-8.3).
TEST(InputUnit, NET_8_3_AnyToAllocateSeesAHeadInAnyWord) {
  InputUnit unit(130, 4);
  EXPECT_FALSE(unit.AnyToAllocate()) << "an empty unit";
  unit.emplace_back(129) = Packet(1);  // the third word
  EXPECT_TRUE(unit.AnyToAllocate());
  unit.Allocated(129);
  EXPECT_FALSE(unit.AnyToAllocate()) << "its head has its output VC";
  unit.emplace_back(129) = Packet(2);
  EXPECT_FALSE(unit.AnyToAllocate()) << "one behind an allocated head waits";
  unit.pop_front(129);
  EXPECT_TRUE(unit.AnyToAllocate()) << "then comes to the head";
}

// Switch allocation takes requests by input port (NET-8.5): each port with
// a listed VC once, in ascending order, with the port's listed VCs, across
// a word's end, while the visit may empty the VCs it looks at.
TEST(InputUnit, NET_8_5_ForEachPortVisitsEachPortWithAListedVcOnce) {
  constexpr unsigned kVcs = 3;  // per port; port 21 spans words 0 and 1
  InputUnit unit(25 * kVcs, 4);
  for (const unsigned i : {1u, 2u, 7u, 63u, 64u, 65u, 72u}) {
    unit.emplace_back(i) = Packet(i);
  }
  using Visits = std::vector<std::pair<unsigned, unsigned>>;  // port, listed
  Visits visits;
  const auto held = [&unit](size_t w) { return unit.held(w); };
  const auto port_of = [](unsigned i) { return i / kVcs; };
  unit.ForEachPort(held, port_of, kVcs, [&](unsigned p, unsigned listed) {
    visits.emplace_back(p, listed);
    for (unsigned v = 0; v < kVcs; ++v) {
      if (!unit.vc(p * kVcs + v).empty()) {
        unit.pop_front(p * kVcs + v);
      }
    }
  });
  EXPECT_EQ(visits, (Visits{{0, 0b110}, {2, 0b010}, {21, 0b111}, {24, 0b001}}));
  visits.clear();
  unit.ForEachPort(held, port_of, kVcs, [&](unsigned p, unsigned listed) {
    visits.emplace_back(p, listed);
  });
  EXPECT_TRUE(visits.empty()) << "every VC was emptied";
}

}  // namespace
}  // namespace lq::net
