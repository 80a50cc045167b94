// SPDX-License-Identifier: Apache-2.0
// Tests of LcRegisters, the TL link controller's register block: the bus
// rules of DLL-8 on the generated register map, without a simulation.
#include "systemc/link/lc_registers.h"

#include <gtest/gtest.h>

#include <limits>

#include "generated/cpp/lc_regs.h"

namespace lq::link {
namespace {

namespace regs = lq::regs::lc;

class LcRegistersTest : public ::testing::Test {
 protected:
  LcRegistersTest() : registers_(0, Pulses(), [this] { return status_; }) {}

  LcPulses Pulses() {
    LcPulses pulses;
    pulses.retrain = [this] { ++retrains_; };
    pulses.inject_crc = [this] { ++crc_injections_; };
    return pulses;
  }

  LcStatus status_;
  int retrains_ = 0;
  int crc_injections_ = 0;
  LcRegisters registers_;
};

TEST_F(LcRegistersTest, DLL_8_1_UnknownOffsetIsABusError) {
  EXPECT_FALSE(registers_.Read(0x0FC).has_value());
  EXPECT_FALSE(registers_.Write(0x0FC, 1));
  EXPECT_EQ(regs::kIdMagic.Read(registers_.Read(regs::kIdOffset).value()),
            0x4C43u);
}

TEST_F(LcRegistersTest, DLL_8_3_IllegalWritesChangeNothing) {
  const uint32_t ctrl = registers_.Read(regs::kCtrlOffset).value();
  EXPECT_FALSE(registers_.Write(regs::kCtrlOffset, ctrl | (1u << 31)))
      << "reserved bit";
  const uint32_t width3 = (ctrl & ~regs::kCtrlTargetWidth.Mask()) |
                          (3u << regs::kCtrlTargetWidth.lsb);
  EXPECT_FALSE(
      registers_.Write(regs::kCtrlOffset, width3 | regs::kCtrlRetrain.Mask()))
      << "TARGET_WIDTH 3 is no width";
  EXPECT_EQ(retrains_, 0) << "no pulse of a rejected write takes effect";
  EXPECT_EQ(registers_.Read(regs::kCtrlOffset).value(), ctrl);
  EXPECT_FALSE(registers_.Write(regs::kReplayTimeoutOffset, 374))
      << "below the UCIe minimum of 375 (DLL-4.5)";
  EXPECT_TRUE(registers_.Write(regs::kReplayTimeoutOffset, 375));
  EXPECT_EQ(registers_.replay_timeout(), 375u);
  EXPECT_FALSE(registers_.Write(regs::kStatusOffset, 0))
      << "STATUS has no writable field";
}

TEST_F(LcRegistersTest, DLL_8_5_PulsesReadZeroAndIrqStatusIsWriteOneToClear) {
  const uint32_t ctrl = registers_.Read(regs::kCtrlOffset).value();
  EXPECT_TRUE(
      registers_.Write(regs::kCtrlOffset, ctrl | regs::kCtrlRetrain.Mask()));
  EXPECT_EQ(retrains_, 1);
  EXPECT_EQ(regs::kCtrlRetrain.Read(registers_.Read(regs::kCtrlOffset).value()),
            0u);
  registers_.Raise(regs::kIrqStatusLinkUp.Mask() |
                   regs::kIrqStatusCrcError.Mask());
  EXPECT_FALSE(registers_.Irq()) << "recorded but not enabled (DLL-7.6)";
  registers_.Write(regs::kIrqEnableOffset, regs::kIrqEnableLinkUp.Mask());
  EXPECT_TRUE(registers_.Irq());
  registers_.Write(regs::kIrqStatusOffset, regs::kIrqStatusLinkUp.Mask());
  EXPECT_FALSE(registers_.Irq());
  EXPECT_EQ(registers_.Read(regs::kIrqStatusOffset).value(),
            regs::kIrqStatusCrcError.Mask())
      << "writing 1 clears that bit only";
}

TEST_F(LcRegistersTest, DLL_8_4_CountersSaturateAndClear) {
  registers_.Write(regs::kIrqEnableOffset,
                   regs::kIrqEnableCounterOverflow.Mask());
  registers_.Count(LcCounter::kCrcErrors,
                   std::numeric_limits<uint32_t>::max() - 1);
  EXPECT_FALSE(registers_.Irq());
  registers_.Count(LcCounter::kCrcErrors, 5);
  EXPECT_EQ(registers_.Read(regs::kCrcErrorsOffset).value(), 0xFFFFFFFFu)
      << "saturates, never wraps";
  EXPECT_TRUE(registers_.Irq()) << "COUNTER_OVERFLOW";
  const uint32_t ctrl = registers_.Read(regs::kCtrlOffset).value();
  registers_.Write(regs::kCtrlOffset, ctrl | regs::kCtrlCntClear.Mask());
  EXPECT_EQ(registers_.Read(regs::kCrcErrorsOffset).value(), 0u);
}

TEST_F(LcRegistersTest, DLL_8_2_LowHalfReadLatchesTheHighHalf) {
  registers_.Count(LcCounter::kTxFlits, (uint64_t{3} << 32) + 7);
  EXPECT_EQ(registers_.Read(regs::kTxFlitsHiOffset).value(), 0u)
      << "HI shows what the last LO read latched";
  EXPECT_EQ(registers_.Read(regs::kTxFlitsLoOffset).value(), 7u);
  registers_.Count(LcCounter::kTxFlits, uint64_t{1} << 32);
  EXPECT_EQ(registers_.Read(regs::kTxFlitsHiOffset).value(), 3u)
      << "one consistent value, whatever counted since";
}

}  // namespace
}  // namespace lq::link
