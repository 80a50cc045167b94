// SPDX-License-Identifier: Apache-2.0
// Tests of the RV32C expander against the GNU assembler's encodings.
#include "models/riscv/compressed.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace lq::riscv {
namespace {

struct Expansion {
  uint16_t parcel;
  uint32_t word;
  const char* text;
};

// Each compressed instruction and its 32-bit form, both assembled by
// riscv64-unknown-elf-as -march=rv32imac (the uncompressed one under
// .option norvc), covering every RV32C instruction at its immediate limits.
constexpr Expansion kExpansions[] = {
    {0x0040, 0x00410413, "c.addi4spn s0,sp,4"},
    {0x1ffc, 0x3fc10793, "c.addi4spn a5,sp,1020"},
    {0x4104, 0x00052483, "c.lw s1,0(a0)"},
    {0x5c7c, 0x07c42783, "c.lw a5,124(s0)"},
    {0xc144, 0x00952223, "c.sw s1,4(a0)"},
    {0xdfe0, 0x0687ae23, "c.sw s0,124(a5)"},
    {0x0001, 0x00000013, "c.nop"},
    {0x1281, 0xfe028293, "c.addi t0,-32"},
    {0x0ffd, 0x01ff8f93, "c.addi t6,31"},
    {0x2ffd, 0x7fe000ef, "c.jal .+2046"},
    {0x3001, 0x801ff0ef, "c.jal .-2048"},
    {0x537d, 0xfff00313, "c.li t1,-1"},
    {0x40fd, 0x01f00093, "c.li ra,31"},
    {0x7101, 0xe0010113, "c.addi16sp sp,-512"},
    {0x617d, 0x1f010113, "c.addi16sp sp,496"},
    {0x6185, 0x000011b7, "c.lui gp,0x1"},
    {0x7381, 0xfffe03b7, "c.lui t2,0xfffe0"},
    {0x6ffd, 0x0001ffb7, "c.lui t6,0x1f"},
    {0x807d, 0x01f45413, "c.srli s0,31"},
    {0x8485, 0x4014d493, "c.srai s1,1"},
    {0x9901, 0xfe057513, "c.andi a0,-32"},
    {0x89bd, 0x00f5f593, "c.andi a1,15"},
    {0x8e15, 0x40d60633, "c.sub a2,a3"},
    {0x8f3d, 0x00f74733, "c.xor a4,a5"},
    {0x8c45, 0x00946433, "c.or s0,s1"},
    {0x8d6d, 0x00b57533, "c.and a0,a1"},
    {0xa009, 0x0020006f, "c.j .+2"},
    {0xb001, 0x801ff06f, "c.j .-2048"},
    {0xcc7d, 0x0e040f63, "c.beqz s0,.+254"},
    {0xd381, 0xf00780e3, "c.beqz a5,.-256"},
    {0xe481, 0x00049463, "c.bnez s1,.+8"},
    {0xfd7d, 0xfe051fe3, "c.bnez a0,.-2"},
    {0x00fe, 0x01f09093, "c.slli ra,31"},
    {0x0f86, 0x001f9f93, "c.slli t6,1"},
    {0x50fe, 0x0fc12083, "c.lwsp ra,252(sp)"},
    {0x4f82, 0x00012f83, "c.lwsp t6,0(sp)"},
    {0x8082, 0x00008067, "c.jr ra"},
    {0x8f82, 0x000f8067, "c.jr t6"},
    {0x829a, 0x006002b3, "c.mv t0,t1"},
    {0x9002, 0x00100073, "c.ebreak"},
    {0x9382, 0x000380e7, "c.jalr t2"},
    {0x9426, 0x00940433, "c.add s0,s1"},
    {0x9f86, 0x001f8fb3, "c.add t6,ra"},
    {0xdf86, 0x0e112e23, "c.swsp ra,252(sp)"},
    {0xc27e, 0x01f12223, "c.swsp t6,4(sp)"},
};

TEST(CompressedTest, ExpandsEveryRv32cInstructionAsTheAssemblerDoes) {
  for (const Expansion& e : kExpansions) {
    EXPECT_EQ(ExpandCompressed(e.parcel), e.word)
        << e.text << ": the hart would execute a different instruction";
  }
}

TEST(CompressedTest, RejectsReservedAndRv64OnlyEncodings) {
  const struct {
    uint16_t parcel;
    const char* why;
  } kIllegal[] = {
      {0x0000, "all-zero parcel is defined illegal"},
      {0x0010, "c.addi4spn with a zero immediate is reserved"},
      {0x2000, "c.fld needs the D extension"},
      {0x6000, "c.flw needs the F extension"},
      {0x8000, "quadrant 0 funct3 100 is reserved"},
      {0xa000, "c.fsd needs the D extension"},
      {0xe000, "c.fsw needs the F extension"},
      {0x6101, "c.addi16sp with a zero immediate is reserved"},
      {0x6081, "c.lui with a zero immediate is reserved"},
      {0x9001, "c.srli with shamt[5] set is RV64 only"},
      {0x9401, "c.srai with shamt[5] set is RV64 only"},
      {0x9c01, "c.subw is RV64 only"},
      {0x9c21, "c.addw is RV64 only"},
      {0x1002, "c.slli with shamt[5] set is RV64 only"},
      {0x4002, "c.lwsp into x0 is reserved"},
      {0x8002, "c.jr x0 is reserved"},
      {0x2002, "c.fldsp needs the D extension"},
      {0x6002, "c.flwsp needs the F extension"},
      {0xa002, "c.fsdsp needs the D extension"},
      {0xe002, "c.fswsp needs the F extension"},
  };
  for (const auto& c : kIllegal) {
    EXPECT_EQ(ExpandCompressed(c.parcel), 0u) << c.why;
  }
}

TEST(CompressedTest, RejectsFullLengthParcels) {
  EXPECT_EQ(ExpandCompressed(0x0013), 0u)
      << "a parcel ending in 11 starts a 32-bit instruction, not a "
         "compressed one";
}

}  // namespace
}  // namespace lq::riscv
