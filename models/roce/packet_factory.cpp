// SPDX-License-Identifier: Apache-2.0
// Header defaults of TRN-1/TRN-2 and the control packets built on them.
#include "models/roce/packet_factory.h"

namespace lq::roce {

RocePacket NewPacket(const Path& path, Opcode opcode, uint32_t psn) {
  // Every Opcode enumerator has a table entry; a value cast from outside
  // the enum gets no extension headers, and BuildPacket rejects it.
  const OpcodeInfo* info = FindOpcode(static_cast<uint8_t>(opcode));
  const uint8_t headers = info != nullptr ? info->headers : 0;
  RocePacket packet;
  packet.eth.dst = NodeMac(path.remote_node);
  packet.eth.src = NodeMac(path.local_node);
  packet.ip.dscp = path.dscp;
  packet.ip.ecn =
      info != nullptr && info->ecn_capable ? Ecn::kEct0 : Ecn::kNotEct;
  packet.ip.src = NodeIpv4(path.local_node);
  packet.ip.dst = NodeIpv4(path.remote_node);
  packet.udp.src_port = UdpSourcePort(path.local_qpn, path.remote_qpn);
  packet.bth.opcode = static_cast<uint8_t>(opcode);
  packet.bth.pkey = path.pkey;
  packet.bth.dest_qp = path.remote_qpn & kQpnMask;
  packet.bth.psn = psn;
  if ((headers & kHeaderReth) != 0) {
    packet.reth = Reth{};
  }
  if ((headers & kHeaderAtomicEth) != 0) {
    packet.atomic_eth = AtomicEth{};
  }
  if ((headers & kHeaderAeth) != 0) {
    packet.aeth = Aeth::Ack(0);
  }
  if ((headers & kHeaderAtomicAckEth) != 0) {
    packet.atomic_ack_eth = AtomicAckEth{};
  }
  if ((headers & kHeaderImmDt) != 0) {
    packet.imm_dt = ImmDt{};
  }
  return packet;
}

RocePacket MakeAcknowledge(const Path& path, uint32_t psn, const Aeth& aeth) {
  RocePacket packet = NewPacket(path, Opcode::kAcknowledge, psn);
  packet.aeth = aeth;
  return packet;
}

RocePacket MakeCnp(const Path& path) {
  RocePacket packet = NewPacket(path, Opcode::kCnp, 0);
  packet.ip.dscp = kDscpCnp;
  packet.bth.mig_req = false;
  packet.bth.becn = true;
  return packet;
}

}  // namespace lq::roce
