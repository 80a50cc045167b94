// SPDX-License-Identifier: Apache-2.0
// RV32IMAC instruction encoding: opcodes, field extraction, CSR numbers and
// trap causes, plus encoders used to expand compressed instructions and to
// write test programs.
#pragma once

#include <cstdint>

namespace lq::riscv {

// Major opcodes (bits 6:0) of 32-bit instructions.
enum Opcode : uint32_t {
  kOpLoad = 0x03,
  kOpMiscMem = 0x0f,
  kOpImm = 0x13,
  kOpAuipc = 0x17,
  kOpStore = 0x23,
  kOpAmo = 0x2f,
  kOpReg = 0x33,
  kOpLui = 0x37,
  kOpBranch = 0x63,
  kOpJalr = 0x67,
  kOpJal = 0x6f,
  kOpSystem = 0x73,
};

// Machine-mode CSRs the hart implements (docs/board.md lists their rules).
enum Csr : uint32_t {
  kCsrMstatus = 0x300,
  kCsrMisa = 0x301,
  kCsrMie = 0x304,
  kCsrMtvec = 0x305,
  kCsrMcountinhibit = 0x320,
  kCsrMstatush = 0x310,
  kCsrMscratch = 0x340,
  kCsrMepc = 0x341,
  kCsrMcause = 0x342,
  kCsrMtval = 0x343,
  kCsrMip = 0x344,
  kCsrMcycle = 0xb00,
  kCsrMinstret = 0xb02,
  kCsrMcycleh = 0xb80,
  kCsrMinstreth = 0xb82,
  kCsrCycle = 0xc00,
  kCsrTime = 0xc01,
  kCsrInstret = 0xc02,
  kCsrCycleh = 0xc80,
  kCsrTimeh = 0xc81,
  kCsrInstreth = 0xc82,
  kCsrMvendorid = 0xf11,
  kCsrMarchid = 0xf12,
  kCsrMimpid = 0xf13,
  kCsrMhartid = 0xf14,
};

// Synchronous exception causes (mcause with the interrupt bit clear).
enum class Exception : uint32_t {
  kInstructionAccessFault = 1,
  kIllegalInstruction = 2,
  kBreakpoint = 3,
  kLoadAddressMisaligned = 4,
  kLoadAccessFault = 5,
  kStoreAddressMisaligned = 6,
  kStoreAccessFault = 7,
  kEcallFromM = 11,
};

// What mcause names, e.g. "load access fault" or "machine timer
// interrupt"; "reserved" for a code the privileged spec leaves unused.
const char* TrapName(uint32_t mcause);

// Interrupt numbers: bit positions in mip/mie, and mcause with bit 31 set.
enum class Interrupt : uint32_t {
  kMachineSoftware = 3,
  kMachineTimer = 7,
  kMachineExternal = 11,
};
constexpr uint32_t kMcauseInterrupt = 0x80000000u;

// mstatus fields of an M-mode-only hart.
constexpr uint32_t kMstatusMie = 1u << 3;
constexpr uint32_t kMstatusMpie = 1u << 7;
constexpr uint32_t kMstatusMpp = 3u << 11;  // Always M: hardwired to 3.

// misa of RV32IMAC: MXL = 1 (32-bit), extensions A, C, I, M.
constexpr uint32_t kMisaRv32imac =
    (1u << 30) | (1u << 0) | (1u << 2) | (1u << 8) | (1u << 12);

// Field extraction from a 32-bit instruction word.
constexpr uint32_t Rd(uint32_t insn) { return (insn >> 7) & 0x1f; }
constexpr uint32_t Rs1(uint32_t insn) { return (insn >> 15) & 0x1f; }
constexpr uint32_t Rs2(uint32_t insn) { return (insn >> 20) & 0x1f; }
constexpr uint32_t Funct3(uint32_t insn) { return (insn >> 12) & 0x7; }
constexpr uint32_t Funct7(uint32_t insn) { return insn >> 25; }

constexpr int32_t ImmI(uint32_t insn) {
  return static_cast<int32_t>(insn) >> 20;
}
constexpr int32_t ImmS(uint32_t insn) {
  return (static_cast<int32_t>(insn & 0xfe000000u) >> 20) |
         static_cast<int32_t>((insn >> 7) & 0x1f);
}
constexpr int32_t ImmB(uint32_t insn) {
  return (static_cast<int32_t>(insn & 0x80000000u) >> 19) |
         static_cast<int32_t>(((insn >> 7) & 0x1) << 11) |
         static_cast<int32_t>(((insn >> 25) & 0x3f) << 5) |
         static_cast<int32_t>(((insn >> 8) & 0xf) << 1);
}
constexpr int32_t ImmU(uint32_t insn) {
  return static_cast<int32_t>(insn & 0xfffff000u);
}
constexpr int32_t ImmJ(uint32_t insn) {
  return (static_cast<int32_t>(insn & 0x80000000u) >> 11) |
         static_cast<int32_t>(insn & 0xff000u) |
         static_cast<int32_t>(((insn >> 20) & 0x1) << 11) |
         static_cast<int32_t>(((insn >> 21) & 0x3ff) << 1);
}

// True if the 16-bit parcel starts a 32-bit instruction (else compressed).
constexpr bool IsFullLength(uint16_t parcel) { return (parcel & 0x3) == 0x3; }

// Encoders: build 32-bit instruction words from fields.
constexpr uint32_t EncodeR(uint32_t opcode, uint32_t rd, uint32_t funct3,
                           uint32_t rs1, uint32_t rs2, uint32_t funct7) {
  return opcode | (rd << 7) | (funct3 << 12) | (rs1 << 15) | (rs2 << 20) |
         (funct7 << 25);
}
constexpr uint32_t EncodeI(uint32_t opcode, uint32_t rd, uint32_t funct3,
                           uint32_t rs1, int32_t imm) {
  return opcode | (rd << 7) | (funct3 << 12) | (rs1 << 15) |
         (static_cast<uint32_t>(imm) << 20);
}
constexpr uint32_t EncodeS(uint32_t opcode, uint32_t funct3, uint32_t rs1,
                           uint32_t rs2, int32_t imm) {
  const auto u = static_cast<uint32_t>(imm);
  return opcode | ((u & 0x1f) << 7) | (funct3 << 12) | (rs1 << 15) |
         (rs2 << 20) | (((u >> 5) & 0x7f) << 25);
}
constexpr uint32_t EncodeB(uint32_t funct3, uint32_t rs1, uint32_t rs2,
                           int32_t offset) {
  const auto u = static_cast<uint32_t>(offset);
  return kOpBranch | (((u >> 11) & 0x1) << 7) | (((u >> 1) & 0xf) << 8) |
         (funct3 << 12) | (rs1 << 15) | (rs2 << 20) |
         (((u >> 5) & 0x3f) << 25) | (((u >> 12) & 0x1) << 31);
}
constexpr uint32_t EncodeU(uint32_t opcode, uint32_t rd, int32_t imm) {
  return opcode | (rd << 7) | (static_cast<uint32_t>(imm) & 0xfffff000u);
}
constexpr uint32_t EncodeJ(uint32_t rd, int32_t offset) {
  const auto u = static_cast<uint32_t>(offset);
  return kOpJal | (rd << 7) | (u & 0xff000u) | (((u >> 11) & 0x1) << 20) |
         (((u >> 1) & 0x3ff) << 21) | (((u >> 20) & 0x1) << 31);
}

}  // namespace lq::riscv
