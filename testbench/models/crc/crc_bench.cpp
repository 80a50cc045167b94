// SPDX-License-Identifier: Apache-2.0
// Throughput of the CRC engines over flit- and packet-sized buffers.
#include <benchmark/benchmark.h>

#include "models/crc/crc.h"

namespace {

void Run(benchmark::State& state, const lq::crc::CrcEngine& engine) {
  const lq::Bytes data(static_cast<size_t>(state.range(0)), 0x5A);
  for (auto _ : state) {
    benchmark::DoNotOptimize(engine.Compute(data));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}

void BM_Crc64Xz(benchmark::State& state) { Run(state, lq::crc::Crc64Xz()); }
void BM_Crc32(benchmark::State& state) { Run(state, lq::crc::Crc32()); }
void BM_Crc16Ib(benchmark::State& state) { Run(state, lq::crc::Crc16Ib()); }

BENCHMARK(BM_Crc64Xz)->Arg(242)->Arg(642)->Arg(4096);
BENCHMARK(BM_Crc32)->Arg(64)->Arg(1100)->Arg(4158);
BENCHMARK(BM_Crc16Ib)->Arg(256)->Arg(4096);

}  // namespace
