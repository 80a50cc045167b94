// SPDX-License-Identifier: Apache-2.0
// Network-layer conformance cases, net.md sections 2-4 and 8, observed at
// the ports of the router under test (decision 0023): the routing header
// it sends, the VCs it picks, the headers it refuses, the byte streams it
// reads and writes, credits, wormhole switching and its pipeline. The DUT
// is node 0 of the 4x8x8 torus; ports 0 +X (node 1), 1 -X (node 3),
// 2 +Y (node 4), 3 -Y (node 28), 6 local (NET-6.1).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "generated/cpp/router_regs.h"
#include "models/network/route_header.h"
#include "models/roce/encap.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/router_case_helpers.h"
#include "systemc/conformance/trn_frame_checks.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::router;
using roce::Ecn;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kPlusX = 0, kMinusX = 1, kPlusY = 2, kMinusY = 3;
constexpr unsigned kClasses = 2;  // net.vc_classes by default (NET-3.1)
constexpr uint8_t kTc = 3, kTcHigh = 6;

// CRC-16/IB-VCRC as NET-2.8 defines it, bit by bit from the clause: the
// suite's own, so that a mistake shared with lqemu's would still show.
uint16_t IbVcrc(const uint8_t* bytes, size_t size) {
  uint16_t crc = 0xFFFF;
  for (size_t i = 0; i < size; ++i) {
    crc ^= bytes[i];
    for (int bit = 0; bit < 8; ++bit) {
      // 0x100B reflected is 0xD008.
      crc = (crc & 1) != 0 ? static_cast<uint16_t>((crc >> 1) ^ 0xD008)
                           : static_cast<uint16_t>(crc >> 1);
    }
  }
  return static_cast<uint16_t>(crc ^ 0xFFFF);
}

net::RouteHeader DataHeader(uint16_t dst, uint16_t src, uint8_t tc, unsigned vc,
                            size_t len) {
  net::RouteHeader header;
  header.kind = static_cast<uint8_t>(net::PacketKind::kData);
  header.tc = tc;
  header.dst = dst;
  header.src = src;
  header.vc = static_cast<uint8_t>(vc);
  header.ttl = 20;
  header.hops = 7;
  header.len = static_cast<uint16_t>(len);
  return header;
}

// One hop through the DUT and what NET-3.3 and NET-4.2 say of it.
struct Hop {
  unsigned from;
  unsigned in_class;  // the class the neighbour sent it on
  uint16_t dst;
  uint8_t tc;
  unsigned to;         // NET-4.2: the port DOR leaves by
  unsigned out_class;  // NET-3.3: the class it leaves on
  const char* why;
};

// NET-2.4 and the header rules: packets cross the DUT by every kind of hop
// of NET-3.3's dateline rule, on both VC sets.
void ForwardsWithItsHeaderEdited(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const uint8_t kSource = 9;  // any node but the neighbours
  const std::vector<Hop> hops = {
      {kPlusX, 0, 3, kTc, kMinusX, 1, "onto the X wrap link"},
      {kMinusX, 1, 1, kTc, kPlusX, 1, "on in X after the wrap"},
      {kPlusX, 0, 4, kTc, kPlusY, 0, "turning into Y"},
      {kPlusX, 0, 28, kTc, kMinusY, 1, "turning into Y over its wrap"},
      {kPlusX, 0, 4, kTcHigh, kPlusY, 0, "turning into Y, VC set 1"},
      {kPlusX, 0, 3, kTcHigh, kMinusX, 1, "onto the X wrap link, set 1"},
      {kMinusX, 1, 5, kTc, kPlusX, 1, "to (1,1,0): X before Y"},
      {kPlusX, 0, 16, kTc, kPlusY, 0, "to (0,4,0): + on a tie (d = k/2)"},
  };
  for (unsigned p : {kPlusX, kMinusX, kPlusY, kMinusY}) {
    OpenOutput(bench, p, sc_core::SC_ZERO_TIME);
  }
  std::vector<Bytes> sent;
  for (size_t i = 0; i < hops.size(); ++i) {
    const Hop& hop = hops[i];
    const unsigned vc = bench.VcOf(hop.tc) + hop.in_class;
    const Bytes frame =
        WriteFrame(static_cast<uint32_t>(i), 300, Ecn::kNotEct, hop.tc);
    sent.push_back(RoutedPacket(
        DataHeader(hop.dst, kSource, hop.tc, vc, frame.size()), frame));
    bench.peer(hop.from).Send({sent.back()}, vc);
    sc_core::wait(sc_time(200, SC_NS));  // one at a time
  }
  sc_core::wait(sc_time(1, SC_US));
  std::vector<size_t> taken(bench.dut().port_count(), 0);
  for (size_t i = 0; i < hops.size(); ++i) {
    const Hop& hop = hops[i];
    const std::string which = "hop " + std::to_string(i) + " (" + hop.why + ")";
    RouterPeer& out = bench.peer(hop.to);
    if (!verdict.Expect(
            out.packets().size() > taken[hop.to],
            which + ": nothing left by port " + std::to_string(hop.to),
            {"NET-4.2"})) {
      continue;
    }
    const Bytes& got = out.packets()[taken[hop.to]++].bytes;
    const Bytes& in = sent[i];
    if (!verdict.Expect(got.size() == in.size(), which + ": length changed",
                        {"NET-2.4"})) {
      continue;
    }
    const unsigned vc = bench.VcOf(hop.tc) + hop.out_class;
    // NET-2.1's layout, field by field, against what was sent.
    verdict.Expect(got[0] == 0x10 && got[1] == (hop.tc << 5),
                   which + ": VER/KIND/TC bytes " + std::to_string(got[0]) +
                       ", " + std::to_string(got[1]),
                   {"NET-2.1", "NET-2.2"});
    verdict.Expect(
        std::equal(in.begin() + 2, in.begin() + 6, got.begin() + 2) &&
            got[10] == in[10] && got[11] == in[11],
        which + ": DST, SRC or LEN changed", {"NET-2.4"});
    verdict.Expect(
        (got[6] & 0xE0) == 0 && got[9] == 0 && got[12] == 0 && got[13] == 0,
        which + ": a reserved field is not 0", {"NET-2.2"});
    verdict.Expect((got[6] & 0x10) == (in[6] & 0x10), which + ": EPOCH changed",
                   {"NET-2.4"});
    verdict.Expect((got[6] & 0x0F) == vc,
                   which + ": left on VC " + std::to_string(got[6] & 0x0F) +
                       ", expected " + std::to_string(vc),
                   {"NET-3.3", "NET-3.4", "NET-3.5"});
    verdict.Expect(got[7] == in[7] - 1 && got[8] == in[8] + 1,
                   which + ": TTL " + std::to_string(got[7]) + ", HOPS " +
                       std::to_string(got[8]) + "; sent 20 and 7",
                   {"NET-2.4"});
    verdict.Expect(Be16(got, 14) == IbVcrc(got.data(), 14),
                   which + ": HCRC is not CRC-16/IB-VCRC of bytes 0-13",
                   {"NET-2.8"});
    verdict.Expect(
        out.packets()[taken[hop.to] - 1].first_slot > sc_core::SC_ZERO_TIME,
        which + ": no arrival time");
  }
  // NET-2.4: the frame crosses with its IPv4 TTL one less, nothing else
  // changed; NET-8.9: counted.
  std::vector<Bytes> forwarded;
  for (unsigned p : {kPlusX, kMinusX, kPlusY, kMinusY}) {
    for (const RouterPeer::Packet& packet : bench.peer(p).packets()) {
      forwarded.push_back(packet.bytes);
    }
  }
  for (const Bytes& packet : forwarded) {
    Bytes frame(packet.begin() + net::kRouteHeaderBytes, packet.end());
    verdict.Expect(frame[kIpTtl] == 63 && Ipv4Sum(frame, kIp) == 0xFFFF,
                   "a frame left with IPv4 TTL " +
                       std::to_string(frame[kIpTtl]) +
                       " (sent 64) or a wrong checksum",
                   {"NET-2.4"});
  }
  const net::RouterCounters& counted = bench.dut().counters();
  verdict.Expect(counted.forwarded == hops.size() && counted.Dropped() == 0,
                 "counted " + std::to_string(counted.forwarded) +
                     " forwarded and " + std::to_string(counted.Dropped()) +
                     " dropped",
                 {"NET-8.9"});
  verdict.Expect(
      IbVcrc(reinterpret_cast<const uint8_t*>("123456789"), 9) == 0x0A3D,
      "the suite's CRC-16/IB-VCRC misses the check value", {"NET-2.8"});
}

// NET-2.10: the neighbour on +X sends, on VC 0 of its stream for -X, good
// packets around headers that fail checks 5 and 6 and a TTL of 0 (NET-2.4),
// then one whose HCRC is wrong; other neighbours each send one header that
// fails check 1, 3 or 4 (check 1 on a header whose KIND is reserved too,
// so that the order shows).
void ChecksEveryHeaderInOrder(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  OpenOutput(bench, kMinusX, sc_core::SC_ZERO_TIME);
  constexpr uint16_t kSource = 9, kWest = 3;
  uint32_t psn = 0;
  auto packet = [&](const std::function<void(net::RouteHeader&)>& edit,
                    bool reseal = true) {
    const Bytes frame = WriteFrame(psn++, 200, Ecn::kNotEct, kTc);
    net::RouteHeader header = DataHeader(kWest, kSource, kTc, 0, frame.size());
    edit(header);
    Bytes bytes = RoutedPacket(header, frame);
    if (!reseal) {
      bytes[14] ^= 0x01;  // HCRC wrong
    }
    return bytes;
  };
  const auto keep = [](net::RouteHeader&) {};
  const std::vector<Bytes> stream = {
      packet(keep),                                      // A
      packet([](net::RouteHeader& h) { h.kind = 5; }),   // check 5
      packet([](net::RouteHeader& h) { h.dst = 300; }),  // check 6
      packet([](net::RouteHeader& h) { h.src = 999; }),  // check 6
      packet([](net::RouteHeader& h) { h.ttl = 0; }),    // NET-2.4
      packet(keep),                                      // B
      packet(keep, /*reseal=*/false),                    // check 2
      packet(keep),                                      // C: lost
  };
  bench.peer(kPlusX).Send(stream, 0);
  // Check 1 before check 5; check 3; check 4.
  const Bytes frame = WriteFrame(100, 200, Ecn::kNotEct, kTc);
  net::RouteHeader bad_version =
      DataHeader(kWest, kSource, kTc, 0, frame.size());
  bad_version.kind = 5;
  Bytes version = RoutedPacket(bad_version, frame);
  version[0] = static_cast<uint8_t>(0x20 | (version[0] & 0x0F));  // VER 2
  const uint16_t crc = net::RouteHeaderCrc(version.data());
  version[14] = static_cast<uint8_t>(crc >> 8);
  version[15] = static_cast<uint8_t>(crc);
  bench.peer(kPlusY).Send({version}, 0);
  net::RouteHeader no_length = DataHeader(kWest, kSource, kTc, 0, 0);
  bench.peer(kMinusY).Send({RoutedPacket(no_length, frame)}, 0);
  net::RouteHeader wrong_vc = DataHeader(kWest, kSource, kTc, 1, frame.size());
  bench.peer(4).Send({RoutedPacket(wrong_vc, frame)}, 0);
  sc_core::wait(sc_time(2, SC_US));

  const RouterPeer& out = bench.peer(kMinusX);
  std::vector<uint32_t> arrived;
  for (const RouterPeer::Packet& p : out.packets()) {
    arrived.push_back(Be32(FrameOf(p), kBth + 8) &
                      0xFFFFFF);  // the WRITE's PSN
  }
  verdict.Expect(arrived == std::vector<uint32_t>{0, 5},
                 std::to_string(arrived.size()) +
                     " packets left; expected the two good ones before the "
                     "bad HCRC (PSNs 0 and 5)",
                 {"NET-2.10"});
  const net::RouterCounters& counted = bench.dut().counters();
  verdict.Expect(counted.drops_header == 3,
                 std::to_string(counted.drops_header) +
                     " header drops, expected 3 (KIND 5, DST 300, SRC 999)",
                 {"NET-2.10"});
  verdict.Expect(counted.stream_errors == 4,
                 std::to_string(counted.stream_errors) +
                     " stream errors, expected 4 (HCRC, VER with KIND 5, LEN "
                     "0, VC)",
                 {"NET-2.10"});
  verdict.Expect(
      counted.drops_ttl == 1,
      std::to_string(counted.drops_ttl) + " TTL drops, expected 1 (TTL 0)",
      {"NET-2.4"});
}

// NET-2.6, 2.7, 2.9: two batches of packets from +X, each packed back to
// back so that packets and headers straddle slots, the first batch's last
// slot padded: for the DUT's own node (the local port) and for -X.
void ReadsPacketsStraddlingSlots(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const unsigned local = bench.dut().local_port();
  OpenOutput(bench, local, sc_core::SC_ZERO_TIME);
  OpenOutput(bench, kMinusX, sc_core::SC_ZERO_TIME);
  uint32_t psn = 0;
  std::vector<Bytes> to_local, to_west;
  uint64_t hops = 0;
  for (size_t payload : {100, 500, 1000, 20, 3000, 240, 4}) {
    for (unsigned to : {local, kMinusX}) {
      const Bytes frame = WriteFrame(psn++, payload, Ecn::kNotEct, kTc);
      net::RouteHeader header =
          DataHeader(bench.neighbour(to), 9, kTc, 0, frame.size());
      header.hops = static_cast<uint8_t>(psn);
      (to == local ? to_local : to_west).push_back(RoutedPacket(header, frame));
      hops += to == local ? header.hops : 0;
    }
  }
  std::vector<Bytes> mixed;
  for (size_t i = 0; i < to_local.size(); ++i) {
    mixed.push_back(to_local[i]);
    mixed.push_back(to_west[i]);
  }
  const size_t half = 6;  // the first batch: three to each
  bench.peer(kPlusX).Send({mixed.begin(), mixed.begin() + half}, 0);
  bench.peer(kPlusX).Send({mixed.begin() + half, mixed.end()}, 0);
  AwaitPackets(bench.peer(local), to_local.size(), sc_time(5, SC_US));
  AwaitPackets(bench.peer(kMinusX), to_west.size(), sc_time(5, SC_US));
  // Up the local port: the payload (frame) as sent, header unchanged.
  const RouterPeer& up = bench.peer(local);
  size_t same = 0;
  for (size_t i = 0; i < std::min(up.packets().size(), to_local.size()); ++i) {
    same += up.packets()[i].bytes == to_local[i] ? 1 : 0;
  }
  verdict.Expect(
      same == to_local.size() && up.packets().size() == to_local.size(),
      std::to_string(up.packets().size()) +
          " packets reached the "
          "local port, " +
          std::to_string(same) + " of the " + std::to_string(to_local.size()) +
          " sent as they were sent",
      {"NET-2.6", "NET-2.7"});
  verdict.Expect(bench.dut().counters().ejected == to_local.size() &&
                     bench.dut().counters().hops == hops,
                 "counted " + std::to_string(bench.dut().counters().ejected) +
                     " ejected with " +
                     std::to_string(bench.dut().counters().hops) +
                     " hops; expected " + std::to_string(to_local.size()) +
                     " with " + std::to_string(hops),
                 {"NET-2.6"});
  ExpectForwarded(verdict, bench.peer(kMinusX), to_west,
                  {"NET-2.7", "NET-2.9"});
  // NET-2.9 on the DUT's side: its padding parses as padding.
  verdict.Expect(
      up.bad_headers() == 0 && bench.peer(kMinusX).bad_headers() == 0,
      "the DUT's slots did not parse: padding not at a packet "
      "boundary or not zero",
      {"NET-2.9"});
  verdict.Expect(bench.dut().counters().Dropped() == 0,
                 "the DUT dropped packets of a well-formed stream",
                 {"NET-2.7", "NET-2.9"});
}

// NET-8.2, 8.3, 3.6: two 4,000-byte packets from +Y and -Y for +X on the
// same output VC, whose neighbour grants 3 slots of room, then room as
// slots arrive. NET-8.4: one packet at zero load from -X to +Y; NET-8.3:
// then six single-slot packets back to back the same way.
void SendsNoSlotWithoutACredit(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RouterPeer& east = bench.peer(kPlusX);
  for (unsigned vc = 0; vc < bench.dut().vcs(); ++vc) {
    east.Grant(vc, 3);
  }
  uint32_t psn = 0;
  for (unsigned from : {kPlusY, kMinusY}) {
    const Bytes frame = WriteFrame(psn++, 4000, Ecn::kNotEct, kTc);
    bench.peer(from).Send(
        {RoutedPacket(
            DataHeader(1, bench.neighbour(from), kTc, 0, frame.size()), frame)},
        0);
  }
  const uint64_t granted_before = bench.peer(kPlusY).credits_granted(0) +
                                  bench.peer(kMinusY).credits_granted(0);
  sc_core::wait(sc_time(2, SC_US));
  verdict.Expect(
      east.received().size() == 3,
      std::to_string(east.received().size()) + " slots left with room for 3",
      {"NET-8.2"});
  east.GrantAsSlotsArrive(sc_core::SC_ZERO_TIME);
  east.Grant(0, 1);
  AwaitPackets(east, 2, sc_time(5, SC_US));
  sc_core::wait(sc_time(100, SC_NS));
  const auto& got = east.packets();
  if (verdict.Expect(got.size() == 2 && east.bad_headers() == 0,
                     std::to_string(got.size()) + " whole packets arrived of 2",
                     {"NET-8.3/a", "NET-3.6"})) {
    verdict.Expect(got[0].last_slot < got[1].first_slot,
                   "the two packets' slots interleaved on one VC",
                   {"NET-8.3/a", "NET-3.6"});
  }
  // One credit back per slot that left each input.
  const uint64_t slots = east.received().size();
  const uint64_t returned = bench.peer(kPlusY).credits_granted(0) +
                            bench.peer(kMinusY).credits_granted(0) -
                            granted_before;
  verdict.Expect(returned == slots,
                 std::to_string(returned) + " credits returned for " +
                     std::to_string(slots) + " slots forwarded",
                 {"NET-8.2"});

  // NET-8.4: 4 cycles from a header's arrival to its departure, then a
  // slot per cycle.
  OpenOutput(bench, kPlusY, sc_core::SC_ZERO_TIME);
  sc_core::wait(sc_time(100, SC_NS));
  const sc_time cycle(bench.config().router.clock_ns, SC_NS);
  const sc_time sent_at = sc_core::sc_time_stamp();
  const Bytes frame = WriteFrame(psn++, 1000, Ecn::kNotEct, kTc);
  bench.peer(kMinusX).Send(
      {RoutedPacket(DataHeader(4, 3, kTc, 1, frame.size()), frame)}, 1);
  AwaitPackets(bench.peer(kPlusY), 1, sc_time(1, SC_US));
  const auto& slots_out = bench.peer(kPlusY).received();
  if (verdict.Expect(slots_out.size() >= 5, "the packet did not arrive",
                     {"NET-8.4"})) {
    const sc_time latency = slots_out[0].at - sent_at;
    verdict.Expect(latency >= 4 * cycle && latency <= 5 * cycle,
                   "the header left " + Ns(latency) +
                       " after it arrived; 4 "
                       "router cycles are " +
                       Ns(4 * cycle),
                   {"NET-8.4"});
    for (size_t i = 1; i < slots_out.size(); ++i) {
      const sc_time gap = slots_out[i].at - slots_out[i - 1].at;
      verdict.Expect(gap == cycle,
                     "slot " + std::to_string(i) + " followed " + Ns(gap) +
                         " after the one before",
                     {"NET-8.4"});
    }
    verdict.Note("zero-load: header out " + Ns(latency) + " after it came in");
  }

  // NET-8.3: single-slot packets queued back to back in one input VC for
  // one output VC leave one per cycle, each allocated the VC its
  // predecessor's slot released in the cycle that slot won the switch.
  // Each a routing header and a payload that is not an IPv4 frame, which
  // the router carries as it is (NET-2.4), filling exactly one slot.
  const Bytes filler(bench.config().router.slot_bytes - net::kRouteHeaderBytes,
                     0x5A);
  const std::vector<Bytes> train(
      6, RoutedPacket(DataHeader(4, 3, kTc, 1, filler.size()), filler));
  const size_t before = slots_out.size();
  const size_t packets_before = bench.peer(kPlusY).packets().size();
  bench.peer(kMinusX).Send(train, 1);
  AwaitPackets(bench.peer(kPlusY), packets_before + train.size(),
               sc_time(1, SC_US));
  if (verdict.Expect(slots_out.size() == before + train.size(),
                     std::to_string(slots_out.size() - before) +
                         " slots left for 6 single-slot packets",
                     {"NET-8.3/b"})) {
    for (size_t i = before + 1; i < slots_out.size(); ++i) {
      const sc_time gap = slots_out[i].at - slots_out[i - 1].at;
      verdict.Expect(gap == cycle,
                     "single-slot packet " + std::to_string(i - before) +
                         " left " + Ns(gap) + " after the one before",
                     {"NET-8.3/b"});
    }
  }
}

// NET-5.1, 5.2, 5.3, 5.5, 5.6, 7.7: firmware programs table routing through
// the registers - node 1 by +Y (not DOR's way), node 5 with a class >= C,
// node 6 by a port the router lacks, node 3 left invalid, node 2 by +Y in
// phase 0 and -Y in phase 1 with PORT_UP set for +X - and switches banks;
// the +X neighbour then sends a packet to each in the new epoch and one to
// node 1 in the old.
void RoutesByItsProgrammedTable(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  for (unsigned p : {kPlusX, kMinusX, kPlusY, kMinusY}) {
    OpenOutput(bench, p, sc_core::SC_ZERO_TIME);
  }
  // NET-5.1: the entry for (d, input class c, phase p) is at
  // (d x C + c) x 2 + p; NET-5.2: VALID bit 15, CLASS 9:8, PORT 7:0.
  const auto program_phase = [&](unsigned dst, unsigned phase, uint32_t value) {
    WriteRegister(context, regs::kTableIndexOffset,
                  (dst * kClasses + 0) * 2 + phase);
    WriteRegister(context, regs::kTableDataOffset, value);
  };
  const auto program = [&](unsigned dst, uint32_t value) {
    program_phase(dst, 0, value);
    program_phase(dst, 1, value);
  };
  WriteRegister(context, regs::kRouteModeOffset,
                regs::kRouteModeMode.Place(
                    static_cast<uint32_t>(regs::RouteMode::kTable)));
  program(1, 0x8000 | (0u << 8) | kPlusY);
  program(5, 0x8000 | (2u << 8) | kPlusX);  // class 2 of C = 2
  program(6, 0x8000 | (0u << 8) | 9);       // no port 9
  // NET-5.3: +X leads up, so what arrives through it is in phase 1 (down).
  program_phase(2, 0, 0x8000 | (0u << 8) | kPlusY);
  program_phase(2, 1, 0x8000 | (0u << 8) | kMinusY);
  WriteRegister(context, regs::kPortUpOffset, 1u << kPlusX);
  const uint32_t epoch_before = ReadRegister(context, regs::kEpochOffset);
  WriteRegister(context, regs::kTableSwitchOffset,
                regs::kTableSwitchApply.Mask());
  const uint32_t epoch = ReadRegister(context, regs::kEpochOffset);
  verdict.Expect(epoch == (epoch_before ^ 1),
                 "EPOCH read " + std::to_string(epoch) +
                     " after a switch from " + std::to_string(epoch_before),
                 {"NET-5.6", "NET-7.7"});
  uint32_t psn = 0;
  for (uint16_t dst : {1, 3, 5, 6, 2, 1}) {
    const Bytes frame = WriteFrame(psn, 200, Ecn::kNotEct, kTc);
    net::RouteHeader header = DataHeader(dst, 9, kTc, 0, frame.size());
    header.epoch = static_cast<uint8_t>(psn == 5 ? epoch ^ 1 : epoch);
    bench.peer(kPlusX).Send({RoutedPacket(header, frame)}, 0);
    ++psn;
  }
  sc_core::wait(sc_time(2, SC_US));
  const auto& north = bench.peer(kPlusY).packets();
  verdict.Expect(north.size() == 1 && (north[0].bytes[6] & 0x0F) == 0,
                 std::to_string(north.size()) +
                     " packets left by +Y; expected the one for node 1, on "
                     "class 0 as its entry says",
                 {"NET-5.1", "NET-5.2"});
  verdict.Expect(bench.peer(kMinusX).packets().empty(), "a packet left by -X",
                 {"NET-5.1", "NET-5.5"});
  const auto& south = bench.peer(kMinusY).packets();
  verdict.Expect(south.size() == 1 && Be16(south[0].bytes, 2) == 2,
                 std::to_string(south.size()) +
                     " packets left by -Y; expected the one for node 2, by "
                     "its phase-1 entry",
                 {"NET-5.3"});
  // The counters, as firmware reads them (NET-5.6, NET-8.9).
  const uint32_t no_route = ReadRegister(context, regs::kDropsNoRouteOffset);
  const uint32_t stale = ReadRegister(context, regs::kDropsStaleEpochOffset);
  const uint32_t forwarded = ReadRegister(context, regs::kForwardedOffset);
  verdict.Expect(no_route == 3 && bench.peer(kPlusX).packets().empty(),
                 std::to_string(no_route) +
                     " no-route drops, expected 3 (an invalid entry, class "
                     "2, port 9)",
                 {"NET-5.5"});
  verdict.Expect(stale == 1,
                 std::to_string(stale) +
                     " stale-epoch drops, expected the one old-epoch packet",
                 {"NET-7.7"});
  verdict.Expect(forwarded == 2,
                 "FORWARDED reads " + std::to_string(forwarded) + ", not 2",
                 {"NET-5.6"});
}

// NET-8.5: +Y and -Y each send six one-slot packets for +X on one output
// VC; round-robin arbitration alternates between them.
void ArbitratesRoundRobin(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  uint32_t psn = 0;
  for (unsigned from : {kPlusY, kMinusY}) {
    std::vector<Bytes> packets;
    for (int i = 0; i < 6; ++i) {
      const Bytes frame = WriteFrame(psn++, 100, Ecn::kNotEct, kTc);
      packets.push_back(RoutedPacket(
          DataHeader(1, bench.neighbour(from), kTc, 0, frame.size()), frame));
    }
    bench.peer(from).Send(packets, 0);
  }
  sc_core::wait(sc_time(200, SC_NS));  // both inputs full
  OpenOutput(bench, kPlusX, sc_core::SC_ZERO_TIME);
  AwaitPackets(bench.peer(kPlusX), 12, sc_time(2, SC_US));
  std::string order;
  for (const RouterPeer::Packet& packet : bench.peer(kPlusX).packets()) {
    order += Be16(packet.bytes, 4) == bench.neighbour(kPlusY) ? 'N' : 'S';
  }
  bool alternates = order.size() == 12;
  for (size_t i = 1; alternates && i < order.size(); ++i) {
    alternates = order[i] != order[i - 1];
  }
  verdict.Expect(alternates,
                 "sources in the order they left: " + order +
                     " (N: +Y, S: -Y); round-robin alternates",
                 {"NET-8.5"});
  verdict.Note(order);
}

// NET-2.5: +Y sends a 1-byte payload for +X and a 9,216-byte one for -X
// (LEN at both ends of its range) back to back on one VC, and -Y a header
// with LEN 9,217 and that many bytes for +X; both outputs are open. The
// payloads are not IPv4 frames, so a forwarding router changes none of
// their bytes. Each of the first two leaves whole by its port; the third
// leaves not at all.
void CarriesWholePacketsOfEveryLength(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  constexpr size_t kMaxPayload = 9216;  // net.max_payload's default
  OpenOutput(bench, kPlusX, sc_core::SC_ZERO_TIME);
  OpenOutput(bench, kMinusX, sc_core::SC_ZERO_TIME);
  const unsigned vc = bench.VcOf(kTc);
  const Bytes shortest = {0xA5};
  Bytes longest(kMaxPayload);
  for (size_t i = 0; i < longest.size(); ++i) {
    longest[i] = static_cast<uint8_t>(i * 7 + 1);
  }
  bench.peer(kPlusY).Send(
      {RoutedPacket(DataHeader(1, 9, kTc, vc, shortest.size()), shortest),
       RoutedPacket(DataHeader(3, 9, kTc, vc, longest.size()), longest)},
      vc);
  const Bytes too_long(kMaxPayload + 1, 0x5A);
  bench.peer(kMinusY).Send(
      {RoutedPacket(DataHeader(1, 9, kTc, vc, too_long.size()), too_long)}, vc);
  AwaitPackets(bench.peer(kMinusX), 1, sc_time(5, SC_US));
  sc_core::wait(sc_time(2, SC_US));  // time for anything more
  const auto payloads = [&bench](unsigned port) {
    std::string sizes;
    for (const RouterPeer::Packet& packet : bench.peer(port).packets()) {
      sizes += " " + std::to_string(FrameOf(packet).size());
    }
    return sizes.empty() ? std::string(" none") : sizes;
  };
  const auto& east = bench.peer(kPlusX).packets();
  const auto& west = bench.peer(kMinusX).packets();
  const std::string evidence = "+X received payloads of" + payloads(kPlusX) +
                               " bytes, -X of" + payloads(kMinusX);
  verdict.Expect(east.size() == 1 && FrameOf(east[0]) == shortest &&
                     west.size() == 1 && FrameOf(west[0]) == longest &&
                     bench.peer(kPlusX).bad_headers() == 0 &&
                     bench.peer(kMinusX).bad_headers() == 0,
                 evidence +
                     "; expected the 1-byte and the 9,216-byte "
                     "payloads, one each, unchanged",
                 {"NET-2.5"});
  verdict.Note(evidence);
}

// NET-4.3 with routing `adaptive` (three VC classes, one set; class 2 is
// the adaptive one). Every packet goes to node 5 = (1,1,0), for which +X
// and +Y are productive and DOR leaves by +X; the neighbours grant the
// DUT credits VC by VC, so each step shows which output the DUT chose:
//   1. from -Z in class 2, no class-2 VC has a credit: the escape step,
//      +X in class 0 (NET-3.3 for a packet injected here);
//   2. from -X in escape class 1 (over the X wrap), +Y's class 2 open:
//      it stays in escape, +X in class 1;
//   3. from -Z in class 2, +Y's class-2 VC has more credits than +X's:
//      +Y in class 2;
//   4. the same with equal credits: the lower port, +X;
//   5. injected at the local port (input class 0, treated as class 2),
//      +Y's class-2 VC again the richer: +Y in class 2.
void AdaptsAmongProductivePorts(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  constexpr unsigned kMinusZ = 5;
  constexpr uint16_t kDst = 5;
  constexpr unsigned kAdaptive = 2;
  const unsigned local = bench.dut().local_port();
  struct Step {
    unsigned from, in_vc;
    std::vector<std::pair<unsigned, unsigned>> grants;  // (port, vc), 1 each
    unsigned grant_count;
    unsigned to, out_vc;
    const char* why;
  };
  const std::vector<Step> steps = {
      {kMinusZ,
       kAdaptive,
       {{kPlusX, 0}},
       2,
       kPlusX,
       0,
       "no class-2 VC has a credit: the escape step"},
      {kMinusX,
       1,
       {{kPlusY, kAdaptive}, {kPlusX, 1}},
       8,
       kPlusX,
       1,
       "an escape packet stays in escape"},
      {kMinusZ,
       kAdaptive,
       {{kPlusX, kAdaptive}},
       3,
       kPlusY,
       kAdaptive,
       "the candidate with the most credits (+Y 8, +X 3)"},
      {kMinusZ,
       kAdaptive,
       {{kPlusX, kAdaptive}},
       4,
       kPlusX,
       kAdaptive,
       "equal credits (7, 7): the lower port"},
      {local,
       0,
       {},
       0,
       kPlusY,
       kAdaptive,
       "injected, so adaptive: the most credits (+Y 7, +X 6)"},
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    for (const auto& [port, vc] : step.grants) {
      bench.peer(port).Grant(vc, step.grant_count);
    }
    std::vector<size_t> before;
    for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
      before.push_back(bench.peer(p).packets().size());
    }
    const Bytes frame =
        WriteFrame(static_cast<uint32_t>(i), 100, Ecn::kNotEct, kTc);
    bench.peer(step.from).Send(
        {RoutedPacket(DataHeader(kDst, 9, kTc, step.in_vc, frame.size()),
                      frame)},
        step.in_vc);
    sc_core::wait(sc_time(200, SC_NS));
    std::string went = "nowhere";
    bool right = false;
    for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
      const auto& got = bench.peer(p).packets();
      if (got.size() == before[p] + 1) {
        const unsigned vc = got.back().bytes.at(6) & 0x0F;  // NET-2.1
        went = "port " + std::to_string(p) + " VC " + std::to_string(vc);
        right = p == step.to && vc == step.out_vc;
      }
    }
    verdict.Expect(right,
                   "step " + std::to_string(i + 1) + " (" + step.why +
                       ") left by " + went + "; expected port " +
                       std::to_string(step.to) + " VC " +
                       std::to_string(step.out_vc),
                   {"NET-4.3"});
  }
}

// NET-7.1: the link controller on +X reports the link down, then up; the
// bench makes those reports as that controller would. Packets for +X wait
// there (no credit), then: one buffered for the port and one routed to it
// later are dropped and counted; at link-up the DUT grants the neighbour
// its whole input buffer on every VC; the credits the neighbour granted
// before the link came up are void, so the next packet waits for new
// ones and then crosses whole.
void DropsForADownLinkAndGrantsAtLinkUp(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RouterPeer& east = bench.peer(kPlusX);
  const unsigned vcs = bench.dut().vcs();
  const auto drops = [&context] {
    return ReadRegister(context, regs::kDropsLinkDownOffset);
  };
  const uint32_t drops_before = drops();
  SendPackets(bench, kMinusX, Packets(bench, kMinusX, kPlusX, kTc, 1, 500, 0),
              kTc);
  sc_core::wait(sc_time(1, SC_US));
  bench.dut().SetPortDown(kPlusX, sc_time(10, SC_NS));
  sc_core::wait(sc_time(1, SC_US));
  verdict.Expect(drops() == drops_before + 1,
                 "drops_link_down rose by " +
                     std::to_string(drops() - drops_before) +
                     " for the packet buffered for the port; expected 1",
                 {"NET-7.1"});
  for (unsigned vc = 0; vc < vcs; ++vc) {
    east.Grant(vc, 4);  // from a link that is down: void
  }
  SendPackets(bench, kMinusX, Packets(bench, kMinusX, kPlusX, kTc, 1, 500, 1),
              kTc);
  sc_core::wait(sc_time(1, SC_US));
  verdict.Expect(drops() == drops_before + 2,
                 "drops_link_down rose by " +
                     std::to_string(drops() - drops_before) +
                     " after a second packet was routed to the down port; "
                     "expected 2",
                 {"NET-7.1"});
  verdict.Expect(east.received().empty(),
                 std::to_string(east.received().size()) +
                     " slots left by the port while it was down",
                 {"NET-7.1"});

  std::vector<uint64_t> granted;
  for (unsigned vc = 0; vc < vcs; ++vc) {
    granted.push_back(east.credits_granted(vc));
  }
  bench.dut().SetPortUp(kPlusX);
  sc_core::wait(sc_time(100, SC_NS));
  const unsigned room = bench.config().router.vc_buffer_flits;
  for (unsigned vc = 0; vc < vcs; ++vc) {
    const uint64_t grant = east.credits_granted(vc) - granted[vc];
    verdict.Expect(grant == room,
                   "at link-up the DUT granted " + std::to_string(grant) +
                       " slots of room on VC " + std::to_string(vc) +
                       "; its empty buffer holds " + std::to_string(room),
                   {"NET-7.1", "NET-8.2"});
  }
  SendPackets(bench, kMinusX, Packets(bench, kMinusX, kPlusX, kTc, 1, 500, 2),
              kTc);
  sc_core::wait(sc_time(1, SC_US));
  verdict.Expect(east.received().empty(),
                 "the DUT sent on credits granted while the link was down",
                 {"NET-7.1"});
  for (unsigned vc = 0; vc < vcs; ++vc) {
    east.Grant(vc, room);
  }
  AwaitPackets(east, 1, sc_time(2, SC_US));
  verdict.Expect(east.packets().size() == 1 && east.bad_headers() == 0,
                 std::to_string(east.packets().size()) +
                     " whole packets crossed the restored link; expected 1",
                 {"NET-7.1"});
}

}  // namespace

// NET-2.3, NET-8.8: the DUT's own network interface builds each header as
// it admits the packet, so the packet carries the epoch in force then; it
// admits nothing while INJECT_FREEZE is 1, and what waited leaves whole
// once it is cleared. The packets are seen one hop on, so the router's
// NET-2.4 edits (VC, TTL - 1, HOPS 1) are in them too.
void InjectsWithTheHeaderItBuilds(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RouterPeer& east = bench.peer(kPlusX);
  OpenOutput(bench, kPlusX, sc_core::SC_ZERO_TIME);
  const auto expect_header = [&](size_t index, uint8_t tc, size_t len,
                                 uint32_t epoch, const std::string& what) {
    net::RouteHeader want;
    want.kind = static_cast<uint8_t>(net::PacketKind::kData);
    want.tc = tc;
    want.dst = bench.neighbour(kPlusX);
    want.src = bench.neighbour(bench.dut().local_port());
    want.epoch = static_cast<uint8_t>(epoch);
    want.vc = static_cast<uint8_t>(bench.VcOf(tc));
    want.ttl = static_cast<uint8_t>(bench.initial_ttl() - 1);
    want.hops = 1;
    want.len = static_cast<uint16_t>(len);
    const net::RouteHeader got =
        net::DecodeRouteHeader(east.packets()[index].bytes.data());
    verdict.Expect(got == want,
                   what + ": header " + DescribeHeader(got) + ", expected " +
                       DescribeHeader(want),
                   {"NET-2.3"});
  };

  const Bytes first = WriteFrame(0, 300, Ecn::kNotEct, kTc);
  bench.interface().Send(bench.neighbour(kPlusX), kTc, first);
  if (!verdict.Expect(AwaitPackets(east, 1, sc_time(2, SC_US)),
                      "an injected packet did not leave by +X", {"NET-2.3"})) {
    return;
  }
  expect_header(0, kTc, first.size(), ReadRegister(context, regs::kEpochOffset),
                "the first packet");

  WriteRegister(context, regs::kInjectFreezeOffset,
                regs::kInjectFreezeFreeze.Place(1));
  const size_t slots_before = east.received().size();
  const Bytes second = WriteFrame(1, 300, Ecn::kNotEct, kTc);
  const Bytes third = WriteFrame(2, 4000, Ecn::kNotEct, kTcHigh);
  bench.interface().Send(bench.neighbour(kPlusX), kTc, second);
  bench.interface().Send(bench.neighbour(kPlusX), kTcHigh, third);
  sc_core::wait(sc_time(2, SC_US));
  verdict.Expect(east.received().size() == slots_before,
                 std::to_string(east.received().size() - slots_before) +
                     " slots left while INJECT_FREEZE was 1",
                 {"NET-8.8"});
  // A switch while the packets wait: they are admitted in the new epoch.
  WriteRegister(context, regs::kTableSwitchOffset,
                regs::kTableSwitchApply.Mask());
  const uint32_t epoch = ReadRegister(context, regs::kEpochOffset);
  WriteRegister(context, regs::kInjectFreezeOffset,
                regs::kInjectFreezeFreeze.Place(0));
  if (!verdict.Expect(AwaitPackets(east, 3, sc_time(5, SC_US)),
                      std::to_string(east.packets().size() - 1) +
                          " of the 2 held packets left after INJECT_FREEZE "
                          "was cleared",
                      {"NET-8.8"})) {
    return;
  }
  verdict.Expect(
      east.bad_headers() == 0,
      std::to_string(east.bad_headers()) + " headers with a bad VER or HCRC",
      {"NET-2.3"});
  expect_header(1, kTc, second.size(), epoch,
                "a packet held by INJECT_FREEZE, admitted after a switch");
  expect_header(2, kTcHigh, third.size(), epoch,
                "a 4000-byte class-6 packet held by INJECT_FREEZE");
  verdict.Expect(
      east.packets().size() == 3 && east.packets()[2].bytes.size() ==
                                        net::kRouteHeaderBytes + third.size(),
      "the held 4000-byte packet did not arrive whole", {"NET-8.8"});
}

std::vector<ConformanceCase> NetRouterCases() {
  return {
      RouterCase("NET_2_4_ForwardsWithItsHeaderEdited",
                 ForwardsWithItsHeaderEdited),
      RouterCase("NET_2_10_ChecksEveryHeaderInOrder", ChecksEveryHeaderInOrder),
      RouterCase("NET_2_7_ReadsPacketsStraddlingSlots",
                 ReadsPacketsStraddlingSlots),
      RouterCase("NET_8_2_SendsNoSlotWithoutACredit",
                 SendsNoSlotWithoutACredit),
      RouterCase("NET_5_5_RoutesByItsProgrammedTable",
                 RoutesByItsProgrammedTable),
      RouterCase("NET_8_5_ArbitratesRoundRobin", ArbitratesRoundRobin),
      RouterCase("NET_2_5_CarriesWholePacketsOfEveryLength",
                 CarriesWholePacketsOfEveryLength),
      RouterCase("NET_7_1_DropsForADownLinkAndGrantsAtLinkUp",
                 DropsForADownLinkAndGrantsAtLinkUp),
      RouterCase("NET_4_3_AdaptsAmongProductivePorts",
                 AdaptsAmongProductivePorts,
                 RouterBenchOptions{{{"routing.name", "adaptive"},
                                     {"net.vc_classes", "3"},
                                     {"net.vc_sets", "1"}}}),
      RouterCase("NET_2_3_InjectsWithTheHeaderItBuilds",
                 InjectsWithTheHeaderItBuilds,
                 RouterBenchOptions{{}, /*interface_at_local_port=*/true}),
  };
}

}  // namespace lq::conformance
