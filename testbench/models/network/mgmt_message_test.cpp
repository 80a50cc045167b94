// SPDX-License-Identifier: Apache-2.0
// Tests of the management messages (NET-7.5): the layout byte by byte,
// every type's body through a round trip, the decoder's refusals, and what
// a router reads to forward one (NET-7.4).
#include "models/network/mgmt_message.h"

#include <gtest/gtest.h>

namespace lq::net {
namespace {

MgmtMessage TableWrite() {
  MgmtMessage m;
  m.type = MgmtType::kTableWrite;
  m.seq = 0x5A;
  m.node = 0x0102;
  m.route = {3, 0, 4};
  m.route_ptr = 1;
  m.body = TableWriteBody{0x00010203, {0x8001, 0x8102}};
  return m;
}

TEST(MgmtMessage, NET_7_5_LayoutIsTheTables) {
  const Bytes wire = EncodeMgmt(TableWrite());
  ASSERT_EQ(wire.size(), 64u + 6 + 4);
  EXPECT_EQ(wire[0], 3) << "TYPE";
  EXPECT_EQ(wire[1], 3) << "SR_COUNT";
  EXPECT_EQ(wire[2], 1) << "SR_PTR";
  EXPECT_EQ(wire[3], 0x5A) << "SEQ";
  EXPECT_EQ(wire[4], 0x01) << "NODE, big-endian";
  EXPECT_EQ(wire[5], 0x02);
  EXPECT_EQ(wire[6], 3) << "SR[0]";
  EXPECT_EQ(wire[7], 0);
  EXPECT_EQ(wire[8], 4);
  for (size_t i = 9; i < 64; ++i) {
    EXPECT_EQ(wire[i], 0) << "unused SR byte " << i;
  }
  const Bytes body(wire.begin() + 64, wire.end());
  EXPECT_EQ(body, (Bytes{0, 1, 2, 3, 0, 2, 0x80, 0x01, 0x81, 0x02}));
}

TEST(MgmtMessage, NET_7_5_EveryTypeRoundTrips) {
  std::vector<MgmtMessage> all;
  for (uint8_t t = 1; t <= 9; ++t) {
    MgmtMessage m;
    m.type = static_cast<MgmtType>(t);
    m.seq = t;
    m.node = 300;
    all.push_back(m);
  }
  all[0].body = LinkEventBody{5, true};
  all[1].body = RegWriteBody{13, 0xDEADBEEF};
  all[1].route = {1, 2};
  all[2] = TableWrite();
  all[5].body = CountRepBody{1ull << 40, 7, 0xFFFFFFFFFFFFFFFFull};
  for (const MgmtMessage& m : all) {
    const Result<MgmtMessage> back = DecodeMgmt(EncodeMgmt(m));
    ASSERT_TRUE(back.ok()) << MgmtTypeName(m.type) << ": "
                           << back.error().reason;
    EXPECT_EQ(*back, m) << MgmtTypeName(m.type);
  }
}

TEST(MgmtMessage, NET_7_5_DecoderRefusesWhatBreaksTheLayout) {
  const Bytes good = EncodeMgmt(TableWrite());
  const auto refuses = [](Bytes wire, const char* why) {
    EXPECT_FALSE(DecodeMgmt(wire).ok()) << why;
  };
  refuses(Bytes(good.begin(), good.begin() + 63), "short header");
  Bytes bad = good;
  bad[0] = 0;
  refuses(bad, "TYPE 0");
  bad = good;
  bad[0] = 10;
  refuses(bad, "TYPE 10");
  bad = good;
  bad[1] = 59;
  refuses(bad, "SR_COUNT 59");
  bad = good;
  bad[2] = 4;
  refuses(bad, "SR_PTR past SR_COUNT");
  bad = good;
  bad[40] = 1;
  refuses(bad, "unused SR byte set");
  bad = good;
  bad.pop_back();
  refuses(bad, "TABLE_WRITE shorter than its count says");
  bad = good;
  bad.push_back(0);
  refuses(bad, "TABLE_WRITE longer than its count says");
  MgmtMessage link;
  link.type = MgmtType::kLinkEvent;
  link.body = LinkEventBody{1, true};
  bad = EncodeMgmt(link);
  bad[65] = 2;
  refuses(bad, "LINK_EVENT state 2");
  MgmtMessage freeze;
  freeze.type = MgmtType::kFreeze;
  bad = EncodeMgmt(freeze);
  bad.push_back(0);
  refuses(bad, "FREEZE with a body");
}

TEST(MgmtMessage, NET_7_4_RouterReadsTheNextHop) {
  Bytes wire = EncodeMgmt(TableWrite());  // SR 3,0,4 at SR_PTR 1
  MgmtHop hop = MgmtHopOf(wire.data(), wire.size());
  EXPECT_EQ(hop.kind, MgmtHop::Kind::kRouted);
  EXPECT_EQ(hop.port, 0u);
  wire[kMgmtRoutePtrOffset] = 2;
  EXPECT_EQ(MgmtHopOf(wire.data(), wire.size()).port, 4u);
  wire[kMgmtRoutePtrOffset] = 3;
  EXPECT_EQ(MgmtHopOf(wire.data(), wire.size()).kind, MgmtHop::Kind::kArrived);
  wire[kMgmtRoutePtrOffset] = 4;
  EXPECT_EQ(MgmtHopOf(wire.data(), wire.size()).kind,
            MgmtHop::Kind::kMalformed);
  MgmtMessage up;
  up.type = MgmtType::kAck;
  const Bytes ack = EncodeMgmt(up);
  EXPECT_EQ(MgmtHopOf(ack.data(), ack.size()).kind, MgmtHop::Kind::kToManager);
  EXPECT_EQ(MgmtHopOf(ack.data(), 63).kind, MgmtHop::Kind::kMalformed);
}

TEST(MgmtMessage, NET_7_4_RouterPicksTheOutPortOfAHop) {
  const MgmtPorts node{6, true, 3};
  using Kind = MgmtHop::Kind;
  EXPECT_EQ(MgmtOutPort({Kind::kToManager, 0}, node), 3u) << "parent port";
  EXPECT_EQ(MgmtOutPort({Kind::kToManager, 0}, {6, true, kNoParentPort}), 6u)
      << "at the manager's node: the local port";
  EXPECT_EQ(MgmtOutPort({Kind::kRouted, 5}, node), 5u);
  EXPECT_EQ(MgmtOutPort({Kind::kArrived, 0}, node), 6u);
  EXPECT_FALSE(MgmtOutPort({Kind::kMalformed, 0}, node));
  EXPECT_FALSE(MgmtOutPort({Kind::kRouted, 7}, node)) << "no port 7";
  EXPECT_FALSE(MgmtOutPort({Kind::kArrived, 0}, {6, false, 3}))
      << "a switch has no local port to eject at";
}

}  // namespace
}  // namespace lq::net
