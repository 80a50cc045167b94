// SPDX-License-Identifier: Apache-2.0
// Sample packet construction shared by the roce and pcap tests.
#include "models/roce/sample_packets.h"

namespace lq::roce::testing {
namespace {

constexpr uint32_t kSamplePsn = 0x123456;

}  // namespace

Path SamplePath() {
  Path path;
  path.local_node = 1;
  path.remote_node = 2;
  path.local_qpn = 0x000011;
  path.remote_qpn = 0x000022;
  return path;
}

RocePacket SamplePacket(Opcode opcode, size_t payload_size) {
  RocePacket packet = NewPacket(SamplePath(), opcode, kSamplePsn);
  packet.bth.ack_req = true;
  if (packet.reth) {
    *packet.reth = Reth{0x0000'7F00'1234'5000, 0xA5A5'0001,
                        static_cast<uint32_t>(payload_size)};
  }
  if (packet.atomic_eth) {
    *packet.atomic_eth =
        AtomicEth{0x0000'7F00'0000'1008, 0xA5A5'0002, 0x1111'2222'3333'4444,
                  0x5555'6666'7777'8888};
  }
  if (packet.aeth) {
    *packet.aeth = Aeth::Ack(0x000ABC);
  }
  if (packet.atomic_ack_eth) {
    *packet.atomic_ack_eth = AtomicAckEth{0x0123'4567'89AB'CDEF};
  }
  if (packet.imm_dt) {
    *packet.imm_dt = ImmDt{0xDEAD'BEEF};
  }
  if (FindOpcode(static_cast<uint8_t>(opcode))->has_payload) {
    packet.payload.resize(payload_size);
    for (size_t i = 0; i < payload_size; ++i) {
      packet.payload[i] = static_cast<uint8_t>(i);
    }
  }
  return packet;
}

Bytes IcrcExampleFrame() {
  Bytes frame = {0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00};
  const Bytes rest = {0x45, 0x02, 0x00, 0x3c, 0x12, 0x34, 0x40, 0x00,
                      0x40, 0x11, 0xa5, 0x27, 0xc0, 0xa8, 0x01, 0x01,
                      0xc0, 0xa8, 0x01, 0x02,                          // IPv4
                      0xc0, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,  // UDP
                      0x04, 0x40, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
                      0x80, 0x00, 0x01, 0x00};  // BTH
  frame.insert(frame.end(), rest.begin(), rest.end());
  for (uint8_t i = 0; i < 16; ++i) {
    frame.push_back(i);
  }
  return frame;
}

}  // namespace lq::roce::testing
