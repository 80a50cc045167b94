// SPDX-License-Identifier: Apache-2.0
// Throughput of Reed-Solomon encoding and decoding for both flit codes.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "models/fec/reed_solomon.h"

namespace lq::fec {
namespace {

struct Code {
  ReedSolomon rs;
  size_t message_bytes;  // Message bits / 8: what the code protects.
};

Code Pcie6Codeword() {
  return {ReedSolomon::Create(
              GaloisField::Create(kGf256Bits, kGf256Poly).value(), 86, 84)
              .value(),
          84};
}

Code Kp4Block() {
  // 514 symbols carry the 642-byte flit content plus 4 pad bits.
  return {ReedSolomon::Create(
              GaloisField::Create(kGf1024Bits, kGf1024Poly).value(), 544, 514)
              .value(),
          642};
}

std::vector<Symbol> RandomCodeword(const ReedSolomon& rs) {
  std::mt19937_64 rng(42);
  std::vector<Symbol> word(rs.n());
  for (size_t i = 0; i < rs.k(); ++i) {
    word[i] = static_cast<Symbol>(rng() & rs.field().order());
  }
  rs.Encode(word.data(), word.data() + rs.k());
  return word;
}

void Encode(benchmark::State& state, const Code& code) {
  std::vector<Symbol> word = RandomCodeword(code.rs);
  for (auto _ : state) {
    code.rs.Encode(word.data(), word.data() + code.rs.k());
    benchmark::DoNotOptimize(word.data());
  }
  state.SetBytesProcessed(state.iterations() * code.message_bytes);
}

// Decodes a codeword with `errors` symbol errors (restored each iteration).
void Decode(benchmark::State& state, const Code& code, size_t errors) {
  const std::vector<Symbol> sent = RandomCodeword(code.rs);
  std::vector<Symbol> word = sent;
  const size_t stride = code.rs.n() / (errors + 1);
  for (auto _ : state) {
    for (size_t e = 0; e < errors; ++e) {
      word[(e + 1) * stride] ^= static_cast<Symbol>(e + 1);
    }
    const RsDecodeReport report = code.rs.Decode(word.data());
    benchmark::DoNotOptimize(report);
    if (report.corrected() != errors) {
      state.SkipWithError("decoder did not correct the injected errors");
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * code.message_bytes);
}

void BM_Pcie6CodewordEncode(benchmark::State& state) {
  Encode(state, Pcie6Codeword());
}
void BM_Pcie6CodewordDecodeClean(benchmark::State& state) {
  Decode(state, Pcie6Codeword(), 0);
}
void BM_Pcie6CodewordDecodeOneError(benchmark::State& state) {
  Decode(state, Pcie6Codeword(), 1);
}
void BM_Kp4Encode(benchmark::State& state) { Encode(state, Kp4Block()); }
void BM_Kp4DecodeClean(benchmark::State& state) {
  Decode(state, Kp4Block(), 0);
}
void BM_Kp4DecodeErrors(benchmark::State& state) {
  Decode(state, Kp4Block(), static_cast<size_t>(state.range(0)));
}

BENCHMARK(BM_Pcie6CodewordEncode);
BENCHMARK(BM_Pcie6CodewordDecodeClean);
BENCHMARK(BM_Pcie6CodewordDecodeOneError);
BENCHMARK(BM_Kp4Encode);
BENCHMARK(BM_Kp4DecodeClean);
BENCHMARK(BM_Kp4DecodeErrors)->Arg(1)->Arg(15);

}  // namespace
}  // namespace lq::fec
