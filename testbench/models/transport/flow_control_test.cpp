// SPDX-License-Identifier: Apache-2.0
// Priority flow control's two ends (TRN-8.4 to TRN-8.10) and ECN marking
// (TRN-9.2, TRN-9.3), as plain models.
#include <gtest/gtest.h>

#include "models/roce/pfc.h"
#include "models/transport/ecn_marking.h"
#include "models/transport/pfc_ingress.h"
#include "models/transport/pfc_pause.h"

namespace lq::transport {
namespace {

constexpr roce::MacAddress kMac{0x02, 0, 0, 0, 0, 5};
constexpr uint8_t kData = 3;  // TRN-1.5: DSCP 26's priority
constexpr uint64_t kUs = 1'000'000;

TEST(PfcIngress, TRN_8_5_XoffAboveThresholdXonAtOrBelowXonOnce) {
  PfcIngress ingress(PfcParams{}, kMac);
  EXPECT_FALSE(ingress.OnCount(kData, 65'536, 0)) << "at XOFF: not above";
  const auto xoff = ingress.OnCount(kData, 65'537, 10);
  ASSERT_TRUE(xoff);
  EXPECT_EQ(xoff->src, kMac);
  EXPECT_EQ(xoff->class_enable, 1u << kData);
  EXPECT_EQ(xoff->pause_quanta[kData], 0xFFFF);
  EXPECT_TRUE(ingress.in_xoff(kData));
  EXPECT_FALSE(ingress.OnCount(kData, 90'000, 20)) << "XOFF is sent once";
  EXPECT_FALSE(ingress.OnCount(kData, 49'153, 30)) << "above XON: still off";
  const auto xon = ingress.OnCount(kData, 49'152, 40);
  ASSERT_TRUE(xon);
  EXPECT_EQ(xon->class_enable, 1u << kData);
  EXPECT_EQ(xon->pause_quanta[kData], 0) << "XON is time 0";
  EXPECT_FALSE(ingress.OnCount(kData, 0, 50)) << "XON is sent once";
  EXPECT_FALSE(ingress.next_timer_ps());
}

TEST(PfcIngress, TRN_8_1_PrioritiesWithoutPfcSendNothing) {
  PfcIngress ingress(PfcParams{}, kMac);
  EXPECT_FALSE(ingress.OnCount(0, 1'000'000, 0));
  EXPECT_FALSE(ingress.OnCount(7, 1'000'000, 0));
  EXPECT_FALSE(ingress.OnCount(8, 1'000'000, 0)) << "no priority 8";
  EXPECT_TRUE(ingress.OnCount(6, 1'000'000, 0)) << "priority 6 has PFC";
}

TEST(PfcIngress, TRN_8_5_XoffIsRefreshedWhileAboveXon) {
  PfcIngress ingress(PfcParams{}, kMac);
  ASSERT_TRUE(ingress.OnCount(kData, 70'000, 5 * kUs));
  ASSERT_EQ(ingress.next_timer_ps(), 25 * kUs) << "refresh after 20 us";
  EXPECT_FALSE(ingress.OnTimer(25 * kUs - 1));
  const auto refresh = ingress.OnTimer(25 * kUs);
  ASSERT_TRUE(refresh);
  EXPECT_EQ(refresh->class_enable, 1u << kData);
  EXPECT_EQ(refresh->pause_quanta[kData], 0xFFFF);
  EXPECT_EQ(ingress.next_timer_ps(), 45 * kUs);
  // A second priority going off joins the same refresh schedule per its
  // own time; one message carries every refresh due.
  ASSERT_TRUE(ingress.OnCount(6, 70'000, 25 * kUs));
  const auto both = ingress.OnTimer(45 * kUs);
  ASSERT_TRUE(both);
  EXPECT_EQ(both->class_enable, (1u << kData) | (1u << 6));
  ASSERT_TRUE(ingress.OnCount(kData, 0, 46 * kUs));
  ASSERT_TRUE(ingress.OnCount(6, 0, 46 * kUs));
  EXPECT_FALSE(ingress.next_timer_ps()) << "no refresh after XON";
}

TEST(PfcPause, TRN_8_7_XoffPausesForItsTimeXonResumes) {
  constexpr uint64_t k800G = 800'000'000'000;
  PfcPause pause(k800G);
  roce::PfcFrame xoff;
  xoff.class_enable = 1u << kData;
  xoff.pause_quanta[kData] = 1000;  // 640 ns at 800 Gb/s
  EXPECT_EQ(pause.OnFrame(xoff, 1'000), 1u << kData);
  EXPECT_TRUE(pause.paused(kData));
  EXPECT_FALSE(pause.paused(6));
  EXPECT_EQ(pause.next_expiry_ps(), 641'000u);
  // A new XOFF restarts the pause time from its arrival.
  EXPECT_EQ(pause.OnFrame(xoff, 101'000), 0u) << "still paused: no change";
  EXPECT_EQ(pause.next_expiry_ps(), 741'000u);
  EXPECT_EQ(pause.Advance(740'999), 0u);
  EXPECT_EQ(pause.Advance(741'000), 1u << kData);
  EXPECT_FALSE(pause.paused(kData));
  EXPECT_EQ(pause.paused_ps(kData, 900'000), 740'000u) << "TRN-8.10";
  // XON ends a pause at once.
  pause.OnFrame(xoff, 1'000'000);
  roce::PfcFrame xon;
  xon.class_enable = 1u << kData;
  EXPECT_EQ(pause.OnFrame(xon, 1'100'000), 1u << kData);
  EXPECT_FALSE(pause.paused(kData));
  EXPECT_EQ(pause.paused_ps(kData, 2'000'000), 840'000u);
}

// A pause running out at the very time another message arrives must still
// be reported, or the output it held would stay paused for ever.
TEST(PfcPause, TRN_8_7_APauseEndingAsAMessageArrivesIsReported) {
  PfcPause pause(800'000'000'000);
  roce::PfcFrame xoff;
  xoff.class_enable = 1u << kData;
  xoff.pause_quanta[kData] = 10;  // 6,400 ps
  pause.OnFrame(xoff, 0);
  roce::PfcFrame other;
  other.class_enable = 1u << 6;
  other.pause_quanta[6] = 10;
  EXPECT_EQ(pause.OnFrame(other, 6'400), (1u << kData) | (1u << 6))
      << "priority 3 resumed, 6 paused";
  EXPECT_FALSE(pause.paused(kData));
  EXPECT_TRUE(pause.paused(6));
}

TEST(PfcPause, TRN_8_2_TimesWhoseEnableBitIsClearAreIgnored) {
  PfcPause pause(800'000'000'000);
  roce::PfcFrame frame;
  frame.class_enable = 1u << 6;
  frame.pause_quanta[kData] = 0xFFFF;  // not enabled
  frame.pause_quanta[6] = 10;
  EXPECT_EQ(pause.OnFrame(frame, 0), 1u << 6);
  EXPECT_FALSE(pause.paused(kData));
  EXPECT_EQ(pause.paused_ps(6, 3'000), 3'000u) << "running pause counts";
  EXPECT_EQ(pause.paused_ps(6, 100'000), 6'400u) << "until it ran out";
}

TEST(EcnMarking, TRN_9_2_RedProbabilityFromQueuedBytes) {
  const EcnProfile red{8'192, 65'536, 0.2};
  EXPECT_EQ(MarkProbability(red, 0), 0);
  EXPECT_EQ(MarkProbability(red, 8'192), 0) << "at Kmin: not above";
  EXPECT_DOUBLE_EQ(MarkProbability(red, 8'192 + 57'344 / 2), 0.1);
  EXPECT_DOUBLE_EQ(MarkProbability(red, 65'536), 0.2) << "Pmax at Kmax";
  EXPECT_EQ(MarkProbability(red, 65'537), 1) << "above Kmax: always";
  const EcnProfile step{32'768, 32'768, 1};
  EXPECT_EQ(MarkProbability(step, 32'768), 0);
  EXPECT_EQ(MarkProbability(step, 32'769), 1) << "Kmin = Kmax: a step";
  EXPECT_EQ(MarkProbability(EcnProfile{}, 1'000'000), 0) << "none";
}

TEST(EcnMarking, TRN_9_3_NamedProfiles) {
  const EcnProfile dcqcn = EcnProfileNamed("dcqcn").value();
  EXPECT_EQ(dcqcn.kmin_bytes, 8'192u);
  EXPECT_EQ(dcqcn.kmax_bytes, 65'536u);
  EXPECT_DOUBLE_EQ(dcqcn.pmax, 0.2);
  const EcnProfile lqcc = EcnProfileNamed("lqcc").value();
  EXPECT_EQ(lqcc.kmin_bytes, 32'768u);
  EXPECT_EQ(lqcc.kmax_bytes, 32'768u);
  EXPECT_DOUBLE_EQ(lqcc.pmax, 1);
  EXPECT_EQ(EcnProfileNamed("none").value().pmax, 0);
  const auto bad = EcnProfileNamed("red");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().reason.find("dcqcn"), std::string::npos);
}

}  // namespace
}  // namespace lq::transport
