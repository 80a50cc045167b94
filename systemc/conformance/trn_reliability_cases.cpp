// SPDX-License-Identifier: Apache-2.0
// Transport conformance cases, trn.md sections 5-7 and 9: segmentation,
// PSNs, acknowledgements, NAKs, go-back-N, timeouts, retries, RNR, access
// errors and congestion notification.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/roce/psn.h"
#include "systemc/common/time_text.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/trn_case_helpers.h"
#include "systemc/conformance/trn_frame_checks.h"

namespace lq::conformance {

namespace {

using roce::Opcode;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;
using transport::CompletionStatus;
using transport::EngineCompletion;
using transport::QpState;
using transport::SendKind;
using transport::SendWr;
using EditResult = FrameWire::EditResult;

constexpr uint32_t kPmtu = 1024;

std::string Hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%06x", value);
  return text;
}

// One packet the DUT must send, as TRN-6.2, 6.4 and 6.7 say.
struct ExpectedPacket {
  Opcode opcode;
  uint32_t psn;
  size_t payload;
  bool ack_req;  // Required (TRN-6.7); elsewhere it is allowed.
  std::optional<uint32_t> dma_length;  // RETH, when it has one
};

// The packets of one work request of `length` bytes whose first PSN is
// `psn` (advanced past them).
void Segment(SendKind kind, uint32_t length, uint32_t& psn,
             std::vector<ExpectedPacket>& out) {
  const uint32_t n = std::max<uint32_t>(1, (length + kPmtu - 1) / kPmtu);
  if (kind == SendKind::kRead) {
    out.push_back({Opcode::kReadRequest, psn, 0, false, length});
    psn = roce::PsnAdd(psn, n);
    return;
  }
  if (kind == SendKind::kFetchAdd) {
    out.push_back({Opcode::kFetchAdd, psn, 0, false, std::nullopt});
    psn = roce::PsnAdd(psn, 1);
    return;
  }
  const bool write = kind == SendKind::kWrite;
  for (uint32_t k = 1; k <= n; ++k) {
    Opcode opcode;
    if (n == 1) {
      opcode = write ? Opcode::kWriteOnly : Opcode::kSendOnly;
    } else if (k == 1) {
      opcode = write ? Opcode::kWriteFirst : Opcode::kSendFirst;
    } else if (k < n) {
      opcode = write ? Opcode::kWriteMiddle : Opcode::kSendMiddle;
    } else {
      opcode = write ? Opcode::kWriteLast : Opcode::kSendLast;
    }
    const size_t payload = k < n ? kPmtu : length - (n - 1) * kPmtu;
    const bool reth = write && k == 1;
    out.push_back({opcode, psn, payload, k == n || k % 8 == 0,
                   reth ? std::optional<uint32_t>(length) : std::nullopt});
    psn = roce::PsnAdd(psn, 1);
  }
}

// Requests of every kind from a first PSN three before the wrap.
void SegmentsAndNumbersRequests(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.dut_sq_psn = 0xFFFFFD;
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  if (!PostReceiveOrFail(context, bench.peer(), c->peer_qpn, 100, 4096,
                         0x8000)) {
    return;
  }
  std::vector<SendWr> wrs{WriteWr(1, 2560, 0x10000, bench.peer_rkey())};
  wrs.push_back(ReadWr(2, 3000, 0x20000, bench.peer_rkey()));
  SendWr send;
  send.wr_id = 3;
  send.length = 2101;  // A LAST packet of 53 B: PadCnt 3.
  wrs.push_back(send);
  wrs.push_back(
      AtomicWr(4, SendKind::kFetchAdd, 0x30000, bench.peer_rkey(), 1));
  wrs.push_back(WriteWr(5, 20 * kPmtu - 100, 0x40000, bench.peer_rkey()));
  wrs.push_back(WriteWr(6, 0, 0x40000, bench.peer_rkey()));
  std::vector<ExpectedPacket> expected;
  uint32_t psn = options.dut_sq_psn;
  for (const SendWr& wr : wrs) {
    Segment(wr.kind, wr.length, psn, expected);
    if (!PostOrFail(context, bench.dut(), c->dut_qpn, wr, 0x100000 - 0x8000)) {
      return;
    }
  }
  const auto done =
      AwaitCompletions(bench.dut(), wrs.size(), sc_time(100, SC_US));
  verdict.Expect(done.size() == wrs.size(),
                 std::to_string(done.size()) + " of " +
                     std::to_string(wrs.size()) + " work requests completed");
  const auto sent = FramesWhere(bench.wire(), RequestFromDut());
  verdict.Expect(sent.size() == expected.size(),
                 "the DUT sent " + std::to_string(sent.size()) +
                     " request packets, expected " +
                     std::to_string(expected.size()),
                 {"TRN-6.2", "TRN-6.4"});
  for (size_t i = 0; i < std::min(sent.size(), expected.size()); ++i) {
    const roce::RocePacket& p = *sent[i]->packet;
    const ExpectedPacket& e = expected[i];
    const std::string at =
        "request " + std::to_string(i) + ", " + Evidence(*sent[i]);
    verdict.Expect(p.bth.opcode == static_cast<uint8_t>(e.opcode) &&
                       p.payload.size() == e.payload,
                   at + "; expected " +
                       roce::DescribeOpcode(static_cast<uint8_t>(e.opcode)) +
                       " with " + std::to_string(e.payload) + " B",
                   {"TRN-6.2"});
    verdict.Expect(p.bth.psn == e.psn, at + "; expected PSN " + Hex(e.psn),
                   {"TRN-6.4", "TRN-6.3"});
    // TRN-4.3 on the raw BTH: PadCnt says how much of the last word is pad.
    const unsigned pad = (sent[i]->bytes[kBth + 1] >> 4) & 3;
    verdict.Expect(pad == (4 - e.payload % 4) % 4,
                   at + "; PadCnt " + std::to_string(pad) + " for " +
                       std::to_string(e.payload) + " B of payload",
                   {"TRN-4.3"});
    verdict.Expect(p.bth.ack_req || !e.ack_req, at + "; AckReq expected",
                   {"TRN-6.7"});
    if (e.dma_length) {
      verdict.Expect(
          p.reth && p.reth->dma_length == *e.dma_length,
          at + "; expected RETH DMA length " + std::to_string(*e.dma_length),
          {"TRN-6.2"});
    }
  }
  verdict.Note(std::to_string(sent.size()) + " requests, PSNs " +
               Hex(options.dut_sq_psn) + " to " +
               Hex(roce::PsnAdd(psn, 0xFFFFFF)));
}

// Sets AckReq only on the LAST or ONLY packet of the partner's requests,
// so that the DUT's ACKs come from its coalescing count alone elsewhere.
FrameWire::Edit AckReqOnlyOnLast() {
  return [](PortFrame& frame) {
    const auto op = frame.opcode();
    if (frame.is_request() && frame.packet->bth.ack_req &&
        op != Opcode::kWriteLast && op != Opcode::kWriteOnly) {
      roce::RocePacket changed = *frame.packet;
      changed.bth.ack_req = false;
      frame.Rebuild(changed);
    }
    return EditResult::kPass;
  };
}

// The partner's 40-packet WRITE with AckReq on its last packet only.
void AcksAsTheResponder(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.peer_sq_psn = 0xFFFFF0;  // The DUT's rq_psn: its first ePSN.
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kToDut, AckReqOnlyOnLast());
  const Bytes data = FillPattern(bench.peer_memory(), 0, 40 * kPmtu, 4);
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 40 * kPmtu, 0x1000, bench.dut_rkey()), 0)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(bench.peer(), 1, sc_time(100, SC_US)),
                1);
  std::vector<uint32_t> acked;
  std::string list;
  for (const PortFrame* frame : FramesWhere(bench.wire(), AckFromDut())) {
    acked.push_back(frame->packet->bth.psn);
    list += (list.empty() ? "" : ", ") + Hex(acked.back());
  }
  // Every 16 packets (the 16th and 32nd) and at the AckReq (the 40th),
  // counted from rq_psn across the wrap.
  const std::vector<uint32_t> expected{0xFFFFFF, 0x00000F, 0x000017};
  verdict.Expect(
      acked == expected,
      "the DUT ACKed PSNs " + list + "; expected 0xffffff, 0x00000f, 0x000017",
      {"TRN-6.9", "TRN-6.6", "TRN-6.3"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, data.size()) == data,
                 "the WRITE's data was not placed", {"TRN-6.8"});
}

// A WRITE and a FETCH_ADD the DUT executed reach it again.
void DoesNotExecuteADuplicateAgain(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  FillPattern(bench.peer_memory(), 0, 64, 5);
  std::fill_n(bench.dut_memory().bytes.begin() + 0x2000, 8, 0);
  bench.dut_memory().bytes[0x2000] = 100;
  const SendWr add =
      AtomicWr(2, SendKind::kFetchAdd, 0x2000, bench.dut_rkey(), 7);
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 64, 0x1000, bench.dut_rkey()), 0) ||
      !PostOrFail(context, bench.peer(), c->peer_qpn, add, 0x100)) {
    return;
  }
  if (AwaitCompletions(bench.peer(), 2, sc_time(50, SC_US)).size() != 2) {
    verdict.Fail("the partner's WRITE and FETCH_ADD did not complete");
    return;
  }
  const auto requests = FramesWhere(bench.wire(), RequestToDut());
  if (!verdict.Expect(requests.size() == 2, "expected two requests")) {
    return;
  }
  const Bytes write = requests[0]->bytes, fetch_add = requests[1]->bytes;
  std::fill_n(bench.dut_memory().bytes.begin() + 0x1000, 64, 0xEE);
  size_t mark = bench.wire().log().size();
  bench.wire().InjectToDut(write);
  const auto reack =
      AwaitFrame(bench.wire(), AckFromDut(), sc_time(5, SC_US), mark);
  // ePSN is 2 after the two requests: a re-ACK carries PSN 1.
  verdict.Expect(reack && bench.wire().log()[*reack].packet->bth.psn == 1,
                 "a duplicate WRITE with AckReq was not re-ACKed with PSN "
                 "ePSN - 1 = 1",
                 {"TRN-6.11"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, 64) == Bytes(64, 0xEE),
                 "a duplicate WRITE was executed again", {"TRN-6.11"});
  mark = bench.wire().log().size();
  bench.wire().InjectToDut(fetch_add);
  const auto replay = AwaitFrame(
      bench.wire(),
      [](const PortFrame& f) {
        return f.from_dut() && f.opcode() == Opcode::kAtomicAcknowledge;
      },
      sc_time(5, SC_US), mark);
  verdict.Expect(
      replay && bench.wire().log()[*replay].packet->bth.psn == 1 &&
          bench.wire().log()[*replay].packet->atomic_ack_eth &&
          bench.wire().log()[*replay].packet->atomic_ack_eth->original_data ==
              100,
      "a duplicate FETCH_ADD was not answered with the saved "
      "ATOMIC ACKNOWLEDGE (PSN 1, original data 100)",
      {"TRN-6.11"});
  verdict.Expect(bench.dut_memory().bytes[0x2000] == 107,
                 "a duplicate FETCH_ADD was executed again: the value is " +
                     std::to_string(bench.dut_memory().bytes[0x2000]),
                 {"TRN-6.11"});
}

// Picks request packets with PSN `psn`.
FramePredicate RequestWithPsn(uint32_t psn) {
  return [psn](const PortFrame& frame) {
    return frame.is_request() && frame.packet->bth.psn == psn;
  };
}

// The partner's 8-packet WRITE loses its second packet on the way.
void NaksTheFirstOutOfSequenceRequest(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kToDut, DropFirst(RequestWithPsn(1)));
  const Bytes data = FillPattern(bench.peer_memory(), 0, 8 * kPmtu, 6);
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 8 * kPmtu, 0x1000, bench.dut_rkey()), 0)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(bench.peer(), 1, sc_time(100, SC_US)),
                1);
  // The NAKs the DUT sent before PSN 1 came again.
  sc_time resent = sc_core::sc_max_time();
  for (const PortFrame* frame : FramesWhere(bench.wire(), RequestToDut())) {
    if (frame->packet->bth.psn == 1) {
      resent = frame->at;
      break;
    }
  }
  std::vector<const PortFrame*> naks;
  for (const PortFrame* frame : FramesWhere(bench.wire(), NakFromDut())) {
    if (frame->at < resent) {
      naks.push_back(frame);
    }
  }
  verdict.Expect(naks.size() == 1,
                 std::to_string(naks.size()) +
                     " NAKs before the lost packet came again; expected one",
                 {"TRN-7.2"});
  if (!naks.empty()) {
    const roce::RocePacket& nak = *naks.front()->packet;
    verdict.Expect(nak.aeth->type() == roce::AethType::kNak &&
                       nak.aeth->value() == 0 && nak.bth.psn == 1,
                   "not a PSN sequence error NAK with PSN = ePSN = 1: " +
                       Evidence(*naks.front()),
                   {"TRN-7.1", "TRN-7.2"});
  }
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, data.size()) == data,
                 "the DUT's memory differs from what was written", {"TRN-7.2"});
}

// The DUT's 8-packet WRITE loses its third packet; the partner NAKs it.
void GoesBackNOnANak(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);  // ACK timeout 1.05 ms: never here
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kFromDut, DropFirst(RequestWithPsn(2)));
  const Bytes data = FillPattern(bench.dut_memory(), 0, 8 * kPmtu, 7);
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(1, 8 * kPmtu, 0x1000, bench.peer_rkey()), 0)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(bench.dut(), 1, sc_time(100, SC_US)),
                1, {"TRN-7.3"});
  const auto nak = AwaitFrame(
      bench.wire(),
      [](const PortFrame& f) { return !f.from_dut() && f.is_nak(); },
      sc_core::SC_ZERO_TIME);
  if (!verdict.Expect(nak.has_value(), "the partner sent no NAK")) {
    return;
  }
  const PortFrame& refusal = bench.wire().log()[*nak];
  // The record holds the DUT's PSN 2 as sent (the wire dropped it after):
  // the resend starts at its second appearance. Frames the DUT had handed
  // to the network before the NAK came may still cross after it.
  const std::vector<const PortFrame*> sent =
      FramesWhere(bench.wire(), RequestFromDut());
  std::vector<const PortFrame*> first, again;
  for (const PortFrame* frame : sent) {
    const bool resend_started =
        !again.empty() ||
        (frame->packet->bth.psn == 2 &&
         std::any_of(first.begin(), first.end(), [](const PortFrame* f) {
           return f->packet->bth.psn == 2;
         }));
    (resend_started ? again : first).push_back(frame);
  }
  verdict.Expect(
      !again.empty() && again.front()->at >= refusal.at &&
          again.front()->at - refusal.at < sc_time(2, SC_US),
      "after the NAK for PSN 2 " + Evidence(refusal) +
          " the DUT resent PSN 2 " +
          (again.empty() ? std::string("never") : Evidence(*again.front())) +
          "; expected within 2 us",
      {"TRN-7.3"});
  // From PSN 2 on, in order, each as first sent; those sent before count
  // as retransmits.
  uint64_t resent = 0;
  for (size_t i = 0; i < again.size(); ++i) {
    const uint32_t psn = static_cast<uint32_t>(2 + i);
    const auto original = std::find_if(
        first.begin(), first.end(),
        [psn](const PortFrame* f) { return f->packet->bth.psn == psn; });
    resent += original != first.end() ? 1 : 0;
    verdict.Expect(
        again[i]->packet->bth.psn == psn &&
            (original == first.end() || (*original)->bytes == again[i]->bytes),
        "resend " + std::to_string(i) + " is " + Evidence(*again[i]) +
            "; expected PSN " + std::to_string(psn) + " as first sent",
        {"TRN-7.3"});
  }
  const uint64_t counted = EngineStat(bench.dut(), "retransmits");
  verdict.Expect(counted == resent,
                 "retransmits counts " + std::to_string(counted) + " for " +
                     std::to_string(resent) + " packets sent again",
                 {"TRN-7.3"});
  verdict.Expect(ReadMemory(bench.peer_memory(), 0x1000, data.size()) == data,
                 "the partner's memory differs from what the DUT wrote",
                 {"TRN-7.3"});
}

// The DUT's WRITE ONLY on `c` whose first ACK is lost: checks that the
// WRITE is sent twice, the same both times, between `earliest` and
// `latest` apart, and completes (failures name `clause`).
void ExpectTimerResend(TransportCaseContext& context, const Connection& c,
                       const sc_time& earliest, const sc_time& latest,
                       const char* clause) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  bench.wire().SetEdit(
      FrameDirection::kToDut,
      DropFirst([](const PortFrame& frame) { return frame.is_ack(); }));
  if (!PostOrFail(context, bench.dut(), c.dut_qpn,
                  WriteWr(1, 64, 0x1000, bench.peer_rkey()), 0)) {
    return;
  }
  ExpectSuccess(context,
                AwaitCompletions(bench.dut(), 1, latest + sc_time(20, SC_US)),
                1, {clause});
  const auto sent = FramesWhere(bench.wire(), RequestFromDut());
  if (!verdict.Expect(sent.size() == 2,
                      std::to_string(sent.size()) +
                          " transmissions of the WRITE; expected 2",
                      {clause})) {
    return;
  }
  const sc_time gap = sent[1]->at - sent[0]->at;
  verdict.Expect(gap >= earliest && gap < latest,
                 "resent " + Micros(gap) + " after the first send; expected " +
                     Micros(earliest) + " to " + Micros(latest),
                 {clause});
  verdict.Expect(sent[1]->bytes == sent[0]->bytes,
                 "the resend differs from the first send", {clause});
  verdict.Note("resent " + Micros(gap) + " after the first send");
}

// The partner's first ACK is lost; the DUT's ACK timer (code 1: 8.192 us)
// must resend.
void ResendsWhenTheAckTimerExpires(TransportCaseContext& context) {
  ConnectionOptions options;
  options.dut_timeout = 1;
  if (const auto c = ConnectOrFail(context, options)) {
    ExpectTimerResend(context, *c, sc_time(8192, SC_NS), sc_time(9, SC_US),
                      "TRN-7.4");
  }
}

// Every ACK is lost; retry_cnt 2.
void RetryExhaustionFailsTheOldestWr(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.dut_timeout = 1;
  options.dut_retry_cnt = 2;
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kToDut, [](PortFrame& frame) {
    return frame.is_ack() ? EditResult::kDrop : EditResult::kPass;
  });
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(1, 64, 0x1000, bench.peer_rkey()), 0) ||
      !PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(2, 64, 0x2000, bench.peer_rkey()), 0)) {
    return;
  }
  const auto done = AwaitCompletions(bench.dut(), 2, sc_time(100, SC_US));
  const auto sent = FramesWhere(bench.wire(), [](const PortFrame& f) {
    return f.from_dut() && f.is_request() && f.packet->bth.psn == 0;
  });
  verdict.Expect(sent.size() == 3,
                 "PSN 0 was sent " + std::to_string(sent.size()) +
                     " times; expected 1 + retry_cnt = 3",
                 {"TRN-7.5"});
  const bool statuses =
      done.size() == 2 && done[0].completion.wr_id == 1 &&
      done[0].completion.status == CompletionStatus::kRetryExcErr &&
      done[1].completion.wr_id == 2 &&
      done[1].completion.status == CompletionStatus::kFlushErr;
  std::string got;
  for (const EngineCompletion& e : done) {
    got += (got.empty() ? "" : ", ") + std::to_string(e.completion.wr_id) +
           " " + transport::CompletionStatusName(e.completion.status);
  }
  verdict.Expect(
      statuses,
      "completions " + got + "; expected 1 RETRY_EXC_ERR, then 2 FLUSH_ERR",
      {"TRN-7.9"});
  verdict.Expect(bench.dut().qp_state(c->dut_qpn) == QpState::kError,
                 std::string("the QP is in ") +
                     transport::QpStateName(bench.dut().qp_state(c->dut_qpn)) +
                     ", expected ERROR",
                 {"TRN-7.9"});
  // A WR posted in ERROR completes at once with FLUSH_ERR (TRN-5.2).
  const bool posted =
      bench.dut()
          .PostSend(c->dut_qpn, WriteWr(3, 64, 0x3000, bench.peer_rkey()), 0)
          .ok();
  const auto flushed = AwaitCompletions(bench.dut(), 1, sc_time(1, SC_US));
  verdict.Expect(
      posted && flushed.size() == 1 &&
          flushed[0].completion.status == CompletionStatus::kFlushErr,
      "a WR posted in ERROR did not complete with FLUSH_ERR", {"TRN-5.2"});
}

// A SEND to the DUT before its receive WR, then one from the DUT before
// the partner's.
void RnrNaksASendWithoutAReceive(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.dut_min_rnr_timer = 3;  // 0.03 ms
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  FillPattern(bench.peer_memory(), 0, 100, 8);
  SendWr send;
  send.wr_id = 1;
  send.length = 100;
  if (!PostOrFail(context, bench.peer(), c->peer_qpn, send, 0)) {
    return;
  }
  const auto rnr = AwaitFrame(bench.wire(), NakFromDut(), sc_time(5, SC_US));
  if (verdict.Expect(rnr.has_value(), "no RNR NAK from the DUT", {"TRN-7.6"})) {
    const roce::RocePacket& nak = *bench.wire().log()[*rnr].packet;
    verdict.Expect(nak.aeth->type() == roce::AethType::kRnrNak &&
                       nak.aeth->value() == 3 && nak.bth.psn == 0,
                   "expected an RNR NAK with timer code 3 and PSN 0: " +
                       Evidence(bench.wire().log()[*rnr]),
                   {"TRN-7.6"});
  }
  if (!PostReceiveOrFail(context, bench.dut(), c->dut_qpn, 50, 256, 0x4000)) {
    return;
  }
  const auto received = AwaitCompletions(bench.dut(), 1, sc_time(100, SC_US));
  verdict.Expect(
      received.size() == 1 &&
          received[0].completion.status == CompletionStatus::kSuccess &&
          received[0].completion.byte_length == 100 &&
          ReadMemory(bench.dut_memory(), 0x4000, 100) ==
              ReadMemory(bench.peer_memory(), 0, 100),
      "the SEND was not received once the receive WR was posted", {"TRN-7.6"});
  AwaitCompletions(bench.peer(), 1, sc_time(10, SC_US));

  // The DUT as requester: the partner's RNR NAK (its min_rnr_timer, code
  // 1: 0.01 ms) must hold the DUT's resend back that long.
  send.wr_id = 2;
  const size_t mark = bench.wire().log().size();
  if (!PostOrFail(context, bench.dut(), c->dut_qpn, send, 0)) {
    return;
  }
  const auto peer_rnr = AwaitFrame(
      bench.wire(),
      [](const PortFrame& f) { return !f.from_dut() && f.is_nak(); },
      sc_time(5, SC_US), mark);
  if (!verdict.Expect(peer_rnr.has_value(), "the partner sent no RNR NAK")) {
    return;
  }
  const sc_time refused = bench.wire().log()[*peer_rnr].at;
  const uint32_t psn = bench.wire().log()[*peer_rnr].packet->bth.psn;
  sc_core::wait(sc_time(3, SC_US));
  if (!PostReceiveOrFail(context, bench.peer(), c->peer_qpn, 60, 256, 0x9000)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(bench.dut(), 1, sc_time(100, SC_US)),
                2, {"TRN-7.6"});
  const auto again = AwaitFrame(
      bench.wire(),
      [psn](const PortFrame& f) {
        return f.from_dut() && f.is_request() && f.packet->bth.psn == psn;
      },
      sc_core::SC_ZERO_TIME, *peer_rnr);
  verdict.Expect(
      again && bench.wire().log()[*again].at - refused >= sc_time(10, SC_US),
      "the DUT resent the refused SEND " +
          (again ? Micros(bench.wire().log()[*again].at - refused)
                 : std::string("never")) +
          " after the RNR NAK; its timer code 1 is 10 us",
      {"TRN-7.6"});
}

// A WRITE to the DUT under an R_Key it never registered.
void RefusesAnAccessOutsideItsRegions(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  const Bytes before = ReadMemory(bench.dut_memory(), 0x1000, 64);
  FillPattern(bench.peer_memory(), 0, 64, 9);
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 64, 0x1000, bench.dut_rkey() + 77), 0)) {
    return;
  }
  const auto nak = AwaitFrame(bench.wire(), NakFromDut(), sc_time(5, SC_US));
  verdict.Expect(
      nak &&
          bench.wire().log()[*nak].packet->aeth->type() ==
              roce::AethType::kNak &&
          bench.wire().log()[*nak].packet->aeth->value() == 2 &&
          bench.wire().log()[*nak].packet->bth.psn == 0,
      "expected a NAK, remote access error (2), PSN 0; got " +
          (nak ? Evidence(bench.wire().log()[*nak]) : std::string("none")),
      {"TRN-6.14", "TRN-6.13"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, 64) == before,
                 "the refused WRITE changed the DUT's memory", {"TRN-6.14"});
  verdict.Expect(bench.dut().qp_state(c->dut_qpn) == QpState::kError,
                 "the DUT's QP did not go to ERROR after the NAK",
                 {"TRN-6.13"});
  const auto done = AwaitCompletions(bench.peer(), 1, sc_time(5, SC_US));
  verdict.Expect(done.size() == 1 && done[0].completion.status ==
                                         CompletionStatus::kRemAccessErr,
                 "the partner's WR did not complete with REM_ACCESS_ERR");
}

// The DUT WRITEs under an R_Key the partner never registered.
void ANakFailsTheWr(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(1, 64, 0x1000, bench.peer_rkey() + 77), 0) ||
      !PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(2, 64, 0x1000, bench.peer_rkey()), 0)) {
    return;
  }
  const auto done = AwaitCompletions(bench.dut(), 2, sc_time(20, SC_US));
  verdict.Expect(
      done.size() == 2 && done[0].completion.wr_id == 1 &&
          done[0].completion.status == CompletionStatus::kRemAccessErr &&
          done[1].completion.wr_id == 2 &&
          done[1].completion.status == CompletionStatus::kFlushErr,
      "expected WR 1 REM_ACCESS_ERR, then WR 2 FLUSH_ERR; " +
          std::to_string(done.size()) + " completions",
      {"TRN-7.8"});
  verdict.Expect(bench.dut().qp_state(c->dut_qpn) == QpState::kError,
                 "the DUT's QP did not go to ERROR", {"TRN-7.8"});
}

// The partner's WRITEs, one every 5 us for 40 us, reach the DUT CE-marked,
// every packet.
void SendsOneCnpPerInterval(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context, Controlled("dcqcn"));
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kToDut, MarkCe(RequestToDut()));
  constexpr unsigned kWrites = 8;
  for (unsigned i = 0; i < kWrites; ++i) {
    if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                    WriteWr(i, 4 * kPmtu, 0x1000, bench.dut_rkey()), 0)) {
      return;
    }
    sc_core::wait(sc_time(5, SC_US));
  }
  verdict.Expect(
      AwaitCompletions(bench.peer(), kWrites, sc_time(5, SC_US)).size() ==
          kWrites,
      "the partner's WRITEs did not all complete");
  const auto cnps = FramesWhere(bench.wire(), [](const PortFrame& f) {
    return f.from_dut() && f.opcode() == Opcode::kCnp;
  });
  const auto marked = FramesWhere(bench.wire(), RequestToDut());
  // dcqcn's interval N is 50 us (TRN-10.5): one CNP within this run.
  verdict.Expect(cnps.size() == 1,
                 std::to_string(cnps.size()) + " CNPs for " +
                     std::to_string(marked.size()) +
                     " CE-marked packets over 40 us; expected one per 50 us "
                     "interval",
                 {"TRN-9.5"});
  if (!cnps.empty() && !marked.empty() &&
      verdict.Expect(
          cnps.front()->at >= marked.front()->at,
          "a CNP before any CE-marked packet: " + Evidence(*cnps.front()),
          {"TRN-9.5"})) {
    const PortFrame& cnp = *cnps.front();
    verdict.Expect(cnp.at - marked.front()->at < sc_time(1, SC_US),
                   "the first CNP came " + Micros(cnp.at - marked.front()->at) +
                       " after the first CE-marked packet",
                   {"TRN-9.5"});
    verdict.Expect(cnp.packet && cnp.packet->bth.dest_qp == c->peer_qpn,
                   "the CNP does not name the partner's QP: " + Evidence(cnp),
                   {"TRN-9.4"});
    const bool reserved_zero =
        cnp.bytes.size() >= kExt + roce::kCnpReservedSize &&
        std::all_of(cnp.bytes.begin() + kExt,
                    cnp.bytes.begin() + kExt + roce::kCnpReservedSize,
                    [](uint8_t byte) { return byte == 0; });
    verdict.Expect(reserved_zero,
                   "the CNP's 16 reserved bytes are not zero: " + Evidence(cnp),
                   {"TRN-2.8"});
  }
  // Every frame the DUT sent, as TRN_1_1 checks them; what fails for a
  // CNP fails TRN-9.4, the CNP's format, too.
  for (const PortFrame* frame : FramesWhere(
           bench.wire(), [](const PortFrame& f) { return f.from_dut(); })) {
    CheckSentFrame(verdict, *frame, *c, RethExpectation{});
    if (frame->opcode() == Opcode::kCnp) {
      Verdict format;
      CheckSentFrame(format, *frame, *c, RethExpectation{});
      verdict.Expect(!format.failed(), "CNP format: " + format.evidence(),
                     {"TRN-9.4"});
      verdict.Expect(
          !frame->packet->bth.ack_req && frame->packet->bth.psn == 0 &&
              frame->bytes.size() == 74,
          "a CNP with AckReq, a PSN or not 74 bytes: " + Evidence(*frame),
          {"TRN-9.4"});
    }
  }
}

// Six 4 KiB READs posted at once with max_rd_atomic 2.
void HoldsReadsBeyondMaxRdAtomic(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.dut_max_rd_atomic = 2;
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  FillPattern(bench.peer_memory(), 0, 6 * 4 * kPmtu, 10);
  constexpr unsigned kReads = 6;
  for (unsigned i = 0; i < kReads; ++i) {
    if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                    ReadWr(i, 4 * kPmtu, i * 4 * kPmtu, bench.peer_rkey()),
                    0x80000 + i * 4 * kPmtu)) {
      return;
    }
  }
  const auto done = AwaitCompletions(bench.dut(), kReads, sc_time(50, SC_US));
  verdict.Expect(done.size() == kReads,
                 std::to_string(done.size()) + " of 6 READs completed");
  // READs outstanding at the port: requested, last response not yet in.
  int outstanding = 0, most = 0;
  for (const PortFrame& frame : bench.wire().log()) {
    const auto opcode = frame.opcode();
    if (frame.from_dut() && opcode == Opcode::kReadRequest) {
      most = std::max(most, ++outstanding);
    } else if (!frame.from_dut() && (opcode == Opcode::kReadResponseLast ||
                                     opcode == Opcode::kReadResponseOnly)) {
      --outstanding;
    }
  }
  verdict.Expect(most == 2,
                 "at most " + std::to_string(most) +
                     " READs were outstanding at once; expected 2",
                 {"TRN-6.5"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x80000, 6 * 4 * kPmtu) ==
                     ReadMemory(bench.peer_memory(), 0, 6 * 4 * kPmtu),
                 "the READs' data is not what the partner holds", {"TRN-6.5"});
}

// A 4-packet READ whose second response is lost on its way to the DUT.
void RereadsAfterALostReadResponse(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);  // ACK timeout 1.05 ms: never here
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kToDut,
                       DropFirst([](const PortFrame& f) {
                         return f.opcode() == Opcode::kReadResponseMiddle &&
                                f.packet->bth.psn == 1;
                       }));
  FillPattern(bench.peer_memory(), 0, 4 * kPmtu, 11);
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  ReadWr(1, 4 * kPmtu, 0, bench.peer_rkey()), 0x80000)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(bench.dut(), 1, sc_time(50, SC_US)),
                1, {"TRN-6.12"});
  const auto requests = FramesWhere(bench.wire(), RequestFromDut());
  verdict.Expect(requests.size() == 2 && requests[1]->packet->bth.psn == 0 &&
                     requests[1]->bytes == requests[0]->bytes,
                 std::to_string(requests.size()) +
                     " READ requests; expected the READ, then the same "
                     "READ again whole from PSN 0",
                 {"TRN-6.12"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x80000, 4 * kPmtu) ==
                     ReadMemory(bench.peer_memory(), 0, 4 * kPmtu),
                 "the READ's data is not what the partner holds", {"TRN-6.12"});
}

// A SEND the partner refuses twice for want of a receive WR, with
// rnr_retry 1.
void RnrRetryExhaustionFailsTheSend(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  ConnectionOptions options;
  options.dut_rnr_retry = 1;
  const auto c = ConnectOrFail(context, options);
  if (!c) {
    return;
  }
  SendWr send;
  send.wr_id = 1;
  send.length = 100;
  if (!PostOrFail(context, bench.dut(), c->dut_qpn, send, 0)) {
    return;
  }
  const auto done = AwaitCompletions(bench.dut(), 1, sc_time(100, SC_US));
  const auto sent = FramesWhere(bench.wire(), RequestFromDut());
  verdict.Expect(sent.size() == 2,
                 "the SEND was sent " + std::to_string(sent.size()) +
                     " times; expected 1 + rnr_retry = 2",
                 {"TRN-7.7"});
  verdict.Expect(
      done.size() == 1 &&
          done[0].completion.status == CompletionStatus::kRnrRetryExcErr &&
          bench.dut().qp_state(c->dut_qpn) == QpState::kError,
      "expected RNR_RETRY_EXC_ERR and the QP in ERROR", {"TRN-7.7", "TRN-7.9"});
}

// With every attribute at its default: the DUT's ACK timer (code 8) and
// its RNR NAK's timer code (1).
void UsesTheDefaultTimers(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);  // ConnectionOptions' defaults
  if (!c) {
    return;
  }
  ExpectTimerResend(context, *c, sc_time(1048.576, SC_US),
                    sc_time(1049.5, SC_US), "TRN-12.1");
  bench.wire().SetEdit(FrameDirection::kToDut, nullptr);
  SendWr send;
  send.wr_id = 2;
  send.length = 100;
  const size_t mark = bench.wire().log().size();
  if (!PostOrFail(context, bench.peer(), c->peer_qpn, send, 0)) {
    return;
  }
  const auto rnr =
      AwaitFrame(bench.wire(), NakFromDut(), sc_time(5, SC_US), mark);
  verdict.Expect(rnr &&
                     bench.wire().log()[*rnr].packet->aeth->type() ==
                         roce::AethType::kRnrNak &&
                     bench.wire().log()[*rnr].packet->aeth->value() == 1,
                 "expected an RNR NAK with the default timer code 1",
                 {"TRN-12.1"});
}

}  // namespace

std::vector<ConformanceCase> TrnReliabilityCases() {
  // Time for a case's 100 us waits, several in turn.
  const sc_time limit(400, SC_US);
  return {
      TransportCase("TRN_6_2_SegmentsAndNumbersRequests",
                    SegmentsAndNumbersRequests, limit),
      TransportCase("TRN_6_9_AcksAsTheResponder", AcksAsTheResponder, limit),
      TransportCase("TRN_6_11_DoesNotExecuteADuplicateAgain",
                    DoesNotExecuteADuplicateAgain, limit),
      TransportCase("TRN_7_2_NaksTheFirstOutOfSequenceRequest",
                    NaksTheFirstOutOfSequenceRequest, limit),
      TransportCase("TRN_7_3_GoesBackNOnANak", GoesBackNOnANak, limit),
      TransportCase("TRN_7_4_ResendsWhenTheAckTimerExpires",
                    ResendsWhenTheAckTimerExpires, limit),
      TransportCase("TRN_7_9_RetryExhaustionFailsTheOldestWr",
                    RetryExhaustionFailsTheOldestWr, limit),
      TransportCase("TRN_7_6_RnrNaksASendWithoutAReceive",
                    RnrNaksASendWithoutAReceive, limit),
      TransportCase("TRN_6_14_RefusesAnAccessOutsideItsRegions",
                    RefusesAnAccessOutsideItsRegions, limit),
      TransportCase("TRN_7_8_ANakFailsTheWr", ANakFailsTheWr, limit),
      TransportCase("TRN_9_5_SendsOneCnpPerInterval", SendsOneCnpPerInterval,
                    limit),
      TransportCase("TRN_6_5_HoldsReadsBeyondMaxRdAtomic",
                    HoldsReadsBeyondMaxRdAtomic, limit),
      TransportCase("TRN_6_12_RereadsAfterALostReadResponse",
                    RereadsAfterALostReadResponse, limit),
      TransportCase("TRN_7_7_RnrRetryExhaustionFailsTheSend",
                    RnrRetryExhaustionFailsTheSend, limit),
      TransportCase("TRN_12_1_UsesTheDefaultTimers", UsesTheDefaultTimers,
                    sc_time(1200, SC_US)),
  };
}

}  // namespace lq::conformance
