// SPDX-License-Identifier: Apache-2.0
// Tests of a VC's packet stream over payload slots (docs/spec/net.md
// NET-2.7, NET-2.9, NET-2.10): straddling, padding, header drops, stream
// errors, and random round trips from packer to parser.
#include "models/network/vc_stream.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace lq::net {
namespace {

constexpr size_t kPcie6SlotBytes = 236;  // the informative example's slot

Bytes MakePacket(uint16_t len, unsigned vc, uint8_t fill, uint16_t dst = 1,
                 uint8_t kind = 0) {
  RouteHeader h;
  h.kind = kind;
  h.dst = dst;
  h.src = 2;
  h.vc = static_cast<uint8_t>(vc);
  h.ttl = 64;
  h.len = len;
  Bytes packet(kRouteHeaderBytes + len, fill);
  EncodeRouteHeader(h, packet.data());
  return packet;
}

SlotParser::Config Config(unsigned vc) {
  SlotParser::Config config;
  config.vc = vc;
  config.nodes = 16;
  return config;
}

TEST(VcStreamTest, NET_2_7_PacketsStraddleSlotsAsTheInformativeExampleShows) {
  // 200 bytes of earlier packets, then a 100-byte payload on VC 1.
  SlotPacker packer(kPcie6SlotBytes);
  packer.Push(MakePacket(184, 1, 0xaa));  // 16 + 184 = 200 bytes
  packer.Push(MakePacket(100, 1, 0xbb));
  packer.Push(MakePacket(30, 1, 0xcc));
  const Bytes first = packer.PopSlot();
  EXPECT_EQ(first[200] >> 4, 1) << "header starts at byte 200";
  EXPECT_EQ(first[216], 0xbb) << "payload bytes 216-235";
  ASSERT_TRUE(packer.HasSlot(true));
  const Bytes second = packer.PopSlot();
  EXPECT_EQ(second[79], 0xbb) << "the remaining 80 payload bytes";
  EXPECT_EQ(second[80] >> 4, 1) << "the next header starts at byte 80";

  SlotParser parser(Config(1));
  auto events = parser.Accept(first);
  ASSERT_EQ(events.size(), 1u) << "only the first packet is whole";
  events = parser.Accept(second);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].packet, MakePacket(100, 1, 0xbb));
  EXPECT_EQ(events[1].packet, MakePacket(30, 1, 0xcc));
}

TEST(VcStreamTest, NET_2_9_ZeroWhereAHeaderStartsIsPaddingToTheSlotEnd) {
  SlotPacker packer(64);
  packer.Push(MakePacket(10, 0, 0x11));
  EXPECT_FALSE(packer.HasSlot(false)) << "26 bytes do not fill a slot";
  ASSERT_TRUE(packer.HasSlot(true));
  const Bytes padded = packer.PopSlot();
  EXPECT_EQ(padded[26], 0) << "filled with zeros";
  SlotParser parser(Config(0));
  auto events = parser.Accept(padded);
  ASSERT_EQ(events.size(), 1u);
  packer.Push(MakePacket(5, 0, 0x22));
  events = parser.Accept(packer.PopSlot());
  ASSERT_EQ(events.size(), 1u) << "the next header at byte 0 of the next slot";
  EXPECT_EQ(events[0].packet, MakePacket(5, 0, 0x22));
}

TEST(VcStreamTest, NET_2_10_HeaderDropSkipsThePayloadAcrossSlots) {
  SlotPacker packer(32);
  packer.Push(MakePacket(50, 0, 0x33, /*dst=*/99));  // DST beyond 16 nodes
  packer.Push(MakePacket(8, 0, 0x44));
  SlotParser parser(Config(0));
  std::vector<SlotParser::Event> all;
  while (packer.HasSlot(true)) {
    for (auto& e : parser.Accept(packer.PopSlot())) {
      all.push_back(std::move(e));
    }
  }
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].kind, SlotParser::Event::Kind::kHeaderDrop);
  EXPECT_STREQ(all[0].reason, "node");
  EXPECT_EQ(all[1].kind, SlotParser::Event::Kind::kPacket)
      << "the stream stays in step after a dropped packet";
}

TEST(VcStreamTest, NET_2_10_StreamErrorStopsParsingUntilReset) {
  Bytes bad = MakePacket(20, 0, 0x55);
  bad[3] ^= 1;  // HCRC no longer matches
  SlotPacker packer(64);
  packer.Push(bad);
  packer.Push(MakePacket(4, 0, 0x66));
  SlotParser parser(Config(0));
  auto events = parser.Accept(packer.PopSlot());
  ASSERT_EQ(events.size(), 1u) << "nothing after the broken header is parsed";
  EXPECT_EQ(events[0].kind, SlotParser::Event::Kind::kStreamError);
  EXPECT_STREQ(events[0].reason, "hcrc");
  EXPECT_TRUE(parser.broken());
  packer.Push(MakePacket(4, 0, 0x77));
  EXPECT_TRUE(parser.Accept(packer.PopSlot()).empty())
      << "a broken stream ignores slots";
  parser.Reset();
  SlotPacker fresh(64);
  fresh.Push(MakePacket(4, 0, 0x77));
  events = parser.Accept(fresh.PopSlot());
  ASSERT_EQ(events.size(), 1u) << "after the link comes back";
  EXPECT_EQ(events[0].kind, SlotParser::Event::Kind::kPacket);
}

TEST(VcStreamTest, NET_2_10_PacketOnTheWrongVcIsAStreamError) {
  SlotPacker packer(64);
  packer.Push(MakePacket(4, 2, 0x88));
  SlotParser parser(Config(1));
  const auto events = parser.Accept(packer.PopSlot());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_STREQ(events[0].reason, "vc");
}

TEST(VcStreamTest, NET_2_7_RandomPacketsRoundTripWithAnySlotSize) {
  std::mt19937 random(7);
  for (size_t slot_bytes : {16u, 17u, 64u, 236u, 1024u}) {
    SlotPacker packer(slot_bytes);
    SlotParser parser(Config(3));
    std::vector<Bytes> sent, received;
    for (int i = 0; i < 300; ++i) {
      const auto len = static_cast<uint16_t>(1 + random() % 600);
      sent.push_back(MakePacket(len, 3, static_cast<uint8_t>(random())));
      packer.Push(sent.back());
      // Sometimes flush (pad) at this packet boundary, sometimes not.
      const bool flush = random() % 4 == 0;
      while (packer.HasSlot(flush)) {
        for (auto& e : parser.Accept(packer.PopSlot())) {
          ASSERT_EQ(e.kind, SlotParser::Event::Kind::kPacket) << e.reason;
          received.push_back(std::move(e.packet));
        }
      }
    }
    while (packer.HasSlot(true)) {
      for (auto& e : parser.Accept(packer.PopSlot())) {
        received.push_back(std::move(e.packet));
      }
    }
    EXPECT_EQ(received, sent) << "slot size " << slot_bytes;
    EXPECT_EQ(parser.partial_bytes(), 0u);
  }
}

TEST(VcStreamTest, NET_2_7_HeaderAndPayloadPushedApartMakeTheSameSlots) {
  std::mt19937 random(11);
  for (size_t slot_bytes : {16u, 17u, 236u}) {
    SlotPacker joined(slot_bytes), apart(slot_bytes);
    Bytes reused;  // one buffer for every slot of `apart`
    for (int i = 0; i < 200; ++i) {
      const auto len = static_cast<uint16_t>(random() % 400);
      const Bytes packet = MakePacket(len, 0, static_cast<uint8_t>(random()));
      joined.Push(packet);
      apart.Push(ByteView(packet.data(), kRouteHeaderBytes),
                 ByteView(packet.data() + kRouteHeaderBytes, len));
      ASSERT_EQ(apart.pending(), joined.pending());
      const bool flush = random() % 3 == 0;
      while (joined.HasSlot(flush)) {
        ASSERT_TRUE(apart.HasSlot(flush));
        apart.PopSlot(reused);
        ASSERT_EQ(reused, joined.PopSlot()) << "slot size " << slot_bytes;
      }
      ASSERT_FALSE(apart.HasSlot(flush));
    }
  }
}

TEST(VcStreamTest, NET_2_7_PartialBytesCountWhatArrivedOfAPacket) {
  for (const bool streaming : {false, true}) {
    SlotPacker packer(10);
    packer.Push(MakePacket(20, 1, 0x77));  // 36 bytes: four slots
    SlotParser::Config config = Config(1);
    config.streaming = streaming;
    SlotParser parser(config);
    for (const size_t expected : {10u, 20u, 30u}) {
      parser.Accept(packer.PopSlot());
      EXPECT_EQ(parser.partial_bytes(), expected) << "streaming " << streaming;
    }
    parser.Accept(packer.PopSlot());
    EXPECT_EQ(parser.partial_bytes(), 0u) << "the packet is whole";
  }
}

TEST(VcStreamTest, NET_2_7_StreamingReportsHeaderThenPayloadChunks) {
  SlotPacker packer(32);
  const Bytes packet = MakePacket(70, 1, 0x5a);  // 86 bytes: three slots
  packer.Push(packet);
  SlotParser::Config config = Config(1);
  config.streaming = true;
  SlotParser parser(config);
  Bytes rebuilt;
  int headers = 0;
  bool ended = false;
  int slots = 0;
  while (packer.HasSlot(true)) {
    ++slots;
    const Bytes slot = packer.PopSlot();  // the chunks point into it
    for (const auto& e : parser.Accept(slot)) {
      if (e.kind == SlotParser::Event::Kind::kHeader) {
        ++headers;
        EXPECT_EQ(slots, 1) << "the header is reported with its first slot";
      } else {
        ASSERT_EQ(e.kind, SlotParser::Event::Kind::kPayload);
        EXPECT_FALSE(ended);
        ended = e.last;
        rebuilt.insert(rebuilt.end(), e.chunk.begin(), e.chunk.end());
        continue;
      }
      rebuilt.insert(rebuilt.end(), e.header_bytes.begin(),
                     e.header_bytes.end());
    }
  }
  EXPECT_EQ(headers, 1);
  EXPECT_TRUE(ended) << "the last chunk says so";
  EXPECT_EQ(rebuilt, packet) << "header and chunks are the packet";
}

}  // namespace
}  // namespace lq::net
