// SPDX-License-Identifier: Apache-2.0
// Tests of the per-connection packet defaults and the ACK/NAK/CNP builders.
#include "models/roce/packet_factory.h"

#include <gtest/gtest.h>

#include "models/roce/icrc.h"
#include "models/roce/sample_packets.h"

namespace lq::roce {
namespace {

using testing::SamplePath;

TEST(PacketFactory, TRN_1_2_HeadersFollowThePath) {
  const RocePacket packet = NewPacket(SamplePath(), Opcode::kSendOnly, 77);
  EXPECT_EQ(packet.eth.dst, NodeMac(2)) << "destination node's MAC";
  EXPECT_EQ(packet.eth.src, NodeMac(1)) << "source node's MAC";
  EXPECT_EQ(packet.ip.dst, NodeIpv4(2)) << "destination node's address";
  EXPECT_EQ(packet.ip.dscp, kDscpData) << "data DSCP";
  EXPECT_EQ(packet.ip.ecn, Ecn::kEct0) << "SEND is ECN-capable";
  EXPECT_EQ(packet.ip.ttl, 64) << "TTL";
  EXPECT_TRUE(packet.ip.dont_fragment) << "DF set";
  EXPECT_EQ(packet.udp.src_port, UdpSourcePort(0x11, 0x22)) << "entropy";
  EXPECT_EQ(packet.bth.dest_qp, 0x22u) << "remote QPN";
  EXPECT_EQ(packet.bth.psn, 77u) << "PSN";
  EXPECT_TRUE(packet.bth.mig_req) << "M=1 on every RC packet";
}

TEST(PacketFactory, TRN_7_1_NakCarriesExpectedPsnAndCode) {
  const RocePacket nak = MakeAcknowledge(
      SamplePath(), 0x000100, Aeth::Nak(5, NakCode::kPsnSequenceError));
  const Bytes frame = *BuildPacket(nak);
  EXPECT_EQ(frame.size(), 14u + 20 + 8 + 12 + 4 + 4) << "ACK is 62 bytes";
  EXPECT_EQ(frame[42], 0x11) << "ACKNOWLEDGE opcode";
  EXPECT_EQ(LoadBigEndian(&frame[51], 3), 0x100u) << "PSN = expected PSN";
  EXPECT_EQ(frame[54], 0x60) << "NAK, PSN sequence error";
  EXPECT_EQ(LoadBigEndian(&frame[55], 3), 5u) << "MSN";
  EXPECT_EQ(frame[15] & 3, 0) << "ACK/NAK packets are Not-ECT";
}

TEST(PacketFactory, TRN_9_4_CnpLayout) {
  const Bytes frame = *BuildPacket(MakeCnp(SamplePath()));
  ASSERT_EQ(frame.size(), 14u + 20 + 8 + 12 + 16 + 4)
      << "CNP = headers + BTH + 16 reserved + ICRC";
  EXPECT_EQ(frame[15], kDscpCnp << 2) << "DSCP 48, Not-ECT";
  EXPECT_EQ(LoadBigEndian(&frame[36], 2), kRoceUdpPort) << "UDP 4791";
  EXPECT_EQ(frame[42], 0x81) << "CNP opcode";
  EXPECT_EQ(frame[43], 0x00) << "SE=0 M=0 PadCnt=0 TVer=0";
  EXPECT_EQ(LoadBigEndian(&frame[44], 2), kDefaultPkey) << "P_Key";
  EXPECT_EQ(frame[46], 0x40) << "BECN=1, FECN=0";
  EXPECT_EQ(LoadBigEndian(&frame[47], 3), 0x22u)
      << "DestQP = the congested flow's sending QP";
  EXPECT_EQ(frame[50], 0x00) << "AckReq=0";
  EXPECT_EQ(LoadBigEndian(&frame[51], 3), 0u) << "PSN=0";
  for (size_t i = 54; i < 70; ++i) {
    EXPECT_EQ(frame[i], 0) << "reserved byte " << i << " is zero";
  }
  EXPECT_EQ(LoadLittleEndian(&frame[70], 4),
            *ComputeIcrc(ByteView(frame.data(), 70)))
      << "ICRC trailer";
}

}  // namespace
}  // namespace lq::roce
