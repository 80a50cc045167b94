// SPDX-License-Identifier: Apache-2.0
// Address derivations of TRN-1.2 and the UDP source-port hash of TRN-1.6.
#include "models/roce/addressing.h"

namespace lq::roce {
namespace {

constexpr uint8_t kLocallyAdministeredUnicast = 0x02;
constexpr uint32_t kNodeIpv4Prefix = 10u << 24;
constexpr uint32_t kNodeIpv4PrefixMask = 0xFF000000;

// Linux include/rdma/ib_verbs.h: rdma_calc_flow_label and
// rdma_flow_label_to_udp_sport.
constexpr uint32_t kFlowLabelMask = 0x000FFFFF;
constexpr uint32_t kSportLowMask = 0x03FFF;
constexpr uint32_t kSportHighMask = 0xFC000;
constexpr unsigned kSportFoldShift = 14;
constexpr uint16_t kSportBase = 0xC000;

}  // namespace

MacAddress NodeMac(uint32_t node_id) {
  const uint32_t id = node_id & kNodeIdMask;
  return MacAddress{kLocallyAdministeredUnicast,
                    0,
                    0,
                    static_cast<uint8_t>(id >> 16),
                    static_cast<uint8_t>(id >> 8),
                    static_cast<uint8_t>(id)};
}

uint32_t NodeIpv4(uint32_t node_id) {
  return kNodeIpv4Prefix | (node_id & kNodeIdMask);
}

Result<uint32_t> NodeFromIpv4(uint32_t address) {
  if ((address & kNodeIpv4PrefixMask) != kNodeIpv4Prefix) {
    return Fail("IPv4 address outside lqemu's 10.0.0.0/8 node range");
  }
  return address & kNodeIdMask;
}

uint16_t UdpSourcePort(uint32_t local_qpn, uint32_t remote_qpn) {
  uint64_t v = static_cast<uint64_t>(local_qpn) * remote_qpn;
  v ^= v >> 20;
  v ^= v >> 40;
  const auto flow_label = static_cast<uint32_t>(v & kFlowLabelMask);
  const uint32_t low = (flow_label & kSportLowMask) ^
                       ((flow_label & kSportHighMask) >> kSportFoldShift);
  return static_cast<uint16_t>(low | kSportBase);
}

}  // namespace lq::roce
