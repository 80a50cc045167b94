// SPDX-License-Identifier: Apache-2.0
// Tests of the routing header (docs/spec/net.md section 2): layout, HCRC,
// the receiver's checks in their order, and the forwarding edit.
#include "models/network/route_header.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace lq::net {
namespace {

using Wire = std::array<uint8_t, kRouteHeaderBytes>;

RouteHeader Sample() {
  RouteHeader h;
  h.kind = static_cast<uint8_t>(PacketKind::kData);
  h.tc = 5;
  h.dst = 0x0123;
  h.src = 0x0abc;
  h.epoch = 1;
  h.vc = 2;
  h.ttl = 64;
  h.hops = 3;
  h.len = 1000;
  return h;
}

Wire Encode(const RouteHeader& h) {
  Wire wire{};
  EncodeRouteHeader(h, wire.data());
  return wire;
}

// CRC-16/IB-VCRC computed bit by bit (reflected polynomial 0xD008), as an
// independent check of the table-driven engine the codec uses.
uint16_t BitwiseVcrc(const uint8_t* data, size_t size) {
  uint16_t crc = 0xffff;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1) ? static_cast<uint16_t>((crc >> 1) ^ 0xd008)
                      : static_cast<uint16_t>(crc >> 1);
    }
  }
  return static_cast<uint16_t>(crc ^ 0xffff);
}

TEST(RouteHeaderTest, NET_2_1_FieldsSitWhereTheTableSays) {
  const Wire w = Encode(Sample());
  EXPECT_EQ(w[0], 0x10) << "VER 1 in bits 7:4, KIND DATA in 3:0";
  EXPECT_EQ(w[1], 5 << 5) << "TC in bits 7:5";
  EXPECT_EQ(w[2], 0x01);
  EXPECT_EQ(w[3], 0x23) << "DST big-endian";
  EXPECT_EQ(w[4], 0x0a);
  EXPECT_EQ(w[5], 0xbc) << "SRC big-endian";
  EXPECT_EQ(w[6], 0x12) << "EPOCH in bit 4, VC in 3:0";
  EXPECT_EQ(w[7], 64) << "TTL";
  EXPECT_EQ(w[8], 3) << "HOPS";
  EXPECT_EQ(w[10], 1000 >> 8);
  EXPECT_EQ(w[11], 1000 & 0xff) << "LEN big-endian";
  EXPECT_EQ(DecodeRouteHeader(w.data()), Sample()) << "round trip";
}

TEST(RouteHeaderTest, NET_2_2_ReservedFieldsAreZero) {
  RouteHeader h = Sample();
  h.tc = 7;
  h.epoch = 1;
  const Wire w = Encode(h);
  EXPECT_EQ(w[1] & 0x1f, 0) << "byte 1 bits 4:0";
  EXPECT_EQ(w[6] & 0xe0, 0) << "byte 6 bits 7:5";
  EXPECT_EQ(w[9], 0);
  EXPECT_EQ(w[12], 0);
  EXPECT_EQ(w[13], 0);
}

TEST(RouteHeaderTest, NET_2_8_HcrcIsIbVcrcOverBytes0To13BigEndian) {
  const Wire w = Encode(Sample());
  const uint16_t expected = BitwiseVcrc(w.data(), 14);
  EXPECT_EQ(w[14], expected >> 8);
  EXPECT_EQ(w[15], expected & 0xff);
  const uint8_t check_string[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(BitwiseVcrc(check_string, sizeof check_string), 0x0a3d)
      << "the reference itself matches the catalogue's check value";
}

TEST(RouteHeaderTest, NET_2_10_AcceptsAGoodHeader) {
  const Wire w = Encode(Sample());
  const HeaderCheck check = CheckRouteHeader(w.data(), 2, 0x1000, 9216);
  EXPECT_EQ(check.verdict, HeaderVerdict::kAccept) << check.reason;
  EXPECT_EQ(check.header, Sample());
}

TEST(RouteHeaderTest, NET_2_10_StreamErrorsForVersionCrcLengthAndVc) {
  struct Case {
    const char* name;
    void (*edit)(Wire&);
    unsigned arrival_vc;
    const char* reason;
  } cases[] = {
      {"VER 2", [](Wire& w) { w[0] = 0x20; }, 2, "version"},
      {"a flipped payload bit of the header", [](Wire& w) { w[8] ^= 0x40; }, 2,
       "hcrc"},
      {"LEN 0",
       [](Wire& w) {
         w[10] = w[11] = 0;
         const uint16_t crc = RouteHeaderCrc(w.data());
         w[14] = crc >> 8, w[15] = crc & 0xff;
       },
       2, "length"},
      {"LEN beyond max_payload",
       [](Wire& w) {
         w[10] = 0x24, w[11] = 0x01;  // 9217
         const uint16_t crc = RouteHeaderCrc(w.data());
         w[14] = crc >> 8, w[15] = crc & 0xff;
       },
       2, "length"},
      {"arrived on another VC", [](Wire&) {}, 3, "vc"},
  };
  for (const Case& c : cases) {
    Wire w = Encode(Sample());
    c.edit(w);
    const HeaderCheck check =
        CheckRouteHeader(w.data(), c.arrival_vc, 0x1000, 9216);
    EXPECT_EQ(check.verdict, HeaderVerdict::kStreamError) << c.name;
    EXPECT_STREQ(check.reason, c.reason) << c.name;
  }
}

TEST(RouteHeaderTest, NET_2_10_HeaderDropsForKindAndNodes) {
  RouteHeader reserved_kind = Sample();
  reserved_kind.kind = 2;
  Wire w = Encode(reserved_kind);
  HeaderCheck check = CheckRouteHeader(w.data(), 2, 0x1000, 9216);
  EXPECT_EQ(check.verdict, HeaderVerdict::kDropHeader);
  EXPECT_STREQ(check.reason, "kind");
  EXPECT_EQ(check.header.len, 1000) << "LEN stays usable to skip the payload";

  w = Encode(Sample());
  check = CheckRouteHeader(w.data(), 2, 0x0abc, 9216);
  EXPECT_EQ(check.verdict, HeaderVerdict::kDropHeader)
      << "SRC 0x0abc is not below a node count of 0x0abc";
  EXPECT_STREQ(check.reason, "node");
}

TEST(RouteHeaderTest, NET_2_10_ChecksRunInOrder) {
  Wire w = Encode(Sample());
  w[0] = 0x22;  // VER 2 and a reserved KIND: the stream error wins
  EXPECT_EQ(CheckRouteHeader(w.data(), 2, 0x1000, 9216).verdict,
            HeaderVerdict::kStreamError);
}

TEST(RouteHeaderTest, NET_2_4_ForwardingEditsOnlyVcTtlHopsAndHcrc) {
  Wire w = Encode(Sample());
  ForwardRouteHeader(w.data(), 1);
  RouteHeader expected = Sample();
  expected.vc = 1;
  expected.ttl = 63;
  expected.hops = 4;
  EXPECT_EQ(DecodeRouteHeader(w.data()), expected);
  EXPECT_EQ(CheckRouteHeader(w.data(), 1, 0x1000, 9216).verdict,
            HeaderVerdict::kAccept)
      << "HCRC recomputed";

  RouteHeader many_hops = Sample();
  many_hops.hops = 255;
  w = Encode(many_hops);
  ForwardRouteHeader(w.data(), 0);
  EXPECT_EQ(DecodeRouteHeader(w.data()).hops, 255) << "HOPS saturates";
}

// Inside a fabric the hops edit the fields only, and the edge that sends
// the header out seals it: the header there is the one hop-by-hop
// forwarding would have sent.
TEST(RouteHeaderTest, NET_2_10_FabricHopsSealedAtTheEdgeMatchHopByHop) {
  Wire hop_by_hop = Encode(Sample());
  ForwardRouteHeader(hop_by_hop.data(), 1);
  ForwardRouteHeader(hop_by_hop.data(), 3);
  SetRouteHeaderVc(hop_by_hop.data(), 0);  // ejected on VC 0 (NET-8.3)
  SealRouteHeader(hop_by_hop.data());

  Wire fabric = Encode(Sample());
  ForwardRouteHeaderFields(fabric.data(), 1);
  EXPECT_EQ(CheckRouteHeader(fabric.data(), 1, 0x1000, 9216).verdict,
            HeaderVerdict::kStreamError)
      << "unsealed: HCRC still the entry's";
  ForwardRouteHeaderFields(fabric.data(), 3);
  SetRouteHeaderVc(fabric.data(), 0);
  SealRouteHeader(fabric.data());
  EXPECT_EQ(fabric, hop_by_hop);
}

}  // namespace
}  // namespace lq::net
