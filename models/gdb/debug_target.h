// SPDX-License-Identifier: Apache-2.0
// What the GDB remote serial protocol session needs from the CPU it debugs:
// registers, memory, break- and watchpoints. The CPU implements it; the
// session (rsp_session.h) never sees how the CPU runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lq::gdb {

// Watchpoint kinds, numbered as in the Z2/Z3/Z4 packets.
enum class WatchKind { kWrite = 2, kRead = 3, kAccess = 4 };

// Why the CPU stopped, reported to GDB as a stop-reply packet.
struct StopEvent {
  enum class Reason {
    kHaltedAtStart,  // before the first instruction (S05)
    kBreakpoint,     // a software breakpoint (T05 swbreak)
    kStep,           // a single step finished (S05)
    kWatchpoint,     // a watchpoint hit (T05 watch/rwatch/awatch:ADDR)
    kInterrupted,    // GDB sent Ctrl-C (S02)
    kExited,         // the firmware ended the simulation (Wxx)
    kSignal,         // a fault GDB should see as `signal` (Sxx)
  };
  Reason reason = Reason::kHaltedAtStart;
  WatchKind watch_kind = WatchKind::kWrite;  // kWatchpoint only
  uint32_t watch_address = 0;                // kWatchpoint only
  int exit_status = 0;                       // kExited only
  // kSignal only: in GDB's numbering (remote protocol): SIGILL 4, SIGTRAP
  // 5, SIGBUS 10, SIGSEGV 11.
  int signal = 0;
};

// What GDB asked the CPU to do when it leaves a stop.
enum class ResumeAction { kContinue, kStep, kDetach, kKill };

class DebugTarget {
 public:
  virtual ~DebugTarget() = default;

  // Registers in GDB's numbering for the target description this target
  // returns: for RV32, x0..x31 = 0..31 and pc = 32. RegisterCount() is how
  // many the g packet carries (0..count-1); the description may name more
  // (CSRs), which GDB reads and writes one at a time. False: no such
  // register.
  virtual int RegisterCount() const = 0;
  virtual bool ReadRegister(int number, uint32_t* value) = 0;
  virtual bool WriteRegister(int number, uint32_t value) = 0;

  // Debug accesses: no side effects on devices' timing, no traps; false if
  // any byte is outside mapped memory. Writes reach ROM too (GDB may patch
  // code).
  virtual bool ReadMemory(uint32_t address, uint8_t* data, size_t size) = 0;
  virtual bool WriteMemory(uint32_t address, const uint8_t* data,
                           size_t size) = 0;

  // Breakpoints stop the CPU before it executes the instruction at address.
  virtual bool InsertBreakpoint(uint32_t address) = 0;
  virtual bool RemoveBreakpoint(uint32_t address) = 0;
  // Watchpoints stop the CPU before an access that would touch
  // [address, address + length), with that instruction not yet executed
  // (GDB steps over it, as on RISC-V hardware triggers).
  virtual bool InsertWatchpoint(WatchKind kind, uint32_t address,
                                uint32_t length) = 0;
  virtual bool RemoveWatchpoint(WatchKind kind, uint32_t address,
                                uint32_t length) = 0;

  // The target description XML GDB reads with qXfer:features:read for the
  // given annex ("target.xml" first); empty if there is no such annex.
  virtual std::string TargetDescription(const std::string& annex) const = 0;

  // GDB's `monitor COMMAND` (qRcmd): the text GDB shows, or none if the
  // target has no monitor commands (GDB then says so).
  virtual std::optional<std::string> Monitor(const std::string& /*command*/) {
    return std::nullopt;
  }
};

}  // namespace lq::gdb
