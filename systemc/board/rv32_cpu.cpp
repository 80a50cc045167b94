// SPDX-License-Identifier: Apache-2.0
// Rv32Cpu: the quantum loop, the bus adapter (DMI and b_transport), WFI
// sleep, and the debug target GDB uses.
#include "systemc/board/rv32_cpu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/common/bytes.h"
#include "models/gdb/rv32_description.h"
#include "models/riscv/rv32_isa.h"
#include "systemc/board/gdb_stub.h"

namespace lq::board {

using gdb::ResumeAction;
using gdb::StopEvent;
using riscv::BusReply;
using riscv::RunResult;
using riscv::StopReason;

namespace {

constexpr int kPcRegister = 32;

riscv::WatchAccess ToWatchAccess(gdb::WatchKind kind) {
  switch (kind) {
    case gdb::WatchKind::kWrite:
      return riscv::WatchAccess::kWrite;
    case gdb::WatchKind::kRead:
      return riscv::WatchAccess::kRead;
    default:
      return riscv::WatchAccess::kAccess;
  }
}

gdb::WatchKind ToWatchKind(riscv::WatchAccess access) {
  switch (access) {
    case riscv::WatchAccess::kWrite:
      return gdb::WatchKind::kWrite;
    case riscv::WatchAccess::kRead:
      return gdb::WatchKind::kRead;
    default:
      return gdb::WatchKind::kAccess;
  }
}

}  // namespace

Rv32Cpu::Rv32Cpu(const sc_core::sc_module_name& name, const CpuConfig& config)
    : sc_module(name),
      bus("bus"),
      timer_irq("timer_irq"),
      software_irq("software_irq"),
      external_irq("external_irq"),
      config_(config),
      core_(*this, config.costs) {
  bus.register_invalidate_direct_mem_ptr(this,
                                         &Rv32Cpu::InvalidateDirectMemPtr);
  SC_HAS_PROCESS(Rv32Cpu);
  SC_THREAD(Run);
  SC_METHOD(OnInterrupts);
  sensitive << timer_irq << software_irq << external_irq;
  dont_initialize();
  if (Logs(kLogTraps | kLogIrq)) {
    core_.set_trap_observer(
        [this](uint32_t mcause, uint32_t mepc, uint32_t mtval) {
          LogTrap(mcause, mepc, mtval);
        });
  }
}

void Rv32Cpu::Log(const std::string& what) {
  if (!config_.on_log) {
    return;
  }
  config_.on_log(LocalTime(), what);
}

void Rv32Cpu::LogTrap(uint32_t mcause, uint32_t mepc, uint32_t mtval) {
  const bool interrupt = (mcause & riscv::kMcauseInterrupt) != 0;
  if (!Logs(interrupt ? kLogIrq : kLogTraps)) {
    return;
  }
  char text[160];
  if (interrupt) {
    std::snprintf(text, sizeof text, "irq: %s (mcause 0x%x) at pc 0x%08x",
                  riscv::TrapName(mcause), mcause, mepc);
  } else {
    std::snprintf(text, sizeof text,
                  "trap: %s (mcause 0x%x) at pc 0x%08x, mtval 0x%08x",
                  riscv::TrapName(mcause), mcause, mepc, mtval);
  }
  Log(text);
}

// A refused access (bus-errors), or one that reached a device (mmio):
// memory the CPU is granted direct access to is not a device.
void Rv32Cpu::LogAccess(tlm::tlm_command command, uint32_t address,
                        const uint8_t* data, uint32_t size, bool ok,
                        bool direct) {
  const bool write = command == tlm::TLM_WRITE_COMMAND;
  if (!ok && Logs(kLogBusErrors)) {
    char text[120];
    std::snprintf(text, sizeof text,
                  "bus error: %s of %u bytes at 0x%08x (pc 0x%08x)",
                  write ? "write" : "read", size, address, core_.pc());
    Log(text);
  } else if (ok && !direct && Logs(kLogMmio)) {
    uint32_t value = 0;
    for (uint32_t i = 0; i < size && i < 4; ++i) {
      value |= uint32_t{data[i]} << (8 * i);
    }
    char text[120];
    std::snprintf(text, sizeof text,
                  "mmio: %s %u bytes at 0x%08x %s 0x%0*x (pc 0x%08x)",
                  write ? "write" : "read", size, address, write ? "<-" : "->",
                  static_cast<int>(2 * std::min(size, 4u)), value, core_.pc());
    Log(text);
  }
}

Rv32Cpu::~Rv32Cpu() = default;

void Rv32Cpu::EnableGdb(uint16_t port, bool halt_at_start) {
  gdb_ = std::make_unique<GdbStub>(static_cast<gdb::DebugTarget&>(*this), port,
                                   halt_at_start);
}

uint16_t Rv32Cpu::gdb_port() const { return gdb_ ? gdb_->port() : 0; }

void Rv32Cpu::Finish(int status) {
  finished_ = true;
  core_.RequestStop();
  // Tell GDB now: whoever asked for the finish may stop the kernel, and
  // this thread would not run again.
  if (gdb_ && !killed_) {
    gdb_->ReportExit(status);
  }
}

void Rv32Cpu::PowerOff() {
  powered_off_ = true;
  finished_ = true;
  core_.RequestStop();
  wake_event_.notify(sc_core::SC_ZERO_TIME);  // out of WFI, to end
}

void Rv32Cpu::Reset() {
  if (powered_off_) {
    return;
  }
  reset_requested_ = true;
  finished_ = true;  // ends the run the thread is in
  core_.RequestStop();
  wake_event_.notify(sc_core::SC_ZERO_TIME);
  reset_event_.notify(sc_core::SC_ZERO_TIME);
}

void Rv32Cpu::OnInterrupts() {
  core_.SetInterruptLine(riscv::Interrupt::kMachineTimer, timer_irq.read());
  core_.SetInterruptLine(riscv::Interrupt::kMachineSoftware,
                         software_irq.read());
  core_.SetInterruptLine(riscv::Interrupt::kMachineExternal,
                         external_irq.read());
  if (core_.WakeupPending()) {
    wake_event_.notify();
  }
}

sc_core::sc_time Rv32Cpu::LocalTime() const {
  return time_base_ + config_.clock_period *
                          static_cast<double>(core_.cycles() - cycle_base_);
}

sc_core::sc_time Rv32Cpu::LocalOffset() const {
  const sc_core::sc_time local = LocalTime();
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  return local > now ? local - now : sc_core::SC_ZERO_TIME;
}

void Rv32Cpu::Sync() {
  const sc_core::sc_time offset = LocalOffset();
  if (offset > sc_core::SC_ZERO_TIME) {
    wait(offset);
  }
  ++syncs_;
}

void Rv32Cpu::Run() {
  RunFromReset(gdb_ && gdb_->halt_at_start());
  // A reset starts the firmware again, once it has finished or at the end
  // of the quantum it is in.
  for (;;) {
    while (!reset_requested_) {
      wait(reset_event_);
    }
    reset_requested_ = false;
    finished_ = false;
    before_reset_.instructions += core_.instructions_retired();
    before_reset_.cycles += core_.cycles();
    before_reset_.traps += core_.traps_taken();
    RunFromReset(false);
  }
}

void Rv32Cpu::RunFromReset(bool halt_at_start) {
  core_.Reset(reset_pc_);
  time_base_ = sc_core::sc_time_stamp();
  cycle_base_ = 0;
  const double quantum_cycles =
      std::max(1.0, std::floor(config_.quantum / config_.clock_period));
  ResumeAction action = ResumeAction::kContinue;
  if (halt_at_start) {
    action = DebugStop({StopEvent::Reason::kHaltedAtStart});
  }
  while (!finished_) {
    RunResult result;
    if (action == ResumeAction::kStep) {
      result = core_.Step();
    } else {
      // Run to the end of the quantum that started at the last sync.
      const auto ahead =
          static_cast<uint64_t>(LocalOffset() / config_.clock_period);
      const auto budget = static_cast<uint64_t>(quantum_cycles) -
                          std::min<uint64_t>(ahead, quantum_cycles - 1);
      result = core_.Run(core_.cycles() + budget);
    }
    Sync();
    StopEvent stop;
    switch (result.reason) {
      case StopReason::kBudget:
        if (!(gdb_ && gdb_->PollStopRequest())) {
          continue;
        }
        stop.reason = StopEvent::Reason::kInterrupted;
        break;
      case StopReason::kWfi:
        SleepUntilInterrupt();
        continue;
      case StopReason::kStopRequested:
        continue;  // finished_ ends the loop
      case StopReason::kBreakpoint:
        stop.reason = StopEvent::Reason::kBreakpoint;
        break;
      case StopReason::kStep:
        stop.reason = StopEvent::Reason::kStep;
        break;
      case StopReason::kWatchpoint:
        stop.reason = StopEvent::Reason::kWatchpoint;
        stop.watch_kind = ToWatchKind(result.watch_access);
        stop.watch_address = result.watch_address;
        break;
    }
    action = DebugStop(stop);
  }
}

namespace {

// The signal GDB shows for an exception (GDB's numbering).
int SignalFor(uint32_t mcause) {
  constexpr int kSigIll = 4, kSigTrap = 5, kSigBus = 10, kSigSegv = 11;
  switch (static_cast<riscv::Exception>(mcause)) {
    case riscv::Exception::kIllegalInstruction:
      return kSigIll;
    case riscv::Exception::kInstructionAccessFault:
    case riscv::Exception::kLoadAccessFault:
    case riscv::Exception::kStoreAccessFault:
      return kSigSegv;
    case riscv::Exception::kLoadAddressMisaligned:
    case riscv::Exception::kStoreAddressMisaligned:
      return kSigBus;
    default:
      return mcause == 0 ? kSigBus : kSigTrap;  // 0: a misaligned pc
  }
}

}  // namespace

UnhandledTrap Rv32Cpu::StopForUnhandledTrap() {
  UnhandledTrap trap;
  core_.ReadCsr(riscv::kCsrMcause, &trap.mcause);
  core_.ReadCsr(riscv::kCsrMepc, &trap.mepc);
  core_.ReadCsr(riscv::kCsrMtval, &trap.mtval);
  StopEvent stop;
  stop.reason = StopEvent::Reason::kSignal;
  stop.signal = SignalFor(trap.mcause);
  DebugStop(stop);
  return trap;
}

ResumeAction Rv32Cpu::DebugStop(const StopEvent& stop) {
  if (!gdb_) {
    return ResumeAction::kContinue;
  }
  // Simulated time stands still while GDB holds the CPU: this thread does
  // not return to the kernel until GDB resumes it.
  const ResumeAction action = gdb_->ServeStop(stop);
  if (action == ResumeAction::kKill) {
    killed_ = true;
    Finish(-1);
    // The run ends with the target GDB killed, whatever else is still
    // busy (an RTL port's clock never runs out of events).
    sc_core::sc_stop();
  }
  return action == ResumeAction::kStep ? ResumeAction::kStep
                                       : ResumeAction::kContinue;
}

void Rv32Cpu::SleepUntilInterrupt() {
  ++wfi_sleeps_;
  while (!core_.WakeupPending() && !finished_) {
    wait(wake_event_);
  }
  // The core's clock is gated while it sleeps: mcycle does not count, and
  // its time restarts from now.
  time_base_ = sc_core::sc_time_stamp();
  cycle_base_ = core_.cycles();
}

void Rv32Cpu::InvalidateDirectMemPtr(sc_dt::uint64, sc_dt::uint64) {
  core_.ClearDirectRegions();
}

void Rv32Cpu::RequestDirectAccess(tlm::tlm_generic_payload& trans) {
  tlm::tlm_dmi dmi;
  if (!bus->get_direct_mem_ptr(trans, dmi) || !dmi.is_read_allowed()) {
    return;
  }
  riscv::DirectRegion region;
  region.base = static_cast<uint32_t>(dmi.get_start_address());
  region.size = static_cast<uint32_t>(dmi.get_end_address() -
                                      dmi.get_start_address() + 1);
  region.host = dmi.get_dmi_ptr();
  region.writable = dmi.is_write_allowed();
  region.executable = true;
  core_.AddDirectRegion(region);
  ++dmi_grants_;
}

// A device access (anything without DMI) is where firmware meets the rest
// of the system, so the CPU synchronises first: the device sees the access
// at the CPU's own time, and the interrupt lines it changes have settled
// (two delta cycles: device process, then the lines into mip) before the
// next instruction, as firmware expects of "write msip, read mip".
BusReply Rv32Cpu::Transport(tlm::tlm_command command, uint32_t address,
                            uint8_t* data, uint32_t size,
                            BusAmoExtension* extension) {
  ++bus_accesses_;
  Sync();
  tlm::tlm_generic_payload trans;
  if (extension != nullptr) {
    trans.set_extension(extension);
  }
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(size);
  trans.set_streaming_width(size);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_core::sc_time before = sc_core::sc_time_stamp();
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bus->b_transport(trans, delay);
  // The target may have waited: the access ended at sc_time_stamp() + delay.
  const sc_core::sc_time after = sc_core::sc_time_stamp() + delay;
  wait(sc_core::SC_ZERO_TIME);
  wait(sc_core::SC_ZERO_TIME);
  // Rebase the CPU's clock on the kernel's, then charge the access.
  time_base_ = before;
  cycle_base_ = core_.cycles();
  BusReply reply;
  reply.ok = trans.is_response_ok();
  if (config_.log != 0) {
    LogAccess(command, address, data, size, reply.ok, trans.is_dmi_allowed());
  }
  reply.stall_cycles =
      static_cast<uint32_t>(std::ceil((after - before) / config_.clock_period));
  if (reply.ok && trans.is_dmi_allowed()) {
    RequestDirectAccess(trans);
  }
  if (extension != nullptr) {
    trans.clear_extension(extension);
  }
  return reply;
}

BusReply Rv32Cpu::Amo(uint32_t address, riscv::AmoOp op, uint32_t operand,
                      uint32_t* old) {
  BusAmoExtension amo;
  amo.op = op == riscv::AmoOp::kSwap  ? BusAmoExtension::Op::kSwap
           : op == riscv::AmoOp::kAdd ? BusAmoExtension::Op::kAdd
                                      : BusAmoExtension::Op::kOther;
  amo.operand = operand;
  uint8_t bytes[4] = {};
  BusReply reply = Transport(tlm::TLM_READ_COMMAND, address, bytes, 4, &amo);
  if (!reply.ok) {
    return reply;
  }
  *old = static_cast<uint32_t>(LoadLittleEndian(bytes, 4));
  return amo.performed ? reply
                       : WriteAmoResult(address, op, operand, *old, reply);
}

BusReply Rv32Cpu::Read(uint32_t address, uint8_t* data, uint32_t size) {
  return Transport(tlm::TLM_READ_COMMAND, address, data, size);
}

BusReply Rv32Cpu::Write(uint32_t address, const uint8_t* data, uint32_t size) {
  uint8_t copy[4];
  std::copy(data, data + size, copy);
  return Transport(tlm::TLM_WRITE_COMMAND, address, copy, size);
}

BusReply Rv32Cpu::Fetch(uint32_t address, uint8_t* data, uint32_t size) {
  return Transport(tlm::TLM_READ_COMMAND, address, data, size);
}

uint64_t Rv32Cpu::Time() {
  uint8_t bytes[8] = {};
  if (!Read(config_.mtime_address, bytes, 8).ok) {
    return 0;
  }
  return LoadLittleEndian(bytes, sizeof bytes);
}

bool Rv32Cpu::DebugTransport(tlm::tlm_command command, uint32_t address,
                             uint8_t* data, uint32_t size) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(size);
  // A complete payload: register blocks check the streaming width too.
  trans.set_streaming_width(size);
  return bus->transport_dbg(trans) == size;
}

// Whole if the target takes it so; else byte by byte, so that a span over
// two devices still works and one unmapped byte fails the whole access.
bool Rv32Cpu::DebugAccess(tlm::tlm_command command, uint32_t address,
                          uint8_t* data, size_t size) {
  if (DebugTransport(command, address, data, static_cast<uint32_t>(size))) {
    return true;
  }
  // Across several devices, or registers (which take a word at a time).
  if (address % 4 == 0 && size % 4 == 0) {
    bool words = true;
    for (size_t i = 0; i < size && words; i += 4) {
      words = DebugTransport(command, address + static_cast<uint32_t>(i),
                             data + i, 4);
    }
    if (words) {
      return true;
    }
  }
  for (size_t i = 0; i < size; ++i) {
    if (!DebugTransport(command, address + static_cast<uint32_t>(i), data + i,
                        1)) {
      return false;
    }
  }
  return true;
}

const ComponentDecl& Rv32Cpu::Declaration() {
  static const ComponentDecl decl{
      "cpu",
      "the board's RV32IMAC hart (docs/board.md)",
      {{"bus", "TLM-2.0 initiator, 32-bit", "the board bus"}},
      {{"instructions", "instructions retired"},
       {"cycles", "core cycles, stalls included, WFI sleep excluded"},
       {"traps", "exceptions and interrupts taken"},
       {"syncs", "synchronisations with the kernel"},
       {"bus_accesses", "accesses over the bus instead of DMI"},
       {"wfi_sleeps", "WFIs that slept"},
       {"dmi_grants", "DMI regions granted"}}};
  return decl;
}

StatList Rv32Cpu::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("instructions", instructions())
      .Add("cycles", cycles())
      .Add("traps", traps())
      .Add("syncs", syncs_)
      .Add("bus_accesses", bus_accesses_)
      .Add("wfi_sleeps", wfi_sleeps_)
      .Add("dmi_grants", dmi_grants_);
  return stats.Take();
}

int Rv32Cpu::RegisterCount() const { return 33; }

bool Rv32Cpu::ReadRegister(int number, uint32_t* value) {
  if (number >= gdb::kRv32FirstCsrRegister) {
    return core_.ReadCsr(
        static_cast<uint32_t>(number - gdb::kRv32FirstCsrRegister), value);
  }
  if (number < 0 || number > kPcRegister) {
    return false;
  }
  *value = number == kPcRegister ? core_.pc()
                                 : core_.reg(static_cast<unsigned>(number));
  return true;
}

bool Rv32Cpu::WriteRegister(int number, uint32_t value) {
  if (number >= gdb::kRv32FirstCsrRegister) {
    return core_.WriteCsr(
        static_cast<uint32_t>(number - gdb::kRv32FirstCsrRegister), value);
  }
  if (number < 0 || number > kPcRegister) {
    return false;
  }
  if (number == kPcRegister) {
    core_.set_pc(value);
  } else {
    core_.set_reg(static_cast<unsigned>(number), value);
  }
  return true;
}

bool Rv32Cpu::ReadMemory(uint32_t address, uint8_t* data, size_t size) {
  return DebugAccess(tlm::TLM_READ_COMMAND, address, data, size);
}

bool Rv32Cpu::WriteMemory(uint32_t address, const uint8_t* data, size_t size) {
  return DebugAccess(tlm::TLM_WRITE_COMMAND, address,
                     const_cast<uint8_t*>(data), size);
}

bool Rv32Cpu::InsertBreakpoint(uint32_t address) {
  core_.InsertBreakpoint(address);
  return true;
}

bool Rv32Cpu::RemoveBreakpoint(uint32_t address) {
  core_.RemoveBreakpoint(address);
  return true;
}

bool Rv32Cpu::InsertWatchpoint(gdb::WatchKind kind, uint32_t address,
                               uint32_t length) {
  core_.InsertWatchpoint(ToWatchAccess(kind), address, length);
  return true;
}

bool Rv32Cpu::RemoveWatchpoint(gdb::WatchKind kind, uint32_t address,
                               uint32_t length) {
  core_.RemoveWatchpoint(ToWatchAccess(kind), address, length);
  return true;
}

std::optional<std::string> Rv32Cpu::Monitor(const std::string& command) {
  if (!monitor_) {
    return std::nullopt;
  }
  return monitor_(command);
}

std::string Rv32Cpu::TargetDescription(const std::string& annex) const {
  return annex == "target.xml" ? gdb::Rv32TargetDescription() : std::string();
}

}  // namespace lq::board
