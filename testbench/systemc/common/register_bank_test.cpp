// SPDX-License-Identifier: Apache-2.0
// Tests of RegisterBank on a small made-up block: the bus rules of DLL-8.1
// to DLL-8.5 that every register block built on it inherits.
#include "systemc/common/register_bank.h"

#include <gtest/gtest.h>

#include <array>

namespace lq {
namespace {

using regs::Access;

// CTRL: RW mode (bits 1:0), W1S go (bit 4); STATUS: RO; EVENTS: W1C.
constexpr std::array<regs::Field, 2> kCtrlFields{{
    {"MODE", 0, 2, Access::kReadWrite, 1},
    {"GO", 4, 1, Access::kWrite1Pulse, 0},
}};
constexpr std::array<regs::Field, 1> kStatusFields{{
    {"STATE", 0, 8, Access::kReadOnly, 0},
}};
constexpr std::array<regs::Field, 1> kEventsFields{{
    {"CAUSES", 0, 4, Access::kWrite1Clear, 0},
}};
constexpr std::array<regs::Register, 3> kRegisters{{
    {"CTRL", 0x0, 0x1, {kCtrlFields.data(), kCtrlFields.size()}},
    {"STATUS", 0x4, 0x0, {kStatusFields.data(), kStatusFields.size()}},
    {"EVENTS", 0x8, 0x0, {kEventsFields.data(), kEventsFields.size()}},
}};

TEST(RegisterBank, DLL_8_1_AnOffsetNoRegisterHoldsIsABusError) {
  RegisterBank bank(kRegisters);
  EXPECT_FALSE(bank.Read(0xC).has_value());
  EXPECT_FALSE(bank.Write(0xC, 0));
  EXPECT_EQ(bank.Read(0x0).value(), 0x1u) << "reset value";
}

TEST(RegisterBank, DLL_8_3_RejectedWritesChangeNothing) {
  RegisterBank bank(kRegisters);
  int pulses = 0;
  RegisterBank::Hooks hooks;
  hooks.legal = [](uint32_t value) { return (value & 0x3) != 0x3; };
  hooks.written = [&](uint32_t) { ++pulses; };
  bank.Hook(0x0, hooks);
  EXPECT_FALSE(bank.Write(0x0, 0x2 | (1u << 8))) << "a reserved bit";
  EXPECT_FALSE(bank.Write(0x0, 0x3 | (1u << 4))) << "a value the hook refuses";
  EXPECT_FALSE(bank.Write(0x4, 0x5)) << "no writable field";
  EXPECT_EQ(pulses, 0) << "no side effect of a rejected write";
  EXPECT_EQ(bank.value(0x0), 0x1u);
  EXPECT_TRUE(bank.Write(0x0, 0x2 | (1u << 4)));
  EXPECT_EQ(pulses, 1);
}

TEST(RegisterBank, DLL_8_5_PulsesReadZeroAndW1cClearsOnlyItsOnes) {
  RegisterBank bank(kRegisters);
  bank.Write(0x0, 0x2 | (1u << 4));
  EXPECT_EQ(bank.Read(0x0).value(), 0x2u) << "the W1S bit reads 0";
  bank.Set(0x8, 0b1011);  // Hardware records causes.
  EXPECT_TRUE(bank.Write(0x8, 0b0010));
  EXPECT_EQ(bank.Read(0x8).value(), 0b1001u);
}

TEST(RegisterBank, DLL_8_2_ReadHookGivesTheLiveValueWithinItsFields) {
  RegisterBank bank(kRegisters);
  RegisterBank::Hooks hooks;
  hooks.read = [] { return 0xABCDu; };
  bank.Hook(0x4, hooks);
  EXPECT_EQ(bank.Read(0x4).value(), 0xCDu) << "reserved bits read 0";
}

}  // namespace
}  // namespace lq
