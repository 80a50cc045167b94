// SPDX-License-Identifier: Apache-2.0
// Router conformance cases, trn.md sections 8, 9.1-9.3 and TRN-11.2: PFC
// and ECN marking seen at the ports of the router under test, whose
// neighbours are RouterPeers (decision 0023). Port 0 is the output every
// case loads, port 1 (and 2) the inputs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/network/route_header.h"
#include "models/phy/link_profile.h"
#include "models/roce/addressing.h"
#include "models/roce/frame_edits.h"
#include "models/roce/packet.h"
#include "models/roce/packet_factory.h"
#include "models/roce/pfc.h"
#include "systemc/app/run_command.h"
#include "systemc/app/scenario_lossless.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/router_case_helpers.h"
#include "systemc/conformance/trn_frame_checks.h"

namespace lq::conformance {

namespace {

using roce::Ecn;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr unsigned kOut = 0;  // the output every case loads
constexpr unsigned kIn = 1, kIn2 = 2;
constexpr uint8_t kTc = 3;      // TRN-8.1's data priority (DSCP 26)...
constexpr uint8_t kTcHigh = 6;  // ...and the CNPs' (DSCP 48)
// How late a PFC message or a resumed output may be: a few router cycles
// (each one flit time, 2.1 ns on pcie6), well under one 4 KiB packet.
const sc_time kSlack(10, SC_NS);
// TRN-8.5's defaults: the bench sets no pfc.* key.
constexpr uint64_t kXoffBytes = 65'536;
constexpr uint64_t kXonBytes = 49'152;
constexpr uint16_t kPauseQuanta = 0xFFFF;
const sc_time kRefresh(20, SC_US);

// A PFC message as a peer received it.
struct PfcSeen {
  sc_time at;
  Bytes bytes;
  std::optional<roce::PfcFrame> frame;

  bool Xoff(uint8_t priority) const {
    return frame && frame->class_enable == (1u << priority) &&
           frame->pause_quanta[priority] != 0;
  }
  bool Xon(uint8_t priority) const {
    return frame && frame->class_enable == (1u << priority) &&
           frame->pause_quanta[priority] == 0;
  }
};

std::vector<PfcSeen> PfcFramesAt(const RouterPeer& peer) {
  std::vector<PfcSeen> seen;
  for (const RouterPeer::ControlMessage& control : peer.controls()) {
    auto frame = roce::ParsePfcFrame(control.message);
    seen.push_back(
        {control.at, control.message,
         frame ? std::optional<roce::PfcFrame>(*frame) : std::nullopt});
  }
  return seen;
}

// The 802.1Qbb frame, byte by byte from TRN-8.2's table: XOFF (or XON
// with `quanta` 0) for `priority` alone, from node `node`'s router.
Bytes PfcBytes(uint8_t priority, uint16_t quanta) {
  roce::PfcFrame frame;
  frame.src = roce::NodeMac(1);
  frame.class_enable = static_cast<uint8_t>(1u << priority);
  frame.pause_quanta[priority] = quanta;
  return roce::EncodePfcFrame(frame);
}

// One pause quantum at the DUT's links' raw rate (TRN-8.6), from the
// pcie6 profile's rate at full width (phy.md).
sc_time Quanta(uint16_t quanta) {
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  const double rate_bps =
      static_cast<double>(phy::RawRateMbps(profile, profile.max_lanes)) * 1e6;
  return sc_time(quanta * 512.0 / rate_bps * 1e9, SC_NS);
}

// TRN-8.2: a PFC message the DUT sent, checked byte by byte.
void CheckPfcBytes(Verdict& verdict, const Bytes& bytes, uint8_t priority,
                   uint16_t quanta) {
  const char* kClause = "TRN-8.2";
  if (!verdict.Expect(
          bytes.size() == 60,
          "PFC message of " + std::to_string(bytes.size()) + " bytes, not 60",
          {kClause})) {
    return;
  }
  const Bytes multicast{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
  verdict.Expect(std::equal(multicast.begin(), multicast.end(), bytes.begin()),
                 "destination MAC is not 01-80-C2-00-00-01", {kClause});
  // TRN-1.2: 02:00:00 and the 24-bit node ID; the DUT is node 0.
  const Bytes source{0x02, 0x00, 0x00, 0x00, 0x00, 0x00};
  verdict.Expect(std::equal(source.begin(), source.end(), bytes.begin() + 6),
                 "source MAC is not node 0's router's", {kClause});
  verdict.Expect(Be16(bytes, 12) == 0x8808,
                 "EtherType " + std::to_string(Be16(bytes, 12)), {kClause});
  verdict.Expect(Be16(bytes, 14) == 0x0101,
                 "opcode " + std::to_string(Be16(bytes, 14)), {kClause});
  verdict.Expect(bytes[16] == 0 && bytes[17] == (1u << priority),
                 "class-enable vector " + std::to_string(Be16(bytes, 16)),
                 {kClause});
  for (uint8_t p = 0; p < 8; ++p) {
    const uint16_t expected = p == priority ? quanta : 0;
    verdict.Expect(Be16(bytes, 18 + 2 * p) == expected,
                   "time[" + std::to_string(p) +
                       "] = " + std::to_string(Be16(bytes, 18 + 2 * p)),
                   {kClause});
  }
  verdict.Expect(std::all_of(bytes.begin() + 34, bytes.end(),
                             [](uint8_t b) { return b == 0; }),
                 "pad bytes not 0", {kClause});
}

// TRN-8.5, 8.2, 8.3, 8.1, 8.10: a held output fills its input past XOFF;
// the neighbour ignores the pause and sends until credits stop it; then
// the output drains slowly, below XON.
void PausesAboveXoffAndReleasesBelowXon(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const std::vector<Bytes> sent = Packets(bench, kIn, kOut, kTc, 24, 4096);
  SendPackets(bench, kIn, sent, kTc);
  sc_core::wait(sc_time(50, SC_US));  // two refreshes
  RouterPeer& in = bench.peer(kIn);
  RouterPeer& out = bench.peer(kOut);
  const sc_time drain_from = sc_core::sc_time_stamp();
  // A quarter of the link's rate, so that the count falls in steps of a
  // slot every four router cycles.
  OpenOutput(bench, kOut, sc_time(4 * bench.config().router.clock_ns, SC_NS));
  AwaitPackets(out, sent.size(), sc_time(100, SC_US));
  sc_core::wait(sc_time(1, SC_US));

  ExpectForwarded(verdict, out, sent, {"TRN-8.1"});
  verdict.Expect(bench.dut().counters().Dropped() == 0,
                 "the router dropped " +
                     std::to_string(bench.dut().counters().Dropped()) +
                     " packets",
                 {"TRN-8.1"});

  const std::vector<PfcSeen> frames = PfcFramesAt(in);
  const std::optional<sc_time> above = WhenAbove(in.sent(), kXoffBytes);
  if (!verdict.Expect(above.has_value(), "the input never held XOFF bytes")) {
    return;
  }
  // XOFF: when the held count rose above pfc.xoff_bytes, then every
  // refresh interval while above XON (nothing left before the drain).
  std::vector<sc_time> xoffs;
  std::optional<sc_time> xon;
  for (const PfcSeen& seen : frames) {
    if (seen.Xoff(kTc) && seen.frame->pause_quanta[kTc] == kPauseQuanta) {
      xoffs.push_back(seen.at);
      CheckPfcBytes(verdict, seen.bytes, kTc, kPauseQuanta);
    } else if (seen.Xon(kTc) && !xon) {
      xon = seen.at;
      CheckPfcBytes(verdict, seen.bytes, kTc, 0);
    } else {
      verdict.Expect(false, "unexpected PFC message at " + Ns(seen.at),
                     {"TRN-8.5"});
    }
  }
  if (!verdict.Expect(!xoffs.empty(), "no XOFF arrived", {"TRN-8.5"})) {
    return;
  }
  verdict.Expect(xoffs[0] >= *above && xoffs[0] <= *above + kSlack,
                 "XOFF at " + Ns(xoffs[0]) + ", the count passed " +
                     std::to_string(kXoffBytes) + " B at " + Ns(*above),
                 {"TRN-8.5"});
  for (size_t i = 1; i < xoffs.size(); ++i) {
    const sc_time gap = xoffs[i] - xoffs[i - 1];
    verdict.Expect(gap >= kRefresh - kSlack && gap <= kRefresh + kSlack,
                   "XOFF refreshed after " + Ns(gap), {"TRN-8.5"});
  }
  // Two refreshes fall in the 50 us before the drain, none after XON.
  verdict.Expect(xoffs.size() >= 3,
                 std::to_string(xoffs.size()) + " XOFFs in 50 us above XON",
                 {"TRN-8.5"});
  // XON: once, when the count (in less out) fell to XON or below.
  std::optional<sc_time> at_or_below;
  for (const RouterPeer::SlotRecord& record : out.received()) {
    if (record.at >= drain_from &&
        BytesBy(in.sent(), record.at) - BytesBy(out.received(), record.at) <=
            kXonBytes) {
      at_or_below = record.at;
      break;
    }
  }
  if (verdict.Expect(xon.has_value() && at_or_below.has_value(),
                     "no XON arrived", {"TRN-8.5"})) {
    verdict.Expect(
        *xon + kSlack >= *at_or_below && *xon <= *at_or_below + kSlack,
        "XON at " + Ns(*xon) + ", the count fell to " +
            std::to_string(kXonBytes) + " B at " + Ns(*at_or_below),
        {"TRN-8.5"});
  }
  // TRN-8.3: control messages on the link, to the one neighbour, never as
  // packets.
  verdict.Expect(in.received().empty(), "the input's neighbour received slots",
                 {"TRN-8.3"});
  for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
    verdict.Expect(p == kIn || bench.peer(p).controls().empty(),
                   "port " + std::to_string(p) + " received a PFC message",
                   {"TRN-8.3"});
  }
  // TRN-8.10: every message sent is counted, XOFF and XON.
  const transport::FlowControlCounters& counted = bench.flow().counters();
  verdict.Expect(counted.pfc_frames == frames.size() &&
                     counted.xoff_frames == xoffs.size() &&
                     counted.xon_frames == (xon ? 1u : 0u),
                 "counted " + std::to_string(counted.pfc_frames) +
                     " PFC messages (" + std::to_string(counted.xoff_frames) +
                     " XOFF), " + std::to_string(frames.size()) + " arrived",
                 {"TRN-8.10"});
  verdict.Note(std::to_string(xoffs.size()) + " XOFF from " + Ns(xoffs[0]) +
               ", XON at " + (xon ? Ns(*xon) : "-"));
}

// TRN-8.4: counts are per ingress port and per priority. Two inputs and
// two priorities each hold 40 KB: no XOFF; 30 KB more on one pair: XOFF
// for that priority on that port only.
void CountsEachPortAndPriorityApart(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  SendPackets(bench, kIn, Packets(bench, kIn, kOut, kTc, 10, 4000), kTc);
  SendPackets(bench, kIn, Packets(bench, kIn, kOut, kTcHigh, 10, 4000),
              kTcHigh);
  SendPackets(bench, kIn2, Packets(bench, kIn2, kOut, kTc, 10, 4000), kTc);
  sc_core::wait(sc_time(5, SC_US));
  for (unsigned p = 0; p < bench.dut().port_count(); ++p) {
    verdict.Expect(bench.peer(p).controls().empty(),
                   "a PFC message to port " + std::to_string(p) +
                       " with 40 KB per port and priority",
                   {"TRN-8.4"});
  }
  SendPackets(bench, kIn, Packets(bench, kIn, kOut, kTc, 8, 4000, 10), kTc);
  sc_core::wait(sc_time(5, SC_US));
  const std::vector<PfcSeen> frames = PfcFramesAt(bench.peer(kIn));
  verdict.Expect(frames.size() == 1 && frames[0].Xoff(kTc),
                 std::to_string(frames.size()) +
                     " PFC messages to port 1, not one XOFF for priority 3",
                 {"TRN-8.4"});
  verdict.Expect(bench.peer(kIn2).controls().empty(), "a PFC message to port 2",
                 {"TRN-8.4"});
}

// TRN-8.11: counts and pauses are per VC class too. 40 KB in each VC
// class of one input and priority: no XOFF; 30 KB more in class 1: one
// XOFF naming class 1. A neighbour's XOFF for class 1 pauses that class of
// the output alone; one for a class the router does not have is rejected.
void CountsAndPausesEachVcClassApart(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  for (unsigned vc_class : {0u, 1u}) {
    SendPackets(bench, kIn,
                Packets(bench, kIn, kOut, kTc, 10, 4000, 20 * vc_class,
                        Ecn::kNotEct, vc_class),
                kTc, vc_class);
  }
  sc_core::wait(sc_time(5, SC_US));
  verdict.Expect(bench.peer(kIn).controls().empty(),
                 "a PFC message with 40 KB in each VC class", {"TRN-8.11"});
  SendPackets(bench, kIn,
              Packets(bench, kIn, kOut, kTc, 8, 4000, 10, Ecn::kNotEct, 1), kTc,
              1);
  sc_core::wait(sc_time(5, SC_US));
  const std::vector<PfcSeen> frames = PfcFramesAt(bench.peer(kIn));
  verdict.Expect(frames.size() == 1 && frames[0].Xoff(kTc) &&
                     frames[0].frame->vc_class == 1 && frames[0].bytes[16] == 1,
                 std::to_string(frames.size()) +
                     " PFC messages to port 1, not one XOFF for priority 3 "
                     "naming VC class 1 in byte 16",
                 {"TRN-8.11", "TRN-8.2"});

  roce::PfcFrame xoff;
  xoff.src = roce::NodeMac(1);
  xoff.vc_class = 1;
  xoff.class_enable = 1u << kTc;
  xoff.pause_quanta[kTc] = kPauseQuanta;
  bench.peer(kOut).SendControl(roce::EncodePfcFrame(xoff));
  sc_core::wait(sc_time(100, SC_NS));
  verdict.Expect(
      bench.dut().paused(kOut, kTc, 1) && !bench.dut().paused(kOut, kTc, 0),
      "an XOFF for VC class 1 pauses class 1 of the output alone",
      {"TRN-8.11", "NET-8.7"});
  const uint64_t bad_before = bench.flow().counters().bad_frames;
  xoff.vc_class = static_cast<uint8_t>(bench.dut().vc_classes());
  xoff.pause_quanta[kTc] = 0;  // an XON for a class there is not
  bench.peer(kOut).SendControl(roce::EncodePfcFrame(xoff));
  sc_core::wait(sc_time(100, SC_NS));
  verdict.Expect(bench.flow().counters().bad_frames == bad_before + 1 &&
                     bench.dut().paused(kOut, kTc, 1),
                 "a PFC message for VC class " +
                     std::to_string(bench.dut().vc_classes()) +
                     " taken in by a router of " +
                     std::to_string(bench.dut().vc_classes()) + " classes",
                 {"TRN-8.11"});
}

// TRN-8.7, 8.6, 8.10: an output paused by its neighbour's XOFF for `q`
// quanta, ended by XON, restarted by a second XOFF; a packet already under
// way finishes.
void StopsAnOutputForThePauseTime(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RouterPeer& out = bench.peer(kOut);
  OpenOutput(bench, kOut, sc_core::SC_ZERO_TIME);
  uint32_t psn = 0;
  sc_time paused;  // what TRN-8.10 should have counted
  // The first slot of packet `index` at the output, if it has arrived.
  auto arrival = [&](size_t index) -> std::optional<sc_time> {
    if (out.packets().size() <= index) {
      return std::nullopt;
    }
    return out.packets()[index].first_slot;
  };
  auto send = [&](uint8_t tc, size_t payload) {
    SendPackets(bench, kIn, Packets(bench, kIn, kOut, tc, 1, payload, psn++),
                tc);
  };

  // 1. XOFF for 2,000 quanta: priority 3 waits that long, 6 does not.
  const uint16_t q = 2000;
  sc_time t0 = sc_core::sc_time_stamp();
  out.SendControl(PfcBytes(kTc, q));
  send(kTc, 1000);
  send(kTcHigh, 1000);
  AwaitPackets(out, 2, sc_time(5, SC_US));
  std::optional<sc_time> low, high;
  for (const RouterPeer::Packet& packet : out.packets()) {
    const uint8_t tc = net::DecodeRouteHeader(packet.bytes.data()).tc;
    (tc == kTcHigh ? high : low) = packet.first_slot;
  }
  verdict.Expect(high && *high < t0 + sc_time(200, SC_NS),
                 "priority 6 held by a pause of priority 3",
                 {"TRN-8.7", "NET-8.7"});
  verdict.Expect(
      low && *low >= t0 + Quanta(q) && *low <= t0 + Quanta(q) + kSlack,
      "paused for 2,000 quanta at " + Ns(t0) + ": the packet left at " +
          (low ? Ns(*low) : "never") + ", expected " + Ns(t0 + Quanta(q)),
      {"TRN-8.6", "TRN-8.7", "NET-8.7"});
  paused += Quanta(q);

  // 2. XOFF for 0xFFFF quanta, then XON after 300 ns.
  sc_core::wait(sc_time(100, SC_NS));
  t0 = sc_core::sc_time_stamp();
  out.SendControl(PfcBytes(kTc, 0xFFFF));
  send(kTc, 1000);
  sc_core::wait(sc_time(300, SC_NS));
  out.SendControl(PfcBytes(kTc, 0));
  AwaitPackets(out, 3, sc_time(5, SC_US));
  const sc_time xon = t0 + sc_time(300, SC_NS);
  verdict.Expect(
      arrival(2) && *arrival(2) >= xon && *arrival(2) <= xon + kSlack,
      "XON at " + Ns(xon) + ": the packet left at " +
          (arrival(2) ? Ns(*arrival(2)) : "never"),
      {"TRN-8.7", "NET-8.7"});
  paused += sc_time(300, SC_NS);

  // 3. A second XOFF 600 ns into a 1,000 ns pause restarts it.
  sc_core::wait(sc_time(100, SC_NS));
  t0 = sc_core::sc_time_stamp();
  out.SendControl(PfcBytes(kTc, q));
  send(kTc, 1000);
  sc_core::wait(sc_time(600, SC_NS));
  out.SendControl(PfcBytes(kTc, q));
  AwaitPackets(out, 4, sc_time(5, SC_US));
  const sc_time restarted = t0 + sc_time(600, SC_NS) + Quanta(q);
  verdict.Expect(arrival(3) && *arrival(3) >= restarted &&
                     *arrival(3) <= restarted + kSlack,
                 "a new XOFF at " + Ns(t0 + sc_time(600, SC_NS)) +
                     ": the packet left at " +
                     (arrival(3) ? Ns(*arrival(3)) : "never") + ", expected " +
                     Ns(restarted),
                 {"TRN-8.7", "NET-8.7"});
  paused += sc_time(600, SC_NS) + Quanta(q);

  // 4. XOFF as a 4 KiB packet's first slot arrives: it finishes, the
  // next waits for XON.
  sc_core::wait(sc_time(100, SC_NS));
  send(kTc, 4096);
  send(kTc, 1000);
  AwaitCondition(
      out,
      [&] {
        return out.received().size() > 0 && arrival(3) &&
               out.received().back().at > *arrival(3) + kSlack;
      },
      sc_time(5, SC_US));
  const sc_time xoff_at = sc_core::sc_time_stamp();
  out.SendControl(PfcBytes(kTc, 0xFFFF));
  sc_core::wait(sc_time(2, SC_US));
  verdict.Expect(out.packets().size() == 5,
                 std::to_string(out.packets().size() - 4) +
                     " packets left after an XOFF that came while the first "
                     "was under way, not 1",
                 {"TRN-8.7", "NET-8.7"});
  out.SendControl(PfcBytes(kTc, 0));
  paused += sc_core::sc_time_stamp() - xoff_at;
  AwaitPackets(out, 6, sc_time(5, SC_US));
  verdict.Expect(out.packets().size() == 6, "the packet after XON never left",
                 {"TRN-8.7", "NET-8.7"});

  // TRN-8.10: the time the output spent paused.
  const double counted_ns = bench.flow().paused_ps(kOut, kTc) / 1e3;
  const double expected_ns = paused.to_seconds() * 1e9;
  verdict.Expect(std::abs(counted_ns - expected_ns) <= 4,
                 "counted " + std::to_string(counted_ns) +
                     " ns paused, the pauses lasted " +
                     std::to_string(expected_ns) + " ns",
                 {"TRN-8.10"});
}

// TRN-9.3's marking profile a case expects, and the clause its checks
// are about besides TRN-9.3.
struct Marking {
  uint64_t kmin_bytes = 0;
  uint64_t kmax_bytes = 0;
  double pmax = 0;  // 0: never marks
  const char* clause = "";
};

// TRN-9.2's p(q), from the clause's text.
double ExpectedProbability(const Marking& m, uint64_t q) {
  if (m.pmax == 0 || q <= m.kmin_bytes) {
    return 0;
  }
  if (q > m.kmax_bytes) {
    return 1;
  }
  return m.pmax * static_cast<double>(q - m.kmin_bytes) /
         static_cast<double>(m.kmax_bytes - m.kmin_bytes);
}

// TRN-9.1, 9.2 and the profile `expected`: port 0 held, port 1's
// neighbour sends 290-byte packets cycling ECT(0), ECT(1), Not-ECT and CE
// until credits stop it, then port 0 drains. A packet joins a queue of
// the bytes of every packet sent before it (none has left).
void MarksByQueue(RouterCaseContext& context, const Marking& expected) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  constexpr Ecn kCycle[] = {Ecn::kEct0, Ecn::kEct1, Ecn::kNotEct, Ecn::kCe};
  std::vector<Bytes> sent;
  for (uint32_t i = 0; i < 400; ++i) {
    sent.push_back(
        bench.Packet(kIn, kOut, kTc, WriteFrame(i, 200, kCycle[i % 4], kTc)));
  }
  SendPackets(bench, kIn, sent, kTc);
  RouterPeer& in = bench.peer(kIn);
  sc_core::wait(sc_time(5, SC_US));  // filled by then
  // Only what went in before credits ran out is in the queue.
  const uint64_t entered = BytesBy(in.sent(), sc_core::sc_time_stamp());
  OpenOutput(bench, kOut, sc_core::SC_ZERO_TIME);
  AwaitPackets(bench.peer(kOut), sent.size(), sc_time(50, SC_US));
  ExpectForwarded(verdict, bench.peer(kOut), sent, {"TRN-9.2"});
  if (bench.peer(kOut).packets().size() != sent.size()) {
    return;
  }
  uint64_t q = 0;
  unsigned below = 0, between = 0, above = 0, marked_between = 0;
  double mean = 0, variance = 0;
  for (size_t i = 0; i < sent.size(); ++i) {
    const Ecn before = kCycle[i % 4];
    const auto after = roce::ReadEcn(FrameOf(bench.peer(kOut).packets()[i]));
    const bool ce = after && *after == Ecn::kCe;
    const std::string at =
        "packet " + std::to_string(i) + " (q = " + std::to_string(q) + " B)";
    if (before == Ecn::kNotEct || before == Ecn::kCe) {
      verdict.Expect(after && *after == before,
                     at + ": a Not-ECT or CE packet changed", {"TRN-9.1"});
    } else if (q >= entered) {
      // Queued behind the full buffer: joined a draining queue.
    } else {
      const double p = ExpectedProbability(expected, q);
      verdict.Expect(ce || (after && *after == before),
                     at + ": ECN changed to neither CE nor what it was",
                     {expected.clause, "TRN-9.3", "NET-8.6"});
      if (p == 0) {
        ++below;
        verdict.Expect(!ce, at + ": marked",
                       {expected.clause, "TRN-9.3", "NET-8.6"});
      } else if (p == 1) {
        ++above;
        verdict.Expect(ce, at + ": not marked",
                       {expected.clause, "TRN-9.3", "NET-8.6"});
      } else {
        ++between;
        marked_between += ce ? 1 : 0;
        mean += p;
        variance += p * (1 - p);
      }
    }
    q += sent[i].size();
  }
  // Enough packets on each side of the profile's knees to judge it.
  verdict.Expect(below >= 10 && (expected.pmax == 0 || above >= 10),
                 std::to_string(below) + " ECT packets at or below Kmin, " +
                     std::to_string(above) + " above Kmax");
  const double bound = 4 * std::sqrt(variance) + 1;
  verdict.Expect(std::abs(marked_between - mean) <= bound,
                 std::to_string(marked_between) + " of " +
                     std::to_string(between) +
                     " ECT packets between Kmin and Kmax marked, expected " +
                     std::to_string(mean) + " +- " + std::to_string(bound),
                 {expected.clause, "TRN-9.3", "NET-8.6"});
  verdict.Note(std::to_string(below) + " ECT packets below Kmin, " +
               std::to_string(marked_between) + " of " +
               std::to_string(between) + " between marked, " +
               std::to_string(above) + " above; " + std::to_string(entered) +
               " B queued");
}

// TRN-8.8, 8.9: the room the DUT grants an input covers XOFF and the
// headroom of its links; a neighbour that stops within T_react of XOFF
// never waits for a credit.
void GrantsXoffPlusHeadroom(RouterCaseContext& context) {
  RouterBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ParamSet params(app::ScenarioParamSpecs());
  const phy::LinkProfile profile = phy::FindLinkProfile("pcie6").value();
  const unsigned lanes = profile.max_lanes;
  // TRN-8.8's formula, term by term, for pmtu 4096 (S_max 4,190 B).
  const double goodput_bytes_per_ns =
      phy::PayloadGoodputGbps(profile, lanes) / 8;
  const double round_trip_ns =
      (2.0 * phy::FlitTimePs(profile, lanes) +
       2.0 * (profile.tx_pipeline_ps +
              phy::CableDelayPs(params.Real("link.cable_m")) +
              profile.rx_pipeline_ps) +
       20'000) /
      1e3;
  const double headroom = 4190 + goodput_bytes_per_ns * round_trip_ns;
  const auto slots = static_cast<unsigned>(
      std::ceil((kXoffBytes + std::ceil(headroom)) / profile.payload_bytes));
  for (unsigned vc = 0; vc < bench.dut().vcs(); ++vc) {
    const uint64_t granted = bench.peer(kIn).credits_granted(vc);
    verdict.Expect(granted == slots,
                   "VC " + std::to_string(vc) + ": " + std::to_string(granted) +
                       " slots of room, XOFF + H needs " +
                       std::to_string(slots),
                   {"TRN-8.9", "NET-8.1"});
  }
  // A neighbour that honours XOFF within T_react (20 ns).
  RouterPeer& in = bench.peer(kIn);
  SendPackets(bench, kIn, Packets(bench, kIn, kOut, kTc, 24, 4096), kTc);
  bool starved = false;
  AwaitCondition(
      in,
      [&] {
        starved = starved ||
                  (in.queued_slots() > 0 && in.credits(bench.VcOf(kTc)) == 0);
        return !in.controls().empty();
      },
      sc_time(10, SC_US));
  sc_core::wait(sc_time(20, SC_NS));
  in.Hold(true);
  verdict.Expect(
      !in.controls().empty() && !starved && in.credits(bench.VcOf(kTc)) > 0,
      "the neighbour ran out of credit before it had to stop", {"TRN-8.8"});
  char text[96];
  std::snprintf(text, sizeof text,
                "H = %.0f B; %u slots per VC; %u left at the stop", headroom,
                slots, in.credits(bench.VcOf(kTc)));
  verdict.Note(text);
}

// TRN-8.9: the cluster builder refuses a scenario whose links need more
// headroom than pfc.headroom_max_bytes.
void RefusesTooMuchHeadroom(RouterCaseContext& context) {
  ParamSet params(app::ScenarioParamSpecs());
  if (auto problem = params.Set("pfc.headroom_max_bytes", "4096")) {
    context.verdict.Fail(*problem);
    return;
  }
  const auto refused = app::ScenarioLossless(
      params, phy::FindLinkProfile("pcie6").value(), 4096, "dcqcn");
  context.verdict.Expect(
      !refused && refused.error().reason.find("TRN-8.9") != std::string::npos,
      "a scenario needing more headroom than pfc.headroom_max_bytes was "
      "accepted");
}

}  // namespace

std::vector<ConformanceCase> TrnRouterCases() {
  return {
      RouterCase("TRN_8_5_PausesAboveXoffAndReleasesBelowXon",
                 PausesAboveXoffAndReleasesBelowXon),
      RouterCase("TRN_8_4_CountsEachPortAndPriorityApart",
                 CountsEachPortAndPriorityApart),
      RouterCase("TRN_8_7_StopsAnOutputForThePauseTime",
                 StopsAnOutputForThePauseTime),
      RouterCase("TRN_8_11_CountsAndPausesEachVcClassApart",
                 CountsAndPausesEachVcClassApart),
      RouterCase("TRN_8_8_GrantsXoffPlusHeadroom", GrantsXoffPlusHeadroom),
      RouterCase("TRN_8_9_RefusesTooMuchHeadroom", RefusesTooMuchHeadroom),
      // TRN-9.3's profiles: transport.cc picks one (ecn.profile auto).
      RouterCase("TRN_9_2_MarksByTheQueueItJoins",
                 [](RouterCaseContext& context) {
                   MarksByQueue(context, {8192, 65536, 0.2, "TRN-9.2"});
                 },
                 {{{"transport.cc", "dcqcn"}}}),
      RouterCase("TRN_11_2_MarksLqccTrafficAboveAStep",
                 [](RouterCaseContext& context) {
                   MarksByQueue(context, {32768, 32768, 1, "TRN-11.2"});
                 },
                 {{{"transport.cc", "lqcc"}}}),
      RouterCase("TRN_9_3_MarksNothingWithoutCongestionControl",
                 [](RouterCaseContext& context) {
                   MarksByQueue(context, {0, 0, 0, "TRN-9.3"});
                 },
                 {{{"transport.cc", "none"}}}),
  };
}

}  // namespace lq::conformance
