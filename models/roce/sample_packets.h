// SPDX-License-Identifier: Apache-2.0
// Valid sample packets of every opcode, with distinctive field values, for
// the roce and pcap tests, the fuzz seeds and the benchmark.
#pragma once

#include <cstddef>

#include "models/roce/opcode.h"
#include "models/roce/packet.h"
#include "models/roce/packet_factory.h"

namespace lq::roce::testing {

// Node 1 QP 0x000011 to node 2 QP 0x000022.
Path SamplePath();

// A packet of `opcode` on SamplePath() with PSN 0x123456, AckReq set, every
// extension-header field non-zero, and `payload_size` bytes of payload
// (counting up from 0) when the opcode carries payload.
RocePacket SamplePacket(Opcode opcode, size_t payload_size = 13);

// TRN-3.5's worked example (protocol-facts §7): its IPv4, UDP and BTH
// headers and payload 00..0f behind an Ethernet header, which the ICRC
// does not cover. Its ICRC is 0xF220AE5A.
Bytes IcrcExampleFrame();

}  // namespace lq::roce::testing
