// SPDX-License-Identifier: Apache-2.0
// Checks of the frames a transport engine sends.
#include "systemc/conformance/trn_frame_checks.h"

#include <algorithm>
#include <string>

#include "models/common/hex.h"
#include "models/roce/addressing.h"
#include "models/roce/encap.h"
#include "models/roce/icrc.h"
#include "models/roce/opcode.h"
#include "models/roce/sample_packets.h"
#include "systemc/conformance/transport_bench.h"
#include "systemc/conformance/trn_case_helpers.h"

namespace lq::conformance {

namespace {

using roce::Opcode;

// TRN-1.6's flow entropy, computed here from the clause's text rather than
// by the reference model, so that a shared mistake would show.
uint16_t ExpectedSourcePort(uint32_t local_qpn, uint32_t remote_qpn) {
  uint64_t v = uint64_t{local_qpn} * remote_qpn;
  v ^= v >> 20;
  v ^= v >> 40;
  const uint32_t fl = static_cast<uint32_t>(v & 0xFFFFF);
  return static_cast<uint16_t>(0xC000 | ((fl & 0x3FFF) ^ (fl >> 14)));
}

// The addresses TRN-1.2 gives node `node`, from the clause's text.
Bytes ExpectedMac(uint16_t node) {
  return {0x02,
          0,
          0,
          0,
          static_cast<uint8_t>(node >> 8),
          static_cast<uint8_t>(node)};
}
uint32_t ExpectedIpv4(uint16_t node) { return 0x0A000000u | node; }

}  // namespace

uint16_t Be16(const Bytes& bytes, size_t at) {
  return static_cast<uint16_t>(bytes[at] << 8 | bytes[at + 1]);
}

uint32_t Be32(const Bytes& bytes, size_t at) {
  return static_cast<uint32_t>(Be16(bytes, at)) << 16 | Be16(bytes, at + 2);
}

uint64_t Be64(const Bytes& bytes, size_t at) {
  return uint64_t{Be32(bytes, at)} << 32 | Be32(bytes, at + 4);
}

uint16_t Ipv4Sum(const Bytes& bytes, size_t at) {
  uint32_t sum = 0;
  for (size_t i = 0; i < 20; i += 2) {
    sum += Be16(bytes, at + i);
  }
  while (sum > 0xFFFF) {
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  return static_cast<uint16_t>(sum);
}

void CheckIcrcWorkedExample(Verdict& verdict) {
  const Result<uint32_t> icrc =
      roce::ComputeIcrc(roce::testing::IcrcExampleFrame());
  verdict.Expect(icrc.ok() && *icrc == 0xF220AE5A,
                 "the suite's ICRC of TRN-3.5's example is " +
                     (icrc.ok() ? HexText(*icrc, 8) : icrc.error().reason) +
                     ", not 0xf220ae5a",
                 {"TRN-3.5"});
}

void CheckSentFrame(Verdict& verdict, const PortFrame& frame,
                    const Connection& c, const RethExpectation& reth) {
  const Bytes& b = frame.bytes;
  const std::string what = Evidence(frame);
  verdict.Expect(frame.packet.has_value(),
                 "the reference parser rejects " + what,
                 {"TRN-1.1", "TRN-4.1", "TRN-4.2"});
  if (!verdict.Expect(b.size() >= kExt + roce::kIcrcSize, "short frame " + what,
                      {"TRN-1.1"})) {
    return;
  }
  const roce::OpcodeInfo* info = roce::FindOpcode(b[kBth]);
  verdict.Expect(info != nullptr, "unknown opcode in " + what, {"TRN-4.1"});
  verdict.Expect(b.size() == kIp + Be16(b, kIp + 2),
                 "frame of " + std::to_string(b.size()) +
                     " bytes, IPv4 total length " +
                     std::to_string(Be16(b, kIp + 2)) + ": " + what,
                 {"TRN-1.1"});
  // TRN-1.2 and TRN-1.3.
  const Bytes dst = ExpectedMac(TransportBench::kPeerNode);
  const Bytes src = ExpectedMac(TransportBench::kDutNode);
  const bool macs = std::equal(dst.begin(), dst.end(), b.begin()) &&
                    std::equal(src.begin(), src.end(), b.begin() + 6);
  verdict.Expect(macs && Be16(b, 12) == 0x0800,
                 "Ethernet header not partner MAC, DUT MAC, 0x0800: " + what,
                 {"TRN-1.3"});
  const bool ips =
      Be32(b, kIp + 12) == ExpectedIpv4(TransportBench::kDutNode) &&
      Be32(b, kIp + 16) == ExpectedIpv4(TransportBench::kPeerNode);
  verdict.Expect(macs && ips,
                 "addresses not 02:00:00:00:00:0N and 10.0.0.N: " + what,
                 {"TRN-1.2"});
  // TRN-1.4.
  verdict.Expect(b[kIp] == 0x45 && Be16(b, kIp + 4) == 0 &&
                     Be16(b, kIp + 6) == 0x4000 && b[kIp + 8] == 64 &&
                     b[kIp + 9] == 17 && Ipv4Sum(b, kIp) == 0xFFFF && ips,
                 "IPv4 header not as TRN-1.4's table (version/IHL, "
                 "identification, flags, TTL 64, protocol 17, checksum, "
                 "addresses): " +
                     what,
                 {"TRN-1.4"});
  // TRN-1.5.
  const uint8_t dscp = b[kIp + 1] >> 2, ecn = b[kIp + 1] & 3;
  const bool cnp = b[kBth] == static_cast<uint8_t>(Opcode::kCnp);
  verdict.Expect(dscp == (cnp ? roce::kDscpCnp : roce::kDscpData),
                 "DSCP " + std::to_string(dscp) + ": " + what, {"TRN-1.5"});
  if (info) {
    verdict.Expect(ecn == (info->ecn_capable ? 2 : 0),
                   "ECN " + std::to_string(ecn) + ": " + what, {"TRN-1.5"});
  }
  // TRN-1.6.
  verdict.Expect(Be16(b, kUdp + 2) == roce::kRoceUdpPort &&
                     Be16(b, kUdp + 4) == Be16(b, kIp + 2) - 20 &&
                     Be16(b, kUdp + 6) == 0 &&
                     Be16(b, kUdp) == ExpectedSourcePort(c.dut_qpn, c.peer_qpn),
                 "UDP header: source port " + std::to_string(Be16(b, kUdp)) +
                     " (expected " +
                     std::to_string(ExpectedSourcePort(c.dut_qpn, c.peer_qpn)) +
                     "), destination " + std::to_string(Be16(b, kUdp + 2)) +
                     ", length " + std::to_string(Be16(b, kUdp + 4)) +
                     ", checksum " + std::to_string(Be16(b, kUdp + 6)) + ": " +
                     what,
                 {"TRN-1.6"});
  // TRN-2.1 to TRN-2.3 on the raw BTH.
  const uint32_t dest_qp = Be32(b, kBth + 4) & 0xFFFFFF;
  verdict.Expect(dest_qp == c.peer_qpn && Be16(b, kBth + 2) == 0xFFFF,
                 "BTH DestQP or P_Key: " + what, {"TRN-2.1"});
  const bool se = b[kBth + 1] & 0x80, m = b[kBth + 1] & 0x40;
  const bool fecn = b[kBth + 4] & 0x80, becn = b[kBth + 4] & 0x40;
  verdict.Expect(!se && m == !cnp && !fecn && becn == cnp &&
                     (b[kBth + 4] & 0x3F) == 0 && (b[kBth + 8] & 0x7F) == 0,
                 "BTH SE/M/FECN/BECN or reserved bits: " + what, {"TRN-2.2"});
  verdict.Expect((b[kBth + 1] & 0x0F) == 0, "TVer not 0: " + what, {"TRN-2.3"});
  // TRN-3.1 to TRN-3.3: the ICRC, little-endian at the end.
  const size_t body = b.size() - roce::kIcrcSize;
  const Result<uint32_t> icrc = roce::ComputeIcrc(ByteView(b.data(), body));
  const uint32_t little = static_cast<uint32_t>(b[body]) |
                          static_cast<uint32_t>(b[body + 1]) << 8 |
                          static_cast<uint32_t>(b[body + 2]) << 16 |
                          static_cast<uint32_t>(b[body + 3]) << 24;
  const uint32_t big = Be32(b, body);
  verdict.Expect(icrc.ok() && (*icrc == little || *icrc == big),
                 "ICRC wrong: " + what, {"TRN-3.1", "TRN-3.5"});
  verdict.Expect(icrc.ok() && *icrc == little,
                 "ICRC not appended little-endian: " + what, {"TRN-3.3"});
  if (!info) {
    return;
  }
  // The extension headers, where TRN-4.2's order puts them.
  const size_t headers = roce::ExtensionHeadersSize(info->headers);
  if (!verdict.Expect(body >= kExt + headers,
                      "too short for its headers: " + what, {"TRN-4.2"})) {
    return;
  }
  // TRN-2.4 and TRN-2.9: the RETH's fields, big-endian, are those of one
  // of the DUT's work requests.
  if (info->headers & roce::kHeaderReth) {
    const std::pair<uint64_t, uint32_t> fields{Be64(b, kExt),
                                               Be32(b, kExt + 12)};
    const auto& known = reth.address_and_length;
    verdict.Expect(
        Be32(b, kExt + 8) == reth.rkey &&
            std::find(known.begin(), known.end(), fields) != known.end(),
        "RETH address, R_Key or DMA length is none of a posted "
        "WRITE's or READ's, read big-endian: " +
            what,
        {"TRN-2.9", "TRN-2.4"});
  }
  // TRN-2.6 and TRN-4.4: the AETH's syndrome.
  if (info->headers & roce::kHeaderAeth) {
    const size_t at = kExt + roce::ExtensionHeadersSize(
                                 info->headers &
                                 (roce::kHeaderReth | roce::kHeaderAtomicEth));
    const uint8_t syndrome = b[at];
    const bool ack = (syndrome & 0x60) == 0;
    verdict.Expect(!(syndrome & 0x80) && (syndrome & 0x60) != 0x40 &&
                       (!ack || syndrome == 0x1F),
                   "AETH syndrome " + std::to_string(syndrome) + ": " + what,
                   {"TRN-2.6"});
    if (info->aeth_must_ack) {
      verdict.Expect(ack, "response AETH not an ACK: " + what, {"TRN-4.4"});
    }
  }
  // TRN-4.3: payload and pad fill whole words; the pad is zero.
  const size_t padded = body - kExt - headers;
  const uint8_t pad = (b[kBth + 1] >> 4) & 3;
  bool zero_pad = pad <= padded;
  for (size_t i = body - std::min<size_t>(pad, padded); i < body; ++i) {
    zero_pad = zero_pad && b[i] == 0;
  }
  verdict.Expect(padded % 4 == 0 && zero_pad &&
                     (info->has_payload || (pad == 0 && padded == 0)),
                 "PadCnt " + std::to_string(pad) + " with " +
                     std::to_string(padded) +
                     " bytes of payload and pad: " + what,
                 {"TRN-4.3"});
}

}  // namespace lq::conformance
