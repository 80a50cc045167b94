// SPDX-License-Identifier: Apache-2.0
// Tests of Rv32Core: RV32IMA semantics and edge cases, machine-mode traps,
// CSRs, interrupts and WFI, the bus path, and the debug hooks.
#include "models/riscv/rv32_core.h"

#include <gtest/gtest.h>

#include "testbench/models/riscv/rv32_test_machine.h"

namespace lq::riscv {
namespace {

using namespace lq::riscv::testing;  // NOLINT: test-local encoders.

constexpr uint32_t kHandler = kRamBase + 0x1000;
constexpr uint32_t kData = kRamBase + 0x2000;

// Points mtvec at kHandler (which holds an MRET-free spin) via t0.
void InstallHandler(TestMachine& m) {
  m.core.set_reg(5, kHandler);
  m.Program({CsrOp(1, 0, kCsrMtvec, 5)}, kRamBase + 0x800);
  m.core.set_pc(kRamBase + 0x800);
  m.core.Step();
  m.core.set_pc(kRamBase);
}

TEST(Rv32CoreTest, AluImmediateAndRegisterForms) {
  TestMachine m;
  m.Program({Addi(1, 0, -5), Addi(2, 0, 7), Op(0, 0, 3, 1, 2),
             Op(0x20, 0, 4, 1, 2), Op(0, 2, 5, 1, 2), Op(0, 3, 6, 1, 2),
             EncodeI(kOpImm, 7, 5, 1, 0x400 | 1), EncodeI(kOpImm, 8, 5, 1, 1),
             Lui(9, 0xfffff000u), EncodeU(kOpAuipc, 10, 0x1000)});
  m.Steps(10);
  EXPECT_EQ(m.core.reg(3), 2u) << "add";
  EXPECT_EQ(m.core.reg(4), static_cast<uint32_t>(-12)) << "sub";
  EXPECT_EQ(m.core.reg(5), 1u) << "slt: -5 < 7 signed";
  EXPECT_EQ(m.core.reg(6), 0u) << "sltu: 0xfffffffb > 7 unsigned";
  EXPECT_EQ(m.core.reg(7), static_cast<uint32_t>(-3)) << "srai keeps sign";
  EXPECT_EQ(m.core.reg(8), 0x7ffffffdu) << "srli shifts in zeros";
  EXPECT_EQ(m.core.reg(9), 0xfffff000u) << "lui";
  EXPECT_EQ(m.core.reg(10), kRamBase + 36 + 0x1000) << "auipc adds its pc";
  EXPECT_EQ(m.core.instructions_retired(), 10u);
}

TEST(Rv32CoreTest, WritesToX0AreDiscarded) {
  TestMachine m;
  m.Program({Addi(0, 0, 5), Op(0, 0, 1, 0, 0)});
  m.Steps(2);
  EXPECT_EQ(m.core.reg(0), 0u) << "x0 is hardwired to zero";
  EXPECT_EQ(m.core.reg(1), 0u);
}

TEST(Rv32CoreTest, BranchesAndJumpsLinkAndTarget) {
  TestMachine m;
  m.Program({Addi(1, 0, -1), Addi(2, 0, 1),
             EncodeB(4, 1, 2, 8),             // blt -1 < 1: taken, skips one
             Addi(3, 0, 99),                  // skipped
             EncodeB(6, 1, 2, 8),             // bltu 0xffffffff < 1: not taken
             EncodeJ(4, 8),                   // jal x4, +8
             Addi(3, 0, 98),                  // skipped
             EncodeI(kOpJalr, 5, 0, 4, 5)});  // jalr x5, 5(x4): bit 0 dropped
  m.Steps(5);
  EXPECT_EQ(m.core.reg(3), 0u) << "taken branch skipped its fall-through";
  EXPECT_EQ(m.core.reg(4), kRamBase + 24) << "jal links the next pc";
  EXPECT_EQ(m.core.pc(), kRamBase + 28);
  m.Steps(1);
  EXPECT_EQ(m.core.pc(), kRamBase + 28) << "jalr clears bit 0 of its target";
  EXPECT_EQ(m.core.reg(5), kRamBase + 32) << "jalr links the next pc";
}

TEST(Rv32CoreTest, LoadsSignAndZeroExtend) {
  TestMachine m;
  m.Poke32(kData, 0x8081f0ffu);
  m.core.set_reg(1, kData);
  m.Program({Load(0, 2, 1, 0), Load(4, 3, 1, 0), Load(1, 4, 1, 2),
             Load(5, 5, 1, 2), Load(2, 6, 1, 0)});
  m.Steps(5);
  EXPECT_EQ(m.core.reg(2), 0xffffffffu) << "lb sign-extends 0xff";
  EXPECT_EQ(m.core.reg(3), 0xffu) << "lbu zero-extends";
  EXPECT_EQ(m.core.reg(4), 0xffff8081u) << "lh sign-extends";
  EXPECT_EQ(m.core.reg(5), 0x8081u) << "lhu zero-extends";
  EXPECT_EQ(m.core.reg(6), 0x8081f0ffu) << "lw";
}

TEST(Rv32CoreTest, StoresWriteOnlyTheirBytes) {
  TestMachine m;
  m.Poke32(kData, 0x11223344u);
  m.core.set_reg(1, kData);
  m.core.set_reg(2, 0xaabbccddu);
  m.Program({Store(0, 1, 2, 1), Store(1, 1, 2, 2)});
  m.Steps(2);
  EXPECT_EQ(m.Peek32(kData), 0xccdddd44u) << "sb at +1, sh at +2";
}

TEST(Rv32CoreTest, MultiplyHighForms) {
  TestMachine m;
  m.core.set_reg(1, 0x80000000u);  // INT_MIN
  m.core.set_reg(2, 0xffffffffu);  // -1 / UINT_MAX
  m.Program({Op(1, 0, 3, 1, 2), Op(1, 1, 4, 1, 2), Op(1, 2, 5, 1, 2),
             Op(1, 3, 6, 1, 2)});
  m.Steps(4);
  EXPECT_EQ(m.core.reg(3), 0x80000000u) << "mul low word";
  EXPECT_EQ(m.core.reg(4), 0u) << "mulh: INT_MIN * -1 = 2^31, high word 0";
  EXPECT_EQ(m.core.reg(5), 0x80000000u)
      << "mulhsu: INT_MIN * UINT_MAX, high word";
  EXPECT_EQ(m.core.reg(6), 0x7fffffffu) << "mulhu";
}

TEST(Rv32CoreTest, DivisionByZeroAndOverflowHaveDefinedResults) {
  TestMachine m;
  m.core.set_reg(1, 0x80000000u);
  m.core.set_reg(2, 0xffffffffu);
  m.core.set_reg(7, 7);
  m.Program({Op(1, 4, 3, 1, 2), Op(1, 6, 4, 1, 2), Op(1, 4, 5, 7, 0),
             Op(1, 5, 6, 7, 0), Op(1, 6, 8, 7, 0), Op(1, 7, 9, 7, 0)});
  m.Steps(6);
  EXPECT_EQ(m.core.reg(3), 0x80000000u) << "div INT_MIN / -1 = INT_MIN";
  EXPECT_EQ(m.core.reg(4), 0u) << "rem INT_MIN % -1 = 0";
  EXPECT_EQ(m.core.reg(5), 0xffffffffu) << "div by zero = -1";
  EXPECT_EQ(m.core.reg(6), 0xffffffffu) << "divu by zero = all ones";
  EXPECT_EQ(m.core.reg(8), 7u) << "rem by zero = dividend";
  EXPECT_EQ(m.core.reg(9), 7u) << "remu by zero = dividend";
  EXPECT_EQ(m.core.traps_taken(), 0u) << "division never traps";
}

TEST(Rv32CoreTest, AtomicsReturnOldValueAndApplyTheirOperation) {
  struct Case {
    uint32_t funct5;
    uint32_t old_value, operand, expected;
    const char* name;
  } cases[] = {
      {0b00001, 5, 9, 9, "amoswap"},
      {0b00000, 5, 9, 14, "amoadd"},
      {0b00100, 5, 9, 12, "amoxor"},
      {0b01100, 5, 9, 1, "amoand"},
      {0b01000, 5, 9, 13, "amoor"},
      {0b10000, 0xfffffffe, 1, 0xfffffffe, "amomin (signed)"},
      {0b10100, 0xfffffffe, 1, 1, "amomax (signed)"},
      {0b11000, 0xfffffffe, 1, 1, "amominu"},
      {0b11100, 0xfffffffe, 1, 0xfffffffe, "amomaxu"},
  };
  for (const Case& c : cases) {
    TestMachine m;
    m.Poke32(kData, c.old_value);
    m.core.set_reg(1, kData);
    m.core.set_reg(2, c.operand);
    m.Program({Amo(c.funct5, 3, 1, 2)});
    m.Steps(1);
    EXPECT_EQ(m.core.reg(3), c.old_value) << c.name << " returns old value";
    EXPECT_EQ(m.Peek32(kData), c.expected) << c.name;
  }
}

TEST(Rv32CoreTest, StoreConditionalNeedsAnUnbrokenReservation) {
  TestMachine m;
  m.core.set_reg(1, kData);
  m.core.set_reg(2, 42);
  m.Program({Amo(0b00010, 3, 1, 0),    // lr.w
             Amo(0b00011, 4, 1, 2),    // sc.w: succeeds
             Amo(0b00011, 5, 1, 2),    // sc.w again: reservation gone
             Amo(0b00010, 3, 1, 0),    // lr.w
             Store(2, 1, 0, 0),        // sw zero: breaks the reservation
             Amo(0b00011, 6, 1, 2)});  // sc.w: fails
  m.Steps(6);
  EXPECT_EQ(m.core.reg(4), 0u) << "sc after lr succeeds";
  EXPECT_EQ(m.core.reg(5), 1u) << "sc consumes the reservation";
  EXPECT_EQ(m.core.reg(6), 1u) << "a store to the word breaks it";
  EXPECT_EQ(m.Peek32(kData), 0u) << "a failed sc writes nothing";
}

TEST(Rv32CoreTest, IllegalInstructionTrapsWithItsBits) {
  TestMachine m;
  InstallHandler(m);
  m.Program({0xffffffffu});
  m.Steps(1);
  EXPECT_EQ(m.core.pc(), kHandler);
  EXPECT_EQ(m.Csr(kCsrMcause), 2u) << "illegal instruction";
  EXPECT_EQ(m.Csr(kCsrMepc), kRamBase);
  EXPECT_EQ(m.Csr(kCsrMtval), 0xffffffffu) << "mtval holds the instruction";
  EXPECT_EQ(m.core.instructions_retired(), 1u)
      << "only the mtvec write retired; the trapping one did not";
}

TEST(Rv32CoreTest, IllegalCompressedInstructionReportsTheParcel) {
  TestMachine m;
  InstallHandler(m);
  m.Program16({0x0000});
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 2u);
  EXPECT_EQ(m.Csr(kCsrMtval), 0u) << "the all-zero parcel itself";
}

TEST(Rv32CoreTest, MisalignedAccessesTrapWithTheAddress) {
  struct Case {
    uint32_t insn;
    uint32_t cause;
    const char* name;
  } cases[] = {
      {Load(2, 2, 1, 1), 4, "lw at +1"},
      {Load(1, 2, 1, 1), 4, "lh at +1"},
      {Store(2, 1, 0, 2), 6, "sw at +2"},
      {Store(1, 1, 0, 3), 6, "sh at +3"},
      {Amo(0b00000, 2, 3, 0), 6, "amoadd at +2"},
      {Amo(0b00010, 2, 3, 0), 4, "lr.w at +2"},
  };
  for (const Case& c : cases) {
    TestMachine m;
    InstallHandler(m);
    m.core.set_reg(1, kData);
    m.core.set_reg(3, kData + 2);
    m.Program({c.insn});
    m.Steps(1);
    EXPECT_EQ(m.Csr(kCsrMcause), c.cause) << c.name;
    EXPECT_EQ(m.Csr(kCsrMtval) & ~3u, kData) << c.name << ": mtval = address";
    EXPECT_NE(m.Csr(kCsrMtval) & 3u, 0u) << c.name;
  }
}

TEST(Rv32CoreTest, UnmappedAccessesBecomeAccessFaults) {
  TestMachine m;
  InstallHandler(m);
  m.core.set_reg(1, 0x30000000u);
  m.Program({Load(2, 2, 1, 0)});
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 5u) << "load access fault";
  EXPECT_EQ(m.Csr(kCsrMtval), 0x30000000u);

  m.core.set_pc(kRamBase + 4);
  m.Program({Store(2, 1, 0, 0)}, kRamBase + 4);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 7u) << "store access fault";

  m.core.set_pc(0x30000000u);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 1u) << "instruction access fault";
  EXPECT_EQ(m.Csr(kCsrMepc), 0x30000000u);
}

TEST(Rv32CoreTest, StoresToReadOnlyMemoryFault) {
  TestMachine m;
  InstallHandler(m);
  m.core.set_reg(1, kRomBase);
  m.Program({Store(2, 1, 0, 0), Amo(0b00001, 2, 1, 0)});
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 7u) << "the ROM refuses a store";
  m.core.set_pc(kRamBase + 4);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 7u) << "an AMO on ROM is a store fault";
}

TEST(Rv32CoreTest, CodeRunsFromTheBusWhenNotDirect) {
  TestMachine m;
  const uint32_t insn = Addi(1, 0, 123);
  std::memcpy(m.bus.rom.data(), &insn, 4);
  m.core.set_pc(kRomBase);
  m.Steps(1);
  EXPECT_EQ(m.core.reg(1), 123u);
  EXPECT_EQ(m.bus.bus_fetches, 2) << "two 16-bit parcels over the bus";
}

TEST(Rv32CoreTest, MmioAccessesGoThroughTheBusAndStall) {
  TestMachine m;
  m.core.set_reg(1, kMmioBase);
  m.core.set_reg(2, 0x5555);
  m.Program({Store(2, 1, 2, 0), Load(2, 3, 1, 0)});
  m.Steps(2);
  EXPECT_EQ(m.bus.mmio, 0x5555u);
  EXPECT_EQ(m.core.reg(3), 0x5555u);
  const CycleCosts costs;
  EXPECT_EQ(m.core.cycles(), costs.store + costs.load + 10u)
      << "each bus access adds its 5 stall cycles";
}

TEST(Rv32CoreTest, EcallEbreakAndMret) {
  TestMachine m;
  InstallHandler(m);
  m.Program({kEcall});
  m.Program({EncodeI(kOpImm, 6, 0, 0, 1), kMret}, kHandler);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 11u) << "ecall from M-mode";
  EXPECT_EQ(m.core.pc(), kHandler);
  // The handler skips the ecall by advancing mepc.
  m.core.set_reg(7, kRamBase + 4);
  m.Program({CsrOp(1, 0, kCsrMepc, 7), kMret}, kHandler);
  m.Steps(2);
  EXPECT_EQ(m.core.pc(), kRamBase + 4) << "mret returns to mepc";

  m.Program({kEbreak}, kRamBase + 4);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 3u) << "breakpoint";
  EXPECT_EQ(m.Csr(kCsrMtval), kRamBase + 4) << "mtval = pc of the ebreak";
}

TEST(Rv32CoreTest, TrapEntryAndMretMoveMieThroughMpie) {
  TestMachine m;
  InstallHandler(m);
  m.core.set_reg(1, kMstatusMie);
  m.Program({CsrOp(2, 0, kCsrMstatus, 1), kEcall});
  m.Program({kMret}, kHandler);
  m.Steps(2);
  EXPECT_EQ(m.Csr(kCsrMstatus) & (kMstatusMie | kMstatusMpie), kMstatusMpie)
      << "trap entry: MPIE = old MIE, MIE = 0";
  EXPECT_EQ(m.Csr(kCsrMstatus) & kMstatusMpp, kMstatusMpp) << "MPP = M";
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMstatus) & (kMstatusMie | kMstatusMpie),
            kMstatusMie | kMstatusMpie)
      << "mret: MIE = MPIE, MPIE = 1";
}

TEST(Rv32CoreTest, CsrRulesForReadOnlyUnknownAndCounters) {
  TestMachine m;
  InstallHandler(m);
  m.Program({CsrOp(2, 1, kCsrMisa, 0)});
  m.Steps(1);
  EXPECT_EQ(m.core.reg(1), kMisaRv32imac) << "misa reads RV32IMAC";

  m.Program({CsrOp(1, 0, kCsrMhartid, 1)}, kRamBase + 4);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 2u) << "writing a read-only CSR is illegal";

  m.core.set_pc(kRamBase + 8);
  m.Program({CsrOp(2, 1, 0x7c0, 0)}, kRamBase + 8);
  m.Steps(1);
  EXPECT_EQ(m.Csr(kCsrMcause), 2u) << "an unimplemented CSR is illegal";
  EXPECT_EQ(m.Csr(kCsrMtval), CsrOp(2, 1, 0x7c0, 0));

  m.core.set_pc(kRamBase + 12);
  m.core.set_reg(2, 1000);
  m.Program({CsrOp(1, 0, kCsrMcycle, 2), CsrOp(2, 3, kCsrMcycle, 0),
             CsrOp(2, 4, kCsrMinstret, 0), CsrOp(2, 6, kCsrCycle, 0)},
            kRamBase + 12);
  m.Steps(4);
  EXPECT_EQ(m.core.reg(3), 1000u) << "mcycle reads what was written";
  EXPECT_GT(m.core.reg(6), m.core.reg(3)) << "cycle keeps counting";
  EXPECT_GT(m.core.reg(4), 0u) << "minstret counts retired instructions";
}

TEST(Rv32CoreTest, CsrImmediateFormsAndReadOnlyReadsWithZeroSource) {
  TestMachine m;
  m.Program({CsrOp(5, 0, kCsrMscratch, 0x1f), CsrOp(6, 1, kCsrMscratch, 0x2),
             CsrOp(7, 2, kCsrMscratch, 0x1), CsrOp(2, 3, kCsrMscratch, 0),
             CsrOp(2, 4, kCsrMhartid, 0)});
  m.Steps(5);
  EXPECT_EQ(m.core.reg(1), 0x1fu) << "csrrsi returns the old value";
  EXPECT_EQ(m.core.reg(2), 0x1fu) << "setting a set bit changes nothing";
  EXPECT_EQ(m.core.reg(3), 0x1eu) << "csrrci cleared bit 0";
  EXPECT_EQ(m.core.reg(4), 0u) << "csrrs x0 may read a read-only CSR";
  EXPECT_EQ(m.core.traps_taken(), 0u);
}

TEST(Rv32CoreTest, InterruptsNeedMieAndTakeExternalFirst) {
  TestMachine m;
  InstallHandler(m);
  m.core.set_reg(1, (1u << 7) | (1u << 11) | (1u << 3));
  m.core.set_reg(2, kMstatusMie);
  m.Program({CsrOp(1, 0, kCsrMie, 1), kNop, CsrOp(2, 0, kCsrMstatus, 2), kNop});
  m.Steps(1);
  m.core.SetInterruptLine(Interrupt::kMachineTimer, true);
  m.core.SetInterruptLine(Interrupt::kMachineExternal, true);
  m.Steps(1);
  EXPECT_EQ(m.core.pc(), kRamBase + 8) << "no interrupt while MIE is 0";
  m.Steps(1);  // sets MIE
  m.Steps(1);  // takes the interrupt
  EXPECT_EQ(m.core.pc(), kHandler);
  EXPECT_EQ(m.Csr(kCsrMcause), kMcauseInterrupt | 11u)
      << "external outranks timer";
  EXPECT_EQ(m.Csr(kCsrMepc), kRamBase + 12) << "mepc = next instruction";
}

TEST(Rv32CoreTest, VectoredModeJumpsToCauseTimesFour) {
  TestMachine m;
  m.core.set_reg(1, kHandler | 1);
  m.core.set_reg(2, 1u << 7);
  m.core.set_reg(3, kMstatusMie);
  m.Program({CsrOp(1, 0, kCsrMtvec, 1), CsrOp(1, 0, kCsrMie, 2),
             CsrOp(1, 0, kCsrMstatus, 3), kNop, kEcall});
  m.Steps(3);
  m.core.SetInterruptLine(Interrupt::kMachineTimer, true);
  m.Steps(1);
  EXPECT_EQ(m.core.pc(), kHandler + 4 * 7) << "timer vector";
  m.core.SetInterruptLine(Interrupt::kMachineTimer, false);
  m.core.set_pc(kRamBase + 16);
  m.Steps(1);
  EXPECT_EQ(m.core.pc(), kHandler)
      << "exceptions use the base in vectored mode";
}

TEST(Rv32CoreTest, WfiSleepsUntilAnEnabledInterruptIsPending) {
  TestMachine m;
  m.core.set_reg(1, 1u << 7);
  m.Program({CsrOp(1, 0, kCsrMie, 1), kWfi, kNop});
  RunResult result = m.core.Run(1000);
  EXPECT_EQ(result.reason, StopReason::kWfi);
  EXPECT_EQ(m.core.pc(), kRamBase + 8) << "pc is past the WFI";
  EXPECT_FALSE(m.core.WakeupPending());
  m.core.SetInterruptLine(Interrupt::kMachineTimer, true);
  EXPECT_TRUE(m.core.WakeupPending())
      << "an enabled pending interrupt wakes WFI even with MIE = 0";
  m.core.Step();
  EXPECT_EQ(m.core.pc(), kRamBase + 12) << "MIE = 0: no trap, just resume";
}

TEST(Rv32CoreTest, RunStopsAtItsCycleBudget) {
  TestMachine m;
  m.Program({EncodeJ(0, 0)});  // j . (2 cycles per iteration)
  const RunResult result = m.core.Run(100);
  EXPECT_EQ(result.reason, StopReason::kBudget);
  EXPECT_EQ(m.core.cycles(), 100u);
  EXPECT_EQ(m.core.instructions_retired(), 50u);
}

TEST(Rv32CoreTest, RequestStopEndsRunAfterTheCurrentInstruction) {
  TestMachine m;
  m.Program({EncodeJ(0, 0)});
  m.core.RequestStop();
  EXPECT_EQ(m.core.Run(100).reason, StopReason::kStopRequested);
  EXPECT_EQ(m.core.Run(10).reason, StopReason::kBudget)
      << "a stop request is consumed once";
}

TEST(Rv32CoreTest, BreakpointStopsBeforeAndResumesOver) {
  TestMachine m;
  m.Program({Addi(1, 1, 1), Addi(1, 1, 1), EncodeJ(0, -8)});
  m.core.InsertBreakpoint(kRamBase + 4);
  RunResult result = m.core.Run(1000);
  EXPECT_EQ(result.reason, StopReason::kBreakpoint);
  EXPECT_EQ(m.core.pc(), kRamBase + 4);
  EXPECT_EQ(m.core.reg(1), 1u) << "the instruction at the breakpoint waits";
  result = m.core.Run(1000);
  EXPECT_EQ(result.reason, StopReason::kBreakpoint) << "next time round";
  EXPECT_EQ(m.core.reg(1), 3u);
  m.core.RemoveBreakpoint(kRamBase + 4);
  EXPECT_EQ(m.core.Run(100).reason, StopReason::kBudget);
}

TEST(Rv32CoreTest, WatchpointsStopBeforeTheMatchingAccess) {
  TestMachine m;
  m.core.set_reg(1, kData);
  m.core.set_reg(2, 0xab);
  m.Program({Load(2, 3, 1, 4), Store(0, 1, 2, 5), Store(2, 1, 0, 8)});
  m.core.InsertWatchpoint(WatchAccess::kWrite, kData + 4, 4);
  RunResult result = m.core.Run(1000);
  EXPECT_EQ(result.reason, StopReason::kWatchpoint);
  EXPECT_EQ(result.watch_access, WatchAccess::kWrite);
  EXPECT_EQ(result.watch_address, kData + 5)
      << "a read does not trigger a write watchpoint; the byte store does";
  EXPECT_EQ(m.core.pc(), kRamBase + 4) << "stopped at the store";
  EXPECT_EQ(m.Peek32(kData + 4), 0u) << "the store has not happened yet";
  result = m.core.Run(1000);
  EXPECT_EQ(m.Peek32(kData + 4), 0xab00u)
      << "resuming performs the watched store once";
  EXPECT_EQ(result.reason, StopReason::kBudget) << "no second stop for it";

  TestMachine r;
  r.core.set_reg(1, kData);
  r.Program({Store(2, 1, 0, 0), Load(2, 2, 1, 0)});
  r.core.InsertWatchpoint(WatchAccess::kRead, kData, 4);
  result = r.core.Run(1000);
  EXPECT_EQ(result.watch_access, WatchAccess::kRead);
  EXPECT_EQ(r.core.pc(), kRamBase + 4) << "stopped at the load";
}

TEST(Rv32CoreTest, CompressedCodeExecutes) {
  TestMachine m;
  // c.li a0,5; c.addi a0,-1; c.bnez a0,-2; c.mv a1,a0 ; c.j .
  m.Program16({0x4515, 0x157d, 0xfd7d, 0x85aa, 0xa001});
  m.core.Run(200);
  EXPECT_EQ(m.core.reg(10), 0u) << "the loop ran down to zero";
  EXPECT_EQ(m.core.pc(), kRamBase + 8) << "stuck in c.j .";
}

}  // namespace
}  // namespace lq::riscv
