// SPDX-License-Identifier: Apache-2.0
// TrapName against the privileged spec's mcause table.
#include <gtest/gtest.h>

#include <string>

#include "models/riscv/rv32_isa.h"

namespace lq::riscv {
namespace {

TEST(TrapName, NamesTheExceptionsTheHartRaises) {
  EXPECT_EQ(std::string(TrapName(1)), "instruction access fault");
  EXPECT_EQ(std::string(TrapName(2)), "illegal instruction");
  EXPECT_EQ(std::string(TrapName(3)), "breakpoint");
  EXPECT_EQ(std::string(TrapName(5)), "load access fault");
  EXPECT_EQ(std::string(TrapName(6)), "store/AMO address misaligned");
  EXPECT_EQ(std::string(TrapName(11)), "environment call from M-mode");
}

TEST(TrapName, NamesInterruptsByTheirBit31) {
  EXPECT_EQ(std::string(TrapName(0x80000007u)), "machine timer interrupt");
  EXPECT_EQ(std::string(TrapName(0x8000000bu)), "machine external interrupt");
  EXPECT_EQ(std::string(TrapName(0x80000005u)), "reserved interrupt");
}

TEST(TrapName, CallsUnusedCodesReserved) {
  EXPECT_EQ(std::string(TrapName(10)), "reserved");
  EXPECT_EQ(std::string(TrapName(16)), "reserved");
  EXPECT_EQ(std::string(TrapName(0x7fffffffu)), "reserved");
}

}  // namespace
}  // namespace lq::riscv
