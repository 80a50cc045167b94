// SPDX-License-Identifier: Apache-2.0
// How lqemu derives Ethernet and IPv4 addresses, UDP source ports and
// priorities for transport packets (docs/spec/trn.md, TRN-1).
#pragma once

#include <cstdint>

#include "models/common/result.h"
#include "models/roce/encap.h"

namespace lq::roce {

// Addresses hold 24 bits of node ID: the 16-bit NET-1.3 ID, zero-extended
// (TRN-1.2).
inline constexpr uint32_t kNodeIdMask = 0x00FFFFFF;
inline constexpr uint8_t kDscpData = 26;  // Requests, responses, ACKs.
inline constexpr uint8_t kDscpCnp = 48;   // CNPs [S25].
inline constexpr unsigned kPriorityCount = 8;

// 02:00:00:ID[23:16]:ID[15:8]:ID[7:0] (locally administered, unicast).
MacAddress NodeMac(uint32_t node_id);

// 10.ID[23:16].ID[15:8].ID[7:0], as a host-order 32-bit value.
uint32_t NodeIpv4(uint32_t node_id);

// The node whose address is `address`; rejects addresses outside 10/8.
Result<uint32_t> NodeFromIpv4(uint32_t address);

// UDP source port of a connection: the Linux RoCEv2 flow-label folding of
// the product of both QPNs, so both directions of a connection use the same
// port (TRN-1.6).
uint16_t UdpSourcePort(uint32_t local_qpn, uint32_t remote_qpn);

// The PFC priority a packet travels on: the DSCP's class-selector bits.
constexpr uint8_t PriorityOfDscp(uint8_t dscp) {
  return static_cast<uint8_t>(dscp >> 3);
}

}  // namespace lq::roce
