// SPDX-License-Identifier: Apache-2.0
// The routing header's byte layout (NET-2.1), HCRC (NET-2.8), receiver
// checks (NET-2.10), forwarding edit (NET-2.4) and ejection edit (NET-8.3).
#include "models/network/route_header.h"

#include "models/crc/crc.h"

namespace lq::net {
namespace {

constexpr size_t kCoveredBytes = 14;  // HCRC covers bytes 0..13

const crc::CrcEngine& HeaderCrcEngine() {
  static const crc::CrcEngine engine(crc::kCrc16Ib);
  return engine;
}

}  // namespace

void SetRouteHeaderVc(uint8_t* header, unsigned vc) {
  header[6] = static_cast<uint8_t>((header[6] & 0xf0) | (vc & 0xf));
}

void SealRouteHeader(uint8_t* header) {
  const uint16_t crc = RouteHeaderCrc(header);
  header[14] = static_cast<uint8_t>(crc >> 8);
  header[15] = static_cast<uint8_t>(crc);
}

uint16_t RouteHeaderCrc(const uint8_t* header) {
  return static_cast<uint16_t>(
      HeaderCrcEngine().Compute(ByteView(header, kCoveredBytes)));
}

void EncodeRouteHeader(const RouteHeader& h, uint8_t* out) {
  out[0] = static_cast<uint8_t>((kRouteHeaderVersion << 4) | (h.kind & 0xf));
  out[1] = static_cast<uint8_t>((h.tc & 0x7) << 5);
  out[2] = static_cast<uint8_t>(h.dst >> 8);
  out[3] = static_cast<uint8_t>(h.dst);
  out[4] = static_cast<uint8_t>(h.src >> 8);
  out[5] = static_cast<uint8_t>(h.src);
  out[6] = static_cast<uint8_t>(((h.epoch & 0x1) << 4) | (h.vc & 0xf));
  out[7] = h.ttl;
  out[8] = h.hops;
  out[9] = 0;
  out[10] = static_cast<uint8_t>(h.len >> 8);
  out[11] = static_cast<uint8_t>(h.len);
  out[12] = 0;
  out[13] = 0;
  SealRouteHeader(out);
}

RouteHeader DecodeRouteHeader(const uint8_t* in) {
  RouteHeader h;
  h.kind = in[0] & 0xf;
  h.tc = in[1] >> 5;
  h.dst = static_cast<uint16_t>((in[2] << 8) | in[3]);
  h.src = static_cast<uint16_t>((in[4] << 8) | in[5]);
  h.epoch = (in[6] >> 4) & 0x1;
  h.vc = in[6] & 0xf;
  h.ttl = in[7];
  h.hops = in[8];
  h.len = static_cast<uint16_t>((in[10] << 8) | in[11]);
  return h;
}

HeaderCheck CheckRouteHeader(const uint8_t* in, unsigned arrival_vc,
                             uint32_t nodes, uint16_t max_payload) {
  HeaderCheck check;
  check.header = DecodeRouteHeader(in);
  const RouteHeader& h = check.header;
  const uint16_t crc = static_cast<uint16_t>((in[14] << 8) | in[15]);
  auto fail = [&](HeaderVerdict verdict, const char* reason) {
    check.verdict = verdict;
    check.reason = reason;
    return check;
  };
  if ((in[0] >> 4) != kRouteHeaderVersion) {
    return fail(HeaderVerdict::kStreamError, "version");
  }
  if (crc != RouteHeaderCrc(in)) {
    return fail(HeaderVerdict::kStreamError, "hcrc");
  }
  if (h.len == 0 || h.len > max_payload) {
    return fail(HeaderVerdict::kStreamError, "length");
  }
  if (h.vc != arrival_vc) {
    return fail(HeaderVerdict::kStreamError, "vc");
  }
  if (h.kind != static_cast<uint8_t>(PacketKind::kData) &&
      h.kind != static_cast<uint8_t>(PacketKind::kMgmt)) {
    return fail(HeaderVerdict::kDropHeader, "kind");
  }
  if (h.dst >= nodes || h.src >= nodes) {
    return fail(HeaderVerdict::kDropHeader, "node");
  }
  return check;
}

void ForwardRouteHeaderFields(uint8_t* header, unsigned output_vc) {
  SetRouteHeaderVc(header, output_vc);
  header[7] = static_cast<uint8_t>(header[7] - 1);
  if (header[8] != 0xff) {
    ++header[8];
  }
}

void ForwardRouteHeader(uint8_t* header, unsigned output_vc) {
  ForwardRouteHeaderFields(header, output_vc);
  SealRouteHeader(header);
}

}  // namespace lq::net
