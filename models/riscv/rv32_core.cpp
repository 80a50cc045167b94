// SPDX-License-Identifier: Apache-2.0
// Rv32Core's run loop, fetch, and the execution of every RV32IMAC
// instruction; CSRs and traps are in rv32_csr.cpp.
#include "models/riscv/rv32_core.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "models/common/bytes.h"
#include "models/riscv/compressed.h"

namespace lq::riscv {

Rv32Core::Rv32Core(HartBus& bus, CycleCosts costs) : bus_(bus), costs_(costs) {}

void Rv32Core::Reset(uint32_t reset_pc) {
  std::fill(std::begin(x_), std::end(x_), 0u);
  pc_ = reset_pc;
  mstatus_ = kMstatusMpp;
  mie_ = mip_ = mtvec_ = mscratch_ = mepc_ = mcause_ = mtval_ = 0;
  mcycle_offset_ = minstret_offset_ = 0;
  cycles_ = instret_ = traps_ = 0;
  reservation_valid_ = false;
  stop_requested_ = resume_over_breakpoint_ = false;
  check_interrupts_ = true;
  UpdateAttention();
}

void Rv32Core::AddDirectRegion(const DirectRegion& region) {
  regions_.push_back(region);
}

void Rv32Core::ClearDirectRegions() {
  regions_.clear();
  fetch_host_ = nullptr;
  fetch_span_ = 0;
}

void Rv32Core::set_reg(unsigned index, uint32_t value) {
  if ((index & 31) != 0) {
    x_[index & 31] = value;
  }
}

void Rv32Core::RequestStop() {
  stop_requested_ = true;
  UpdateAttention();
}

void Rv32Core::SetInterruptLine(Interrupt line, bool level) {
  const uint32_t bit = 1u << static_cast<uint32_t>(line);
  mip_ = level ? (mip_ | bit) : (mip_ & ~bit);
  check_interrupts_ = true;
  UpdateAttention();
}

void Rv32Core::UpdateAttention() {
  attention_ = stop_requested_ || check_interrupts_ || !breakpoints_.empty();
}

void Rv32Core::InsertBreakpoint(uint32_t address) {
  if (std::find(breakpoints_.begin(), breakpoints_.end(), address) ==
      breakpoints_.end()) {
    breakpoints_.push_back(address);
  }
  UpdateAttention();
}

void Rv32Core::RemoveBreakpoint(uint32_t address) {
  breakpoints_.erase(
      std::remove(breakpoints_.begin(), breakpoints_.end(), address),
      breakpoints_.end());
  UpdateAttention();
}

void Rv32Core::InsertWatchpoint(WatchAccess access, uint32_t address,
                                uint32_t length) {
  watchpoints_.push_back({access, address, std::max(length, 1u)});
}

void Rv32Core::RemoveWatchpoint(WatchAccess access, uint32_t address,
                                uint32_t length) {
  const uint32_t span = std::max(length, 1u);
  watchpoints_.erase(std::remove_if(watchpoints_.begin(), watchpoints_.end(),
                                    [&](const Watchpoint& w) {
                                      return w.access == access &&
                                             w.address == address &&
                                             w.length == span;
                                    }),
                     watchpoints_.end());
}

RunResult Rv32Core::Step() { return Run(0); }

RunResult Rv32Core::Run(uint64_t until_cycle) {
  const bool single_step = until_cycle == 0;
  for (;;) {
    if (attention_) {
      if (stop_requested_) {
        stop_requested_ = false;
        UpdateAttention();
        return {StopReason::kStopRequested};
      }
      if (check_interrupts_ && TakePendingInterrupt() && single_step) {
        return {StopReason::kStep};
      }
      if (!breakpoints_.empty() && !resume_over_breakpoint_ &&
          std::find(breakpoints_.begin(), breakpoints_.end(), pc_) !=
              breakpoints_.end()) {
        resume_over_breakpoint_ = true;
        return {StopReason::kBreakpoint};
      }
    }
    resume_over_breakpoint_ = false;
    ExecuteOne();
    resume_over_watchpoint_ = false;
    if (wfi_ || watch_hit_) {
      if (wfi_) {
        wfi_ = false;
        return {StopReason::kWfi};
      }
      watch_hit_ = false;
      resume_over_watchpoint_ = true;
      return watch_result_;
    }
    if (single_step) {
      return {StopReason::kStep};
    }
    if (cycles_ >= until_cycle) {
      return {StopReason::kBudget};
    }
  }
}

void Rv32Core::ExecuteOne() {
  uint32_t insn;
  uint32_t length;
  if (Fetch(&insn, &length)) {
    Execute(insn, length);
  }
  x_[0] = 0;
}

bool Rv32Core::Fetch(uint32_t* insn, uint32_t* length) {
  const uint32_t offset = pc_ - fetch_base_;
  if (offset < fetch_span_) {
    uint16_t parcel;
    std::memcpy(&parcel, fetch_host_ + offset, sizeof parcel);
    if (!IsFullLength(parcel)) {
      *length = 2;
      return Expand(parcel, insn);
    }
    std::memcpy(insn, fetch_host_ + offset, sizeof *insn);
    *length = 4;
    return true;
  }
  // Outside the cached region: find another direct region, or use the bus.
  for (const DirectRegion& region : regions_) {
    if (region.executable && region.size >= 4 && region.Contains(pc_, 2)) {
      if (region.Contains(pc_, 4)) {
        fetch_base_ = region.base;
        fetch_span_ = region.size - 3;
        fetch_host_ = region.host;
        return Fetch(insn, length);
      }
      break;  // The last two bytes of a region: take the bus path.
    }
  }
  uint8_t bytes[4] = {};
  BusReply reply = bus_.Fetch(pc_, bytes, 2);
  cycles_ += reply.stall_cycles;
  if (!reply.ok) {
    RaiseException(Exception::kInstructionAccessFault, pc_);
    return false;
  }
  const auto parcel = static_cast<uint16_t>(LoadLittleEndian(bytes, 2));
  if (!IsFullLength(parcel)) {
    *length = 2;
    return Expand(parcel, insn);
  }
  reply = bus_.Fetch(pc_ + 2, bytes + 2, 2);
  cycles_ += reply.stall_cycles;
  if (!reply.ok) {
    RaiseException(Exception::kInstructionAccessFault, pc_ + 2);
    return false;
  }
  *insn = static_cast<uint32_t>(LoadLittleEndian(bytes, 4));
  *length = 4;
  return true;
}

bool Rv32Core::Expand(uint16_t parcel, uint32_t* insn) {
  *insn = ExpandCompressed(parcel);
  if (*insn == 0) {
    RaiseException(Exception::kIllegalInstruction, parcel);
    return false;
  }
  return true;
}

void Rv32Core::Retire(uint32_t next_pc, uint32_t cost) {
  pc_ = next_pc;
  cycles_ += cost;
  ++instret_;
}

void Rv32Core::Execute(uint32_t insn, uint32_t length) {
  const uint32_t rd = Rd(insn);
  const uint32_t a = x_[Rs1(insn)];
  const uint32_t b = x_[Rs2(insn)];
  const uint32_t next = pc_ + length;
  switch (insn & 0x7f) {
    case kOpLui:
      x_[rd] = static_cast<uint32_t>(ImmU(insn));
      Retire(next, costs_.alu);
      return;
    case kOpAuipc:
      x_[rd] = pc_ + static_cast<uint32_t>(ImmU(insn));
      Retire(next, costs_.alu);
      return;
    case kOpJal: {
      const uint32_t target = pc_ + static_cast<uint32_t>(ImmJ(insn));
      x_[rd] = next;
      Retire(target, costs_.jump);
      return;
    }
    case kOpJalr: {
      if (Funct3(insn) != 0) {
        break;
      }
      const uint32_t target = (a + static_cast<uint32_t>(ImmI(insn))) & ~1u;
      x_[rd] = next;
      Retire(target, costs_.jump);
      return;
    }
    case kOpBranch: {
      bool taken;
      switch (Funct3(insn)) {
        case 0:
          taken = a == b;
          break;
        case 1:
          taken = a != b;
          break;
        case 4:
          taken = static_cast<int32_t>(a) < static_cast<int32_t>(b);
          break;
        case 5:
          taken = static_cast<int32_t>(a) >= static_cast<int32_t>(b);
          break;
        case 6:
          taken = a < b;
          break;
        case 7:
          taken = a >= b;
          break;
        default:
          RaiseException(Exception::kIllegalInstruction, insn);
          return;
      }
      if (taken) {
        Retire(pc_ + static_cast<uint32_t>(ImmB(insn)), costs_.branch_taken);
      } else {
        Retire(next, costs_.branch_not_taken);
      }
      return;
    }
    case kOpLoad:
      ExecuteLoad(insn, length);
      return;
    case kOpStore:
      ExecuteStore(insn, length);
      return;
    case kOpImm: {
      const uint32_t imm = static_cast<uint32_t>(ImmI(insn));
      const uint32_t shamt = imm & 31;
      uint32_t value;
      switch (Funct3(insn)) {
        case 0:
          value = a + imm;
          break;
        case 2:
          value = static_cast<int32_t>(a) < static_cast<int32_t>(imm);
          break;
        case 3:
          value = a < imm;
          break;
        case 4:
          value = a ^ imm;
          break;
        case 6:
          value = a | imm;
          break;
        case 7:
          value = a & imm;
          break;
        case 1:
          if (Funct7(insn) != 0) {
            RaiseException(Exception::kIllegalInstruction, insn);
            return;
          }
          value = a << shamt;
          break;
        default:  // 5: SRLI / SRAI
          if (Funct7(insn) == 0) {
            value = a >> shamt;
          } else if (Funct7(insn) == 0x20) {
            value = static_cast<uint32_t>(static_cast<int32_t>(a) >> shamt);
          } else {
            RaiseException(Exception::kIllegalInstruction, insn);
            return;
          }
          break;
      }
      x_[rd] = value;
      Retire(next, costs_.alu);
      return;
    }
    case kOpReg:
      if (Funct7(insn) == 1) {
        ExecuteMulDiv(insn, length);
      } else {
        ExecuteReg(insn, length);
      }
      return;
    case kOpMiscMem:
      // FENCE and FENCE.I: one hart with coherent memory and no caches, so
      // both only cost their cycle.
      if (Funct3(insn) > 1) {
        break;
      }
      Retire(next, costs_.alu);
      return;
    case kOpAmo:
      ExecuteAtomic(insn, length);
      return;
    case kOpSystem:
      ExecuteSystem(insn, length);
      return;
    default:
      break;
  }
  RaiseException(Exception::kIllegalInstruction, insn);
}

void Rv32Core::ExecuteReg(uint32_t insn, uint32_t length) {
  const uint32_t a = x_[Rs1(insn)];
  const uint32_t b = x_[Rs2(insn)];
  const uint32_t funct7 = Funct7(insn);
  const uint32_t funct3 = Funct3(insn);
  // Only ADD/SUB and SRL/SRA have an alternate (funct7 = 0x20) form.
  if (funct7 != 0 && !(funct7 == 0x20 && (funct3 == 0 || funct3 == 5))) {
    RaiseException(Exception::kIllegalInstruction, insn);
    return;
  }
  uint32_t value;
  switch (funct3) {
    case 0:
      value = funct7 ? a - b : a + b;
      break;
    case 1:
      value = a << (b & 31);
      break;
    case 2:
      value = static_cast<int32_t>(a) < static_cast<int32_t>(b);
      break;
    case 3:
      value = a < b;
      break;
    case 4:
      value = a ^ b;
      break;
    case 5:
      value = funct7
                  ? static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31))
                  : a >> (b & 31);
      break;
    case 6:
      value = a | b;
      break;
    default:
      value = a & b;
      break;
  }
  x_[Rd(insn)] = value;
  Retire(pc_ + length, costs_.alu);
}

void Rv32Core::ExecuteMulDiv(uint32_t insn, uint32_t length) {
  const uint32_t a = x_[Rs1(insn)];
  const uint32_t b = x_[Rs2(insn)];
  const auto sa = static_cast<int32_t>(a);
  const auto sb = static_cast<int32_t>(b);
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  uint32_t value;
  uint32_t cost = costs_.multiply;
  switch (Funct3(insn)) {
    case 0:
      value = a * b;
      break;
    case 1:
      value = static_cast<uint32_t>(
          (static_cast<int64_t>(sa) * static_cast<int64_t>(sb)) >> 32);
      break;
    case 2:
      value = static_cast<uint32_t>(
          (static_cast<int64_t>(sa) * static_cast<int64_t>(b)) >> 32);
      break;
    case 3:
      value = static_cast<uint32_t>(
          (static_cast<uint64_t>(a) * static_cast<uint64_t>(b)) >> 32);
      break;
    // Division never traps in RISC-V: by zero and INT_MIN / -1 have
    // defined results.
    case 4:
      value = b == 0                     ? ~0u
              : (sa == kMin && sb == -1) ? a
                                         : static_cast<uint32_t>(sa / sb);
      cost = costs_.divide;
      break;
    case 5:
      value = b == 0 ? ~0u : a / b;
      cost = costs_.divide;
      break;
    case 6:
      value = b == 0                     ? a
              : (sa == kMin && sb == -1) ? 0
                                         : static_cast<uint32_t>(sa % sb);
      cost = costs_.divide;
      break;
    default:
      value = b == 0 ? a : a % b;
      cost = costs_.divide;
      break;
  }
  x_[Rd(insn)] = value;
  Retire(pc_ + length, cost);
}

void Rv32Core::ExecuteLoad(uint32_t insn, uint32_t length) {
  const uint32_t address = x_[Rs1(insn)] + static_cast<uint32_t>(ImmI(insn));
  uint32_t value;
  switch (Funct3(insn)) {
    case 0:
      if (!Load(address, 1, &value)) return;
      value = static_cast<uint32_t>(static_cast<int8_t>(value));
      break;
    case 1:
      if (!Load(address, 2, &value)) return;
      value = static_cast<uint32_t>(static_cast<int16_t>(value));
      break;
    case 2:
      if (!Load(address, 4, &value)) return;
      break;
    case 4:
      if (!Load(address, 1, &value)) return;
      break;
    case 5:
      if (!Load(address, 2, &value)) return;
      break;
    default:
      RaiseException(Exception::kIllegalInstruction, insn);
      return;
  }
  x_[Rd(insn)] = value;
  Retire(pc_ + length, costs_.load);
}

void Rv32Core::ExecuteStore(uint32_t insn, uint32_t length) {
  const uint32_t funct3 = Funct3(insn);
  if (funct3 > 2) {
    RaiseException(Exception::kIllegalInstruction, insn);
    return;
  }
  const uint32_t address = x_[Rs1(insn)] + static_cast<uint32_t>(ImmS(insn));
  if (Store(address, 1u << funct3, x_[Rs2(insn)])) {
    Retire(pc_ + length, costs_.store);
  }
}

namespace {

// RV32A's AMO funct5 codes.
std::optional<AmoOp> AmoOpOf(uint32_t funct5) {
  switch (funct5) {
    case 0b00001:
      return AmoOp::kSwap;
    case 0b00000:
      return AmoOp::kAdd;
    case 0b00100:
      return AmoOp::kXor;
    case 0b01100:
      return AmoOp::kAnd;
    case 0b01000:
      return AmoOp::kOr;
    case 0b10000:
      return AmoOp::kMin;
    case 0b10100:
      return AmoOp::kMax;
    case 0b11000:
      return AmoOp::kMinU;
    case 0b11100:
      return AmoOp::kMaxU;
    default:
      return std::nullopt;
  }
}

}  // namespace

uint32_t AmoResult(AmoOp op, uint32_t old_value, uint32_t operand) {
  const auto so = static_cast<int32_t>(old_value);
  const auto sp = static_cast<int32_t>(operand);
  switch (op) {
    case AmoOp::kSwap:
      return operand;
    case AmoOp::kAdd:
      return old_value + operand;
    case AmoOp::kXor:
      return old_value ^ operand;
    case AmoOp::kAnd:
      return old_value & operand;
    case AmoOp::kOr:
      return old_value | operand;
    case AmoOp::kMin:
      return so < sp ? old_value : operand;
    case AmoOp::kMax:
      return so > sp ? old_value : operand;
    case AmoOp::kMinU:
      return std::min(old_value, operand);
    case AmoOp::kMaxU:
      return std::max(old_value, operand);
  }
  return old_value;
}

BusReply HartBus::Amo(uint32_t address, AmoOp op, uint32_t operand,
                      uint32_t* old) {
  uint8_t bytes[4] = {};
  BusReply reply = Read(address, bytes, 4);
  if (!reply.ok) {
    return reply;
  }
  *old = static_cast<uint32_t>(LoadLittleEndian(bytes, 4));
  return WriteAmoResult(address, op, operand, *old, reply);
}

BusReply HartBus::WriteAmoResult(uint32_t address, AmoOp op, uint32_t operand,
                                 uint32_t old, const BusReply& read) {
  uint8_t bytes[4];
  StoreLittleEndian(bytes, 4, AmoResult(op, old, operand));
  const BusReply written = Write(address, bytes, 4);
  return {written.ok, read.stall_cycles + written.stall_cycles};
}

void Rv32Core::ExecuteAtomic(uint32_t insn, uint32_t length) {
  const uint32_t funct5 = Funct7(insn) >> 2;
  const uint32_t address = x_[Rs1(insn)];
  const uint32_t operand = x_[Rs2(insn)];
  if (Funct3(insn) != 2) {
    RaiseException(Exception::kIllegalInstruction, insn);
    return;
  }
  if (funct5 == 0b00010) {  // LR.W
    if (Rs2(insn) != 0) {
      RaiseException(Exception::kIllegalInstruction, insn);
      return;
    }
    uint32_t value;
    if (!Load(address, 4, &value)) {
      return;
    }
    reservation_valid_ = true;
    reservation_address_ = address;
    x_[Rd(insn)] = value;
    Retire(pc_ + length, costs_.load);
    return;
  }
  if (funct5 == 0b00011) {  // SC.W
    if ((address & 3) != 0) {
      RaiseException(Exception::kStoreAddressMisaligned, address);
      return;
    }
    const bool success = reservation_valid_ && reservation_address_ == address;
    if (success && !Store(address, 4, operand)) {
      // A watchpoint stop keeps the reservation for the retry; a fault
      // does not.
      reservation_valid_ = reservation_valid_ && watch_hit_;
      return;
    }
    reservation_valid_ = false;
    x_[Rd(insn)] = success ? 0 : 1;
    Retire(pc_ + length, costs_.store);
    return;
  }
  const std::optional<AmoOp> op = AmoOpOf(funct5);
  if (!op) {
    RaiseException(Exception::kIllegalInstruction, insn);
    return;
  }
  // An AMO is a store for the purpose of faults: misaligned or not
  // writable reports the store/AMO causes, even for its read.
  if ((address & 3) != 0) {
    RaiseException(Exception::kStoreAddressMisaligned, address);
    return;
  }
  const DirectRegion* region = FindRegion(address, 4);
  if (region != nullptr && !region->writable) {
    RaiseException(Exception::kStoreAccessFault, address);
    return;
  }
  uint32_t old_value;
  if (region == nullptr) {
    // On the bus, where a device may perform it as one operation.
    if (!watchpoints_.empty() &&
        (Watched(address, 4, false) || Watched(address, 4, true))) {
      return;
    }
    const BusReply reply = bus_.Amo(address, *op, operand, &old_value);
    cycles_ += reply.stall_cycles;
    if (!reply.ok) {
      RaiseException(Exception::kStoreAccessFault, address);
      return;
    }
    if (reservation_valid_ && (reservation_address_ & ~3u) == address) {
      reservation_valid_ = false;
    }
  } else if (!Load(address, 4, &old_value, Exception::kStoreAccessFault) ||
             !Store(address, 4, AmoResult(*op, old_value, operand))) {
    return;
  }
  x_[Rd(insn)] = old_value;
  Retire(pc_ + length, costs_.atomic);
}

const DirectRegion* Rv32Core::FindRegion(uint32_t address,
                                         uint32_t size) const {
  for (const DirectRegion& region : regions_) {
    if (region.Contains(address, size)) {
      return &region;
    }
  }
  return nullptr;
}

bool Rv32Core::Load(uint32_t address, uint32_t size, uint32_t* value,
                    Exception fault) {
  if ((address & (size - 1)) != 0) {
    RaiseException(Exception::kLoadAddressMisaligned, address);
    return false;
  }
  if (!watchpoints_.empty() && Watched(address, size, false)) {
    return false;
  }
  if (const DirectRegion* region = FindRegion(address, size)) {
    uint32_t raw = 0;
    std::memcpy(&raw, region->host + (address - region->base), size);
    *value = raw;
  } else {
    uint8_t bytes[4] = {};
    const BusReply reply = bus_.Read(address, bytes, size);
    cycles_ += reply.stall_cycles;
    if (!reply.ok) {
      RaiseException(fault, address);
      return false;
    }
    *value = static_cast<uint32_t>(LoadLittleEndian(bytes, size));
  }
  return true;
}

bool Rv32Core::Store(uint32_t address, uint32_t size, uint32_t value) {
  if ((address & (size - 1)) != 0) {
    RaiseException(Exception::kStoreAddressMisaligned, address);
    return false;
  }
  if (!watchpoints_.empty() && Watched(address, size, true)) {
    return false;
  }
  const DirectRegion* region = FindRegion(address, size);
  if (region != nullptr && region->writable) {
    std::memcpy(region->host + (address - region->base), &value, size);
  } else {
    uint8_t bytes[4];
    StoreLittleEndian(bytes, size, value);
    const BusReply reply = bus_.Write(address, bytes, size);
    cycles_ += reply.stall_cycles;
    if (!reply.ok) {
      RaiseException(Exception::kStoreAccessFault, address);
      return false;
    }
  }
  if (reservation_valid_ && (reservation_address_ & ~3u) == (address & ~3u)) {
    reservation_valid_ = false;
  }
  return true;
}

// Watchpoints stop the hart before the access, with the instruction not
// executed (as RISC-V debug triggers do, and as GDB expects of RISC-V: it
// steps over the access itself). Resuming executes it without a check.
bool Rv32Core::Watched(uint32_t address, uint32_t size, bool is_write) {
  if (resume_over_watchpoint_) {
    return false;
  }
  for (const Watchpoint& w : watchpoints_) {
    const bool kind_matches = w.access == WatchAccess::kAccess ||
                              (w.access == WatchAccess::kWrite) == is_write;
    const bool overlaps =
        address < w.address + w.length && w.address < address + size;
    if (kind_matches && overlaps) {
      watch_hit_ = true;
      watch_result_ = {StopReason::kWatchpoint, w.access,
                       std::max(address, w.address)};
      return true;
    }
  }
  return false;
}

}  // namespace lq::riscv
