// SPDX-License-Identifier: Apache-2.0
// Rv32Core: an RV32IMAC + Zicsr hart with machine-mode traps and interrupts,
// interpreted instruction by instruction. Plain C++: the SystemC CPU model
// (systemc/board/rv32_cpu.h) runs it in quanta and gives it a bus.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/riscv/hart_bus.h"
#include "models/riscv/rv32_isa.h"

namespace lq::riscv {

// Core cycles each instruction class costs (docs/board.md). Bus stalls come
// on top, as the bus reports them.
struct CycleCosts {
  uint32_t alu = 1;               // OP, OP-IMM, LUI, AUIPC, fences
  uint32_t load = 2;              // loads, LR
  uint32_t store = 1;             // stores, SC
  uint32_t branch_taken = 3;      // a taken branch refills the pipeline
  uint32_t branch_not_taken = 1;  //
  uint32_t jump = 2;              // JAL, JALR
  uint32_t multiply = 3;          // MUL, MULH*
  uint32_t divide = 34;           // DIV*, REM*: one bit per cycle + setup
  uint32_t csr = 2;               // CSR read/modify/write
  uint32_t atomic = 4;            // AMO read-modify-write
  uint32_t trap = 4;              // trap entry, MRET, ECALL, EBREAK
};

// Which accesses a watchpoint catches.
enum class WatchAccess { kWrite, kRead, kAccess };

// Why Run() returned.
enum class StopReason {
  kBudget,         // reached the cycle it was asked to run to
  kWfi,            // executed WFI with no interrupt pending: wait for one
  kBreakpoint,     // about to execute an instruction at a breakpoint
  kStep,           // single step finished
  kWatchpoint,     // about to access a watched range (not yet done)
  kStopRequested,  // RequestStop() was called (e.g. the test finisher)
};

struct RunResult {
  StopReason reason = StopReason::kBudget;
  WatchAccess watch_access = WatchAccess::kWrite;  // kWatchpoint only
  uint32_t watch_address = 0;                      // kWatchpoint only
};

class Rv32Core {
 public:
  explicit Rv32Core(HartBus& bus, CycleCosts costs = {});

  // Architectural reset: registers and CSRs cleared, pc = reset_pc.
  void Reset(uint32_t reset_pc);

  // Host memory the hart may access without the bus (DMI). Regions must not
  // overlap; ClearDirectRegions drops all (DMI invalidation).
  void AddDirectRegion(const DirectRegion& region);
  void ClearDirectRegions();

  // Executes until cycles() >= until_cycle or something stops the hart.
  RunResult Run(uint64_t until_cycle);
  // Executes one instruction (or enters one trap).
  RunResult Step();

  // Interrupt lines into mip (MSIP, MTIP, MEIP): level-sensitive.
  void SetInterruptLine(Interrupt line, bool level);
  // True if an enabled interrupt is pending (mip & mie), which ends a WFI
  // whether or not mstatus.MIE is set.
  bool WakeupPending() const { return (mip_ & mie_) != 0; }

  // Makes Run() return kStopRequested after the current instruction. Safe
  // to call from HartBus callbacks.
  void RequestStop();

  // Called on every trap entered, exception or interrupt, with mcause,
  // mepc and mtval as set (for logs; none by default).
  using TrapObserver =
      std::function<void(uint32_t mcause, uint32_t mepc, uint32_t mtval)>;
  void set_trap_observer(TrapObserver observer) {
    trap_observer_ = std::move(observer);
  }

  // Debug access to the architectural state.
  uint32_t reg(unsigned index) const { return x_[index & 31]; }
  void set_reg(unsigned index, uint32_t value);
  uint32_t pc() const { return pc_; }
  void set_pc(uint32_t pc) { pc_ = pc; }
  // CSR value as an instruction would read it; false if not implemented.
  bool ReadCsr(uint32_t number, uint32_t* value) const;
  // A CSR write as an instruction's (WARL fields kept legal); false if not
  // implemented or read-only.
  bool WriteCsr(uint32_t number, uint32_t value);

  void InsertBreakpoint(uint32_t address);
  void RemoveBreakpoint(uint32_t address);
  void InsertWatchpoint(WatchAccess access, uint32_t address, uint32_t length);
  void RemoveWatchpoint(WatchAccess access, uint32_t address, uint32_t length);

  // Cycles elapsed since reset (the time base; mcycle may be rewritten by
  // firmware without moving it) and instructions retired.
  uint64_t cycles() const { return cycles_; }
  uint64_t instructions_retired() const { return instret_; }
  // Traps taken since reset (exceptions and interrupts).
  uint64_t traps_taken() const { return traps_; }

 private:
  struct Watchpoint {
    WatchAccess access;
    uint32_t address;
    uint32_t length;
  };

  // One instruction at pc_: fetch, decode, execute, retire or trap.
  void ExecuteOne();
  void Execute(uint32_t insn, uint32_t length);
  bool Fetch(uint32_t* insn, uint32_t* length);
  // A compressed parcel's 32-bit form; false (trap entered) if illegal.
  bool Expand(uint16_t parcel, uint32_t* insn);
  void ExecuteLoad(uint32_t insn, uint32_t length);
  void ExecuteStore(uint32_t insn, uint32_t length);
  void ExecuteAtomic(uint32_t insn, uint32_t length);
  void ExecuteReg(uint32_t insn, uint32_t length);
  void ExecuteMulDiv(uint32_t insn, uint32_t length);
  void ExecuteSystem(uint32_t insn, uint32_t length);
  void ExecuteCsr(uint32_t insn, uint32_t length);

  // Data accesses; false if they trapped (the trap is already entered).
  // `fault` is the cause a bus error reports (AMOs report store faults).
  bool Load(uint32_t address, uint32_t size, uint32_t* value,
            Exception fault = Exception::kLoadAccessFault);
  bool Store(uint32_t address, uint32_t size, uint32_t value);
  const DirectRegion* FindRegion(uint32_t address, uint32_t size) const;
  // True (and the hit recorded) if a watchpoint catches this access.
  bool Watched(uint32_t address, uint32_t size, bool is_write);

  // CSRs (rv32_csr.cpp).
  void RaiseException(Exception cause, uint32_t tval);
  void EnterTrap(uint32_t cause, uint32_t tval);
  bool TakePendingInterrupt();
  void ReturnFromTrap();
  void Retire(uint32_t next_pc, uint32_t cost);
  void UpdateAttention();

  HartBus& bus_;
  CycleCosts costs_;

  uint32_t x_[32] = {};
  uint32_t pc_ = 0;

  // Machine CSRs.
  uint32_t mstatus_ = kMstatusMpp;
  uint32_t mie_ = 0;
  uint32_t mip_ = 0;
  uint32_t mtvec_ = 0;
  uint32_t mscratch_ = 0;
  uint32_t mepc_ = 0;
  uint32_t mcause_ = 0;
  uint32_t mtval_ = 0;
  uint64_t mcycle_offset_ = 0;  // mcycle = cycles_ + offset
  uint64_t minstret_offset_ = 0;

  uint64_t cycles_ = 0;
  uint64_t instret_ = 0;
  uint64_t traps_ = 0;
  TrapObserver trap_observer_;

  bool reservation_valid_ = false;
  uint32_t reservation_address_ = 0;

  std::vector<DirectRegion> regions_;
  // Region of the last fetch: `fetch_span_` is its size minus 3, so that
  // `pc - base < fetch_span_` means four bytes can be read at pc.
  uint32_t fetch_base_ = 0;
  uint32_t fetch_span_ = 0;
  const uint8_t* fetch_host_ = nullptr;

  // Something other than plain execution needs a look before the next
  // instruction: a stop request, a possible interrupt, breakpoints.
  bool attention_ = false;
  bool stop_requested_ = false;
  bool check_interrupts_ = false;
  bool wfi_ = false;        // the current instruction was a sleeping WFI
  bool watch_hit_ = false;  // the current instruction hit a watchpoint
  RunResult watch_result_;
  // The last Run stopped at a breakpoint at pc_: execute it when resumed.
  bool resume_over_breakpoint_ = false;
  // The last Run stopped at a watched access: perform it when resumed.
  bool resume_over_watchpoint_ = false;
  std::vector<uint32_t> breakpoints_;
  std::vector<Watchpoint> watchpoints_;
};

}  // namespace lq::riscv
