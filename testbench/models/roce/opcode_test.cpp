// SPDX-License-Identifier: Apache-2.0
// Tests of the opcode table that both the builder and the parser use.
#include "models/roce/opcode.h"

#include <gtest/gtest.h>

#include <set>

namespace lq::roce {
namespace {

TEST(Opcode, TRN_4_1_TableHoldsTheRcSubsetAndCnp) {
  std::set<uint8_t> values;
  for (const OpcodeInfo& info : kOpcodeTable) {
    values.insert(static_cast<uint8_t>(info.opcode));
    EXPECT_EQ(FindOpcode(static_cast<uint8_t>(info.opcode)), &info)
        << info.name << " must be found by its value";
  }
  EXPECT_EQ(values.size(), kOpcodeTable.size()) << "no duplicate opcodes";
  for (uint8_t rc = 0x00; rc <= 0x14; ++rc) {
    EXPECT_NE(FindOpcode(rc), nullptr) << "RC opcode " << int{rc};
  }
  EXPECT_NE(FindOpcode(0x81), nullptr) << "RoCEv2 CNP";
  EXPECT_EQ(FindOpcode(0x15), nullptr) << "reserved RC opcode";
  EXPECT_EQ(FindOpcode(0x64), nullptr) << "UD is not supported";
  EXPECT_EQ(FindOpcode(0x80), nullptr) << "IB CNP 0x80 is not RoCEv2's";
}

TEST(Opcode, TRN_4_1_HeaderChainsAsIbaDefines) {
  auto headers = [](Opcode opcode) {
    return FindOpcode(static_cast<uint8_t>(opcode))->headers;
  };
  EXPECT_EQ(headers(Opcode::kWriteFirst), kHeaderReth) << "RETH on first";
  EXPECT_EQ(headers(Opcode::kWriteMiddle), 0) << "nothing on middle";
  EXPECT_EQ(headers(Opcode::kWriteOnlyWithImmediate),
            kHeaderReth | kHeaderImmDt)
      << "RETH and ImmDt on WRITE_ONLY_WITH_IMMEDIATE";
  EXPECT_EQ(headers(Opcode::kReadResponseMiddle), 0)
      << "no AETH on a middle read response";
  EXPECT_EQ(headers(Opcode::kAtomicAcknowledge),
            kHeaderAeth | kHeaderAtomicAckEth)
      << "AETH and AtomicAckETH";
  EXPECT_EQ(ExtensionHeadersSize(headers(Opcode::kCompareSwap)), 28u)
      << "AtomicETH is 28 bytes";
  EXPECT_EQ(ExtensionHeadersSize(headers(Opcode::kCnp)), 16u)
      << "CNP carries 16 reserved bytes";
}

TEST(Opcode, TRN_1_5_OnlyDataBearingPacketsAreEcnCapable) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    const bool control = info.opcode == Opcode::kAcknowledge ||
                         info.opcode == Opcode::kAtomicAcknowledge ||
                         info.opcode == Opcode::kCnp;
    EXPECT_EQ(info.ecn_capable, !control)
        << info.name << ": requests and read responses are ECT(0)";
  }
}

TEST(Opcode, TRN_4_1_DescribesUnknownOpcodesInHex) {
  EXPECT_EQ(DescribeOpcode(0x11), "ACKNOWLEDGE") << "table name";
  EXPECT_EQ(DescribeOpcode(0xAB), "opcode 0xAB") << "hex for unknown";
}

}  // namespace
}  // namespace lq::roce
