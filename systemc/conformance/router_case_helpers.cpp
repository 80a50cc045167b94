// SPDX-License-Identifier: Apache-2.0
// Steps the router conformance cases share.
#include "systemc/conformance/router_case_helpers.h"

#include <cstdio>
#include <string>
#include <tlm>
#include <utility>

#include "models/network/route_header.h"
#include "models/roce/packet.h"
#include "models/roce/packet_factory.h"
#include "systemc/conformance/trn_frame_checks.h"

namespace lq::conformance {

using roce::Ecn;
using sc_core::sc_time;

ConformanceCase RouterCase(const char* name,
                           std::function<void(RouterCaseContext&)> body,
                           RouterBenchOptions options, sc_time limit) {
  ConformanceCase c;
  c.name = name;
  c.router_body = std::move(body);
  c.router = std::move(options);
  c.limit = limit;
  return c;
}

std::string Ns(const sc_time& t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f ns", t.to_seconds() * 1e9);
  return text;
}

Bytes WriteFrame(uint32_t psn, size_t payload, Ecn ecn, uint8_t tc) {
  roce::Path path;
  path.local_node = 1;
  path.remote_node = 2;
  path.local_qpn = 0x11;
  path.remote_qpn = 0x22;
  path.dscp = tc == roce::PriorityOfDscp(roce::kDscpData)
                  ? roce::kDscpData
                  : static_cast<uint8_t>(tc << 3);
  roce::RocePacket packet =
      roce::NewPacket(path, roce::Opcode::kWriteOnly, psn);
  packet.reth = roce::Reth{0x1000, 0x1234, static_cast<uint32_t>(payload)};
  packet.payload.resize(payload);
  for (size_t i = 0; i < payload; ++i) {
    packet.payload[i] = static_cast<uint8_t>(psn * 31 + i);
  }
  packet.ip.ecn = ecn;
  return roce::BuildPacket(packet).value();
}

std::vector<Bytes> Packets(const RouterBench& bench, unsigned from, unsigned to,
                           uint8_t tc, size_t count, size_t payload,
                           uint32_t first_psn, Ecn ecn, unsigned vc_class) {
  std::vector<Bytes> packets;
  for (size_t i = 0; i < count; ++i) {
    packets.push_back(bench.Packet(
        from, to, tc,
        WriteFrame(first_psn + static_cast<uint32_t>(i), payload, ecn, tc),
        vc_class));
  }
  return packets;
}

void SendPackets(RouterBench& bench, unsigned from,
                 const std::vector<Bytes>& packets, uint8_t tc,
                 unsigned vc_class) {
  bench.peer(from).Send(packets, bench.VcOf(tc, vc_class));
}

Bytes FrameOf(const RouterPeer::Packet& packet) {
  return Bytes(packet.bytes.begin() + net::kRouteHeaderBytes,
               packet.bytes.end());
}

uint64_t BytesBy(const std::vector<RouterPeer::SlotRecord>& records,
                 const sc_time& t) {
  uint64_t bytes = 0;
  for (const RouterPeer::SlotRecord& record : records) {
    if (record.at <= t) {
      bytes += record.packet_bytes;
    }
  }
  return bytes;
}

std::optional<sc_time> WhenAbove(
    const std::vector<RouterPeer::SlotRecord>& records, uint64_t bytes) {
  uint64_t sum = 0;
  for (const RouterPeer::SlotRecord& record : records) {
    sum += record.packet_bytes;
    if (sum > bytes) {
      return record.at;
    }
  }
  return std::nullopt;
}

bool AwaitCondition(RouterPeer& peer, const std::function<bool()>& done,
                    const sc_time& within) {
  const sc_time deadline = sc_core::sc_time_stamp() + within;
  while (!done() && sc_core::sc_time_stamp() < deadline) {
    sc_core::wait(deadline - sc_core::sc_time_stamp(), peer.arrival());
  }
  return done();
}

bool AwaitPackets(RouterPeer& peer, size_t count, const sc_time& within) {
  return AwaitCondition(
      peer, [&] { return peer.packets().size() >= count; }, within);
}

void OpenOutput(RouterBench& bench, unsigned port, const sc_time& interval) {
  RouterPeer& peer = bench.peer(port);
  for (unsigned vc = 0; vc < bench.dut().vcs(); ++vc) {
    peer.Grant(vc, 4);
  }
  peer.GrantAsSlotsArrive(interval);
}

void ExpectForwarded(Verdict& verdict, const RouterPeer& peer,
                     const std::vector<Bytes>& sent,
                     std::initializer_list<const char*> clauses) {
  if (!verdict.Expect(peer.packets().size() == sent.size(),
                      std::to_string(peer.packets().size()) + " of " +
                          std::to_string(sent.size()) + " packets arrived",
                      clauses)) {
    return;
  }
  for (size_t i = 0; i < sent.size(); ++i) {
    Bytes got = FrameOf(peer.packets()[i]);
    Bytes want(sent[i].begin() + net::kRouteHeaderBytes, sent[i].end());
    const std::string which = "packet " + std::to_string(i);
    verdict.Expect(Ipv4Sum(got, kIp) == 0xFFFF, which + ": IPv4 checksum wrong",
                   clauses);
    if (got.size() != want.size()) {
      verdict.Expect(false, which + " arrived with another length", clauses);
      continue;
    }
    verdict.Expect(got[kIpTtl] + 1 == want[kIpTtl],
                   which + ": IPv4 TTL " + std::to_string(want[kIpTtl]) +
                       " arrived as " + std::to_string(got[kIpTtl]) +
                       ", not one less",
                   clauses);
    for (Bytes* frame : {&got, &want}) {
      (*frame)[kIp + 1] &= 0xFC;  // ECN
      (*frame)[kIpTtl] = 0;
      (*frame)[kIp + 10] = (*frame)[kIp + 11] = 0;
    }
    verdict.Expect(got == want, which + " arrived changed", clauses);
  }
}

// Firmware's accesses to the DUT's router registers; a bus error is
// evidence against NET-5.6.
uint32_t ReadRegister(RouterCaseContext& context, uint32_t offset) {
  uint32_t value = 0;
  context.verdict.Expect(
      context.bench.dut_csr().Access(tlm::TLM_READ_COMMAND, offset, value) ==
          tlm::TLM_OK_RESPONSE,
      "bus error reading " + std::to_string(offset), {"NET-5.6"});
  return value;
}
void WriteRegister(RouterCaseContext& context, uint32_t offset,
                   uint32_t value) {
  context.verdict.Expect(
      context.bench.dut_csr().Access(tlm::TLM_WRITE_COMMAND, offset, value) ==
          tlm::TLM_OK_RESPONSE,
      "bus error writing " + std::to_string(offset), {"NET-5.6"});
}

// What a received header says, field by field, for a verdict's evidence.
std::string DescribeHeader(const net::RouteHeader& h) {
  char text[128];
  std::snprintf(text, sizeof(text),
                "kind %u tc %u dst %u src %u epoch %u vc %u ttl %u hops %u "
                "len %u",
                h.kind, h.tc, h.dst, h.src, h.epoch, h.vc, h.ttl, h.hops,
                h.len);
  return text;
}

}  // namespace lq::conformance
