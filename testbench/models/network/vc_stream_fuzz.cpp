// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes cut into slots of a size the input chooses,
// parsed as a VC's packet stream. Whatever the parser accepts must be a
// whole packet with a header that passes NET-2.10 and exactly LEN payload
// bytes; after a stream error it must stay silent until reset.
#include <cstddef>
#include <cstdint>

#include "models/network/vc_stream.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using lq::net::SlotParser;
  if (size < 2) {
    return 0;
  }
  const size_t slot_bytes = 1 + data[0] % 64;
  SlotParser::Config config;
  config.vc = data[1] & 0x3;
  config.nodes = 64;
  SlotParser parser(config);
  bool broken = false;
  for (size_t at = 2; at < size; at += slot_bytes) {
    const size_t take = at + slot_bytes <= size ? slot_bytes : size - at;
    const auto events = parser.Accept(lq::ByteView(data + at, take));
    if (broken) {
      Require(events.empty());
    }
    for (const auto& event : events) {
      Require(!broken);
      if (event.kind == SlotParser::Event::Kind::kPacket) {
        Require(event.packet.size() ==
                lq::net::kRouteHeaderBytes + event.header.len);
        Require(lq::net::CheckRouteHeader(event.packet.data(), config.vc,
                                          config.nodes, 9216)
                    .verdict == lq::net::HeaderVerdict::kAccept);
      }
      if (event.kind == SlotParser::Event::Kind::kStreamError) {
        broken = true;
      }
    }
    Require(parser.broken() == broken);
  }
  return 0;
}
