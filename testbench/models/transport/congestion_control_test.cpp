// SPDX-License-Identifier: Apache-2.0
// The congestion-control reaction points (docs/spec/trn.md sections 10 and
// 11): DCQCN's cut, α decay, increase phases, byte counter, caps and
// pacing; LQCC's window, gating, A/M accounting, rounds, rewinds and PSN
// wrap; and the registry that builds them by name and checks parameters.
#include "models/transport/congestion_control.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "models/transport/dcqcn.h"
#include "models/transport/lqcc.h"

namespace lq::transport {
namespace {

constexpr double kPcie6Rate = 944e9;  // R at pcie6 x16 (TRN-10.1)
constexpr double kRate = 100e9;       // a round R for hand arithmetic
constexpr uint64_t kNever = 1'000'000'000'000'000;  // a timer kept out of play

// DCQCN at kRate with only the α timer, every `k_ps`, in play.
Dcqcn AlphaTimerOnly(uint64_t k_ps) {
  DcqcnParams p;
  p.alpha_timer_ps = k_ps;
  p.increase_timer_ps = kNever;
  return Dcqcn(kRate, p);
}

// DCQCN at kRate with the increase timer every `t_inc_ps`, the byte counter
// every `b` bytes and F = `f`; the α timer out of play.
Dcqcn IncreaseOnly(uint64_t t_inc_ps, uint64_t b, unsigned f) {
  DcqcnParams p;
  p.alpha_timer_ps = kNever;
  p.increase_timer_ps = t_inc_ps;
  p.byte_counter = b;
  p.fast_recovery_steps = f;
  return Dcqcn(kRate, p);
}

// Two CNPs at α = 1 leave RT = R/2 and RC = R/4, room to increase both.
void CutTwice(Dcqcn& dcqcn) {
  dcqcn.OnCnp(0);
  dcqcn.OnCnp(0);
  ASSERT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50e9);
  ASSERT_DOUBLE_EQ(dcqcn.rate_bps(), 25e9);
}

LqccParams WindowOf(uint64_t max_window_bytes) {
  LqccParams p;
  p.max_window_bytes = max_window_bytes;
  return p;
}

TEST(Dcqcn, TRN_10_1_StartsAtLineRateWithAlphaOne) {
  Dcqcn dcqcn(kPcie6Rate, DcqcnParams{});
  EXPECT_STREQ(dcqcn.name(), "dcqcn");
  EXPECT_EQ(dcqcn.rate_bps(), kPcie6Rate) << "RC = R at start";
  EXPECT_EQ(dcqcn.target_rate_bps(), kPcie6Rate) << "RT = R at start";
  EXPECT_EQ(dcqcn.alpha(), 1.0);
  EXPECT_EQ(dcqcn.timer_events(), 0u);
  EXPECT_EQ(dcqcn.byte_counter_events(), 0u);
  EXPECT_EQ(dcqcn.next_send_ps(), 0u) << "the first packet may go at once";
  EXPECT_TRUE(dcqcn.WindowAllows(uint64_t{1} << 40)) << "DCQCN has no window";
}

TEST(Dcqcn, TRN_10_1_PacesEachPacketAtTheCurrentRate) {
  Dcqcn dcqcn(kPcie6Rate, DcqcnParams{});
  dcqcn.OnSent(0, 4096, SentRequest{0});
  EXPECT_EQ(dcqcn.next_send_ps(), 34'712u) << "8 x 4096 / 944e9 s, rounded up";
  dcqcn.OnSent(10'000, 1000, std::nullopt);  // early: queued behind the last
  EXPECT_EQ(dcqcn.next_send_ps(), 34'712u + 8'475u)
      << "a read response is paced too, from the previous next time";
  dcqcn.OnSent(100'000, 1000,
               SentRequest{1});  // late: paced from its own start
  EXPECT_EQ(dcqcn.next_send_ps(), 108'475u);
  dcqcn.OnCnp(200'000);  // RC = 472 Gb/s
  dcqcn.OnSent(200'000, 4096, SentRequest{2});
  EXPECT_EQ(dcqcn.next_send_ps(), 200'000u + 69'424u)
      << "after a cut the gap follows the new RC";
}

TEST(Dcqcn, TRN_10_1_ThePendingGapFollowsTheRateAsItChanges) {
  Dcqcn dcqcn = IncreaseOnly(100'000, uint64_t{1} << 40, 5);
  CutTwice(dcqcn);  // RC = 25 Gb/s, RT = 50 Gb/s
  dcqcn.OnSent(0, 4096, SentRequest{0});
  EXPECT_EQ(dcqcn.next_send_ps(), 1'310'720u) << "8 x 4096 / 25e9 s";
  dcqcn.Advance(100'000);  // fast recovery: RC = 37.5 Gb/s
  EXPECT_EQ(dcqcn.next_send_ps(), 873'814u)
      << "the packet waiting goes at the recovered rate, 8 x 4096 / 37.5e9 s";
  dcqcn.OnCnp(200'000);
  EXPECT_GT(dcqcn.next_send_ps(), 873'814u) << "and waits longer after a cut";
}

TEST(Dcqcn, TRN_10_2_CnpCutsRateByHalfAlpha) {
  Dcqcn dcqcn(kRate, DcqcnParams{});
  dcqcn.OnCnp(1000);
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 100e9) << "RT takes RC's value";
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 50e9) << "RC x (1 - 1/2) at α = 1";
  EXPECT_DOUBLE_EQ(dcqcn.alpha(), 1.0) << "(1 - g) x 1 + g";
  dcqcn.OnCnp(2000);
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 25e9);
  EXPECT_EQ(dcqcn.next_timer_ps(), 2000u + 55'000'000u)
      << "the α and increase timers run K = T_inc from the last CNP";
}

TEST(Dcqcn, TRN_10_2_CutUsesTheDecayedAlpha) {
  Dcqcn dcqcn = AlphaTimerOnly(10'000'000);
  dcqcn.OnCnp(0);
  dcqcn.Advance(10'000'000);
  ASSERT_DOUBLE_EQ(dcqcn.alpha(), 255.0 / 256);
  dcqcn.OnCnp(10'000'000);
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 50e9 * 257 / 512)
      << "RC x (1 - α/2) with α = 255/256";
  EXPECT_DOUBLE_EQ(dcqcn.alpha(), 65281.0 / 65536)
      << "(1 - g) x 255/256 + g, g = 1/256";
}

TEST(Dcqcn, TRN_10_2_RateNeverFallsBelowMinRate) {
  DcqcnParams p;
  p.min_rate_bps = 30e9;
  Dcqcn dcqcn(kRate, p);
  dcqcn.OnCnp(0);
  dcqcn.OnCnp(0);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 30e9) << "25 Gb/s would be below R_min";
  dcqcn.OnCnp(0);
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 30e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 30e9);
}

TEST(Dcqcn, TRN_10_2_CnpRestartsTimersAndByteCounter) {
  DcqcnParams p;
  p.alpha_timer_ps = 10'000'000;
  p.increase_timer_ps = 20'000'000;
  p.byte_counter = 1000;
  Dcqcn dcqcn(kRate, p);
  dcqcn.OnCnp(0);
  dcqcn.OnSent(0, 999, SentRequest{0});
  dcqcn.Advance(25'000'000);
  ASSERT_EQ(dcqcn.timer_events(), 1u);
  ASSERT_EQ(dcqcn.next_timer_ps(), 30'000'000u);
  dcqcn.OnCnp(25'000'000);
  EXPECT_EQ(dcqcn.timer_events(), 0u) << "T <- 0";
  EXPECT_EQ(dcqcn.next_timer_ps(), 35'000'000u) << "the α timer restarted";
  dcqcn.OnSent(25'000'000, 1, SentRequest{1});
  EXPECT_EQ(dcqcn.byte_counter_events(), 0u)
      << "the 999 bytes before the CNP no longer count";
  dcqcn.Advance(44'999'999);
  EXPECT_EQ(dcqcn.timer_events(), 0u) << "the increase timer restarted too";
  dcqcn.Advance(45'000'000);
  EXPECT_EQ(dcqcn.timer_events(), 1u);
}

TEST(Dcqcn, TRN_10_2_NoTimerRunsBeforeTheFirstCnp) {
  Dcqcn dcqcn = IncreaseOnly(10'000'000, 1000, 5);
  EXPECT_FALSE(dcqcn.next_timer_ps().has_value());
  dcqcn.OnSent(0, 5000, SentRequest{0});
  dcqcn.Advance(1'000'000'000);
  EXPECT_EQ(dcqcn.alpha(), 1.0) << "α keeps its start value for the first cut";
  EXPECT_EQ(dcqcn.timer_events(), 0u);
  EXPECT_EQ(dcqcn.byte_counter_events(), 0u);
}

TEST(Dcqcn, TRN_10_3_AlphaDecaysEveryKWithoutACnp) {
  Dcqcn dcqcn = AlphaTimerOnly(10'000'000);
  dcqcn.OnCnp(0);
  dcqcn.Advance(9'999'999);
  EXPECT_EQ(dcqcn.alpha(), 1.0) << "not before K";
  dcqcn.Advance(35'000'000);
  const double decay = 255.0 / 256;
  EXPECT_DOUBLE_EQ(dcqcn.alpha(), decay * decay * decay)
      << "three periods of K by 35 us";
  EXPECT_EQ(dcqcn.next_timer_ps(), 40'000'000u);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 50e9) << "α alone does not move RC";
}

TEST(Dcqcn, TRN_10_4_FastRecoveryHalvesTheGapForFSteps) {
  Dcqcn dcqcn = IncreaseOnly(10'000'000, kNever, 5);
  CutTwice(dcqcn);
  dcqcn.Advance(10'000'000);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 37.5e9) << "(RT + RC) / 2";
  dcqcn.Advance(50'000'000);
  EXPECT_EQ(dcqcn.timer_events(), 5u);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 50e9 - 25e9 / 32)
      << "five halvings of the 25 Gb/s gap";
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50e9) << "RT holds in recovery";
}

TEST(Dcqcn, TRN_10_4_AdditiveIncreaseOnceOneCounterPassesF) {
  Dcqcn dcqcn = IncreaseOnly(10'000'000, kNever, 5);
  CutTwice(dcqcn);
  dcqcn.Advance(50'000'000);
  ASSERT_DOUBLE_EQ(dcqcn.rate_bps(), 49.21875e9);
  dcqcn.Advance(60'000'000);  // T = 6 > F, BC = 0
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50.1e9) << "RT + R_AI = R/1000";
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 49.659375e9);
  dcqcn.Advance(70'000'000);
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50.2e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 49.9296875e9);
}

TEST(Dcqcn, TRN_10_4_HyperIncreaseOnceBothCountersPassF) {
  Dcqcn dcqcn = IncreaseOnly(10'000'000, 1000, 2);
  CutTwice(dcqcn);
  dcqcn.OnSent(0, 3000,
               SentRequest{0});  // BC 1, 2: fast recovery; BC 3: additive
  EXPECT_EQ(dcqcn.byte_counter_events(), 3u);
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50.1e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 46.925e9);
  dcqcn.Advance(20'000'000);  // T 1, 2: additive, BC alone past F
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 50.3e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 49.43125e9);
  dcqcn.Advance(30'000'000);  // T 3, BC 3: (3 - 2) x R_HAI
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 51.3e9) << "RT + R_HAI = R/100";
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 50.365625e9);
  dcqcn.OnSent(30'000'000, 1000, SentRequest{1});  // BC 4, T 3: min is still 3
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 52.3e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 51.3328125e9);
  dcqcn.Advance(40'000'000);  // T 4, BC 4: (4 - 2) x R_HAI
  EXPECT_DOUBLE_EQ(dcqcn.target_rate_bps(), 54.3e9);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 52.81640625e9);
}

TEST(Dcqcn, TRN_10_4_ByteCounterFiresEveryBBytes) {
  Dcqcn dcqcn = IncreaseOnly(kNever, 1000, 5);
  dcqcn.OnCnp(0);  // RT 100, RC 50 Gb/s
  dcqcn.OnSent(0, 1500, SentRequest{0});
  EXPECT_EQ(dcqcn.byte_counter_events(), 1u);
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 75e9);
  dcqcn.OnSent(0, 499, SentRequest{1});
  EXPECT_EQ(dcqcn.byte_counter_events(), 1u) << "999 bytes since the event";
  dcqcn.OnSent(0, 1, std::nullopt);
  EXPECT_EQ(dcqcn.byte_counter_events(), 2u) << "read responses count too";
  dcqcn.OnSent(0, 2000, SentRequest{2});
  EXPECT_EQ(dcqcn.byte_counter_events(), 4u) << "one event per B bytes";
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), 100e9 - 50e9 / 16);
  EXPECT_EQ(dcqcn.timer_events(), 0u);
}

TEST(Dcqcn, TRN_10_4_RatesNeverExceedLineRate) {
  Dcqcn dcqcn = IncreaseOnly(10'000'000, 1000, 1);
  dcqcn.OnCnp(0);
  for (uint64_t step = 1; step <= 100; ++step) {
    dcqcn.OnSent(step * 10'000'000, 1000,
                 SentRequest{static_cast<uint32_t>(step)});
    dcqcn.Advance(step * 10'000'000);
    ASSERT_LE(dcqcn.target_rate_bps(), kRate) << "RT past R at step " << step;
    ASSERT_LE(dcqcn.rate_bps(), kRate) << "RC past R at step " << step;
  }
  EXPECT_EQ(dcqcn.target_rate_bps(), kRate) << "hyper increase stops at R";
  EXPECT_DOUBLE_EQ(dcqcn.rate_bps(), kRate);
}

TEST(Lqcc, TRN_11_1_WindowStartsAtWmax) {
  Lqcc lqcc(kPcie6Rate, LqccParams{});
  EXPECT_STREQ(lqcc.name(), "lqcc");
  EXPECT_EQ(lqcc.window_bytes(), 131'072.0) << "128 KiB by default";
  EXPECT_EQ(lqcc.alpha(), 1.0);
  EXPECT_EQ(lqcc.in_flight_bytes(), 0u);
  Lqcc small(kPcie6Rate, WindowOf(100'000));
  EXPECT_EQ(small.window_bytes(), 100'000.0) << "lqcc.max_window_bytes";
}

TEST(Lqcc, TRN_11_7_WindowGatesRequestsUnlessNothingIsInFlight) {
  Lqcc lqcc(kPcie6Rate, WindowOf(10'000));
  EXPECT_TRUE(lqcc.WindowAllows(20'000)) << "nothing in flight";
  lqcc.OnSent(0, 20'000, SentRequest{0});
  EXPECT_EQ(lqcc.in_flight_bytes(), 20'000u);
  EXPECT_FALSE(lqcc.WindowAllows(1));
  lqcc.OnAcknowledged(1000, 1, false);
  lqcc.OnSent(2000, 4000, SentRequest{1});
  lqcc.OnSent(2000, 4000, SentRequest{2});
  lqcc.OnSent(2000, 5000, std::nullopt);
  EXPECT_EQ(lqcc.in_flight_bytes(), 8000u) << "read responses are not held";
  EXPECT_TRUE(lqcc.WindowAllows(2000)) << "8000 + 2000 <= W";
  EXPECT_FALSE(lqcc.WindowAllows(2001)) << "8000 + 2001 > W";
}

TEST(Lqcc, TRN_11_7_ARequestAfterWhichAnotherWouldNotFitAsksForAnAck) {
  Lqcc lqcc(kPcie6Rate, WindowOf(10'000));
  EXPECT_FALSE(lqcc.OnSent(0, 3000, SentRequest{0, false})) << "6000 <= W";
  EXPECT_FALSE(lqcc.OnSent(0, 3000, SentRequest{1, false})) << "9000 <= W";
  EXPECT_TRUE(lqcc.OnSent(0, 3000, SentRequest{2, false})) << "12000 > W";
  EXPECT_FALSE(lqcc.OnSent(0, 3000, std::nullopt)) << "a read response";
}

TEST(Lqcc, TRN_11_7_AWindowCutBelowInFlightStillBringsAnAckBack) {
  Lqcc lqcc(kPcie6Rate, WindowOf(10'000));
  ASSERT_FALSE(lqcc.OnSent(0, 3000, SentRequest{0, false}));
  ASSERT_FALSE(lqcc.OnSent(0, 3000, SentRequest{1, false}));
  lqcc.OnCnp(1000);
  lqcc.Advance(4'000'000);  // W = 5000 < 6000 in flight, none asking
  ASSERT_DOUBLE_EQ(lqcc.window_bytes(), 5000.0);
  EXPECT_TRUE(lqcc.WindowAllows(3000))
      << "nothing in flight asks for an ACK: one more goes, asking";
  EXPECT_TRUE(lqcc.OnSent(4'000'000, 3000, SentRequest{2, false}));
  EXPECT_FALSE(lqcc.WindowAllows(3000)) << "now an ACK is on its way";
  lqcc.OnAcknowledged(4'500'000, 3, false);
  EXPECT_TRUE(lqcc.WindowAllows(3000)) << "nothing in flight";
}

TEST(Lqcc, TRN_11_7_ARequestAnsweredOrAskingAlreadyBringsAnAck) {
  Lqcc lqcc(kPcie6Rate, WindowOf(10'000));
  lqcc.OnSent(0, 3000, SentRequest{0, false});
  lqcc.OnSent(0, 3000, SentRequest{1, true});  // a LAST packet, or a READ
  lqcc.OnCnp(1000);
  lqcc.Advance(4'000'000);
  EXPECT_FALSE(lqcc.WindowAllows(3000)) << "the window waits for that ACK";
  lqcc.OnRewind(1);
  EXPECT_TRUE(lqcc.WindowAllows(3000))
      << "after a rewind the asking request is in flight no more";
}

TEST(Lqcc, TRN_11_7_TheWindowAloneHoldsSendingBack) {
  Lqcc lqcc(kPcie6Rate, WindowOf(100'000));
  lqcc.OnSent(0, 1000, SentRequest{0});
  lqcc.OnSent(0, 1000, std::nullopt);
  EXPECT_EQ(lqcc.next_send_ps(), 0u) << "no pacing";
  lqcc.OnCnp(20'000);
  lqcc.Advance(4'000'000);  // W = 50,000
  EXPECT_EQ(lqcc.window_bytes(), 50'000.0);
  EXPECT_EQ(lqcc.next_send_ps(), 0u) << "a cut narrows the window only";
  EXPECT_EQ(lqcc.rate_bps(), kPcie6Rate);
}

TEST(Lqcc, TRN_11_5_AcknowledgedBytesCountInAAndMarkedInM) {
  Lqcc lqcc(kPcie6Rate, LqccParams{});
  lqcc.OnSent(0, 1000, SentRequest{0});
  lqcc.OnSent(0, 2000, SentRequest{1});
  lqcc.OnSent(0, 3000, SentRequest{2});
  lqcc.OnAcknowledged(1000, 2, true);
  EXPECT_EQ(lqcc.acknowledged_bytes(), 3000u);
  EXPECT_EQ(lqcc.marked_bytes(), 3000u) << "the ACK carried BECN";
  EXPECT_EQ(lqcc.in_flight_bytes(), 3000u);
  lqcc.OnAcknowledged(2000, 3, false);
  lqcc.OnAcknowledged(3000, 3, true);  // acknowledges nothing new
  EXPECT_EQ(lqcc.acknowledged_bytes(), 6000u);
  EXPECT_EQ(lqcc.marked_bytes(), 3000u);
  EXPECT_EQ(lqcc.in_flight_bytes(), 0u);
  lqcc.Advance(4'000'000);  // F = M/A = 1/2
  EXPECT_DOUBLE_EQ(lqcc.alpha(), 15.0 / 16 + 1.0 / 32) << "(1 - g) + g x F";
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 131'072 * (1 - 0.96875 / 2));
  EXPECT_EQ(lqcc.acknowledged_bytes(), 0u) << "A cleared at the round's end";
  EXPECT_EQ(lqcc.marked_bytes(), 0u) << "M cleared at the round's end";
}

TEST(Lqcc, TRN_11_6_ACnpMakesTheRoundFullyCongested) {
  Lqcc lqcc(kPcie6Rate, LqccParams{});
  lqcc.OnSent(0, 1000, SentRequest{0});
  lqcc.OnAcknowledged(1000, 1, false);  // A = 1000, M = 0
  lqcc.OnCnp(2000);
  lqcc.Advance(4'000'000);
  EXPECT_DOUBLE_EQ(lqcc.alpha(), 1.0) << "F = 1 despite M = 0";
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 65'536.0);
  lqcc.Advance(8'000'000);  // the flag was cleared: a clean round
  EXPECT_DOUBLE_EQ(lqcc.alpha(), 15.0 / 16);
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 65'536.0)
      << "a clean round leaves W alone: acknowledgements grow it";
}

// A Lqcc with W_max 100,000 whose first round, CNP-flagged, has cut W to
// 50,000 at 4 us; nothing is in flight, and the least RTT so far is 3 us.
Lqcc CutToHalf() {
  Lqcc lqcc(kPcie6Rate, WindowOf(100'000));
  lqcc.OnSent(0, 100, SentRequest{0});
  lqcc.OnCnp(0);
  lqcc.OnAcknowledged(3'000'000, 1, true);
  lqcc.Advance(4'000'000);
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 50'000.0);
  return lqcc;
}

// TRN-11.9's growth for an unmarked acknowledgement of `acked` bytes, with
// the least RTT `rtt_us` and the default T_ramp of 2.5 us.
double Growth(double rtt_us, double acked, double window) {
  const double base_bdp = kPcie6Rate / 8 * rtt_us * 1e-6;  // bytes
  return base_bdp * (rtt_us / 2.5) * acked / window;
}

TEST(Lqcc, TRN_11_9_AnUnmarkedAckGrowsTheWindowByTheRampRule) {
  Lqcc lqcc = CutToHalf();
  lqcc.OnSent(5'000'000, 10'000, SentRequest{1});
  lqcc.OnAcknowledged(6'000'000, 2, false);  // a 1 us RTT
  EXPECT_EQ(lqcc.min_rtt_ps(), 1'000'000u);
  const double grown = 50'000 + Growth(1, 10'000, 50'000);
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), grown);
  EXPECT_NEAR(grown, 59'440.0, 1e-6) << "118 kB x 0.4 x 0.2 more";
}

TEST(Lqcc, TRN_11_9_AMarkedAckGrowsNothing) {
  Lqcc lqcc = CutToHalf();
  lqcc.OnSent(5'000'000, 10'000, SentRequest{1});
  lqcc.OnAcknowledged(6'000'000, 2, true);
  EXPECT_EQ(lqcc.min_rtt_ps(), 1'000'000u) << "a marked ACK still samples";
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 50'000.0);
  lqcc.OnAcknowledged(6'500'000, 2, false);  // acknowledges nothing new
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 50'000.0);
}

TEST(Lqcc, TRN_11_9_GrowthUsesTheLeastRttSampled) {
  Lqcc lqcc = CutToHalf();
  lqcc.OnSent(5'000'000, 1000, SentRequest{1});
  lqcc.OnSent(5'500'000, 1000, SentRequest{2});
  lqcc.OnAcknowledged(6'000'000, 3, true);  // the newest gives 0.5 us
  EXPECT_EQ(lqcc.min_rtt_ps(), 500'000u);
  lqcc.OnSent(6'200'000, 1000, SentRequest{3});
  lqcc.OnAcknowledged(7'800'000, 4, false);  // a 1.6 us sample
  EXPECT_EQ(lqcc.min_rtt_ps(), 500'000u);
  EXPECT_DOUBLE_EQ(lqcc.window_bytes(), 50'000 + Growth(0.5, 1000, 50'000));
}

TEST(Lqcc, TRN_11_9_EveryFlowGainsRateAlikeWhateverItsRtt) {
  // Each flow acknowledges one window, that is one RTT's worth: its rate
  // W / rtt rises by R x rtt / T_ramp / rtt per RTT, R / T_ramp per second.
  double rate_gain[2];
  const uint64_t rtts_ps[2] = {400'000, 800'000};
  for (int f = 0; f < 2; ++f) {
    Lqcc lqcc = CutToHalf();
    lqcc.OnSent(5'000'000, 50'000, SentRequest{1});
    lqcc.OnAcknowledged(5'000'000 + rtts_ps[f], 2, false);
    const double rtt_s = static_cast<double>(rtts_ps[f]) * 1e-12;
    rate_gain[f] = (lqcc.window_bytes() - 50'000) / rtt_s / rtt_s;
  }
  EXPECT_NEAR(rate_gain[0], rate_gain[1], 1e-6 * rate_gain[1]);
  EXPECT_NEAR(rate_gain[0], kPcie6Rate / 8 / 2.5e-6, 1e-6 * rate_gain[0])
      << "bytes/s per second: line rate regained in T_ramp";
}

TEST(Lqcc, TRN_11_9_WindowStopsAtWmax) {
  Lqcc lqcc = CutToHalf();
  lqcc.OnSent(5'000'000, 40'000, SentRequest{1});
  lqcc.OnAcknowledged(7'000'000, 2, false);  // 2 us: far more than needed
  EXPECT_EQ(lqcc.window_bytes(), 100'000.0);
}

TEST(Lqcc, TRN_11_6_WindowNeverFallsBelowWmin) {
  LqccParams p = WindowOf(100'000);
  p.min_window_bytes = 30'000;
  Lqcc lqcc(kPcie6Rate, p);
  lqcc.OnSent(0, 100, SentRequest{0});
  lqcc.OnCnp(0);
  lqcc.Advance(4'000'000);
  ASSERT_DOUBLE_EQ(lqcc.window_bytes(), 50'000.0);
  lqcc.OnCnp(4'000'000);
  lqcc.Advance(8'000'000);
  EXPECT_EQ(lqcc.window_bytes(), 30'000.0) << "25,000 would be below W_min";
}

TEST(Lqcc, TRN_11_6_RoundsEndEveryTrFromTheFirstPacket) {
  Lqcc lqcc(kPcie6Rate, LqccParams{});
  EXPECT_FALSE(lqcc.next_timer_ps().has_value()) << "no packet, no round";
  lqcc.OnSent(1000, 100, SentRequest{0});
  EXPECT_EQ(lqcc.next_timer_ps(), 4'001'000u);
  lqcc.Advance(4'000'999);
  EXPECT_EQ(lqcc.alpha(), 1.0) << "no round has ended";
  lqcc.Advance(12'001'000);
  EXPECT_DOUBLE_EQ(lqcc.alpha(), std::pow(15.0 / 16, 3))
      << "three clean rounds by then, each moving alpha towards F = 0";
  EXPECT_EQ(lqcc.next_timer_ps(), 16'001'000u);
}

TEST(Lqcc, TRN_11_7_RewindLeavesOnlyResentRequestsInFlight) {
  Lqcc lqcc(kPcie6Rate, LqccParams{});
  for (uint32_t psn = 10; psn <= 13; ++psn) {
    lqcc.OnSent(0, 1000, SentRequest{psn});
  }
  lqcc.OnRewind(12);
  EXPECT_EQ(lqcc.in_flight_bytes(), 2000u) << "PSNs 12 and 13 not resent";
  lqcc.OnSent(1000, 1000, SentRequest{12});
  EXPECT_EQ(lqcc.in_flight_bytes(), 3000u);
  lqcc.OnAcknowledged(2000, 13, false);
  EXPECT_EQ(lqcc.in_flight_bytes(), 0u);
  EXPECT_EQ(lqcc.acknowledged_bytes(), 3000u) << "10, 11 and the resent 12";
}

TEST(Lqcc, TRN_11_7_InFlightAccountingWrapsAcross0xFFFFFF) {
  Lqcc lqcc(kPcie6Rate, LqccParams{});
  lqcc.OnSent(0, 1000, SentRequest{0xFFFFFE});
  lqcc.OnSent(0, 2000, SentRequest{0xFFFFFF});
  lqcc.OnSent(0, 3000, SentRequest{0});
  lqcc.OnSent(0, 4000, SentRequest{1});
  lqcc.OnRewind(0xFFFFFF);
  EXPECT_EQ(lqcc.in_flight_bytes(), 1000u) << "0 and 1 lie after 0xFFFFFF";
  lqcc.OnSent(1000, 2000, SentRequest{0xFFFFFF});
  lqcc.OnSent(1000, 3000, SentRequest{0});
  lqcc.OnAcknowledged(2000, 0, true);
  EXPECT_EQ(lqcc.acknowledged_bytes(), 3000u) << "0xFFFFFE and 0xFFFFFF";
  EXPECT_EQ(lqcc.marked_bytes(), 3000u);
  EXPECT_EQ(lqcc.in_flight_bytes(), 3000u) << "PSN 0 lies after 0xFFFFFF";
  lqcc.OnAcknowledged(3000, 1, false);
  EXPECT_EQ(lqcc.in_flight_bytes(), 0u);
  EXPECT_EQ(lqcc.acknowledged_bytes(), 6000u);
}

TEST(CongestionControl, EveryNameCreatesItsControl) {
  EXPECT_EQ(CongestionControlNames(),
            (std::vector<std::string>{"none", "dcqcn", "lqcc"}));
  for (const std::string& name : CongestionControlNames()) {
    auto control = CreateCongestionControl(name, CongestionParams{});
    ASSERT_TRUE(control.ok()) << name << ": " << control.error().reason;
    EXPECT_EQ((*control)->name(), name);
    EXPECT_EQ((*control)->rate_bps(), kPcie6Rate) << name << " starts at R";
  }
}

TEST(CongestionControl, NoneNeitherPacesNorWindows) {
  auto none = CreateCongestionControl("none", CongestionParams{});
  ASSERT_TRUE(none.ok());
  CongestionControl& control = **none;
  control.OnSent(5, 1'000'000, SentRequest{0});
  control.OnCnp(10);
  control.Advance(1'000'000'000);
  EXPECT_EQ(control.next_send_ps(), 0u) << "no pacing";
  EXPECT_TRUE(control.WindowAllows(uint64_t{1} << 40)) << "no window";
  EXPECT_EQ(control.rate_bps(), kPcie6Rate) << "a CNP changes nothing";
  EXPECT_FALSE(control.next_timer_ps().has_value()) << "no timers";
}

TEST(CongestionControl, TRN_9_5_and_TRN_11_3_EachNamesItsFeedback) {
  const CongestionParams params;
  const auto none = CreateCongestionControl("none", params).value();
  EXPECT_FALSE(none->cnp_interval_ps()) << "no CNPs";
  EXPECT_FALSE(none->marks_return_as_becn());
  const auto dcqcn = CreateCongestionControl("dcqcn", params).value();
  EXPECT_EQ(dcqcn->cnp_interval_ps(), 50'000'000u) << "N = 50 us";
  EXPECT_FALSE(dcqcn->marks_return_as_becn()) << "CNPs for requests";
  const auto lqcc = CreateCongestionControl("lqcc", params).value();
  EXPECT_EQ(lqcc->cnp_interval_ps(), 4'000'000u) << "T_r, read responses";
  EXPECT_TRUE(lqcc->marks_return_as_becn()) << "BECN for requests";
}

TEST(CongestionControl, RejectsAnUnknownName) {
  auto control = CreateCongestionControl("cubic", CongestionParams{});
  ASSERT_FALSE(control.ok());
  EXPECT_NE(control.error().reason.find("'cubic'"), std::string::npos)
      << control.error().reason;
}

TEST(CongestionControl, TRN_10_5_and_TRN_11_8_RejectsParametersOutOfRange) {
  struct Case {
    const char* control;
    std::function<void(CongestionParams&)> spoil;
    const char* named;
  };
  const Case cases[] = {
      {"none", [](auto& p) { p.line_rate_bps = 0; }, "line_rate_bps"},
      {"lqcc", [](auto& p) { p.line_rate_bps = std::nan(""); },
       "line_rate_bps"},
      {"dcqcn", [](auto& p) { p.dcqcn.g = 0; }, "dcqcn.g"},
      {"dcqcn", [](auto& p) { p.dcqcn.g = 1.5; }, "dcqcn.g"},
      {"dcqcn", [](auto& p) { p.dcqcn.alpha_timer_ps = 0; },
       "dcqcn.alpha_timer_ps"},
      {"dcqcn", [](auto& p) { p.dcqcn.increase_timer_ps = 0; },
       "dcqcn.increase_timer_ps"},
      {"dcqcn", [](auto& p) { p.dcqcn.byte_counter = 0; },
       "dcqcn.byte_counter"},
      {"dcqcn", [](auto& p) { p.dcqcn.ai_fraction = 0; }, "dcqcn.ai_fraction"},
      {"dcqcn", [](auto& p) { p.dcqcn.hai_fraction = -0.01; },
       "dcqcn.hai_fraction"},
      {"dcqcn", [](auto& p) { p.dcqcn.min_rate_bps = 0; },
       "dcqcn.min_rate_bps"},
      {"dcqcn", [](auto& p) { p.dcqcn.min_rate_bps = 1e12; },
       "dcqcn.min_rate_bps"},
      {"dcqcn", [](auto& p) { p.dcqcn.initial_alpha = 1.5; },
       "dcqcn.initial_alpha"},
      {"dcqcn", [](auto& p) { p.dcqcn.cnp_interval_ps = 0; },
       "dcqcn.cnp_interval_ps"},
      {"lqcc", [](auto& p) { p.lqcc.round_ps = 0; }, "lqcc.round_ps"},
      {"lqcc", [](auto& p) { p.lqcc.g = 0; }, "lqcc.g"},
      {"lqcc", [](auto& p) { p.lqcc.min_window_bytes = 0; },
       "lqcc.min_window_bytes"},
      {"lqcc", [](auto& p) { p.lqcc.min_window_bytes = 131'073; },
       "lqcc.min_window_bytes"},
      {"lqcc", [](auto& p) { p.lqcc.max_window_bytes = 255; },
       "lqcc.min_window_bytes"},
      {"lqcc", [](auto& p) { p.lqcc.ramp_ps = 0; }, "lqcc.ramp_ps"},
  };
  for (const Case& c : cases) {
    CongestionParams params;
    c.spoil(params);
    auto control = CreateCongestionControl(c.control, params);
    ASSERT_FALSE(control.ok()) << c.control << " took a bad " << c.named;
    EXPECT_NE(control.error().reason.find(c.named), std::string::npos)
        << "the complaint names the parameter: " << control.error().reason;
  }
}

TEST(CongestionControl, TRN_10_5_and_TRN_11_8_AcceptsTheRangesEdges) {
  CongestionParams params;
  params.dcqcn.g = 1;
  params.dcqcn.initial_alpha = 0;
  params.dcqcn.min_rate_bps = params.line_rate_bps;
  params.lqcc.g = 1;
  params.lqcc.min_window_bytes = 131'072;  // = W_max
  for (const std::string& name : CongestionControlNames()) {
    auto control = CreateCongestionControl(name, params);
    EXPECT_TRUE(control.ok()) << name << ": " << control.error().reason;
  }
  params.dcqcn.g = 0;  // not dcqcn's business when lqcc is chosen
  EXPECT_TRUE(CreateCongestionControl("lqcc", params).ok());
}

}  // namespace
}  // namespace lq::transport
