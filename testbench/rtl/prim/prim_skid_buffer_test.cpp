// SPDX-License-Identifier: Apache-2.0
// Verilator tests of prim_skid_buffer: no loss and no reordering under idle
// cycles and backpressure, one beat per cycle when not stalled, and a
// registered in_ready_o.
#include <gtest/gtest.h>

#include <deque>

#include "Vprim_skid_buffer_w1936.h"
#include "Vprim_skid_buffer_w8.h"
#include "models/common/bytes.h"
#include "systemc/common/wide_bytes.h"
#include "testbench/rtl/common/clocked_model.h"
#include "testbench/rtl/common/stream_scoreboard.h"

namespace lq::rtl {
namespace {

// The parameter variants built by CMakeLists.txt (Width = 8 * kBeatBytes).
struct Width8 {
  using Model = Vprim_skid_buffer_w8;
  static constexpr size_t kBeatBytes = 1;
};
struct Width1936 {
  using Model = Vprim_skid_buffer_w1936;
  static constexpr size_t kBeatBytes = 242;  // A pcie6 flit without its CRC.
};

// The output register and the skid register.
constexpr size_t kCapacity = 2;
constexpr int kCycles = 20000;
constexpr int kPhaseCycles = 250;
constexpr uint32_t kSeed = 20240604;

template <typename Variant>
class SkidBufferTest : public ::testing::Test {
 protected:
  SkidBufferTest() { sim_.Reset(); }
  ClockedModel<typename Variant::Model> sim_;
};

using Variants = ::testing::Types<Width8, Width1936>;
TYPED_TEST_SUITE(SkidBufferTest, Variants);

TYPED_TEST(SkidBufferTest, KeepsOrderWithoutLossUnderBackpressure) {
  auto& dut = this->sim_.dut();
  int delivered = 0;
  int skid_cycles = 0;
  RunStreamScoreboard(
      this->sim_, {TypeParam::kBeatBytes, kCycles, kPhaseCycles, kSeed},
      [&](const std::deque<Bytes>& expected, int cycle) {
        ASSERT_EQ(dut.in_ready_o, expected.size() < kCapacity)
            << "in_ready_o must drop only when both registers hold a beat, "
               "cycle "
            << cycle;
        ASSERT_EQ(dut.out_valid_o, !expected.empty())
            << "out_valid_o must mean 'holds a beat', cycle " << cycle;
        skid_cycles += expected.size() == kCapacity;
      },
      delivered);
  EXPECT_GT(delivered, kCycles / 4) << "too little traffic to trust the run";
  EXPECT_GT(skid_cycles, 0) << "the run never used the skid register";
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(SkidBufferTest, PassesOneBeatPerCycleWhenNotStalled) {
  constexpr int kBeats = 1000;
  auto& dut = this->sim_.dut();
  dut.in_valid_i = 1;
  dut.out_ready_i = 1;
  int delivered = 0;
  // One cycle of latency through the output register, then a beat per cycle.
  for (int cycle = 0; cycle < kBeats + 1; ++cycle) {
    Drive(dut.in_data_i,
          Bytes(TypeParam::kBeatBytes, static_cast<uint8_t>(cycle)));
    this->sim_.Settle();
    ASSERT_TRUE(dut.in_ready_o) << "an unstalled buffer must never push back";
    if (dut.out_valid_o) {
      EXPECT_EQ(Sample(dut.out_data_o, TypeParam::kBeatBytes),
                Bytes(TypeParam::kBeatBytes, static_cast<uint8_t>(cycle - 1)))
          << "the beat of the previous cycle must come out now";
      ++delivered;
    }
    this->sim_.Tick();
  }
  EXPECT_EQ(delivered, kBeats) << "throughput below one beat per cycle";
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(SkidBufferTest, InReadyDoesNotFollowOutReadyInTheSameCycle) {
  auto& dut = this->sim_.dut();
  dut.in_valid_i = 1;
  Drive(dut.in_data_i, Bytes(TypeParam::kBeatBytes, 0x11));
  dut.out_ready_i = 0;
  this->sim_.Tick();  // The first beat fills the output register.
  for (const bool out_ready : {false, true}) {
    dut.out_ready_i = out_ready;
    this->sim_.Settle();
    EXPECT_TRUE(dut.in_ready_o)
        << "in_ready_o must come from a flop, not from out_ready_i";
  }
  dut.out_ready_i = 0;
  this->sim_.Tick();  // The second beat lands in the skid register.
  for (const bool out_ready : {false, true}) {
    dut.out_ready_i = out_ready;
    this->sim_.Settle();
    EXPECT_FALSE(dut.in_ready_o)
        << "a full skid register must refuse input for the whole cycle";
  }
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

}  // namespace
}  // namespace lq::rtl
