// SPDX-License-Identifier: Apache-2.0
// Tests of the 802.1Qbb PFC frame and pause-quantum durations.
#include "models/roce/pfc.h"

#include <gtest/gtest.h>

namespace lq::roce {
namespace {

TEST(Pfc, TRN_8_2_FrameLayout) {
  PfcFrame frame;
  frame.src = {0x02, 0, 0, 0, 0, 7};
  frame.class_enable = 0x48;  // Priorities 3 and 6.
  frame.pause_quanta[3] = 0xFFFF;
  frame.pause_quanta[6] = 0x0000;
  const Bytes bytes = EncodePfcFrame(frame);
  ASSERT_EQ(bytes.size(), 60u) << "minimum Ethernet frame without FCS";
  EXPECT_EQ(Bytes(bytes.begin(), bytes.begin() + 6),
            (Bytes{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01}))
      << "MAC control multicast destination";
  EXPECT_EQ(LoadBigEndian(&bytes[12], 2), 0x8808u) << "EtherType";
  EXPECT_EQ(LoadBigEndian(&bytes[14], 2), 0x0101u) << "PFC opcode";
  EXPECT_EQ(LoadBigEndian(&bytes[16], 2), 0x0048u) << "class-enable vector";
  EXPECT_EQ(LoadBigEndian(&bytes[18 + 2 * 3], 2), 0xFFFFu) << "time[3]";
  for (size_t i = 34; i < 60; ++i) {
    EXPECT_EQ(bytes[i], 0) << "pad byte " << i;
  }
  EXPECT_EQ(*ParsePfcFrame(bytes), frame) << "PFC round trip";
}

TEST(Pfc, TRN_8_2_RejectsMalformedFrames) {
  const Bytes good = EncodePfcFrame(PfcFrame{});
  EXPECT_FALSE(ParsePfcFrame(Bytes(good.begin(), good.end() - 1)).ok())
      << "short frame";
  auto with = [&](size_t offset, uint8_t value) {
    Bytes bytes = good;
    bytes[offset] = value;
    return bytes;
  };
  EXPECT_FALSE(ParsePfcFrame(with(5, 0x02)).ok()) << "wrong destination";
  EXPECT_FALSE(ParsePfcFrame(with(13, 0x09)).ok()) << "wrong EtherType";
  EXPECT_FALSE(ParsePfcFrame(with(15, 0x01 + 1)).ok()) << "PAUSE, not PFC";
  EXPECT_TRUE(ParsePfcFrame(with(59, 0xAA)).ok()) << "pad is ignored";
}

TEST(Pfc, TRN_8_11_TheVcClassRidesInTheClassEnableVectorsHighByte) {
  PfcFrame frame;
  frame.vc_class = 1;
  frame.class_enable = 1u << 3;
  frame.pause_quanta[3] = 0xFFFF;
  const Bytes bytes = EncodePfcFrame(frame);
  EXPECT_EQ(LoadBigEndian(&bytes[16], 2), 0x0108u)
      << "byte 16: the VC class; byte 17: the priorities";
  EXPECT_EQ(ParsePfcFrame(bytes)->vc_class, 1u);
  EXPECT_EQ(*ParsePfcFrame(bytes), frame);
  EXPECT_EQ(EncodePfcFrame(PfcFrame{})[16], 0)
      << "class 0: IEEE's frame, its reserved byte 0";
}

TEST(Pfc, TRN_8_6_QuantumIs512BitTimes) {
  constexpr uint64_t k800G = 800'000'000'000;
  EXPECT_EQ(PauseDurationPs(1, k800G), 640u) << "0.64 ns at 800 Gb/s";
  EXPECT_EQ(PauseDurationPs(0xFFFF, k800G), 41'942'400u)
      << "maximum pause 41.94 us at 800 Gb/s";
  EXPECT_EQ(PauseDurationPs(0, k800G), 0u) << "zero quanta is XON";
  EXPECT_EQ(PauseDurationPs(1, 1'024'000'000'000), 500u)
      << "0.5 ns at the pcie6 profile's 1024 Gb/s";
}

// TRN-8.8's worked example: an `ib` x4 link, S_max = 4,190 B.
TEST(Pfc, TRN_8_8_HeadroomCoversTheBytesStillComingAfterXoff) {
  HeadroomInputs ib;
  ib.max_packet_bytes = 4190;
  ib.goodput_bps = 738'800'000'000;
  ib.flit_ps = 6'800;
  ib.tx_ps = 10'000;
  ib.rx_ps = 40'000;
  ib.react_ps = 20'000;
  ib.cable_ps = 100 * 5'000;  // 100 m at 5 ns/m
  EXPECT_EQ(PfcHeadroomBytes(ib), 108'878u) << "100 m: 1,133.6 ns in flight";
  ib.cable_ps = 2 * 5'000;
  EXPECT_EQ(PfcHeadroomBytes(ib), 18'375u) << "2 m: 153.6 ns in flight";
  ib.goodput_bps = 0;
  EXPECT_EQ(PfcHeadroomBytes(ib), 4'190u) << "nothing in flight: one packet";
}

}  // namespace
}  // namespace lq::roce
