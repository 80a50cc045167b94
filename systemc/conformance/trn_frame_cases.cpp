// SPDX-License-Identifier: Apache-2.0
// Transport conformance cases, trn.md sections 1-4: the frames an engine
// sends, and the frames it must refuse.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "models/common/hex.h"
#include "models/pcap/pcap_writer.h"
#include "models/roce/addressing.h"
#include "models/roce/frame_edits.h"
#include "models/roce/icrc.h"
#include "models/roce/opcode.h"
#include "models/roce/packet_factory.h"
#include "models/roce/psn.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/trn_case_helpers.h"
#include "systemc/conformance/trn_frame_checks.h"

namespace lq::conformance {

namespace {

using roce::Opcode;
using sc_core::sc_time;
using sc_core::SC_US;
using transport::EngineCompletion;
using transport::SendKind;
using transport::SendWr;

// Every kind of request each way, with lengths that need a pad, so that
// the DUT sends every kind of request, response and acknowledgement.
void SendsOnlyWellFormedFrames(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  CheckIcrcWorkedExample(verdict);
  const auto c = ConnectOrFail(context);
  if (!c ||
      !PostReceiveOrFail(context, bench.peer(), c->peer_qpn, 100, 4096,
                         0x8000) ||
      !PostReceiveOrFail(context, bench.dut(), c->dut_qpn, 200, 4096, 0x8000)) {
    return;
  }
  FillPattern(bench.dut_memory(), 0, 8192, 1);
  FillPattern(bench.peer_memory(), 0x10000, 8192, 2);
  std::vector<SendWr> dut_wrs;
  SendWr send;
  send.wr_id = 1;
  send.length = 2501;
  dut_wrs.push_back(send);
  dut_wrs.push_back(WriteWr(2, 2502, 0x20000, bench.peer_rkey()));
  dut_wrs.push_back(WriteWr(6, 101, 0x28000, bench.peer_rkey()));
  dut_wrs.push_back(ReadWr(3, 3001, 0x10000, bench.peer_rkey()));
  dut_wrs.push_back(
      AtomicWr(4, SendKind::kFetchAdd, 0x30000, bench.peer_rkey(), 5));
  dut_wrs.push_back(
      AtomicWr(5, SendKind::kCompareSwap, 0x30000, bench.peer_rkey(), 9, 5));
  RethExpectation reth;
  reth.rkey = bench.peer_rkey();
  uint64_t local = 0x40000;  // Where READ data and atomic results go.
  for (const SendWr& wr : dut_wrs) {
    const bool answered = transport::IsReadOrAtomic(wr.kind);
    if (!PostOrFail(context, bench.dut(), c->dut_qpn, wr,
                    answered ? local : 0)) {
      return;
    }
    local += answered ? 0x1000 : 0;
    if (wr.kind == SendKind::kWrite || wr.kind == SendKind::kRead) {
      reth.address_and_length.push_back({wr.remote_address, wr.length});
    }
  }
  // The partner's requests, which the DUT answers.
  send.wr_id = 10;
  send.length = 999;
  std::vector<SendWr> peer_wrs{send,
                               WriteWr(11, 1503, 0x50000, bench.dut_rkey())};
  peer_wrs.push_back(ReadWr(12, 3001, 0, bench.dut_rkey()));
  peer_wrs.push_back(ReadWr(15, 13, 0, bench.dut_rkey()));
  peer_wrs.push_back(
      AtomicWr(13, SendKind::kFetchAdd, 0x60000, bench.dut_rkey(), 1));
  peer_wrs.push_back(
      AtomicWr(14, SendKind::kCompareSwap, 0x60000, bench.dut_rkey(), 3, 1));
  uint64_t peer_local = 0x70000;
  for (const SendWr& wr : peer_wrs) {
    if (!PostOrFail(context, bench.peer(), c->peer_qpn, wr, peer_local)) {
      return;
    }
    peer_local += 0x1000;
  }
  // Each side also completes the other's SEND on its receive queue.
  const auto dut_done =
      AwaitCompletions(bench.dut(), dut_wrs.size() + 1, sc_time(100, SC_US));
  const auto peer_done =
      AwaitCompletions(bench.peer(), peer_wrs.size() + 1, sc_time(100, SC_US));
  verdict.Expect(dut_done.size() == dut_wrs.size() + 1 &&
                     peer_done.size() == peer_wrs.size() + 1,
                 "not every work request completed: DUT " +
                     std::to_string(dut_done.size()) + ", partner " +
                     std::to_string(peer_done.size()));
  unsigned frames = 0;
  uint32_t msn = 0;
  std::set<uint8_t> opcodes;
  std::vector<uint64_t> originals;  // Of the DUT's ATOMIC ACKNOWLEDGEs.
  for (const PortFrame* frame : FramesWhere(
           bench.wire(), [](const PortFrame& f) { return f.from_dut(); })) {
    ++frames;
    const Bytes& b = frame->bytes;
    const uint8_t opcode = b.size() > kBth ? b[kBth] : 0xFF;
    opcodes.insert(opcode);
    CheckSentFrame(verdict, *frame, *c, reth);
    // TRN-2.5: the AtomicETH of the DUT's atomics, big-endian, as posted.
    const bool fetch_add = opcode == static_cast<uint8_t>(Opcode::kFetchAdd);
    if ((fetch_add || opcode == static_cast<uint8_t>(Opcode::kCompareSwap)) &&
        verdict.Expect(
            b.size() >= kExt + roce::AtomicEth::kSize + roce::kIcrcSize,
            "short atomic request: " + Evidence(*frame), {"TRN-2.5"})) {
      const uint64_t swap = Be64(b, kExt + 12), compare = Be64(b, kExt + 20);
      verdict.Expect(Be64(b, kExt) == 0x30000 &&
                         Be32(b, kExt + 8) == bench.peer_rkey() &&
                         (fetch_add ? swap == 5 : swap == 9 && compare == 5),
                     "AtomicETH not the posted address, R_Key, swap/add and "
                     "compare: " +
                         Evidence(*frame),
                     {"TRN-2.5"});
    }
    if (opcode == static_cast<uint8_t>(Opcode::kAtomicAcknowledge) &&
        verdict.Expect(
            b.size() >= kExt + roce::Aeth::kSize + roce::AtomicAckEth::kSize +
                            roce::kIcrcSize,
            "short ATOMIC ACKNOWLEDGE: " + Evidence(*frame), {"TRN-2.5"})) {
      originals.push_back(Be64(b, kExt + roce::Aeth::kSize));
    }
    // TRN-6.10: the MSN the DUT reports as responder never goes back.
    if (frame->packet && frame->packet->aeth) {
      verdict.Expect(frame->packet->aeth->msn >= msn,
                     "MSN went back: " + Evidence(*frame), {"TRN-6.10"});
      msn = frame->packet->aeth->msn;
    }
  }
  // The partner's FETCH_ADD found 0 and its COMPARE_SWAP the 1 it left.
  verdict.Expect(originals == std::vector<uint64_t>{0, 1},
                 "the DUT's ATOMIC ACKNOWLEDGEs do not carry 0 then 1 as the "
                 "values before the partner's atomics",
                 {"TRN-2.5"});
  // The stimulus made the DUT send every opcode but SEND ONLY, the "with
  // immediate" forms and the CNP (which TRN_9_5 checks).
  verdict.Expect(opcodes.size() == 16, "stimulus: the DUT sent only " +
                                           std::to_string(opcodes.size()) +
                                           " kinds of frame");
  verdict.Expect(msn == peer_wrs.size(),
                 "the DUT's last MSN is " + std::to_string(msn) + " after " +
                     std::to_string(peer_wrs.size()) + " messages",
                 {"TRN-6.10"});
  verdict.Note(std::to_string(frames) + " frames of " +
               std::to_string(opcodes.size()) + " opcodes checked");
}

// SEND and WRITE with immediate data each way.
void CarriesImmediateData(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c ||
      !PostReceiveOrFail(context, bench.peer(), c->peer_qpn, 100, 4096, 0) ||
      !PostReceiveOrFail(context, bench.peer(), c->peer_qpn, 101, 4096, 0) ||
      !PostReceiveOrFail(context, bench.dut(), c->dut_qpn, 200, 4096, 0)) {
    return;
  }
  SendWr send;
  send.wr_id = 1;
  send.length = 100;
  send.immediate = 0xCAFEF00D;
  SendWr write = WriteWr(2, 1500, 0x10000, bench.peer_rkey());
  write.immediate = 0x0BADBEEF;
  SendWr peer_send = send;
  peer_send.immediate = 0x12345678;
  if (!PostOrFail(context, bench.dut(), c->dut_qpn, send, 0) ||
      !PostOrFail(context, bench.dut(), c->dut_qpn, write, 0) ||
      !PostOrFail(context, bench.peer(), c->peer_qpn, peer_send, 0)) {
    return;
  }
  const auto dut_done = AwaitCompletions(bench.dut(), 3, sc_time(50, SC_US));
  const auto peer_done = AwaitCompletions(bench.peer(), 3, sc_time(50, SC_US));
  // Immediates on the wire: the last 4 bytes before pad and ICRC of the
  // header chain, ImmDt last in TRN-4.2's order.
  std::vector<uint32_t> sent;
  for (const PortFrame* frame : FramesWhere(bench.wire(), RequestFromDut())) {
    const roce::OpcodeInfo* info = roce::FindOpcode(frame->bytes[kBth]);
    if (info && (info->headers & roce::kHeaderImmDt)) {
      const size_t at =
          kExt + roce::ExtensionHeadersSize(info->headers) - roce::ImmDt::kSize;
      sent.push_back(Be32(frame->bytes, at));
    }
  }
  verdict.Expect(sent == std::vector<uint32_t>{0xCAFEF00D, 0x0BADBEEF},
                 std::to_string(sent.size()) +
                     " frames from the DUT carried immediate data; expected "
                     "0xCAFEF00D, then 0x0BADBEEF, big-endian",
                 {"TRN-2.7"});
  std::vector<uint32_t> delivered;
  for (const auto& done : peer_done) {
    if (done.receive && done.completion.immediate) {
      delivered.push_back(*done.completion.immediate);
    }
  }
  verdict.Expect(delivered == sent,
                 "the partner's receive completions "
                 "do not carry what the DUT sent",
                 {"TRN-2.7"});
  bool received = false;
  for (const auto& done : dut_done) {
    received =
        received || (done.receive && done.completion.immediate ==
                                         std::optional<uint32_t>(0x12345678));
  }
  verdict.Expect(received,
                 "the DUT's receive completion does not carry the "
                 "partner's immediate 0x12345678",
                 {"TRN-2.7"});
}

// Little-endian fields of a pcap file (its writer's byte order, which the
// magic number tells a reader).
uint32_t Le32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<uint8_t>(bytes.at(at + i)))
             << (8 * i);
  }
  return value;
}

// TRN-1.8: the DUT's capture of its port, through its frame tap and the
// writer `--pcap` uses, while it WRITEs, READs and SENDs.
void CapturesItsFramesAsPcap(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  std::ostringstream file;
  auto writer = pcap::PcapWriter::ToStream(file);
  if (!verdict.Expect(writer.ok(), "no capture writer")) {
    return;
  }
  std::vector<uint64_t> tapped_ps;  // when each frame was handed over
  bench.dut().SetFrameTap([&](const sc_time& at, const Bytes& frame) {
    tapped_ps.push_back(at.value());
    writer->Write(at.value(), frame);
  });
  const auto c = ConnectOrFail(context);
  if (!c ||
      !PostReceiveOrFail(context, bench.peer(), c->peer_qpn, 1, 4096, 0x8000)) {
    return;
  }
  FillPattern(bench.dut_memory(), 0, 8192, 3);
  SendWr send;
  send.wr_id = 4;
  send.length = 1000;
  if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(2, 5000, 0x10000, bench.peer_rkey()), 0) ||
      !PostOrFail(context, bench.dut(), c->dut_qpn,
                  ReadWr(3, 3000, 0x10000, bench.peer_rkey()), 0x4000) ||
      !PostOrFail(context, bench.dut(), c->dut_qpn, send, 0)) {
    return;
  }
  AwaitCompletions(bench.dut(), 3, sc_time(50, SC_US));
  bench.dut().SetFrameTap(nullptr);
  writer->Flush();
  const std::string bytes = file.str();
  const auto sent = FramesWhere(
      bench.wire(), [](const PortFrame& frame) { return frame.from_dut(); });
  if (!verdict.Expect(bytes.size() >= 24 && sent.size() >= 7,
                      std::to_string(bytes.size()) + " bytes captured, " +
                          std::to_string(sent.size()) + " frames sent")) {
    return;
  }
  verdict.Expect(Le32(bytes, 0) == 0xA1B23C4D &&
                     Le32(bytes, 4) == (2u | 4u << 16) && Le32(bytes, 8) == 0 &&
                     Le32(bytes, 12) == 0 && Le32(bytes, 16) == 262144 &&
                     Le32(bytes, 20) == 1,
                 "global header: magic " + HexText(Le32(bytes, 0), 8) +
                     ", version " + HexText(Le32(bytes, 4), 8) + ", snap " +
                     std::to_string(Le32(bytes, 16)) + ", link type " +
                     std::to_string(Le32(bytes, 20)),
                 {"TRN-1.8"});
  size_t at = 24, index = 0;
  for (; at + 16 <= bytes.size() && index < sent.size(); ++index) {
    const uint32_t length = Le32(bytes, at + 8);
    const std::string record = "record " + std::to_string(index);
    const uint64_t ns =
        uint64_t{Le32(bytes, at)} * 1'000'000'000 + Le32(bytes, at + 4);
    verdict.Expect(
        Le32(bytes, at + 4) < 1'000'000'000 && index < tapped_ps.size() &&
            ns == tapped_ps[index] / 1000 &&
            sc_time(static_cast<double>(ns), sc_core::SC_NS) <= sent[index]->at,
        record + ": stamped " + std::to_string(ns) + " ns", {"TRN-1.8"});
    const Bytes& frame = sent[index]->bytes;
    verdict.Expect(length == frame.size() && Le32(bytes, at + 12) == length &&
                       at + 16 + length <= bytes.size() &&
                       std::equal(frame.begin(), frame.end(),
                                  bytes.begin() + static_cast<long>(at + 16),
                                  [](uint8_t a, char b) {
                                    return a == static_cast<uint8_t>(b);
                                  }),
                   record + " is not frame " + Describe(*sent[index]) +
                       " as the DUT sent it",
                   {"TRN-1.8"});
    at += 16 + length;
  }
  verdict.Expect(index == sent.size() && at == bytes.size(),
                 std::to_string(index) + " records for " +
                     std::to_string(sent.size()) + " frames sent",
                 {"TRN-1.8"});
  verdict.Note(std::to_string(sent.size()) + " frames captured");
}

// TRN-4.7: slots take 1 us each way between the wire and the DUT, known
// to the DUT's interface only as the annotation on each slot (as a
// router's switch cycles are). The partner's one-packet WRITE may not land
// in the DUT's memory, nor be ACKed, before its last byte has arrived.
void ActsOnAFrameOnlyOnceItHasArrived(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const sc_time latency(1, SC_US);
  bench.set_dut_latency(latency);
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  const Bytes before = ReadMemory(bench.dut_memory(), 0x10000, 512);
  const Bytes data = FillPattern(bench.peer_memory(), 0, 512, 7);
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 512, 0x10000, bench.dut_rkey()), 0)) {
    return;
  }
  const auto request =
      AwaitFrame(bench.wire(), RequestToDut(), sc_time(10, SC_US));
  if (!verdict.Expect(request.has_value(), "the partner sent no WRITE")) {
    return;
  }
  const sc_time sent = bench.wire().log()[*request].at;
  // Half way along the way in: not arrived, so not placed.
  sc_core::wait(sent + latency / 2 - sc_core::sc_time_stamp());
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x10000, 512) == before,
                 "the data was in memory half way to the DUT", {"TRN-4.7"});
  const auto ack = AwaitFrame(bench.wire(), AckFromDut(), sc_time(20, SC_US));
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x10000, 512) == data,
                 "the WRITE's data never landed");
  if (verdict.Expect(ack.has_value(), "no ACK", {"TRN-4.7"})) {
    const sc_time round = bench.wire().log()[*ack].at - sent;
    verdict.Expect(round >= 2 * latency,
                   "the ACK reached the wire " +
                       std::to_string(round.to_seconds() * 1e9) +
                       " ns after the WRITE left it; the way there and back "
                       "takes 2,000",
                   {"TRN-4.7"});
    verdict.Note("ACK " + std::to_string(round.to_seconds() * 1e9) +
                 " ns after the WRITE");
  }
}

// The partner's 8-packet WRITE reaches the DUT with one payload bit of its
// third packet flipped: the DUT must not take it (no data, no ACK past
// it), so that the partner resends it.
void DropsAFrameWithABadIcrc(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  const Bytes data = FillPattern(bench.peer_memory(), 0, 8 * 1024, 3);
  // Shared with the edit, which outlives this function in the wire.
  auto damaged = std::make_shared<std::optional<uint32_t>>();
  bench.wire().SetEdit(FrameDirection::kToDut, [damaged](PortFrame& frame) {
    if (!*damaged && frame.is_request() && frame.packet->bth.psn == 2) {
      *damaged = frame.packet->bth.psn;
      Bytes bytes = frame.bytes;
      bytes[bytes.size() - roce::kIcrcSize - 100] ^= 0x10;  // A payload bit.
      frame.Replace(std::move(bytes));
    }
    return FrameWire::EditResult::kPass;
  });
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 8 * 1024, 0x1000, bench.dut_rkey()), 0)) {
    return;
  }
  const auto done = AwaitCompletions(bench.peer(), 1, sc_time(100, SC_US));
  ExpectSuccess(context, done, 1);
  if (!verdict.Expect(damaged->has_value(), "no third packet was seen")) {
    return;
  }
  // The damaged crossing does not decode; the resend does. Nothing past
  // the damaged PSN is acknowledged before the resend came.
  const std::vector<const PortFrame*> resends =
      FramesWhere(bench.wire(), [psn = **damaged](const PortFrame& f) {
        return !f.from_dut() && f.is_request() && f.packet->bth.psn == psn;
      });
  if (!verdict.Expect(resends.size() == 1,
                      "the damaged PSN came again " +
                          std::to_string(resends.size()) +
                          " times; the partner resends it once when the DUT "
                          "has not taken it",
                      {"TRN-3.4"})) {
    return;
  }
  for (const PortFrame* frame : FramesWhere(bench.wire(), AckFromDut())) {
    if (frame->at < resends.front()->at) {
      verdict.Expect(roce::PsnBefore(frame->packet->bth.psn, **damaged),
                     "acknowledged the damaged packet: " + Evidence(*frame),
                     {"TRN-3.4"});
    }
  }
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, data.size()) == data,
                 "the DUT's memory differs from what was written", {"TRN-3.4"});
}

// The partner's 4-packet WRITE reaches the DUT with every field the ICRC
// masks changed as a router or a careless sender might: TTL decremented
// twice and CE marked (checksum updated, TRN-1.7), a UDP checksum, and
// BTH byte 4's reserved bits set.
void TakesFramesWithMaskedFieldsChanged(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  bench.wire().SetEdit(FrameDirection::kToDut, [](PortFrame& frame) {
    if (!frame.is_request()) {
      return FrameWire::EditResult::kPass;
    }
    Bytes bytes = frame.bytes;
    roce::DecrementTtl(bytes);
    roce::DecrementTtl(bytes);
    roce::MarkCongestionExperienced(bytes);
    bytes[kUdp + 6] = 0xBE;  // The UDP checksum, not checked (TRN-1.6).
    bytes[kUdp + 7] = 0xEF;
    bytes[kBth + 4] |= 0x3F;  // Reserved bits, ignored (TRN-2.2).
    frame.Replace(std::move(bytes));
    return FrameWire::EditResult::kPass;
  });
  const Bytes data = FillPattern(bench.peer_memory(), 0, 4 * 1024, 12);
  if (!PostOrFail(context, bench.peer(), c->peer_qpn,
                  WriteWr(1, 4 * 1024, 0x1000, bench.dut_rkey()), 0)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(bench.peer(), 1, sc_time(50, SC_US)),
                1);
  const auto requests = FramesWhere(bench.wire(), RequestToDut());
  const bool changed = !requests.empty() &&
                       requests.front()->bytes[kIp + 8] == 62 &&
                       (requests.front()->bytes[kIp + 1] & 3) == 3;
  verdict.Expect(changed, "stimulus: the frames were not edited");
  verdict.Expect(requests.size() == 4,
                 "the partner sent " + std::to_string(requests.size()) +
                     " request packets for 4; the DUT refused some",
                 {"TRN-3.2", "TRN-1.7", "TRN-1.6", "TRN-2.2"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, data.size()) == data,
                 "the WRITE's data was not placed",
                 {"TRN-3.2", "TRN-1.7", "TRN-1.6", "TRN-2.2"});
}

// One malformed frame to inject, the clause that makes the DUT refuse it,
// and the engine statistic that counts it (TRN-4.6).
struct Malformed {
  const char* what;
  const char* clause;
  Bytes frame;
  const char* counter = "bad_packets";
};

// `frame` with its IPv4 header checksum recomputed (RFC 791) and its ICRC
// resealed: an edit that breaks only what it means to.
Bytes Resealed(Bytes frame) {
  frame[kIp + 10] = frame[kIp + 11] = 0;
  const uint16_t sum = static_cast<uint16_t>(~Ipv4Sum(frame, kIp));
  frame[kIp + 10] = static_cast<uint8_t>(sum >> 8);
  frame[kIp + 11] = static_cast<uint8_t>(sum);
  return ResealIcrc(std::move(frame));
}

// Frames the DUT must drop silently, each made from a good WRITE ONLY to
// the DUT (PSN = its ePSN) by one change.
std::vector<Malformed> MalformedFrames(const roce::RocePacket& good,
                                       const roce::RocePacket& ack) {
  const Bytes base = roce::BuildPacket(good).value();
  std::vector<Malformed> frames;
  // Cut 6 bytes into the BTH, with IPv4 and UDP lengths that agree.
  Bytes truncated(base.begin(), base.begin() + kBth + 6);
  truncated[kIp + 2] = 0;
  truncated[kIp + 3] = static_cast<uint8_t>(truncated.size() - kIp);
  truncated[kUdp + 4] = 0;
  truncated[kUdp + 5] = static_cast<uint8_t>(truncated.size() - kUdp);
  frames.push_back(
      {"truncated inside the BTH", "TRN-4.5", Resealed(std::move(truncated))});
  Bytes ether = base;
  ether[12] = 0x86;
  ether[13] = 0xDD;
  frames.push_back({"EtherType 0x86DD", "TRN-1.3", ether});
  Bytes version = base;
  version[kIp] = 0x65;
  frames.push_back({"IP version 6", "TRN-1.4", Resealed(version)});
  Bytes checksum = base;
  checksum[kIp + 10] ^= 0x01;
  frames.push_back({"a wrong IPv4 checksum", "TRN-1.4", checksum});
  Bytes port = base;
  port[kUdp + 3] ^= 0x01;  // 4790
  frames.push_back({"UDP destination port 4790", "TRN-1.6", ResealIcrc(port)});
  Bytes tver = base;
  tver[kBth + 1] |= 0x01;
  frames.push_back({"TVer 1", "TRN-2.3", ResealIcrc(tver)});
  Bytes opcode = base;
  opcode[kBth] = 0x15;
  frames.push_back({"opcode 0x15", "TRN-4.1", ResealIcrc(opcode)});
  roce::RocePacket other_pkey = good;
  other_pkey.bth.pkey = 0x7FFF;
  frames.push_back({"P_Key 0x7FFF", "TRN-2.3",
                    roce::BuildPacket(other_pkey).value(), "stray_packets"});
  roce::RocePacket stray = good;
  stray.bth.dest_qp = 0xABCDE;
  frames.push_back({"an unknown DestQP", "TRN-4.6",
                    roce::BuildPacket(stray).value(), "stray_packets"});
  const Bytes ack_bytes = roce::BuildPacket(ack).value();
  Bytes padded = ack_bytes;
  padded[kBth + 1] |= 0x10;  // PadCnt 1 on an opcode without payload.
  frames.push_back(
      {"PadCnt 1 on an ACKNOWLEDGE", "TRN-4.3", ResealIcrc(padded)});
  Bytes reserved = ack_bytes;
  reserved[kExt] = 0x40;  // AETH type 10.
  frames.push_back(
      {"a reserved AETH syndrome", "TRN-2.6", ResealIcrc(reserved)});
  return frames;
}

void DropsMalformedFramesSilently(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c) {
    return;
  }
  roce::Path path;
  path.local_node = TransportBench::kPeerNode;
  path.remote_node = TransportBench::kDutNode;
  path.local_qpn = c->peer_qpn;
  path.remote_qpn = c->dut_qpn;
  roce::RocePacket write = roce::NewPacket(path, Opcode::kWriteOnly, 0);
  write.bth.ack_req = true;
  write.reth->virtual_address = 0x1000;
  write.reth->rkey = bench.dut_rkey();
  write.reth->dma_length = 64;
  write.payload = transport::Pattern(64, 0x55);
  const roce::RocePacket ack =
      roce::MakeAcknowledge(path, 0, roce::Aeth::Ack(0));
  const Bytes untouched = ReadMemory(bench.dut_memory(), 0x1000, 64);
  for (Malformed& bad : MalformedFrames(write, ack)) {
    const size_t before = bench.wire().log().size();
    const uint64_t counted = EngineStat(bench.dut(), bad.counter);
    bench.wire().InjectToDut(std::move(bad.frame));
    sc_core::wait(sc_time(3, SC_US));
    verdict.Expect(EngineStat(bench.dut(), bad.counter) == counted + 1,
                   std::string("a frame with ") + bad.what +
                       " was not counted once in " + bad.counter,
                   {bad.clause, "TRN-4.6"});
    const auto answers = FramesWhere(
        bench.wire(), [](const PortFrame& f) { return f.from_dut(); }, before);
    verdict.Expect(answers.empty(),
                   std::string("answered a frame with ") + bad.what + ": " +
                       (answers.empty() ? "" : Evidence(*answers.front())),
                   {bad.clause, "TRN-4.6"});
    verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, 64) == untouched,
                   std::string("executed a WRITE with ") + bad.what,
                   {bad.clause, "TRN-4.6"});
  }
  // The QP is as it was: the same PSN, well-formed, is executed and ACKed.
  write.payload = transport::Pattern(64, 0x11);
  const size_t before = bench.wire().log().size();
  bench.wire().InjectToDut(roce::BuildPacket(write).value());
  const auto acked =
      AwaitFrame(bench.wire(), AckFromDut(), sc_time(10, SC_US), before);
  verdict.Expect(acked && bench.wire().log()[*acked].packet->bth.psn == 0,
                 "the well-formed WRITE with the expected PSN was not ACKed "
                 "with PSN 0 after the malformed frames",
                 {"TRN-4.6"});
  verdict.Expect(ReadMemory(bench.dut_memory(), 0x1000, 64) == write.payload,
                 "the well-formed WRITE's data was not placed", {"TRN-4.6"});
}

}  // namespace

std::vector<ConformanceCase> TrnFrameCases() {
  return {
      TransportCase("TRN_1_1_SendsOnlyWellFormedFrames",
                    SendsOnlyWellFormedFrames),
      TransportCase("TRN_1_8_CapturesItsFramesAsPcap", CapturesItsFramesAsPcap),
      TransportCase("TRN_2_7_CarriesImmediateData", CarriesImmediateData),
      TransportCase("TRN_3_2_TakesFramesWithMaskedFieldsChanged",
                    TakesFramesWithMaskedFieldsChanged),
      TransportCase("TRN_3_4_DropsAFrameWithABadIcrc", DropsAFrameWithABadIcrc),
      TransportCase("TRN_4_7_ActsOnAFrameOnlyOnceItHasArrived",
                    ActsOnAFrameOnlyOnceItHasArrived),
      TransportCase("TRN_4_6_DropsMalformedFramesSilently",
                    DropsMalformedFramesSilently),
  };
}

}  // namespace lq::conformance
