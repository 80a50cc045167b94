// SPDX-License-Identifier: Apache-2.0
// Tests of the dcqcn.* and lqcc.* scenario keys (TRN-10.5, TRN-11.8): their
// defaults are the models' own, every key reaches its parameter, and what
// the key ranges cannot refuse is refused with the key's name.
#include "systemc/app/congestion_params.h"

#include <gtest/gtest.h>

#include "testbench/app/scenario_params.h"

namespace lq::app {
namespace {

constexpr double kLineRate = 944e9;

TEST(CongestionParams, TRN_10_5_And_TRN_11_8_DefaultsAreTheModels) {
  const auto read =
      ScenarioCongestionParams(ScenarioParams({}), kLineRate).value();
  const transport::DcqcnParams d;
  const transport::LqccParams l;
  EXPECT_EQ(read.line_rate_bps, kLineRate);
  EXPECT_EQ(read.dcqcn.g, d.g);
  EXPECT_EQ(read.dcqcn.alpha_timer_ps, d.alpha_timer_ps);
  EXPECT_EQ(read.dcqcn.increase_timer_ps, d.increase_timer_ps);
  EXPECT_EQ(read.dcqcn.byte_counter, d.byte_counter);
  EXPECT_EQ(read.dcqcn.fast_recovery_steps, d.fast_recovery_steps);
  EXPECT_EQ(read.dcqcn.ai_fraction, d.ai_fraction);
  EXPECT_EQ(read.dcqcn.hai_fraction, d.hai_fraction);
  EXPECT_EQ(read.dcqcn.min_rate_bps, d.min_rate_bps);
  EXPECT_EQ(read.dcqcn.initial_alpha, d.initial_alpha);
  EXPECT_EQ(read.dcqcn.cnp_interval_ps, d.cnp_interval_ps);
  EXPECT_EQ(read.lqcc.round_ps, l.round_ps);
  EXPECT_EQ(read.lqcc.max_window_bytes, l.max_window_bytes);
  EXPECT_EQ(read.lqcc.min_window_bytes, l.min_window_bytes);
  EXPECT_EQ(read.lqcc.g, l.g);
  EXPECT_EQ(read.lqcc.ramp_ps, l.ramp_ps);
}

TEST(CongestionParams, TRN_11_8_EveryKeyReachesItsParameter) {
  const auto read = ScenarioCongestionParams(
                        ScenarioParams({{"dcqcn.g", "0.5"},
                                        {"dcqcn.alpha_timer_ns", "11"},
                                        {"dcqcn.increase_timer_ns", "12"},
                                        {"dcqcn.byte_counter_bytes", "13"},
                                        {"dcqcn.fast_recovery_steps", "14"},
                                        {"dcqcn.ai_fraction", "0.25"},
                                        {"dcqcn.hai_fraction", "0.125"},
                                        {"dcqcn.min_rate_bps", "1000"},
                                        {"dcqcn.initial_alpha", "0.75"},
                                        {"dcqcn.cnp_interval_ns", "16"},
                                        {"lqcc.round_ns", "21"},
                                        {"lqcc.max_window_bytes", "22000"},
                                        {"lqcc.min_window_bytes", "23"},
                                        {"lqcc.g", "0.0625"},
                                        {"lqcc.ramp_ns", "24"}}),
                        kLineRate)
                        .value();
  EXPECT_EQ(read.dcqcn.g, 0.5);
  EXPECT_EQ(read.dcqcn.alpha_timer_ps, 11000u);
  EXPECT_EQ(read.dcqcn.increase_timer_ps, 12000u);
  EXPECT_EQ(read.dcqcn.byte_counter, 13u);
  EXPECT_EQ(read.dcqcn.fast_recovery_steps, 14u);
  EXPECT_EQ(read.dcqcn.ai_fraction, 0.25);
  EXPECT_EQ(read.dcqcn.hai_fraction, 0.125);
  EXPECT_EQ(read.dcqcn.min_rate_bps, 1000);
  EXPECT_EQ(read.dcqcn.initial_alpha, 0.75);
  EXPECT_EQ(read.dcqcn.cnp_interval_ps, 16000u);
  EXPECT_EQ(read.lqcc.round_ps, 21000u);
  EXPECT_EQ(read.lqcc.max_window_bytes, 22000u);
  EXPECT_EQ(read.lqcc.min_window_bytes, 23u);
  EXPECT_EQ(read.lqcc.g, 0.0625);
  EXPECT_EQ(read.lqcc.ramp_ps, 24000u);
}

TEST(CongestionParams, TRN_11_8_WindowsOutOfOrderAreBadInput_fail) {
  const auto read = ScenarioCongestionParams(
      ScenarioParams({{"lqcc.min_window_bytes", "200000"}}), kLineRate);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().reason.find("lqcc.min_window_bytes"),
            std::string::npos)
      << read.error().reason;
}

TEST(CongestionParams, TRN_10_5_MinimumRateAboveTheLineIsBadInput_fail) {
  const auto read = ScenarioCongestionParams(
      ScenarioParams({{"dcqcn.min_rate_bps", "1e12"}}), kLineRate);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().reason.find("dcqcn.min_rate_bps"), std::string::npos)
      << read.error().reason;
}

}  // namespace
}  // namespace lq::app
