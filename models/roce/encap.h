// SPDX-License-Identifier: Apache-2.0
// Ethernet II, IPv4 and UDP headers as lqemu encapsulates RoCEv2 packets
// (docs/spec/trn.md, TRN-1): encode into bytes and strict parse.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::roce {

using MacAddress = std::array<uint8_t, 6>;

inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint8_t kIpVersion4 = 4;
inline constexpr uint8_t kIpProtocolUdp = 17;
inline constexpr uint16_t kRoceUdpPort = 4791;
inline constexpr uint8_t kDscpMax = 63;

// The two ECN bits of the IPv4 TOS byte (RFC 3168).
enum class Ecn : uint8_t { kNotEct = 0, kEct1 = 1, kEct0 = 2, kCe = 3 };

struct EthernetHeader {
  static constexpr size_t kSize = 14;

  MacAddress dst{};
  MacAddress src{};
  uint16_t ether_type = kEtherTypeIpv4;

  void Encode(uint8_t* out) const;
  // Checks only that the header is complete; the packet parser judges
  // the EtherType.
  static Result<EthernetHeader> Parse(ByteView bytes);
  bool operator==(const EthernetHeader& other) const;
};

// IPv4 header without options. The header checksum is not a member: Encode
// computes it and Parse verifies it.
struct Ipv4Header {
  static constexpr size_t kSize = 20;

  uint8_t dscp = 0;
  Ecn ecn = Ecn::kNotEct;
  uint16_t total_length = 0;
  uint16_t identification = 0;
  bool dont_fragment = true;
  uint8_t ttl = 64;
  uint8_t protocol = kIpProtocolUdp;
  uint32_t src = 0;
  uint32_t dst = 0;

  void Encode(uint8_t* out) const;
  // Rejects a header that is short, not version 4, carries options, is a
  // fragment or sets the reserved flag, or fails its checksum.
  static Result<Ipv4Header> Parse(ByteView bytes);
  bool operator==(const Ipv4Header& other) const;
};

// The IPv4 header checksum (RFC 791) of a 20-byte header, computed as if
// its checksum field (bytes 10..11) were zero.
uint16_t Ipv4Checksum(ByteView header);

// UDP header. Its checksum is always sent as zero and never checked
// (TRN-1.6): the ICRC protects the packet end to end.
struct UdpHeader {
  static constexpr size_t kSize = 8;

  uint16_t src_port = 0;
  uint16_t dst_port = kRoceUdpPort;
  uint16_t length = 0;

  void Encode(uint8_t* out) const;
  static Result<UdpHeader> Parse(ByteView bytes);
  bool operator==(const UdpHeader& other) const;
};

}  // namespace lq::roce
