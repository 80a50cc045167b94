// SPDX-License-Identifier: Apache-2.0
// Speed of the bare hart (no SystemC): millions of instructions per second
// on a loop of mixed ALU, load/store, multiply and branch instructions, in
// 32-bit and in compressed form. The board's figure (with quantum, DMI and
// devices) comes from scripts/bench running lqemu board on compute.elf.
#include <benchmark/benchmark.h>

#include "testbench/models/riscv/rv32_test_machine.h"

namespace {

using namespace lq::riscv;           // NOLINT: benchmark-local encoders.
using namespace lq::riscv::testing;  // NOLINT

// x1 = data pointer, x2 = counter; the loop body never exits.
void LoadMixedLoop(TestMachine& m) {
  m.core.set_reg(1, kRamBase + 0x4000);
  m.Program({Addi(2, 2, 1),                   // counter
             Load(2, 3, 1, 0),                // lw
             Op(0, 0, 4, 3, 2),               // add
             Op(1, 0, 5, 4, 2),               // mul
             Store(2, 1, 5, 4),               // sw
             EncodeI(kOpImm, 6, 4, 5, 0x55),  // xori
             EncodeB(0, 6, 0, 8),             // beq (rarely taken)
             Op(0x20, 0, 7, 6, 4),            // sub
             EncodeJ(0, -32)});               // back to the top
}

void LoadCompressedLoop(TestMachine& m) {
  // c.addi a0,1; c.lw a1,0(s0); c.add a2,a1; c.mv a3,a2; c.sw a3,4(s0);
  // c.slli a3,1; c.andi a3,15; c.j .-14
  m.core.set_reg(8, kRamBase + 0x4000);
  m.Program16({0x0505, 0x400c, 0x962e, 0x86b2, 0xc054, 0x0686, 0x8abd, 0xbfcd});
}

void RunLoop(benchmark::State& state, void (*load)(TestMachine&)) {
  TestMachine m;
  load(m);
  uint64_t target = 0;
  const uint64_t start = m.core.instructions_retired();
  for (auto _ : state) {
    target += 100000;
    benchmark::DoNotOptimize(m.core.Run(target));
  }
  const double instructions =
      static_cast<double>(m.core.instructions_retired() - start);
  state.counters["MIPS"] =
      benchmark::Counter(instructions / 1e6, benchmark::Counter::kIsRate);
}

void BM_HartMixed32(benchmark::State& state) { RunLoop(state, LoadMixedLoop); }
void BM_HartCompressed(benchmark::State& state) {
  RunLoop(state, LoadCompressedLoop);
}
BENCHMARK(BM_HartMixed32);
BENCHMARK(BM_HartCompressed);

}  // namespace
