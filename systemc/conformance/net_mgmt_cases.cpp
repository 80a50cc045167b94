// SPDX-License-Identifier: Apache-2.0
// Network-layer conformance cases for the in-band management channel,
// net.md NET-7.4, observed at the ports of a router under test (decision
// 0023): MGMT packets go up the management tree by MGMT_PARENT_PORT, or
// along their source route with SR_PTR advanced, on class 0 of VC set S-1
// whatever the routing function and the epoch say; a route the router
// cannot follow drops the packet; the network interface sends them while
// injection is frozen; and NET-8.9's DATA counters do not count them.
#include <string>
#include <vector>

#include "generated/cpp/router_regs.h"
#include "models/network/mgmt_message.h"
#include "models/network/route_header.h"
#include "systemc/common/stat_list.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/router_case_helpers.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::router;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kPlusX = 0, kMinusX = 1, kPlusY = 2, kMinusY = 3, kPlusZ = 4,
                   kMinusZ = 5;
constexpr uint8_t kTtl = 20, kHops = 3;

// Class 0 of the last VC set: where MGMT packets travel (NET-7.4).
unsigned MgmtVc(RouterBench& bench) {
  const unsigned sets = bench.dut().vcs() / bench.dut().vc_classes();
  return (sets - 1) * bench.dut().vc_classes();
}

net::MgmtMessage Message(const std::vector<uint8_t>& route, uint8_t ptr,
                         uint8_t seq) {
  net::MgmtMessage m;
  m.type = net::MgmtType::kAck;
  m.seq = seq;
  m.node = 9;
  m.route = route;
  m.route_ptr = ptr;
  return m;
}

// A MGMT packet as a neighbour sends it: `payload` after a header for
// `dst` on `vc`, with `epoch`.
Bytes MgmtPacket(uint16_t dst, unsigned vc, uint8_t epoch, uint8_t ttl,
                 const Bytes& payload) {
  net::RouteHeader header;
  header.kind = static_cast<uint8_t>(net::PacketKind::kMgmt);
  header.tc = net::kMgmtTrafficClass;
  header.dst = dst;
  header.src = 9;
  header.epoch = epoch;
  header.vc = static_cast<uint8_t>(vc);
  header.ttl = ttl;
  header.hops = kHops;
  header.len = static_cast<uint16_t>(payload.size());
  return RoutedPacket(header, payload);
}

// One MGMT packet through the DUT and where NET-7.4 sends it.
struct MgmtHopCase {
  unsigned from;
  unsigned in_vc_offset;  // from MgmtVc(): 0 or 1 (class 1)
  Bytes payload;
  bool other_epoch;
  uint8_t ttl;
  std::optional<unsigned> to;  // nullopt: dropped
  Bytes expected_payload;      // as it leaves
  const char* point;           // the test point it counts for
  const char* why;
};

std::string Describe(const MgmtHopCase& hop) {
  return std::string(hop.why) + " (in on port " + std::to_string(hop.from) +
         ")";
}

// NET-7.4: with MGMT_PARENT_PORT = -Y, a packet for the manager leaves by
// -Y (dimension order would take +X to node 1, its DST), one on its source
// route leaves by SR[SR_PTR] with SR_PTR + 1, one at the route's end and,
// once MGMT_PARENT_PORT is 0xFF, one for the manager are ejected; class 1
// in and another epoch change nothing; routes the DUT cannot follow, and a
// spent TTL, drop the packet, counted in mgmt_dropped; one injected at the
// local port is routed too; and the DATA counters see none of it.
void ForwardsManagementByTreeAndRoute(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const unsigned local = bench.dut().local_port();
  for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
    OpenOutput(bench, p, sc_core::SC_ZERO_TIME);
  }
  WriteRegister(context, regs::kMgmtParentPortOffset, kMinusY);
  const unsigned vc = MgmtVc(bench);

  const Bytes to_manager = net::EncodeMgmt(Message({}, 0, 1));
  const Bytes routed = net::EncodeMgmt(Message({kPlusZ, 1, 4}, 0, 2));
  const Bytes routed_on = net::EncodeMgmt(Message({kPlusZ, 1, 4}, 1, 2));
  const Bytes at_end = net::EncodeMgmt(Message({kPlusX, kMinusY}, 2, 3));
  const Bytes no_port = net::EncodeMgmt(Message({9}, 0, 4));
  const Bytes short_payload(40, 1);
  Bytes ptr_past_count = net::EncodeMgmt(Message({kPlusX}, 1, 5));
  ptr_past_count[net::kMgmtRoutePtrOffset] = 2;
  Bytes count_past_58 = net::EncodeMgmt(Message({kPlusX}, 0, 6));
  count_past_58[1] = 59;  // SR_COUNT
  const Bytes one_hop = net::EncodeMgmt(Message({kPlusX}, 0, 7));
  const Bytes one_hop_on = net::EncodeMgmt(Message({kPlusX}, 1, 7));

  // Drops, written out one field a line by the formatter otherwise.
  const std::optional<unsigned> dropped;
  std::vector<MgmtHopCase> hops = {
      {kPlusX, 1, to_manager, true, kTtl, kMinusY, to_manager, "NET-7.4/a",
       "for the manager, class 1, the other epoch: by MGMT_PARENT_PORT"},
      {kPlusY, 0, routed, false, kTtl, kPlusZ, routed_on, "NET-7.4/b",
       "on its source route: by SR[0], SR_PTR then 1"},
      {kMinusX, 0, at_end, false, kTtl, local, at_end, "NET-7.4/b",
       "SR_PTR = SR_COUNT: ejected"},
      {local, 0, one_hop, false, kTtl, kPlusX, one_hop_on, "NET-7.4/b",
       "injected at the local port: by SR[0]"},
      {kPlusZ, 0, no_port, false, kTtl, dropped, Bytes(), "NET-7.4/d",
       "its route names port 9, which the DUT lacks: dropped"},
      {kMinusZ, 0, short_payload, false, kTtl, dropped, Bytes(), "NET-7.4/d",
       "payload of 40 bytes, shorter than a message header: dropped"},
      {kPlusX, 0, ptr_past_count, false, kTtl, dropped, Bytes(), "NET-7.4/d",
       "SR_PTR past SR_COUNT: dropped"},
      {kPlusY, 0, count_past_58, false, kTtl, dropped, Bytes(), "NET-7.4/d",
       "SR_COUNT 59, past the field's 58: dropped"},
      {kMinusY, 0, routed, false, 0, dropped, Bytes(), "NET-7.4/d",
       "TTL 0 with a network hop to take: dropped (NET-2.4)"},
  };
  constexpr uint64_t kDropped = 5;
  const uint8_t epoch = bench.dut().epoch();
  const auto send = [&](const MgmtHopCase& hop) {
    bench.peer(hop.from).Send(
        {MgmtPacket(1, vc + hop.in_vc_offset,
                    static_cast<uint8_t>(hop.other_epoch ? epoch ^ 1 : epoch),
                    hop.ttl, hop.payload)},
        vc + hop.in_vc_offset);
    sc_core::wait(sc_time(200, SC_NS));
  };
  for (const MgmtHopCase& hop : hops) {
    send(hop);
  }
  // The manager's own node: its MGMT_PARENT_PORT is 0xFF.
  WriteRegister(context, regs::kMgmtParentPortOffset, net::kNoParentPort);
  hops.push_back({kMinusY, 0, to_manager, false, kTtl, local, to_manager,
                  "NET-7.4/a", "for the manager at its node: ejected"});
  send(hops.back());
  sc_core::wait(sc_time(1, SC_US));

  std::vector<size_t> taken(bench.dut().port_count(), 0);
  size_t expected_out = 0;
  for (const MgmtHopCase& hop : hops) {
    if (!hop.to) {
      continue;
    }
    ++expected_out;
    const RouterPeer& out = bench.peer(*hop.to);
    if (!verdict.Expect(
            out.packets().size() > taken[*hop.to],
            Describe(hop) + ": nothing left by port " + std::to_string(*hop.to),
            {hop.point})) {
      continue;
    }
    const Bytes& bytes = out.packets()[taken[*hop.to]++].bytes;
    const net::RouteHeader got = net::DecodeRouteHeader(bytes.data());
    const Bytes payload(bytes.begin() + net::kRouteHeaderBytes, bytes.end());
    verdict.Expect(payload == hop.expected_payload,
                   Describe(hop) +
                       ": the message left changed but for "
                       "what NET-7.4 changes",
                   {hop.point});
    if (*hop.to != local) {
      verdict.Expect(got.kind == static_cast<uint8_t>(net::PacketKind::kMgmt) &&
                         got.vc == vc && got.ttl == kTtl - 1 &&
                         got.hops == kHops + 1,
                     Describe(hop) + ": header " + DescribeHeader(got) +
                         ", expected MGMT on VC " + std::to_string(vc) +
                         " (set S-1, class 0), TTL and HOPS one hop on",
                     {"NET-7.4/c"});
    }
  }
  size_t left = 0;
  for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
    left += bench.peer(p).packets().size();
  }
  verdict.Expect(left == expected_out,
                 std::to_string(left) + " MGMT packets left the DUT, " +
                     std::to_string(expected_out) + " expected",
                 {"NET-7.4/d"});
  const StatList stats = bench.dut().Stats();
  const auto stat = [&stats](const char* name) {
    return StatValue(stats, name).value_or(0);
  };
  verdict.Expect(stat("mgmt_dropped") == kDropped,
                 "mgmt_dropped reads " + std::to_string(stat("mgmt_dropped")) +
                     " after " + std::to_string(kDropped) +
                     " MGMT packets that could not go on",
                 {"NET-7.4/d"});
  const uint32_t injected = ReadRegister(context, regs::kInjectedOffset);
  const uint32_t forwarded = ReadRegister(context, regs::kForwardedOffset);
  const uint32_t ejected = ReadRegister(context, regs::kEjectedOffset);
  const uint32_t no_route = ReadRegister(context, regs::kDropsNoRouteOffset);
  const uint32_t ttl = ReadRegister(context, regs::kDropsTtlOffset);
  verdict.Expect(
      injected == 0 && forwarded == 0 && ejected == 0 && no_route == 0 &&
          ttl == 0,
      "INJECTED " + std::to_string(injected) + ", FORWARDED " +
          std::to_string(forwarded) + ", EJECTED " + std::to_string(ejected) +
          ", DROPS_NO_ROUTE " + std::to_string(no_route) + ", DROPS_TTL " +
          std::to_string(ttl) + " after MGMT packets only: expected 0 each",
      {"NET-8.9"});
  verdict.Expect(stat("mgmt_injected") == 1 && stat("mgmt_forwarded") == 3 &&
                     stat("mgmt_ejected") == 2,
                 "mgmt_injected " + std::to_string(stat("mgmt_injected")) +
                     ", mgmt_forwarded " +
                     std::to_string(stat("mgmt_forwarded")) +
                     ", mgmt_ejected " + std::to_string(stat("mgmt_ejected")) +
                     ": expected 1, 3 and 2",
                 {"NET-8.9"});
}

// NET-7.4: MGMT packets are never frozen. With INJECT_FREEZE set, a
// message the DUT's own firmware sends leaves (as a MGMT packet, TC 7, on
// class 0 of set S-1) while a DATA packet waits.
void SendsManagementWhileFrozen(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RouterPeer& east = bench.peer(kPlusX);
  OpenOutput(bench, kPlusX, sc_core::SC_ZERO_TIME);
  WriteRegister(context, regs::kInjectFreezeOffset,
                regs::kInjectFreezeFreeze.Place(1));
  const uint16_t east_node = bench.neighbour(kPlusX);
  bench.interface().Send(east_node, 3,
                         WriteFrame(0, 300, roce::Ecn::kNotEct, 3));
  const Bytes message = net::EncodeMgmt(Message({kPlusX}, 0, 7));
  bench.interface().SendMgmt(east_node, message);
  const bool arrived = AwaitPackets(east, 1, sc_time(2, SC_US));
  sc_core::wait(sc_time(1, SC_US));
  if (!verdict.Expect(arrived && east.packets().size() == 1,
                      std::to_string(east.packets().size()) +
                          " packets left by +X with injection frozen; "
                          "expected the MGMT packet alone",
                      {"NET-7.4/e"})) {
    return;
  }
  const Bytes& bytes = east.packets()[0].bytes;
  const net::RouteHeader got = net::DecodeRouteHeader(bytes.data());
  net::RouteHeader want;
  want.kind = static_cast<uint8_t>(net::PacketKind::kMgmt);
  want.tc = net::kMgmtTrafficClass;
  want.dst = east_node;
  want.src = bench.neighbour(bench.dut().local_port());
  want.epoch = bench.dut().epoch();
  want.vc = static_cast<uint8_t>(MgmtVc(bench));
  want.ttl = static_cast<uint8_t>(bench.initial_ttl() - 1);
  want.hops = 1;
  want.len = static_cast<uint16_t>(message.size());
  verdict.Expect(
      got == want,
      "header " + DescribeHeader(got) + ", expected " + DescribeHeader(want),
      {"NET-7.4/e"});
  Bytes routed_on = message;
  ++routed_on[net::kMgmtRoutePtrOffset];
  verdict.Expect(
      Bytes(bytes.begin() + net::kRouteHeaderBytes, bytes.end()) == routed_on,
      "the message left changed but for SR_PTR + 1", {"NET-7.4/e"});
  WriteRegister(context, regs::kInjectFreezeOffset, 0);
  verdict.Expect(AwaitPackets(east, 2, sc_time(2, SC_US)),
                 "the DATA packet did not leave once injection resumed",
                 {"NET-7.4/e"});
}

}  // namespace

std::vector<ConformanceCase> NetMgmtCases() {
  return {
      RouterCase("NET_7_4_ForwardsManagementByTreeAndRoute",
                 ForwardsManagementByTreeAndRoute),
      RouterCase("NET_7_4_SendsManagementWhileFrozen",
                 SendsManagementWhileFrozen,
                 RouterBenchOptions{{}, /*interface_at_local_port=*/true}),
  };
}

}  // namespace lq::conformance
