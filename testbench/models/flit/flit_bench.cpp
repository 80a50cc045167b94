// SPDX-License-Identifier: Apache-2.0
// Throughput of whole-flit encoding and decoding per profile (wire bytes/s).
#include <benchmark/benchmark.h>

#include <random>

#include "models/flit/flit_codec.h"

namespace lq::flit {
namespace {

phy::LinkProfile Profile(const char* name) {
  return phy::FindLinkProfile(name).value();
}

DlpHeader Header() {
  DlpHeader header;
  header.type = FlitType::kPayload;
  header.payload_vc = 1;
  header.flit_seq = 321;
  header.replay = ReplayCommand::kAck;
  header.ack_seq = 320;
  return header;
}

Bytes Payload(const phy::LinkProfile& profile) {
  std::mt19937_64 rng(7);
  Bytes payload(profile.payload_bytes);
  for (uint8_t& byte : payload) {
    byte = static_cast<uint8_t>(rng());
  }
  return payload;
}

void Encode(benchmark::State& state, const char* name) {
  const phy::LinkProfile profile = Profile(name);
  const Bytes payload = Payload(profile);
  for (auto _ : state) {
    benchmark::DoNotOptimize(EncodeFlit(profile, Header(), payload));
  }
  state.SetBytesProcessed(state.iterations() * profile.flit_wire_bytes);
}

// Decodes a flit with `damaged_bytes` corrupted bytes spread over the flit.
void Decode(benchmark::State& state, const char* name, size_t damaged_bytes) {
  const phy::LinkProfile profile = Profile(name);
  Bytes wire = EncodeFlit(profile, Header(), Payload(profile)).value();
  for (size_t e = 0; e < damaged_bytes; ++e) {
    wire[e * wire.size() / damaged_bytes] ^= 0x5A;
  }
  for (auto _ : state) {
    const auto decoded = DecodeFlit(profile, wire);
    if (!decoded.ok()) {
      state.SkipWithError(decoded.error().reason.c_str());
      break;
    }
    benchmark::DoNotOptimize(decoded);
  }
  state.SetBytesProcessed(state.iterations() * profile.flit_wire_bytes);
}

void BM_Pcie6FlitEncode(benchmark::State& state) { Encode(state, "pcie6"); }
void BM_Pcie6FlitDecodeClean(benchmark::State& state) {
  Decode(state, "pcie6", 0);
}
// Three bytes 85 apart land in the three different codewords.
void BM_Pcie6FlitDecodeThreeCorrected(benchmark::State& state) {
  Decode(state, "pcie6", 3);
}
void BM_IbFlitEncode(benchmark::State& state) { Encode(state, "ib"); }
void BM_IbFlitDecodeClean(benchmark::State& state) { Decode(state, "ib", 0); }
void BM_IbFlitDecodeSevenCorrected(benchmark::State& state) {
  Decode(state, "ib", 7);
}

BENCHMARK(BM_Pcie6FlitEncode);
BENCHMARK(BM_Pcie6FlitDecodeClean);
BENCHMARK(BM_Pcie6FlitDecodeThreeCorrected);
BENCHMARK(BM_IbFlitEncode);
BENCHMARK(BM_IbFlitDecodeClean);
BENCHMARK(BM_IbFlitDecodeSevenCorrected);

}  // namespace
}  // namespace lq::flit
