// SPDX-License-Identifier: Apache-2.0
// Verilator tests of prim_fifo: order, no loss, full and empty, under idle
// cycles and backpressure, for several depths and widths.
#include <gtest/gtest.h>

#include <deque>

#include "Vprim_fifo_d16.h"
#include "Vprim_fifo_d2.h"
#include "Vprim_fifo_d5.h"
#include "models/common/bytes.h"
#include "systemc/common/wide_bytes.h"
#include "testbench/rtl/common/clocked_model.h"
#include "testbench/rtl/common/stream_scoreboard.h"

namespace lq::rtl {
namespace {

// The parameter variants built by CMakeLists.txt (Width = 8 * kBeatBytes).
struct Depth2Width8 {
  using Model = Vprim_fifo_d2;
  static constexpr size_t kBeatBytes = 1;
  static constexpr size_t kDepth = 2;
};
struct Depth5Width16 {
  using Model = Vprim_fifo_d5;
  static constexpr size_t kBeatBytes = 2;
  static constexpr size_t kDepth = 5;
};
struct Depth16Width72 {
  using Model = Vprim_fifo_d16;
  static constexpr size_t kBeatBytes = 9;  // Wider than 64 bits: a VlWide port.
  static constexpr size_t kDepth = 16;
};

constexpr int kCycles = 20000;
constexpr int kPhaseCycles = 250;
constexpr uint32_t kSeed = 20240603;

template <typename Variant>
class FifoTest : public ::testing::Test {
 protected:
  FifoTest() { sim_.Reset(); }

  typename Variant::Model& dut() { return sim_.dut(); }

  // Offers one beat with out_ready_i low, and takes the edge.
  void Push(ByteView beat) {
    dut().in_valid_i = 1;
    Drive(dut().in_data_i, beat);
    dut().out_ready_i = 0;
    sim_.Tick();
  }

  ClockedModel<typename Variant::Model> sim_;
};

using Variants = ::testing::Types<Depth2Width8, Depth5Width16, Depth16Width72>;
TYPED_TEST_SUITE(FifoTest, Variants);

TYPED_TEST(FifoTest, KeepsOrderWithoutLossUnderBackpressure) {
  constexpr size_t kDepth = TypeParam::kDepth;
  auto& dut = this->dut();
  int delivered = 0;
  int full_cycles = 0;
  int empty_cycles = 0;
  RunStreamScoreboard(
      this->sim_, {TypeParam::kBeatBytes, kCycles, kPhaseCycles, kSeed},
      [&](const std::deque<Bytes>& expected, int cycle) {
        ASSERT_EQ(dut.count_o, expected.size())
            << "count_o disagrees with the beats held, cycle " << cycle;
        ASSERT_EQ(dut.in_ready_o, expected.size() < kDepth)
            << "in_ready_o must mean exactly 'not full', cycle " << cycle;
        ASSERT_EQ(dut.out_valid_o, !expected.empty())
            << "out_valid_o must mean exactly 'not empty', cycle " << cycle;
        full_cycles += expected.size() == kDepth;
        empty_cycles += expected.empty();
      },
      delivered);
  EXPECT_GT(delivered, kCycles / 4) << "too little traffic to trust the run";
  EXPECT_GT(full_cycles, 0) << "the run never filled the FIFO";
  EXPECT_GT(empty_cycles, 0) << "the run never emptied the FIFO";
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(FifoTest, FillsToDepthThenDrainsInOrder) {
  constexpr size_t kDepth = TypeParam::kDepth;
  auto& dut = this->dut();
  std::vector<Bytes> beats;
  for (size_t i = 0; i <= kDepth; ++i) {
    beats.emplace_back(TypeParam::kBeatBytes, static_cast<uint8_t>(0xA0 + i));
  }
  for (const Bytes& beat : beats) {  // One more than fits: the last must wait.
    this->Push(beat);
  }
  this->sim_.Settle();
  EXPECT_EQ(dut.count_o, kDepth) << "a full FIFO holds exactly Depth beats";
  EXPECT_FALSE(dut.in_ready_o) << "a full FIFO must refuse input";

  dut.in_valid_i = 0;
  dut.out_ready_i = 1;
  for (size_t i = 0; i < kDepth; ++i) {
    this->sim_.Settle();
    ASSERT_TRUE(dut.out_valid_o) << "beat " << i << " missing while draining";
    EXPECT_EQ(Sample(dut.out_data_o, TypeParam::kBeatBytes), beats[i])
        << "drained out of order at beat " << i;
    this->sim_.Tick();
  }
  this->sim_.Settle();
  EXPECT_FALSE(dut.out_valid_o) << "the refused beat must not have entered";
  EXPECT_EQ(dut.count_o, 0u) << "a drained FIFO is empty";
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(FifoTest, InputReachesOutputOnlyAfterAnEdge) {
  auto& dut = this->dut();
  dut.in_valid_i = 1;
  Drive(dut.in_data_i, Bytes(TypeParam::kBeatBytes, 0x5A));
  dut.out_ready_i = 1;
  this->sim_.Settle();
  EXPECT_FALSE(dut.out_valid_o)
      << "no combinational path from in_* to out_* (registered storage)";
  this->sim_.Tick();
  dut.in_valid_i = 0;
  this->sim_.Settle();
  EXPECT_TRUE(dut.out_valid_o) << "a beat is visible one edge after it entered";
}

TYPED_TEST(FifoTest, StreamsOneBeatPerCycle) {
  constexpr int kBeats = 100;
  auto& dut = this->dut();
  dut.in_valid_i = 1;
  dut.out_ready_i = 1;
  int delivered = 0;
  // One cycle of latency through the storage, then a beat every cycle.
  for (int cycle = 0; cycle < kBeats + 1; ++cycle) {
    Drive(dut.in_data_i,
          Bytes(TypeParam::kBeatBytes, static_cast<uint8_t>(cycle)));
    this->sim_.Settle();
    delivered += dut.out_valid_o;
    this->sim_.Tick();
  }
  EXPECT_EQ(delivered, kBeats)
      << "a FIFO with Depth >= 2 must not halve throughput";
}

}  // namespace
}  // namespace lq::rtl
