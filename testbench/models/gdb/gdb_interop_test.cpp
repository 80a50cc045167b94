// SPDX-License-Identifier: Apache-2.0
// Runs the distribution's gdb-multiarch against the RSP session over a real
// TCP connection, so that GDB itself judges the target description, the
// stop replies and the packet answers. Skipped where gdb-multiarch is not
// installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/gdb/rsp_session.h"
#include "models/gdb/rv32_description.h"
#include "systemc/board/tcp_channel.h"
#include "testbench/models/gdb/gdb_fakes.h"

namespace lq::gdb {
namespace {

using fakes::FakeTarget;
using Hart = std::function<void(FakeTarget&, RspSession&)>;

constexpr char kGdb[] = "/usr/bin/gdb-multiarch";
constexpr int kInstructionsPerContinue = 64;
constexpr uint32_t kNop = 0x00000013;  // addi x0, x0, 0
constexpr int kSp = 2;
constexpr int kA0 = 10;
constexpr int kS11 = 27;

// GDB's whole output for these commands, after connecting to
// 127.0.0.1:port.
std::string RunGdb(uint16_t port, const std::vector<std::string>& commands) {
  std::string command = std::string(kGdb) +
                        " -nx -batch -ex 'set remotetimeout 10'"
                        " -ex 'target remote 127.0.0.1:" +
                        std::to_string(port) + "'";
  for (const std::string& line : commands) {
    command += " -ex '" + line + "'";
  }
  command += " 2>&1";
  std::string output;
  FILE* gdb = popen(command.c_str(), "r");
  if (gdb == nullptr) {
    return output;
  }
  char buffer[1024];
  for (size_t n; (n = fread(buffer, 1, sizeof(buffer), gdb)) > 0;) {
    output.append(buffer, n);
  }
  pclose(gdb);
  return output;
}

// Starts GDB with the commands, lets `hart` play the CPU over the accepted
// connection, and returns what GDB printed.
std::string DebugWithGdb(const std::vector<std::string>& commands,
                         FakeTarget& target, const Hart& hart) {
  board::TcpListener listener(0);
  std::string output;
  std::thread gdb([&output, &commands, port = listener.port()] {
    output = RunGdb(port, commands);
  });
  std::unique_ptr<board::TcpConnection> connection;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!connection && std::chrono::steady_clock::now() < deadline) {
    connection = listener.TryAccept();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (connection) {
    RspSession session(target, *connection);
    hart(target, session);
  }
  gdb.join();
  EXPECT_NE(connection, nullptr) << "GDB never connected:\n" << output;
  return output;
}

// A hart whose memory is all 4-byte nops (GDB steps RISC-V in software,
// with a breakpoint after the instruction it decodes at the pc).
FakeTarget NopHart() {
  FakeTarget target;
  for (size_t i = 0; i < target.memory.size(); i += 4) {
    StoreLittleEndian(&target.memory[i], 4, kNop);
  }
  target.registers[kRv32PcRegister] = FakeTarget::kMemoryBase;
  target.registers[kSp] = FakeTarget::kMemoryBase + 0x800;
  return target;
}

// Stands in for the CPU: a step adds 4 to the pc; a continue runs until the
// pc reaches a breakpoint, or else writes the first watched byte and stops
// for that watchpoint, or else stops as if interrupted.
void RunNops(FakeTarget& target, RspSession& session) {
  uint32_t& pc = target.registers[kRv32PcRegister];
  StopEvent stop;
  while (true) {
    const ResumeAction action = session.ServeStop(stop);
    if (action == ResumeAction::kDetach || action == ResumeAction::kKill) {
      return;
    }
    stop = StopEvent{};
    if (action == ResumeAction::kStep) {
      pc += 4;
      stop.reason = StopEvent::Reason::kStep;
      continue;
    }
    stop.reason = StopEvent::Reason::kInterrupted;
    for (int i = 0; i < kInstructionsPerContinue; ++i) {
      pc += 4;
      if (std::count(target.breakpoints.begin(), target.breakpoints.end(),
                     pc) != 0) {
        stop.reason = StopEvent::Reason::kBreakpoint;
        break;
      }
    }
    if (stop.reason != StopEvent::Reason::kBreakpoint &&
        !target.watchpoints.empty()) {
      const uint32_t address = target.watchpoints.front().address;
      target.memory[address - FakeTarget::kMemoryBase] = 0x5a;
      stop.reason = StopEvent::Reason::kWatchpoint;
      stop.watch_kind = target.watchpoints.front().kind;
      stop.watch_address = address;
    }
  }
}

void ExpectPrinted(const std::string& output,
                   const std::vector<std::string>& expected) {
  for (const std::string& text : expected) {
    EXPECT_NE(output.find(text), std::string::npos)
        << "GDB should print \"" << text << "\"; it printed:\n"
        << output;
  }
  for (const char* complaint :
       {"description", "Remote failure", "Protocol error", "too long",
        "Ignoring packet error", "Remote connection closed"}) {
    EXPECT_EQ(output.find(complaint), std::string::npos)
        << "GDB complained (" << complaint << "):\n"
        << output;
  }
}

TEST(GdbInterop, GdbMultiarchDebugsTheStub) {
  if (access(kGdb, X_OK) != 0) {
    GTEST_SKIP() << kGdb << " is not installed";
  }
  FakeTarget target = NopHart();
  target.registers[kS11] = 0xcafe;
  const std::string output = DebugWithGdb(
      {"info registers pc sp fp s11", "x/2xw 0x80000000", "break *0x80000010",
       "continue", "stepi", "print $pc", "set var $a0 = 0x1234", "print/x $a0",
       "watch *(int *)0x80000100", "continue", "detach"},
      target, RunNops);
  EXPECT_EQ(target.registers[kA0], 0x1234u) << "GDB's register write hit a0";
  EXPECT_TRUE(target.breakpoints.empty() && target.watchpoints.empty())
      << "GDB removed its points before detaching";
  ExpectPrinted(
      output,
      {
          "pc             0x80000000",  // the description named the pc
          "sp             0x80000800",  // data_ptr: printed as an address
          "s11            0xcafe",      // the last x register is there
          "0x00000013\t0x00000013",     // m, read as little-endian words
          "Breakpoint 1, 0x80000010",   // Z0 and the swbreak stop
          "0x80000014 in",              // stepi: a Z0 after the pc
          "$2 = 0x1234",                // P, and read back
          "Hardware watchpoint 2: *(int *)0x80000100",  // Z2, T05watch
          "Old value = 19\nNew value = 90",  // GDB stepped past the store
          "(Remote target) detached",
      });
}

TEST(GdbInterop, GdbSeesTheFirmwareExit) {
  if (access(kGdb, X_OK) != 0) {
    GTEST_SKIP() << kGdb << " is not installed";
  }
  FakeTarget target = NopHart();
  const std::string output =
      DebugWithGdb({"continue"}, target, [](FakeTarget&, RspSession& session) {
        EXPECT_EQ(session.ServeStop(StopEvent{}), ResumeAction::kContinue)
            << "GDB continues from the first stop";
        session.ReportExit(3);
        EXPECT_FALSE(session.Attached())
            << "ReportExit returns once GDB has gone";
      });
  ExpectPrinted(output, {"exited with code 03"});
}

}  // namespace
}  // namespace lq::gdb
