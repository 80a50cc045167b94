// SPDX-License-Identifier: Apache-2.0
// Transport conformance cases, trn.md sections 9-11: the reaction points
// of DCQCN and LQCC and LQCC's feedback, seen at the DUT's port.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "models/roce/packet_factory.h"
#include "models/roce/psn.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/trn_case_helpers.h"

namespace lq::conformance {

namespace {

using roce::Opcode;
using sc_core::sc_time;
using sc_core::SC_US;
using EditResult = FrameWire::EditResult;

constexpr double kLineRateBps = 944e9;  // TRN-10.1's R, the engine's default

// The rate, in bits per second, at which the DUT's request packets started
// in [from, to): the bytes of every packet but the last over the time
// from the first to the last (TRN-10.1's gaps, summed). Nothing if fewer
// than 20 packets crossed.
std::optional<double> RequestRate(const FrameWire& wire, const sc_time& from,
                                  const sc_time& to) {
  std::vector<const PortFrame*> frames;
  for (const PortFrame* frame : FramesWhere(wire, RequestFromDut())) {
    if (frame->at >= from && frame->at < to) {
      frames.push_back(frame);
    }
  }
  if (frames.size() < 20) {
    return std::nullopt;
  }
  double bits = 0;
  for (size_t i = 0; i + 1 < frames.size(); ++i) {
    bits += 8.0 * frames[i]->bytes.size();
  }
  return bits / (frames.back()->at - frames.front()->at).to_seconds();
}

// RequestRate over [start + from, start + to), in microseconds.
std::optional<double> RequestRateBetween(const FrameWire& wire,
                                         const sc_time& start, double from,
                                         double to) {
  return RequestRate(wire, start + sc_time(from, SC_US),
                     start + sc_time(to, SC_US));
}

// Waits until `us` microseconds after `start`.
void WaitUntil(const sc_time& start, double us) {
  sc_core::wait(start + sc_time(us, SC_US) - sc_core::sc_time_stamp());
}

std::string Gbps(std::optional<double> rate) {
  if (!rate) {
    return "too few packets";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f Gb/s", *rate / 1e9);
  return text;
}

// Expects `rate` at most 3 % above `expected` and at most 12 % below it:
// "may start 8 s/RC after" allows a slower sender, and the bench's memory
// (10 ns a DMA) caps an engine that reads each packet's payload on its own
// at 866 Gb/s, 92 % of R.
void ExpectRate(Verdict& verdict, std::optional<double> rate, double expected,
                const std::string& when,
                std::initializer_list<const char*> clauses) {
  verdict.Expect(rate && *rate > 0.88 * expected && *rate < 1.03 * expected,
                 "requests " + when + " left at " + Gbps(rate) + "; expected " +
                     Gbps(expected),
                 clauses);
}

// The traffic class a CNP travels on (TRN-1.5: DSCP 48, priority 6).
constexpr uint8_t kCnpTc = roce::PriorityOfDscp(roce::kDscpCnp);

// A CNP from the partner's QP `from_qpn` to the DUT's QP `to_qpn`.
Bytes Cnp(uint32_t from_qpn, uint32_t to_qpn) {
  roce::Path path;
  path.local_node = TransportBench::kPeerNode;
  path.remote_node = TransportBench::kDutNode;
  path.local_qpn = from_qpn;
  path.remote_qpn = to_qpn;
  path.dscp = roce::kDscpCnp;
  return roce::BuildPacket(roce::MakeCnp(path)).value();
}

// The DUT streams WRITEs on a dcqcn QP; CNPs reach it at 5 and 10 us (and
// one for a QP it does not have at 2 us).
void CutsItsRateOnACnp(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context, Controlled("dcqcn"));
  if (!c) {
    return;
  }
  const sc_time start = sc_core::sc_time_stamp();
  for (uint64_t i = 0; i < 4; ++i) {
    if (!PostOrFail(
            context, bench.dut(), c->dut_qpn,
            WriteWr(i, TransportBench::kMemoryBytes, 0, bench.peer_rkey()),
            0)) {
      return;
    }
  }
  const auto at = [&](double us) { WaitUntil(start, us); };
  at(2);
  bench.wire().InjectToDut(Cnp(c->peer_qpn, 0xABCD), kCnpTc);
  at(5);
  bench.wire().InjectToDut(Cnp(c->peer_qpn, c->dut_qpn), kCnpTc);
  at(10);
  bench.wire().InjectToDut(Cnp(c->peer_qpn, c->dut_qpn), kCnpTc);
  at(77);
  const auto span = [&](double from, double to) {
    return RequestRateBetween(bench.wire(), start, from, to);
  };
  ExpectRate(verdict, span(0.5, 4.9), kLineRateBps,
             "before any CNP, and after one for another QP",
             {"TRN-10.1", "TRN-10.5"});
  ExpectRate(verdict, span(0.5, 4.9), kLineRateBps,
             "after a CNP for a QP the DUT does not have", {"TRN-9.6"});
  // alpha starts at 1 and stays 1 after a CNP: each halves RC.
  ExpectRate(verdict, span(5.5, 9.9), kLineRateBps / 2, "after one CNP",
             {"TRN-10.2", "TRN-10.5"});
  ExpectRate(verdict, span(10.5, 64), kLineRateBps / 4, "after two CNPs",
             {"TRN-10.2", "TRN-10.5"});
  // T_inc = 55 us after the last CNP: fast recovery, RC = (RT + RC) / 2
  // with RT = R/2 (RC before the second cut).
  ExpectRate(verdict, span(66, 76), kLineRateBps * 3 / 8,
             "55 us after the second CNP", {"TRN-10.4", "TRN-10.5"});
  const auto others = FramesWhere(bench.wire(), [](const PortFrame& f) {
    return f.from_dut() && !f.is_request();
  });
  verdict.Expect(others.empty(),
                 "the DUT answered something: " +
                     (others.empty() ? std::string() : Evidence(*others[0])),
                 {"TRN-9.6"});
  verdict.Note(
      "before: " + Gbps(span(0.5, 4.9)) + ", one CNP: " + Gbps(span(5.5, 9.9)) +
      ", two: " + Gbps(span(10.5, 64)) + ", recovered: " + Gbps(span(66, 76)));
}

// TRN-10.3: a CNP at 2 us halves RC with alpha = 1, which it leaves at 1.
// 60 alpha periods (K = 55 us, g = 1/256) later without a CNP, alpha is
// (255/256)^60 = 0.791 and RC has recovered to R (60 increase events); a
// CNP then cuts RC to R(1 - alpha/2) = 0.605 R, where an alpha that never
// decayed would give R/2.
void DecaysAlphaWithoutCnps(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context, Controlled("dcqcn"));
  if (!c) {
    return;
  }
  const sc_time start = sc_core::sc_time_stamp();
  const auto at = [&](double us) { WaitUntil(start, us); };
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(0, 65536, 0, bench.peer_rkey()), 0)) {
    return;
  }
  at(2);
  bench.wire().InjectToDut(Cnp(c->peer_qpn, c->dut_qpn), kCnpTc);
  constexpr double kPeriodUs = 55, kG = 1.0 / 256;
  constexpr int kPeriods = 60;
  const double alpha = std::pow(1 - kG, kPeriods);
  const double quiet_until = 2 + kPeriods * kPeriodUs + 5;
  at(quiet_until);
  for (uint64_t i = 1; i <= 2; ++i) {
    if (!PostOrFail(
            context, bench.dut(), c->dut_qpn,
            WriteWr(i, TransportBench::kMemoryBytes, 0, bench.peer_rkey()),
            0)) {
      return;
    }
  }
  at(quiet_until + 5);
  bench.wire().InjectToDut(Cnp(c->peer_qpn, c->dut_qpn), kCnpTc);
  at(quiet_until + 12);
  const auto span = [&](double from, double to) {
    return RequestRateBetween(bench.wire(), start, from, to);
  };
  ExpectRate(verdict, span(quiet_until + 0.5, quiet_until + 4.9), kLineRateBps,
             "after 60 quiet alpha periods", {"TRN-10.3", "TRN-10.4"});
  ExpectRate(verdict, span(quiet_until + 5.5, quiet_until + 12),
             kLineRateBps * (1 - alpha / 2),
             "after a CNP 60 alpha periods after the last", {"TRN-10.3"});
  verdict.Note(
      "recovered: " + Gbps(span(quiet_until + 0.5, quiet_until + 4.9)) +
      ", after the CNP: " + Gbps(span(quiet_until + 5.5, quiet_until + 12)));
}

// CE marks on the partner's requests to an lqcc QP; then on the
// responses to the DUT's READs.
void ReturnsMarksAsBecn(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context, Controlled("lqcc"));
  if (!c) {
    return;
  }
  // Requests with PSN 1 and 3, and every READ response, arrive marked.
  bench.wire().SetEdit(
      FrameDirection::kToDut, MarkCe([](const PortFrame& frame) {
        return (frame.is_request() && frame.packet->bth.psn % 2 == 1) ||
               frame.opcode() == Opcode::kReadResponseOnly;
      }));
  for (uint64_t i = 0; i < 4; ++i) {
    if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                    WriteWr(i, 64, 0x1000 + 64 * i, bench.dut_rkey()), 0)) {
      return;
    }
    sc_core::wait(sc_time(1, SC_US));
  }
  sc_core::wait(sc_time(1, SC_US));
  std::string acks;
  std::vector<uint32_t> psns, with_becn;
  for (const PortFrame* ack : FramesWhere(bench.wire(), AckFromDut())) {
    const uint32_t psn = ack->packet->bth.psn;
    psns.push_back(psn);
    if (ack->packet->bth.becn) {
      with_becn.push_back(psn);
    }
    acks += (acks.empty() ? "" : ", ") + std::to_string(psn) +
            (ack->packet->bth.becn ? " BECN" : "");
  }
  verdict.Expect(psns == std::vector<uint32_t>{0, 1, 2, 3} &&
                     with_becn == std::vector<uint32_t>{1, 3},
                 "the DUT's ACKs: " + acks + "; expected 0, 1 BECN, 2, 3 BECN",
                 {"TRN-11.3"});
  const auto cnp = [](const PortFrame& f) {
    return f.from_dut() && f.opcode() == Opcode::kCnp;
  };
  verdict.Expect(FramesWhere(bench.wire(), cnp).empty(),
                 "the DUT sent a CNP for marked requests", {"TRN-11.3"});
  // READs at 0, 1 and 6 us with marked responses: a CNP for the first,
  // none within T_r = 4 us of it, another for the third.
  const size_t mark = bench.wire().log().size();
  for (const double us : {0.0, 1.0, 5.0}) {
    sc_core::wait(sc_time(us, SC_US));
    if (!PostOrFail(
            context, bench.dut(), c->dut_qpn,
            ReadWr(10 + static_cast<uint64_t>(us), 64, 0, bench.peer_rkey()),
            0x8000)) {
      return;
    }
  }
  sc_core::wait(sc_time(2, SC_US));
  const auto cnps = FramesWhere(bench.wire(), cnp, mark);
  verdict.Expect(cnps.size() == 2,
                 std::to_string(cnps.size()) +
                     " CNPs for marked READ responses at 0, 1 and 6 us; "
                     "expected 2 (one per 4 us round)",
                 {"TRN-11.4"});
}

// The DUT's 512 KiB WRITE on an lqcc QP while every ACK is lost until its
// ACK timer (code 4, 65.5 us) fires.
void KeepsItsWindow(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.congestion = "lqcc";
  options.dut_timeout = 4;
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  const sc_time until = sc_core::sc_time_stamp() + sc_time(60, SC_US);
  bench.wire().SetEdit(FrameDirection::kToDut, [until](PortFrame& frame) {
    return frame.is_ack() && sc_core::sc_time_stamp() < until
               ? EditResult::kDrop
               : EditResult::kPass;
  });
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(1, 512 * 1024, 0, bench.peer_rkey()), 0)) {
    return;
  }
  sc_core::wait(until - sc_core::sc_time_stamp());
  uint64_t in_flight = 0;
  uint64_t largest = 0;
  for (const PortFrame* frame : FramesWhere(bench.wire(), RequestFromDut())) {
    in_flight += frame->bytes.size();
    largest = std::max<uint64_t>(largest, frame->bytes.size());
  }
  constexpr uint64_t kWindow = 128 * 1024;  // W_max (TRN-11.8)
  verdict.Expect(in_flight <= kWindow && in_flight + largest > kWindow,
                 std::to_string(in_flight) +
                     " request bytes went unacknowledged; expected the "
                     "128 KiB window, within one packet",
                 {"TRN-11.7", "TRN-11.1", "TRN-11.8"});
  ExpectSuccess(context, AwaitCompletions(bench.dut(), 1, sc_time(400, SC_US)),
                1, {"TRN-11.7"});
  verdict.Note(std::to_string(in_flight) +
               " bytes in flight before the first "
               "ACK");
}

// Sets BECN on an ACK to the DUT: the feedback of a mark (TRN-11.3).
void SetBecn(PortFrame& frame) {
  roce::RocePacket marked = *frame.packet;
  marked.bth.becn = true;
  frame.Rebuild(marked);
}

// What the DUT's 1 MiB WRITE on an lqcc QP left unacknowledged at 7.5 us,
// before its second round ends: bytes of the requests sent after the last
// ACK that reached it. A CNP reaches it 1 us into its first round, whose
// end (T_r = 4 us after the first packet) must cut the window. ACKs to
// the DUT carry BECN until `clean_from` after the start, so that none
// grows the window (TRN-11.9), and are lost from `lost_from`. Nothing if
// the QP could not be set up or the WRITE posted.
struct Unacknowledged {
  uint64_t bytes = 0;
  uint64_t largest = 0;  // the largest of those requests
  bool any_ack = false;
};
std::optional<Unacknowledged> UnacknowledgedAfterACnp(
    TransportCaseContext& context, const sc_time& clean_from,
    const sc_time& lost_from) {
  TransportBench& bench = context.bench;
  ConnectionOptions options;
  options.congestion = "lqcc";
  options.dut_timeout = 4;  // 65.5 us: after the window is read
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return std::nullopt;
  }
  const sc_time start = sc_core::sc_time_stamp();
  bench.wire().SetEdit(FrameDirection::kToDut,
                       [clean_from = start + clean_from,
                        lost_from = start + lost_from](PortFrame& frame) {
                         if (!frame.is_ack()) {
                           return EditResult::kPass;
                         }
                         const sc_time now = sc_core::sc_time_stamp();
                         if (now >= lost_from) {
                           return EditResult::kDrop;
                         }
                         if (now < clean_from) {
                           SetBecn(frame);
                         }
                         return EditResult::kPass;
                       });
  if (!PostOrFail(
          context, bench.dut(), c->dut_qpn,
          WriteWr(1, TransportBench::kMemoryBytes, 0, bench.peer_rkey()), 0)) {
    return std::nullopt;
  }
  sc_core::wait(sc_time(1, SC_US));
  bench.wire().InjectToDut(Cnp(c->peer_qpn, c->dut_qpn), kCnpTc);
  WaitUntil(start, 7.5);
  Unacknowledged left;
  uint32_t acked = 0;
  for (const PortFrame& frame : bench.wire().log()) {
    if (!frame.from_dut() && frame.is_ack()) {
      acked = frame.packet->bth.psn;
      left.any_ack = true;
    }
  }
  for (const PortFrame* frame : FramesWhere(bench.wire(), RequestFromDut())) {
    if (!left.any_ack || roce::PsnAfter(frame->packet->bth.psn, acked)) {
      left.bytes += frame->bytes.size();
      left.largest = std::max<uint64_t>(left.largest, frame->bytes.size());
    }
  }
  return left;
}

// TRN-11.6: every ACK carries BECN and is lost from 5 us: the round with
// the CNP must have halved the window (alpha stays 1 with F = 1).
void HalvesItsWindowAfterACnpRound(TransportCaseContext& context) {
  const auto left = UnacknowledgedAfterACnp(context, sc_core::sc_max_time(),
                                            sc_time(5, SC_US));
  if (!left) {
    return;
  }
  constexpr uint64_t kHalfWindow = 64 * 1024;
  context.verdict.Expect(
      left->any_ack && left->bytes <= kHalfWindow &&
          left->bytes + left->largest > kHalfWindow,
      std::to_string(left->bytes) +
          " request bytes were unacknowledged after the round "
          "with a CNP; expected W_max/2 = 64 KiB, within one "
          "packet",
      {"TRN-11.6", "TRN-11.5"});
  context.verdict.Note(std::to_string(left->bytes) + " bytes in flight");
}

// TRN-11.9 replayed over what crossed the DUT's port: the window after
// every unmarked ACK to the DUT, from `window` at the first, with each RTT
// sample the time from the newest request it acknowledges leaving the wire
// to the ACK reaching it, plus `extra` (what the DUT's side adds).
struct GrowthReplay {
  double window = 0;
  double min_rtt_s = 0;
  unsigned clean_acks = 0;
};
GrowthReplay ReplayGrowth(const FrameWire& wire, double window,
                          const sc_time& extra) {
  constexpr double kRampS = 2.5e-6;          // T_ramp (TRN-11.8)
  constexpr double kMaxWindow = 128 * 1024;  // W_max
  GrowthReplay replay{window, 0, 0};
  std::vector<const PortFrame*> unacked;  // requests from the DUT, in order
  std::optional<double> min_rtt_s;
  for (const PortFrame& frame : wire.log()) {
    if (frame.from_dut() && frame.is_request()) {
      unacked.push_back(&frame);
      continue;
    }
    if (frame.from_dut() || !frame.is_ack()) {
      continue;
    }
    double acked = 0;
    const PortFrame* newest = nullptr;
    auto it = unacked.begin();
    for (; it != unacked.end() &&
           !roce::PsnAfter((*it)->packet->bth.psn, frame.packet->bth.psn);
         ++it) {
      acked += static_cast<double>((*it)->bytes.size());
      newest = *it;
    }
    unacked.erase(unacked.begin(), it);
    if (newest == nullptr) {
      continue;
    }
    const double sample = (frame.at - newest->at + extra).to_seconds();
    min_rtt_s = std::min(min_rtt_s.value_or(sample), sample);
    if (!frame.packet->bth.becn) {
      const double base_bdp = kLineRateBps / 8 * *min_rtt_s;
      replay.window = std::min(
          kMaxWindow, replay.window + base_bdp * (*min_rtt_s / kRampS) * acked /
                                          replay.window);
      ++replay.clean_acks;
    }
  }
  replay.min_rtt_s = min_rtt_s.value_or(0);
  return replay;
}

// As TRN-11.6/a, with slots taking 0.25 us each way between the wire and
// the DUT so that its RTTs are about 0.5 us; but ACKs cross the wire clean
// from 4.5 us, after the round's cut to 64 KiB, and are lost only from
// 6 us: each clean one grows the window by TRN-11.9. The DUT sees each RTT
// as the wire does plus the two latencies and its interface's
// serialization, so the replay is bounded by the wire's RTTs plus 0.5 us,
// and those plus a 4 KiB frame's time at line rate and four slots.
void GrowsItsWindowOnCleanAcks(TransportCaseContext& context) {
  const sc_time latency(0.25, SC_US);
  context.bench.set_dut_latency(latency);
  const auto left =
      UnacknowledgedAfterACnp(context, sc_time(4.5, SC_US), sc_time(6, SC_US));
  if (!left) {
    return;
  }
  const FrameWire& wire = context.bench.wire();
  constexpr double kHalfWindow = 64 * 1024;
  const sc_time frame_time(4096 * 8 / kLineRateBps, sc_core::SC_SEC);
  const GrowthReplay low = ReplayGrowth(wire, kHalfWindow, 2 * latency);
  const GrowthReplay high = ReplayGrowth(
      wire, kHalfWindow, 2 * latency + frame_time + sc_time(8, sc_core::SC_NS));
  char evidence[200];
  std::snprintf(evidence, sizeof evidence,
                "%llu request bytes were unacknowledged after %u clean ACKs; "
                "TRN-11.9 grows W from 64 KiB to %.0f-%.0f (least RTT "
                "%.0f ns)",
                static_cast<unsigned long long>(left->bytes), low.clean_acks,
                low.window, high.window, low.min_rtt_s * 1e9);
  const auto bytes = static_cast<double>(left->bytes);
  const auto largest = static_cast<double>(left->largest);
  context.verdict.Expect(
      low.clean_acks > 0 && bytes <= high.window &&
          bytes + largest > low.window && low.window > kHalfWindow + largest,
      std::string(evidence) + "; expected W within one packet", {"TRN-11.9"});
  context.verdict.Note(evidence);
}

}  // namespace

std::vector<ConformanceCase> TrnCongestionCases() {
  return {
      TransportCase("TRN_10_2_CutsItsRateOnACnp", CutsItsRateOnACnp,
                    sc_time(200, SC_US)),
      TransportCase("TRN_10_3_DecaysAlphaWithoutCnps", DecaysAlphaWithoutCnps,
                    sc_time(3400, SC_US)),
      TransportCase("TRN_11_3_ReturnsMarksAsBecn", ReturnsMarksAsBecn,
                    sc_time(100, SC_US)),
      TransportCase("TRN_11_7_KeepsItsWindow", KeepsItsWindow,
                    sc_time(600, SC_US)),
      TransportCase("TRN_11_6_HalvesItsWindowAfterACnpRound",
                    HalvesItsWindowAfterACnpRound, sc_time(50, SC_US)),
      TransportCase("TRN_11_9_GrowsItsWindowOnCleanAcks",
                    GrowsItsWindowOnCleanAcks, sc_time(50, SC_US)),
  };
}

}  // namespace lq::conformance
