// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes as a program (and its data) for the hart, run
// for a bounded number of cycles with traps looping back into the program;
// checks architectural invariants, not just the absence of crashes.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "testbench/fuzz/fuzz_require.h"
#include "testbench/models/riscv/rv32_test_machine.h"

using lq::fuzz::Require;

namespace {

using lq::riscv::kCsrMtvec;
using lq::riscv::StopReason;
using lq::riscv::testing::kRamBase;
using lq::riscv::testing::kRamSize;
using lq::riscv::testing::TestMachine;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TestMachine machine;
  const size_t program = size < kRamSize ? size : kRamSize;
  std::memcpy(machine.ram.data(), data, program);
  // Registers point into RAM so that loads and stores mostly land there.
  for (unsigned r = 1; r < 32; ++r) {
    machine.core.set_reg(r, kRamBase + (r * 0x404u) % kRamSize);
  }
  machine.core.Reset(kRamBase);
  for (unsigned r = 1; r < 32; ++r) {
    machine.core.set_reg(r, kRamBase + (r * 0x404u) % kRamSize);
  }
  // Traps re-enter the program at its start; interrupts may fire mid-run.
  uint32_t mtvec = 0;
  machine.core.ReadCsr(kCsrMtvec, &mtvec);
  Require(mtvec == 0);
  machine.core.InsertWatchpoint(lq::riscv::WatchAccess::kAccess,
                                kRamBase + 0x100, 8);
  uint64_t budget = 0;
  for (int round = 0; round < 64; ++round) {
    budget += 500;
    machine.core.SetInterruptLine(lq::riscv::Interrupt::kMachineTimer,
                                  round % 3 == 0);
    const auto result = machine.core.Run(budget);
    Require(machine.core.reg(0) == 0);
    Require((machine.core.pc() & 1u) == 0);
    Require(machine.core.instructions_retired() <= machine.core.cycles());
    if (result.reason == StopReason::kWfi) {
      machine.core.SetInterruptLine(lq::riscv::Interrupt::kMachineExternal,
                                    true);
    }
    if (machine.core.cycles() >= budget + 100000) {
      break;
    }
  }
  return 0;
}
