// SPDX-License-Identifier: Apache-2.0
// Rv32Core's SYSTEM instructions: CSR access, ECALL/EBREAK/MRET/WFI, and the
// machine-mode trap and interrupt rules of the privileged ISA.
#include "models/riscv/rv32_core.h"

namespace lq::riscv {
namespace {

constexpr uint32_t kInsnEcall = 0x00000073;
constexpr uint32_t kInsnEbreak = 0x00100073;
constexpr uint32_t kInsnMret = 0x30200073;
constexpr uint32_t kInsnWfi = 0x10500073;

// Interrupt bits the hart implements in mie/mip.
constexpr uint32_t kInterruptMask =
    (1u << static_cast<uint32_t>(Interrupt::kMachineSoftware)) |
    (1u << static_cast<uint32_t>(Interrupt::kMachineTimer)) |
    (1u << static_cast<uint32_t>(Interrupt::kMachineExternal));
constexpr uint32_t kMstatusWritable = kMstatusMie | kMstatusMpie;

// CSR numbers with bits 11:10 = 3 are read-only.
constexpr bool IsReadOnly(uint32_t number) { return (number >> 10) == 3; }

}  // namespace

bool Rv32Core::ReadCsr(uint32_t number, uint32_t* value) const {
  const uint64_t mcycle = cycles_ + mcycle_offset_;
  const uint64_t minstret = instret_ + minstret_offset_;
  switch (number) {
    case kCsrMstatus:
      *value = mstatus_;
      return true;
    case kCsrMstatush:
      *value = 0;
      return true;
    case kCsrMisa:
      *value = kMisaRv32imac;
      return true;
    case kCsrMie:
      *value = mie_;
      return true;
    case kCsrMip:
      *value = mip_;
      return true;
    case kCsrMtvec:
      *value = mtvec_;
      return true;
    case kCsrMscratch:
      *value = mscratch_;
      return true;
    case kCsrMepc:
      *value = mepc_;
      return true;
    case kCsrMcause:
      *value = mcause_;
      return true;
    case kCsrMtval:
      *value = mtval_;
      return true;
    case kCsrMcycle:
    case kCsrCycle:
      *value = static_cast<uint32_t>(mcycle);
      return true;
    case kCsrMcycleh:
    case kCsrCycleh:
      *value = static_cast<uint32_t>(mcycle >> 32);
      return true;
    case kCsrMinstret:
    case kCsrInstret:
      *value = static_cast<uint32_t>(minstret);
      return true;
    case kCsrMinstreth:
    case kCsrInstreth:
      *value = static_cast<uint32_t>(minstret >> 32);
      return true;
    case kCsrTime:
      *value = static_cast<uint32_t>(bus_.Time());
      return true;
    case kCsrTimeh:
      *value = static_cast<uint32_t>(bus_.Time() >> 32);
      return true;
    case kCsrMvendorid:
    case kCsrMarchid:
    case kCsrMimpid:
    case kCsrMhartid:
      *value = 0;
      return true;
    default:
      return false;
  }
}

bool Rv32Core::WriteCsr(uint32_t number, uint32_t value) {
  // The counters count the CSR instruction itself before the write lands,
  // so a written value is what the next read sees.
  const uint64_t mcycle = cycles_ + costs_.csr;
  const uint64_t minstret = instret_ + 1;
  auto set_low = [](uint64_t current, uint32_t low) {
    return (current & ~0xffffffffull) | low;
  };
  auto set_high = [](uint64_t current, uint32_t high) {
    return (current & 0xffffffffull) | (static_cast<uint64_t>(high) << 32);
  };
  switch (number) {
    case kCsrMstatus:
      mstatus_ = (value & kMstatusWritable) | kMstatusMpp;
      check_interrupts_ = true;
      break;
    case kCsrMstatush:
    case kCsrMisa:  // WARL: the extensions cannot be switched off.
    case kCsrMip:   // MSIP/MTIP/MEIP come from the CLINT and PLIC only.
      break;
    case kCsrMie:
      mie_ = value & kInterruptMask;
      check_interrupts_ = true;
      break;
    case kCsrMtvec:
      // Modes 0 (direct) and 1 (vectored); the reserved modes read as 0.
      mtvec_ = (value & 3) > 1 ? value & ~3u : value;
      break;
    case kCsrMscratch:
      mscratch_ = value;
      break;
    case kCsrMepc:
      mepc_ = value & ~1u;
      break;
    case kCsrMcause:
      mcause_ = value;
      break;
    case kCsrMtval:
      mtval_ = value;
      break;
    case kCsrMcycle:
      mcycle_offset_ = set_low(mcycle + mcycle_offset_, value) - mcycle;
      break;
    case kCsrMcycleh:
      mcycle_offset_ = set_high(mcycle + mcycle_offset_, value) - mcycle;
      break;
    case kCsrMinstret:
      minstret_offset_ = set_low(minstret + minstret_offset_, value) - minstret;
      break;
    case kCsrMinstreth:
      minstret_offset_ =
          set_high(minstret + minstret_offset_, value) - minstret;
      break;
    default:
      return false;
  }
  UpdateAttention();
  return true;
}

void Rv32Core::ExecuteCsr(uint32_t insn, uint32_t length) {
  const uint32_t number = insn >> 20;
  const uint32_t funct3 = Funct3(insn);
  const uint32_t rs1 = Rs1(insn);
  // The immediate forms (funct3 5..7) use the rs1 field as a 5-bit value.
  const uint32_t operand = funct3 >= 5 ? rs1 : x_[rs1];
  const bool writes = (funct3 & 3) == 1 || rs1 != 0;  // CSRRW always writes
  const bool reads = (funct3 & 3) != 1 || Rd(insn) != 0;
  uint32_t old_value = 0;
  if (!ReadCsr(number, &old_value) || (writes && IsReadOnly(number))) {
    RaiseException(Exception::kIllegalInstruction, insn);
    return;
  }
  if (writes) {
    uint32_t new_value;
    switch (funct3 & 3) {
      case 1:
        new_value = operand;
        break;
      case 2:
        new_value = old_value | operand;
        break;
      default:
        new_value = old_value & ~operand;
        break;
    }
    if (!WriteCsr(number, new_value)) {
      RaiseException(Exception::kIllegalInstruction, insn);
      return;
    }
  }
  if (reads) {
    x_[Rd(insn)] = old_value;
  }
  Retire(pc_ + length, costs_.csr);
}

void Rv32Core::ExecuteSystem(uint32_t insn, uint32_t length) {
  const uint32_t funct3 = Funct3(insn);
  if (funct3 != 0 && funct3 != 4) {
    ExecuteCsr(insn, length);
    return;
  }
  switch (insn) {
    case kInsnEcall:
      RaiseException(Exception::kEcallFromM, 0);
      return;
    case kInsnEbreak:
      RaiseException(Exception::kBreakpoint, pc_);
      return;
    case kInsnMret:
      ReturnFromTrap();
      return;
    case kInsnWfi:
      Retire(pc_ + length, costs_.alu);
      // WFI ends at once if an enabled interrupt is already pending;
      // otherwise the hart sleeps until one is.
      wfi_ = !WakeupPending();
      return;
    default:
      RaiseException(Exception::kIllegalInstruction, insn);
      return;
  }
}

void Rv32Core::RaiseException(Exception cause, uint32_t tval) {
  EnterTrap(static_cast<uint32_t>(cause), tval);
}

void Rv32Core::EnterTrap(uint32_t cause, uint32_t tval) {
  mepc_ = pc_;
  mcause_ = cause;
  mtval_ = tval;
  const bool mie = (mstatus_ & kMstatusMie) != 0;
  mstatus_ = (mstatus_ & ~(kMstatusMie | kMstatusMpie)) |
             (mie ? kMstatusMpie : 0) | kMstatusMpp;
  const uint32_t base = mtvec_ & ~3u;
  const bool vectored = (mtvec_ & 3) == 1 && (cause & kMcauseInterrupt) != 0;
  pc_ = vectored ? base + 4 * (cause & ~kMcauseInterrupt) : base;
  cycles_ += costs_.trap;
  ++traps_;
  if (trap_observer_) {
    trap_observer_(mcause_, mepc_, mtval_);
  }
}

void Rv32Core::ReturnFromTrap() {
  const bool mpie = (mstatus_ & kMstatusMpie) != 0;
  mstatus_ = (mstatus_ & ~kMstatusMie) | (mpie ? kMstatusMie : 0) |
             kMstatusMpie | kMstatusMpp;
  check_interrupts_ = true;
  UpdateAttention();
  Retire(mepc_, costs_.trap);
}

bool Rv32Core::TakePendingInterrupt() {
  const uint32_t pending = mip_ & mie_;
  if ((mstatus_ & kMstatusMie) == 0 || pending == 0) {
    // Nothing can fire until mip, mie or mstatus change again.
    check_interrupts_ = false;
    UpdateAttention();
    return false;
  }
  // Priority order of the privileged ISA: external, software, timer.
  for (Interrupt line :
       {Interrupt::kMachineExternal, Interrupt::kMachineSoftware,
        Interrupt::kMachineTimer}) {
    const auto number = static_cast<uint32_t>(line);
    if ((pending >> number) & 1u) {
      EnterTrap(kMcauseInterrupt | number, 0);
      // Entering cleared mstatus.MIE: nothing else can fire until MRET.
      check_interrupts_ = false;
      UpdateAttention();
      return true;
    }
  }
  return false;
}

}  // namespace lq::riscv
