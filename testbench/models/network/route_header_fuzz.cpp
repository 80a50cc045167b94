// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary 16 bytes (plus a VC and a node count) as a routing
// header. Checks must never crash, and an accepted header must re-encode to
// the same bytes once its reserved bits are cleared.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "models/network/route_header.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lq::net;  // NOLINT: fuzz-local.
  if (size < kRouteHeaderBytes + 2) {
    return 0;
  }
  const unsigned vc = data[kRouteHeaderBytes] & 0xf;
  const uint32_t nodes = 1u + data[kRouteHeaderBytes + 1] * 64u;
  const HeaderCheck check = CheckRouteHeader(data, vc, nodes, 9216);
  if (check.verdict != HeaderVerdict::kAccept) {
    return 0;
  }
  Require(check.header.len >= 1 && check.header.len <= 9216);
  Require(check.header.vc == vc);
  Require(check.header.dst < nodes && check.header.src < nodes);
  uint8_t again[kRouteHeaderBytes];
  EncodeRouteHeader(check.header, again);
  uint8_t cleared[kRouteHeaderBytes];
  std::memcpy(cleared, data, sizeof cleared);
  cleared[1] &= 0xe0;
  cleared[6] &= 0x1f;
  cleared[9] = cleared[12] = cleared[13] = 0;
  // Reserved bits are covered by the HCRC, so a header with any set was
  // accepted only if its CRC matched them: compare the fields instead.
  Require(DecodeRouteHeader(again) == check.header);
  if (std::memcmp(cleared, data, 14) == 0) {
    Require(std::memcmp(again, data, kRouteHeaderBytes) == 0);
  }
  if (check.header.ttl > 0) {
    uint8_t forwarded[kRouteHeaderBytes];
    std::memcpy(forwarded, data, sizeof forwarded);
    ForwardRouteHeader(forwarded, vc ^ 1);
    Require(CheckRouteHeader(forwarded, vc ^ 1, nodes, 9216).verdict ==
            HeaderVerdict::kAccept);
  }
  return 0;
}
