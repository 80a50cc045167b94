// SPDX-License-Identifier: Apache-2.0
// Tests of the Ethernet/IPv4/UDP encapsulation and lqemu's address rules.
#include "models/roce/encap.h"

#include <gtest/gtest.h>

#include "models/roce/addressing.h"

namespace lq::roce {
namespace {

// The IPv4 header of protocol-facts §7's ICRC example.
const Bytes kVectorIpv4 = {0x45, 0x02, 0x00, 0x3c, 0x12, 0x34, 0x40,
                           0x00, 0x40, 0x11, 0xa5, 0x27, 0xc0, 0xa8,
                           0x01, 0x01, 0xc0, 0xa8, 0x01, 0x02};

TEST(Encap, TRN_1_4_ParsesAndReencodesIpv4) {
  Result<Ipv4Header> ip = Ipv4Header::Parse(kVectorIpv4);
  ASSERT_TRUE(ip.ok()) << ip.error().reason;
  EXPECT_EQ(ip->ecn, Ecn::kEct0) << "TOS 0x02 is DSCP 0 with ECT(0)";
  EXPECT_EQ(ip->total_length, 60) << "total length field";
  EXPECT_EQ(ip->identification, 0x1234) << "identification field";
  EXPECT_TRUE(ip->dont_fragment) << "DF flag";
  EXPECT_EQ(ip->src, 0xC0A80101u) << "source address";
  Bytes encoded(Ipv4Header::kSize);
  ip->Encode(encoded.data());
  EXPECT_EQ(encoded, kVectorIpv4) << "re-encoding must reproduce the checksum";
}

TEST(Encap, TRN_1_4_ChecksumMatchesRfc791) {
  EXPECT_EQ(Ipv4Checksum(kVectorIpv4), 0xa527)
      << "checksum of a header whose checksum is known";
}

TEST(Encap, TRN_1_4_RejectsBadChecksum) {
  Bytes bad = kVectorIpv4;
  bad[11] ^= 1;
  EXPECT_FALSE(Ipv4Header::Parse(bad).ok()) << "a corrupt header must not pass";
}

TEST(Encap, TRN_1_4_RejectsOptionsFragmentsAndVersion) {
  auto with = [](size_t offset, uint8_t value) {
    Bytes header = kVectorIpv4;
    header[offset] = value;
    const uint16_t checksum = Ipv4Checksum(header);
    header[10] = static_cast<uint8_t>(checksum >> 8);
    header[11] = static_cast<uint8_t>(checksum);
    return header;
  };
  EXPECT_FALSE(Ipv4Header::Parse(with(0, 0x46)).ok()) << "IHL 6 (options)";
  EXPECT_FALSE(Ipv4Header::Parse(with(0, 0x65)).ok()) << "version 6";
  EXPECT_FALSE(Ipv4Header::Parse(with(6, 0x20)).ok()) << "More Fragments";
  EXPECT_FALSE(Ipv4Header::Parse(with(7, 0x01)).ok()) << "fragment offset";
  EXPECT_FALSE(Ipv4Header::Parse(with(6, 0x80)).ok()) << "reserved flag";
  EXPECT_TRUE(Ipv4Header::Parse(with(6, 0x00)).ok())
      << "DF clear is accepted on receipt";
}

TEST(Encap, TRN_1_4_RejectsTruncatedHeaders) {
  EXPECT_FALSE(Ipv4Header::Parse(ByteView(kVectorIpv4.data(), 19)).ok())
      << "19-byte IPv4 header";
  EXPECT_FALSE(EthernetHeader::Parse(ByteView(kVectorIpv4.data(), 13)).ok())
      << "13-byte Ethernet header";
  EXPECT_FALSE(UdpHeader::Parse(ByteView(kVectorIpv4.data(), 7)).ok())
      << "7-byte UDP header";
}

TEST(Encap, TRN_1_6_UdpChecksumIsSentAsZero) {
  UdpHeader udp{0xC000, kRoceUdpPort, 40};
  Bytes encoded(UdpHeader::kSize, 0xEE);
  udp.Encode(encoded.data());
  EXPECT_EQ(encoded, (Bytes{0xc0, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00}))
      << "UDP header of the §7 example, checksum zero";
  EXPECT_EQ(*UdpHeader::Parse(encoded), udp) << "UDP round trip";
}

TEST(Addressing, TRN_1_2_MacAndIpFromNodeId) {
  EXPECT_EQ(NodeMac(0x000102), (MacAddress{0x02, 0, 0, 0x00, 0x01, 0x02}))
      << "locally administered MAC with the node ID in its low 24 bits";
  EXPECT_EQ(NodeIpv4(0x0A0B0C), 0x0A0A0B0Cu) << "10.ID2.ID1.ID0";
  EXPECT_EQ(*NodeFromIpv4(NodeIpv4(8191)), 8191u) << "IP maps back to node";
  EXPECT_FALSE(NodeFromIpv4(0xC0A80101).ok())
      << "addresses outside 10/8 belong to no node";
}

TEST(Addressing, TRN_1_6_SourcePortIsSymmetricAndInRange) {
  for (uint32_t a : {2u, 0x11u, 0x1234u, 0xFFFFFEu}) {
    for (uint32_t b : {3u, 0x22u, 0xABCDEu}) {
      EXPECT_EQ(UdpSourcePort(a, b), UdpSourcePort(b, a))
          << "both directions of a connection share one port";
      EXPECT_GE(UdpSourcePort(a, b), 0xC000) << "ports stay in 0xC000-0xFFFF";
    }
  }
  // Linux rdma_get_udp_sport(0, 0x11, 0x22): 0x11*0x22 = 0x242, no folding.
  EXPECT_EQ(UdpSourcePort(0x11, 0x22), 0xC242) << "Linux-compatible hash";
}

TEST(Addressing, TRN_1_5_PriorityIsClassSelector) {
  EXPECT_EQ(PriorityOfDscp(kDscpData), 3) << "data DSCP 26 travels on 3";
  EXPECT_EQ(PriorityOfDscp(kDscpCnp), 6) << "CNP DSCP 48 travels on 6";
}

}  // namespace
}  // namespace lq::roce
