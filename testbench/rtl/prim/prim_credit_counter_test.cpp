// SPDX-License-Identifier: Apache-2.0
// Verilator tests of prim_credit_counter as the per-VC transmit credit of
// docs/spec/dll.md §5: load at link-up, one credit per new PAYLOAD flit,
// cumulative returns, and its assertions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "Vprim_credit_counter.h"
#include "testbench/rtl/common/clocked_model.h"

namespace lq::rtl {
namespace {

// The default Width, as wide as the 12-bit credit counts of the DLP
// ([DLL-5.5]).
constexpr uint32_t kWidth = 12;
constexpr uint32_t kMaxCount = (1u << kWidth) - 1;
constexpr int kCycles = 50000;
constexpr uint32_t kSeed = 20240606;
constexpr uint32_t kInitialCredits = 64;  // The default INIT(v) of dll.md §9.

class CreditCounterTest : public ::testing::Test {
 protected:
  CreditCounterTest() {
    Idle();
    sim_.Reset();
  }

  void Idle() {
    dut().load_i = 0;
    dut().load_value_i = 0;
    dut().consume_i = 0;
    dut().return_i = 0;
    dut().return_count_i = 0;
  }

  void Load(uint32_t value) {
    Idle();
    dut().load_i = 1;
    dut().load_value_i = value;
    sim_.Tick();
    Idle();
  }

  Vprim_credit_counter& dut() { return sim_.dut(); }

  ClockedModel<Vprim_credit_counter> sim_;
};

TEST_F(CreditCounterTest, DLL_5_3_TracksLimitMinusConsumedUnderRandomTraffic) {
  std::mt19937 rng(kSeed);
  std::bernoulli_distribution want_to_send(0.7);
  std::bernoulli_distribution update_arrives(0.2);
  std::uniform_int_distribution<uint32_t> freed(0, 8);
  Load(kInitialCredits);
  uint32_t available = kInitialCredits;
  int sent = 0;
  int blocked = 0;
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    // The receiver frees at most what was sent, so the count stays <= INIT.
    const uint32_t outstanding = kInitialCredits - available;
    dut().return_i = update_arrives(rng);
    dut().return_count_i =
        dut().return_i ? std::min(freed(rng), outstanding) : 0;
    sim_.Settle();
    ASSERT_EQ(dut().count_o, available)
        << "count_o must be LIMIT - CONSUMED, cycle " << cycle;
    ASSERT_EQ(dut().nonzero_o, available != 0)
        << "nonzero_o must say whether a flit may be sent, cycle " << cycle;
    // A sender spends a credit only when nonzero_o allows it ([DLL-5.3]).
    const bool wants = want_to_send(rng);
    dut().consume_i = wants && dut().nonzero_o;
    sent += dut().consume_i;
    blocked += wants && !dut().nonzero_o;
    available += dut().return_count_i;
    available -= dut().consume_i;
    sim_.Tick();
  }
  EXPECT_GT(sent, kCycles / 10) << "too little traffic to trust the run";
  EXPECT_GT(blocked, 0) << "the run never ran out of credit";
  EXPECT_EQ(sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TEST_F(CreditCounterTest, DLL_5_3_LastCreditClearsNonzero) {
  constexpr uint32_t kCredits = 3;
  Load(kCredits);
  for (uint32_t i = 0; i < kCredits; ++i) {
    sim_.Settle();
    ASSERT_TRUE(dut().nonzero_o) << "credit " << i << " should still be there";
    dut().consume_i = 1;
    sim_.Tick();
  }
  Idle();
  sim_.Settle();
  EXPECT_EQ(dut().count_o, 0u) << "all credits spent";
  EXPECT_FALSE(dut().nonzero_o) << "no flit may be sent at zero credit";
  EXPECT_EQ(sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TEST_F(CreditCounterTest, DLL_5_6_ReturnAndConsumeInOneCycleBothCount) {
  constexpr uint32_t kCredits = 5;
  constexpr uint32_t kReturned = 7;
  Load(kCredits);
  dut().consume_i = 1;
  dut().return_i = 1;
  dut().return_count_i = kReturned;
  sim_.Tick();
  Idle();
  sim_.Settle();
  EXPECT_EQ(dut().count_o, kCredits + kReturned - 1)
      << "a returned batch and a spent credit in one cycle must both apply";
  EXPECT_EQ(sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TEST_F(CreditCounterTest, DLL_5_9_LoadReplacesTheCount) {
  Load(kInitialCredits);
  dut().consume_i = 1;
  sim_.Tick();
  Load(kMaxCount);
  sim_.Settle();
  EXPECT_EQ(dut().count_o, kMaxCount)
      << "a new link-up starts afresh from the advertised credits";
  EXPECT_EQ(sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TEST_F(CreditCounterTest, DLL_5_3_ConsumeAtZeroTripsAssertion_fail) {
  Load(0);
  dut().consume_i = 1;  // A sender that ignores nonzero_o.
  sim_.Tick();
  EXPECT_GT(sim_.assertion_failures(), 0)
      << "sending without credit must be caught by the RTL's assertion";
}

TEST_F(CreditCounterTest, OverflowTripsAssertion_fail) {
  Load(kMaxCount);
  dut().return_i = 1;  // More credits returned than were ever given.
  dut().return_count_i = 1;
  sim_.Tick();
  EXPECT_GT(sim_.assertion_failures(), 0)
      << "a count past 2^Width - 1 must be caught, not wrapped silently";
}

}  // namespace
}  // namespace lq::rtl
