// SPDX-License-Identifier: Apache-2.0
// Benchmark of the RoCEv2 codec: build and parse (ICRC included) of 64 B,
// 1 KiB and 4 KiB payload packets, and the ICRC alone.
#include <benchmark/benchmark.h>

#include "models/roce/icrc.h"
#include "models/roce/packet.h"
#include "models/roce/sample_packets.h"

namespace lq::roce {
namespace {

void BM_BuildPacket(benchmark::State& state) {
  const RocePacket packet = testing::SamplePacket(
      Opcode::kWriteMiddle, static_cast<size_t>(state.range(0)));
  size_t frame_bytes = 0;
  for (auto _ : state) {
    Result<Bytes> frame = BuildPacket(packet);
    frame_bytes = frame->size();
    benchmark::DoNotOptimize(frame);
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * frame_bytes));
}
BENCHMARK(BM_BuildPacket)->Arg(64)->Arg(1024)->Arg(4096);

void BM_ParsePacket(benchmark::State& state) {
  const Bytes frame = *BuildPacket(testing::SamplePacket(
      Opcode::kWriteMiddle, static_cast<size_t>(state.range(0))));
  for (auto _ : state) {
    Result<RocePacket> packet = ParsePacket(frame);
    benchmark::DoNotOptimize(packet);
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * frame.size()));
}
BENCHMARK(BM_ParsePacket)->Arg(64)->Arg(1024)->Arg(4096);

void BM_Icrc(benchmark::State& state) {
  const Bytes frame = *BuildPacket(testing::SamplePacket(
      Opcode::kWriteMiddle, static_cast<size_t>(state.range(0))));
  const ByteView covered(frame.data(), frame.size() - kIcrcSize);
  for (auto _ : state) {
    benchmark::DoNotOptimize(ComputeIcrc(covered));
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * covered.size()));
}
BENCHMARK(BM_Icrc)->Arg(64)->Arg(1024)->Arg(4096);

}  // namespace
}  // namespace lq::roce
