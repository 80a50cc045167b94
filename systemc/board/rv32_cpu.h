// SPDX-License-Identifier: Apache-2.0
// Rv32Cpu: the board's MCU. Runs an Rv32Core as a loosely-timed TLM-2.0
// initiator: it executes a quantum of instructions ahead of simulated time,
// reaches RAM and flash through DMI, reaches devices through b_transport
// with its local time offset, and synchronises only at the end of a
// quantum, on WFI and on debug stops. It is also the target GDB debugs.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>

#include "models/gdb/debug_target.h"
#include "models/riscv/hart_bus.h"
#include "models/riscv/rv32_core.h"
#include "systemc/common/bus_amo_extension.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/stat_list.h"

namespace lq::board {

class GdbStub;

// A trap the firmware does not handle: its trap CSRs.
struct UnhandledTrap {
  uint32_t mcause = 0;
  uint32_t mepc = 0;
  uint32_t mtval = 0;
};
// The exit status of a run an unhandled trap ended.
inline constexpr int kUnhandledTrapStatus = 1;

struct CpuConfig {
  sc_core::sc_time clock_period = sc_core::sc_time(10, sc_core::SC_NS);
  // How far the CPU may run ahead of the rest of the simulation.
  sc_core::sc_time quantum = sc_core::sc_time(1, sc_core::SC_US);
  riscv::CycleCosts costs;
  // Where mtime is, for the time CSR (the CLINT's mtime register).
  uint32_t mtime_address = 0x0200bff8;
  // Events told to `on_log` as they happen, one line each (CpuLog bits),
  // with the CPU's time (ahead of the kernel's by up to a quantum).
  uint32_t log = 0;
  std::function<void(const sc_core::sc_time& at, const std::string& event)>
      on_log;
};

// What a CPU logs (`lqemu board --log`).
enum CpuLog : uint32_t {
  kLogTraps = 1,      // exceptions entered
  kLogIrq = 2,        // interrupts taken
  kLogBusErrors = 4,  // accesses the bus refused
  kLogMmio = 8,       // device accesses (memory the CPU reads directly aside)
};

class Rv32Cpu : public sc_core::sc_module,
                private riscv::HartBus,
                private gdb::DebugTarget {
 public:
  tlm_utils::simple_initiator_socket<Rv32Cpu> bus;
  sc_core::sc_in<bool> timer_irq;
  sc_core::sc_in<bool> software_irq;
  sc_core::sc_in<bool> external_irq;

  Rv32Cpu(const sc_core::sc_module_name& name, const CpuConfig& config);
  ~Rv32Cpu() override;

  // Where execution starts (the ELF entry point).
  void set_reset_pc(uint32_t pc) { reset_pc_ = pc; }
  // Serves GDB on 127.0.0.1:port (0: any free port, see gdb_port());
  // `halt_at_start` waits for GDB before the first instruction.
  void EnableGdb(uint16_t port, bool halt_at_start);
  uint16_t gdb_port() const;
  // Answers GDB's `monitor COMMAND` with the text it returns (without a
  // handler, the board has no monitor commands).
  using MonitorHandler = std::function<std::string(const std::string&)>;
  void SetMonitorHandler(MonitorHandler handler) {
    monitor_ = std::move(handler);
  }
  // The firmware ended the run: stop after the current instruction, and
  // tell an attached debugger.
  void Finish(int status);
  // The firmware says it does not handle the trap it is in: the trap, and
  // with GDB attached a stop GDB sees as a signal (SIGSEGV for an access
  // fault, SIGILL, SIGTRAP, SIGBUS for a misaligned address), which
  // returns when GDB resumes or kills the target.
  UnhandledTrap StopForUnhandledTrap();
  // The card lost its power (an injected node failure): the CPU executes
  // nothing more, from the end of the quantum it is in.
  void PowerOff();
  // The CPU is reset (an injected node reset): from the end of the quantum
  // it is in, or at once if its firmware had finished, it starts again at
  // the reset pc with every register and CSR at its reset value.
  void Reset();
  // Instructions retired, cycles and traps taken since the simulation
  // began, across resets (mcycle and minstret restart at a reset).
  uint64_t instructions() const {
    return before_reset_.instructions + core_.instructions_retired();
  }
  uint64_t cycles() const { return before_reset_.cycles + core_.cycles(); }
  uint64_t traps() const { return before_reset_.traps + core_.traps_taken(); }
  // GDB asked to kill the target.
  bool killed() const { return killed_; }
  bool running() const { return !finished_; }

  const riscv::Rv32Core& core() const { return core_; }
  StatList Stats() const;
  static const ComponentDecl& Declaration();

 private:
  void Run();  // SC_THREAD: RunFromReset, again after each Reset()
  // Runs the firmware from the reset pc until it finishes or is reset.
  void RunFromReset(bool halt_at_start);
  void OnInterrupts();  // SC_METHOD: the lines into mip
  void InvalidateDirectMemPtr(sc_dt::uint64 start, sc_dt::uint64 end);
  // Whether events of `kind` are logged; Log tells one, at the CPU's time.
  bool Logs(uint32_t kind) const { return (config_.log & kind) != 0; }
  void Log(const std::string& what);
  void LogTrap(uint32_t mcause, uint32_t mepc, uint32_t mtval);
  void LogAccess(tlm::tlm_command command, uint32_t address,
                 const uint8_t* data, uint32_t size, bool ok, bool direct);

  // The CPU's own time: time_base_ + (cycles - cycle_base_) * period.
  sc_core::sc_time LocalTime() const;
  sc_core::sc_time LocalOffset() const;
  void Sync();
  // Serves the debugger after a stop; returns how to go on.
  gdb::ResumeAction DebugStop(const gdb::StopEvent& stop);
  void SleepUntilInterrupt();

  // riscv::HartBus
  riscv::BusReply Read(uint32_t address, uint8_t* data, uint32_t size) override;
  riscv::BusReply Write(uint32_t address, const uint8_t* data,
                        uint32_t size) override;
  // Asks the device to perform the AMO (BusAmoExtension); if it only
  // reads, writes the new word itself.
  riscv::BusReply Amo(uint32_t address, riscv::AmoOp op, uint32_t operand,
                      uint32_t* old) override;
  riscv::BusReply Fetch(uint32_t address, uint8_t* data,
                        uint32_t size) override;
  uint64_t Time() override;
  // `extension`, if any, rides on the access.
  riscv::BusReply Transport(tlm::tlm_command command, uint32_t address,
                            uint8_t* data, uint32_t size,
                            BusAmoExtension* extension = nullptr);
  void RequestDirectAccess(tlm::tlm_generic_payload& trans);
  // Debug transactions through the bus (no timing, no side effects).
  bool DebugTransport(tlm::tlm_command command, uint32_t address, uint8_t* data,
                      uint32_t size);
  bool DebugAccess(tlm::tlm_command command, uint32_t address, uint8_t* data,
                   size_t size);

  // gdb::DebugTarget
  int RegisterCount() const override;
  bool ReadRegister(int number, uint32_t* value) override;
  bool WriteRegister(int number, uint32_t value) override;
  bool ReadMemory(uint32_t address, uint8_t* data, size_t size) override;
  bool WriteMemory(uint32_t address, const uint8_t* data, size_t size) override;
  bool InsertBreakpoint(uint32_t address) override;
  bool RemoveBreakpoint(uint32_t address) override;
  bool InsertWatchpoint(gdb::WatchKind kind, uint32_t address,
                        uint32_t length) override;
  bool RemoveWatchpoint(gdb::WatchKind kind, uint32_t address,
                        uint32_t length) override;
  std::string TargetDescription(const std::string& annex) const override;
  std::optional<std::string> Monitor(const std::string& command) override;

  CpuConfig config_;
  MonitorHandler monitor_;
  riscv::Rv32Core core_;
  uint32_t reset_pc_ = 0;
  sc_core::sc_time time_base_;
  uint64_t cycle_base_ = 0;
  sc_core::sc_event wake_event_;
  std::unique_ptr<GdbStub> gdb_;
  bool finished_ = false;
  bool killed_ = false;
  bool powered_off_ = false;
  bool reset_requested_ = false;
  sc_core::sc_event reset_event_;
  struct {
    uint64_t instructions = 0, cycles = 0, traps = 0;
  } before_reset_;

  uint64_t syncs_ = 0;
  uint64_t bus_accesses_ = 0;
  uint64_t wfi_sleeps_ = 0;
  uint64_t dmi_grants_ = 0;
};

}  // namespace lq::board
