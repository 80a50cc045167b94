// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes as wire flits of both profiles, and as a DLP
// plus payload to encode; checks decode/encode round trips, not just crashes.
#include <cstddef>
#include <cstdint>

#include "models/flit/flit_codec.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

namespace {

using lq::Bytes;
using lq::ByteView;
using lq::flit::DecodedFlit;
using lq::flit::DecodeFlit;
using lq::flit::EncodeFlit;
using lq::phy::LinkProfile;

bool SameContent(const DecodedFlit& a, const DecodedFlit& b) {
  return a.header == b.header && a.payload == b.payload;
}

// Whatever decodes must re-encode to a flit that decodes the same, cleanly;
// and a flit that needed no correction must re-encode to the same bytes.
void CheckDecode(const LinkProfile& profile, ByteView input) {
  const auto decoded = DecodeFlit(profile, input);
  if (!decoded.ok()) {
    return;
  }
  const auto wire = EncodeFlit(profile, decoded->header, decoded->payload);
  Require(wire.ok());
  const auto again = DecodeFlit(profile, *wire);
  Require(again.ok() && SameContent(*again, *decoded));
  Require(again->fec.symbols_corrected == 0);
  if (decoded->fec.symbols_corrected == 0) {
    Require(Bytes(input.begin(), input.end()) == *wire);
  }
}

// Input read as DLP bytes followed by payload: any header the parser accepts
// must encode, survive one corrupted byte, and decode to itself.
void CheckEncode(const LinkProfile& profile, ByteView input) {
  if (input.size() < lq::flit::kDlpBytes) {
    return;
  }
  const auto header = lq::flit::ParseDlp(input.Sub(0, lq::flit::kDlpBytes));
  if (!header.ok()) {
    return;
  }
  const bool carries = lq::flit::CarriesSlot(header->type);
  size_t payload_size = input.size() - lq::flit::kDlpBytes;
  if (!carries || payload_size > profile.payload_bytes) {
    payload_size = carries ? profile.payload_bytes : 0;
  }
  const ByteView payload = input.Sub(lq::flit::kDlpBytes, payload_size);
  auto wire = EncodeFlit(profile, *header, payload);
  Require(wire.ok());
  const auto clean = DecodeFlit(profile, *wire);
  Require(clean.ok() && clean->header == *header);
  Bytes damaged = std::move(wire).value();
  const size_t position = input[0] * 131u % damaged.size();
  damaged[position] ^= static_cast<uint8_t>(input[input.size() - 1] | 1);
  const auto corrected = DecodeFlit(profile, damaged);
  Require(corrected.ok() && SameContent(*corrected, *clean));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const LinkProfile kProfiles[] = {
      lq::phy::FindLinkProfile("pcie6").value(),
      lq::phy::FindLinkProfile("ib").value()};
  const ByteView input(data, size);
  for (const LinkProfile& profile : kProfiles) {
    CheckDecode(profile, input);
    CheckEncode(profile, input);
  }
  return 0;
}
