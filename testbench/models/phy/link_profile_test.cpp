// SPDX-License-Identifier: Apache-2.0
// Tests of the link-profile registry and the figures derived from it,
// against hand arithmetic in docs/spec/phy.md.
#include "models/phy/link_profile.h"

#include <gtest/gtest.h>

namespace lq::phy {
namespace {

LinkProfile Pcie6() { return FindLinkProfile("pcie6").value(); }
LinkProfile Ib() { return FindLinkProfile("ib").value(); }

TEST(LinkProfile, PHY_1_1_ProfilesAreFoundByName) {
  EXPECT_EQ(LinkProfileNames(), (std::vector<std::string>{"pcie6", "ib"}))
      << "`lqemu list` shows the registered profiles in this order";
  EXPECT_STREQ(Pcie6().name, "pcie6");
  EXPECT_STREQ(Ib().name, "ib");
}

TEST(LinkProfile, PHY_1_1_RejectsUnknownProfileName_fail) {
  const auto missing = FindLinkProfile("pcie5");
  ASSERT_FALSE(missing.ok()) << "an unknown profile is bad input";
  EXPECT_EQ(missing.error().reason,
            "unknown link profile 'pcie5' (known: pcie6, ib)")
      << "the message must name the fix";
}

TEST(LinkProfile, PHY_1_2_Pcie6IsX16At64GtsWith256ByteFlits) {
  const LinkProfile p = Pcie6();
  EXPECT_EQ(p.max_lanes, 16u);
  EXPECT_EQ(p.lane_rate_mbps, 64000u) << "64 GT/s PAM4, 1b/1b [S11]";
  EXPECT_EQ(RawRateMbps(p, 16), 1024000u) << "x16 = 1024 Gb/s [S10]";
  EXPECT_EQ(p.flit_wire_bytes, 256u);
  EXPECT_EQ(p.payload_bytes, 236u);
  EXPECT_EQ(p.fec, FecKind::kInterleavedRs8);
}

TEST(LinkProfile, PHY_1_3_IbIsFourLanesOf200Gbs) {
  const LinkProfile p = Ib();
  EXPECT_EQ(p.max_lanes, 4u);
  EXPECT_EQ(RawRateMbps(p, 4), 800000u) << "XDR 4 x 200 Gb/s = 800 Gb/s [S23]";
  EXPECT_EQ(p.flit_wire_bytes, 680u) << "544 symbols x 10 bits = 5440 bits";
  EXPECT_EQ(p.payload_bytes, 628u);
  EXPECT_EQ(p.fec, FecKind::kKp4Rs544);
}

TEST(LinkProfile, PHY_4_2_FlitTimeMatchesHandArithmetic) {
  EXPECT_EQ(FlitTimePs(Pcie6(), 16), 2000u) << "2048 bits / 1024 Gb/s";
  EXPECT_EQ(FlitTimePs(Pcie6(), 8), 4000u);
  EXPECT_EQ(FlitTimePs(Pcie6(), 1), 32000u) << "2048 bits / 64 Gb/s";
  EXPECT_EQ(FlitTimePs(Ib(), 4), 6800u) << "5440 bits / 800 Gb/s";
  EXPECT_EQ(FlitTimePs(Ib(), 2), 13600u);
  EXPECT_EQ(FlitTimePs(Ib(), 1), 27200u);
}

TEST(LinkProfile, PHY_1_5_GoodputAfterOverheadsMatchesHandArithmetic) {
  EXPECT_DOUBLE_EQ(PayloadGoodputGbps(Pcie6(), 16), 944.0)
      << "236/256 x 1024 Gb/s";
  EXPECT_NEAR(PayloadGoodputGbps(Ib(), 4), 738.8235, 1e-3)
      << "628/680 x 800 Gb/s";
  EXPECT_DOUBLE_EQ(PayloadGoodputGbps(Pcie6(), 4), 236.0)
      << "goodput scales with width (PHY-5.5)";
}

TEST(LinkProfile, PHY_4_6_OneWayLatencyAddsPipelineSerialisationAndCable) {
  EXPECT_EQ(OneWayLatencyPs(Pcie6(), 16, 2.0), 32000u)
      << "10 ns tx + 2 ns flit + 10 ns cable + 10 ns rx";
  EXPECT_EQ(OneWayLatencyPs(Ib(), 4, 2.0), 66800u)
      << "10 ns tx + 6.8 ns flit + 10 ns cable + 40 ns rx";
  EXPECT_EQ(OneWayLatencyPs(Pcie6(), 16, 100.0), 522000u)
      << "cable length is a parameter";
}

TEST(LinkProfile, PHY_5_5_WidestWorkingWidthIsAPowerOfTwo) {
  EXPECT_EQ(WidestWidth(Pcie6(), 16), 16u);
  EXPECT_EQ(WidestWidth(Pcie6(), 15), 8u) << "one lane lost: x8";
  EXPECT_EQ(WidestWidth(Pcie6(), 3), 2u);
  EXPECT_EQ(WidestWidth(Pcie6(), 1), 1u);
  EXPECT_EQ(WidestWidth(Pcie6(), 0), 0u) << "no lane, no link";
  EXPECT_EQ(WidestWidth(Ib(), 3), 2u);
  EXPECT_EQ(WidestWidth(Ib(), 16), 4u) << "never wider than the profile";
}

TEST(LinkProfile, PHY_1_4_AllowedWidthsArePowersOfTwoUpToTheLaneCount) {
  for (unsigned width : {1, 2, 4, 8, 16}) {
    EXPECT_TRUE(IsAllowedWidth(Pcie6(), width)) << "pcie6 x" << width;
  }
  for (unsigned width : {1, 2, 4}) {
    EXPECT_TRUE(IsAllowedWidth(Ib(), width)) << "ib x" << width;
  }
  EXPECT_FALSE(IsAllowedWidth(Ib(), 8)) << "ib has 4 lanes";
  EXPECT_FALSE(IsAllowedWidth(Pcie6(), 32)) << "pcie6 has 16 lanes";
  EXPECT_FALSE(IsAllowedWidth(Pcie6(), 12)) << "x12 is not a width";
  EXPECT_FALSE(IsAllowedWidth(Pcie6(), 0)) << "x0 is no link";
}

TEST(LinkProfile, PHY_4_4_PipelineLatenciesPerProfile) {
  EXPECT_EQ(Pcie6().tx_pipeline_ps, 10000u);
  EXPECT_EQ(Pcie6().rx_pipeline_ps, 10000u)
      << "pcie6 rx includes FEC+CRC, under 2 ns [S10]";
  EXPECT_EQ(Ib().tx_pipeline_ps, 10000u);
  EXPECT_EQ(Ib().rx_pipeline_ps, 40000u) << "KP4 decode buffers a whole block";
}

TEST(LinkProfile, PHY_4_5_CableDelayIsFiveNanosecondsPerMetre) {
  EXPECT_EQ(CableDelayPs(kDefaultCableMetres), 10000u) << "default 2 m";
  EXPECT_EQ(CableDelayPs(0.0), 0u);
  EXPECT_EQ(CableDelayPs(0.5), 2500u);
  EXPECT_EQ(CableDelayPs(100.0), 500000u);
}

TEST(LinkProfile, PHY_4_1_Pcie6StripesBytesAndIbStripesSymbols) {
  EXPECT_EQ(LaneOfWireBit(Pcie6(), 16, 0), 0u);
  EXPECT_EQ(LaneOfWireBit(Pcie6(), 16, 7), 0u) << "a byte stays on one lane";
  EXPECT_EQ(LaneOfWireBit(Pcie6(), 16, 8), 1u);
  EXPECT_EQ(LaneOfWireBit(Pcie6(), 16, 8 * 17), 1u) << "byte 17 on lane 1";
  EXPECT_EQ(LaneOfWireBit(Pcie6(), 4, 8 * 17), 1u);
  EXPECT_EQ(LaneOfWireBit(Ib(), 4, 9), 0u) << "a 10-bit symbol stays together";
  EXPECT_EQ(LaneOfWireBit(Ib(), 4, 10), 1u);
  EXPECT_EQ(LaneOfWireBit(Ib(), 4, 10 * 543), 3u) << "symbol 543 on lane 3";
  EXPECT_EQ(LaneOfWireBit(Ib(), 1, 5439), 0u);
}

}  // namespace
}  // namespace lq::phy
