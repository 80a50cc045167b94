// SPDX-License-Identifier: Apache-2.0
// The network layer's 16-byte routing header (docs/spec/net.md section 2):
// its fields, its wire form with the HCRC, and the receiver's checks in the
// order NET-2.10 gives them.
#pragma once

#include <cstdint>

#include "models/common/bytes.h"

namespace lq::net {

inline constexpr size_t kRouteHeaderBytes = 16;  // NET-2.1
inline constexpr uint8_t kRouteHeaderVersion = 1;
inline constexpr uint16_t kMaxPayloadLimit = 9216;  // NET-2.5 upper bound

enum class PacketKind : uint8_t { kData = 0, kMgmt = 1 };

struct RouteHeader {
  uint8_t kind = 0;  // PacketKind, or a reserved value a receiver rejects
  uint8_t tc = 0;    // 0..7
  uint16_t dst = 0;
  uint16_t src = 0;
  uint8_t epoch = 0;  // 0..1
  uint8_t vc = 0;     // 0..15
  uint8_t ttl = 0;
  uint8_t hops = 0;
  uint16_t len = 0;  // payload bytes

  friend bool operator==(const RouteHeader& a, const RouteHeader& b) {
    return a.kind == b.kind && a.tc == b.tc && a.dst == b.dst &&
           a.src == b.src && a.epoch == b.epoch && a.vc == b.vc &&
           a.ttl == b.ttl && a.hops == b.hops && a.len == b.len;
  }
};

inline constexpr uint8_t kMgmtTrafficClass = 7;  // NET-2.3, NET-3.5

inline bool IsMgmt(const RouteHeader& header) {
  return header.kind == static_cast<uint8_t>(PacketKind::kMgmt);
}

// The wire form (NET-2.1, NET-2.2: reserved fields 0; NET-2.8: HCRC).
// Fields wider than theirs on the wire are truncated to their bits.
void EncodeRouteHeader(const RouteHeader& header, uint8_t* out);

// The fields of a wire header, without any check.
RouteHeader DecodeRouteHeader(const uint8_t* in);

// What a receiver does with a header (NET-2.10): accept it, skip its
// payload and count a header drop, or declare the VC's stream broken.
enum class HeaderVerdict {
  kAccept,
  kStreamError,  // VER, HCRC, LEN or VC wrong: the stream cannot be parsed
  kDropHeader,   // KIND reserved, or DST/SRC beyond the node count
};

struct HeaderCheck {
  HeaderVerdict verdict = HeaderVerdict::kAccept;
  const char* reason = "";  // which check failed, for counters and traces
  RouteHeader header;       // decoded fields (LEN usable unless a stream error)
};

// Runs NET-2.10's checks in order on a wire header that arrived on VC
// `arrival_vc`, in a cluster of `nodes` nodes whose largest payload is
// `max_payload` bytes.
HeaderCheck CheckRouteHeader(const uint8_t* in, unsigned arrival_vc,
                             uint32_t nodes, uint16_t max_payload);

// The forwarding edit of NET-2.4 on a wire header: VC := output VC, TTL − 1,
// HOPS + 1 (saturating), HCRC recomputed. Precondition: TTL > 0 (a router
// drops a packet whose TTL is 0 instead of forwarding it).
void ForwardRouteHeader(uint8_t* header, unsigned output_vc);

// For a header crossing links inside one fabric of routers (decision 0053,
// NET-2.10): the forwarding edit without the HCRC; the ejection edit of
// NET-8.3 (VC := the VC it leaves on at the local port); and the HCRC,
// stored once where the packet leaves the fabric.
void ForwardRouteHeaderFields(uint8_t* header, unsigned output_vc);
void SetRouteHeaderVc(uint8_t* header, unsigned vc);
void SealRouteHeader(uint8_t* header);

// CRC-16/IB-VCRC over header bytes 0..13 (NET-2.8).
uint16_t RouteHeaderCrc(const uint8_t* header);

}  // namespace lq::net
