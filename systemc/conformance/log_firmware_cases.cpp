// SPDX-License-Identifier: Apache-2.0
// Logical-layer conformance cases that the DUT's firmware drives through
// its unit's registers, log.md sections 5 and 6: page-table entries it
// writes and what accesses then send (LOG-5.2 to LOG-5.4), the copy engine
// (LOG-6.13), and a home that fails under the DUT's accesses (LOG-6.12),
// whose news reaches the mailbox (LOG-6.10).
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "generated/cpp/logical_regs.h"
#include "systemc/conformance/log_case_helpers.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::logical;
using logical::AccessStatus;
using logical::AccessStatusName;
using logical::FaultCause;
using logical::FaultRequest;
using logical::FaultStatus;
using logical::LogMessageType;
using logical::Pte;
using logical::RejectReason;
using logical::testing::Answer;
using roce::Opcode;
using sc_core::SC_MS;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

uint32_t Code(regs::CmdResult result) { return static_cast<uint32_t>(result); }

// Runs PT_CMD `command` on the page of `ga` (with `pte` for a write) and
// returns CMD_STATUS.
uint32_t PageTableCommand(RegisterMaster& csr, regs::PtCmd command, uint64_t ga,
                          uint64_t pte = 0) {
  WriteWide(csr, regs::kPtGaLoOffset, ga);
  WriteWide(csr, regs::kPtPteLoOffset, pte);
  csr.Write(regs::kPtCmdOffset, static_cast<uint32_t>(command));
  return csr.Read(regs::kCmdStatusOffset);
}

uint64_t PteOf(bool read, bool write, bool atomic, bool migrating,
               uint16_t home, uint32_t frame) {
  Pte pte;
  pte.valid = true;
  pte.read = read;
  pte.write = write;
  pte.atomic = atomic;
  pte.migrating = migrating;
  pte.home = home;
  pte.frame = frame;
  return pte.Encode();
}

// Runs `access` and expects it to send a FAULT_REQ of CAUSE `cause`; the
// reference card then rejects it (PERMISSION) so that it completes.
void ExpectFault(LogicalCaseContext& context, std::function<Answer()> access,
                 FaultCause cause, const std::string& what) {
  LogicalBench& bench = context.bench;
  const size_t from = bench.wire().log().size();
  auto issued = Issue(std::move(access));
  const auto at =
      AwaitFrame(bench.wire(), LogSendFromDut(LogMessageType::kFaultRequest),
                 kWithin, from);
  const auto message =
      at ? LogMessageOf(bench.wire().log()[*at]) : std::nullopt;
  const FaultRequest* request =
      message ? std::get_if<FaultRequest>(&*message) : nullptr;
  context.verdict.Expect(
      request != nullptr && request->cause == cause,
      what + " sent " +
          (at ? Evidence(bench.wire().log()[*at]) : std::string("nothing")) +
          (request ? " with CAUSE " +
                         std::to_string(static_cast<int>(request->cause))
                   : std::string()) +
          ", not a FAULT_REQ with CAUSE " +
          std::to_string(static_cast<int>(cause)),
      {"LOG-5.4"});
  const auto record = AwaitFaultAtPeer(context, kWithin);
  if (record) {
    AnswerFromPeer(context, *record, FaultStatus::kReject, 0,
                   RejectReason::kPermission);
  }
  AwaitDone(*issued, kWithin);
}

// LOG-5.2, LOG-5.3 and LOG-5.4: an entry the DUT's firmware writes is used
// without a fault within its rights, faults with the right cause beyond
// them, reads back, can be removed; entries LOG-5.3 forbids are refused.
void TranslatesThroughFirmwaresEntries(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RegisterMaster& csr = bench.dut_csr();
  const uint64_t ga = PagedGa(kPeer, 20);
  const uint64_t read_only = PteOf(true, false, false, false, kPeer, 11);
  verdict.Expect(PageTableCommand(csr, regs::PtCmd::kWrite, ga, read_only) ==
                     Code(regs::CmdResult::kOk),
                 "PT_CMD WRITE of a read-only entry was refused", {"LOG-5.2"});

  const Bytes frame_bytes = Pattern(8, 0x2B);
  bench.peer_memory().Poke(11 * kPage + 0x30, frame_bytes);
  size_t from = bench.wire().log().size();
  const Answer load = bench.requester(0).Load(ga + 0x30, 8);
  verdict.Expect(
      load.status == AccessStatus::kOk && load.data == frame_bytes &&
          FramesWhere(bench.wire(),
                      LogSendFromDut(LogMessageType::kFaultRequest), from)
              .empty(),
      "a load within the written entry's rights faulted or did "
      "not return its frame's bytes",
      {"LOG-5.2", "LOG-5.4"});
  ExpectRdma(context, from, {{Opcode::kReadRequest, 11 * kPage + 0x30, 8}},
             bench.peer().rkey(), "a load through the written entry",
             {"LOG-5.4"});

  ExpectFault(
      context,
      [&] { return bench.requester(0).Store(ga + 0x40, Pattern(8, 1)); },
      FaultCause::kNoWrite, "a store through a read-only entry");
  ExpectFault(
      context,
      [&] {
        return bench.requester(0).Atomic(
            ga + 0x48, Atomic(logical::AtomicOp::kFadd, 8, 1));
      },
      FaultCause::kNoAtomic, "a FADD through a read-only entry");

  // Read back; refused entries leave it as it was (LOG-5.3).
  const auto read_back = [&] {
    PageTableCommand(csr, regs::PtCmd::kRead, ga);
    return uint64_t{csr.Read(regs::kPtPteHiOffset)} << 32 |
           csr.Read(regs::kPtPteLoOffset);
  };
  const uint64_t read = read_back();
  verdict.Expect(
      read == read_only,
      "PT_CMD READ returned " + Hex(read) + ", not " + Hex(read_only),
      {"LOG-5.2"});
  const auto frames = static_cast<uint32_t>(LogicalBench::kDirectBytes / kPage);
  const auto no_endpoint = static_cast<uint16_t>(LogicalBench::kEndpoints);
  for (const uint64_t bad : {PteOf(true, true, true, false, kPeer, frames),
                             PteOf(true, true, true, false, no_endpoint, 11)}) {
    const uint32_t result = PageTableCommand(csr, regs::PtCmd::kWrite, ga, bad);
    const uint64_t kept = read_back();
    verdict.Expect(
        result == Code(regs::CmdResult::kBadPte) && kept == read_only,
        "PT_CMD WRITE of " + Hex(bad) +
            " (a frame past the direct region, or HOME " +
            std::to_string(no_endpoint) + ", no endpoint) gave CMD_STATUS " +
            Hex(result) + " and left " + Hex(kept),
        {"LOG-5.3"});
  }

  // MIGRATING: loads go on, stores and atomics fault.
  verdict.Expect(PageTableCommand(csr, regs::PtCmd::kWrite, ga,
                                  PteOf(true, true, true, true, kPeer, 11)) ==
                     Code(regs::CmdResult::kOk),
                 "PT_CMD WRITE of a MIGRATING entry was refused", {"LOG-5.2"});
  verdict.Expect(
      bench.requester(0).Load(ga + 0x30, 8).status == AccessStatus::kOk,
      "a load through a MIGRATING entry did not complete", {"LOG-5.4"});
  ExpectFault(
      context,
      [&] { return bench.requester(0).Store(ga + 0x40, Pattern(8, 2)); },
      FaultCause::kMigrating, "a store through a MIGRATING entry");

  // Removed: the next load faults NOT_MAPPED.
  verdict.Expect(PageTableCommand(csr, regs::PtCmd::kRemove, ga) ==
                     Code(regs::CmdResult::kOk),
                 "PT_CMD REMOVE of the entry was refused", {"LOG-5.2"});
  ExpectFault(
      context, [&] { return bench.requester(0).Load(ga + 0x30, 8); },
      FaultCause::kNotMapped, "a load after PT_CMD REMOVE");
}

// Waits until CP_STATUS.DONE is 1 or `within` has passed; returns
// CP_STATUS.
uint32_t AwaitCopy(RegisterMaster& csr, const sc_time& within) {
  const sc_time deadline = sc_core::sc_time_stamp() + within;
  uint32_t status = csr.Read(regs::kCpStatusOffset);
  while (!(status & regs::kCpStatusDone.Mask()) &&
         sc_core::sc_time_stamp() < deadline) {
    sc_core::wait(100, SC_NS);
    status = csr.Read(regs::kCpStatusOffset);
  }
  return status;
}

// Starts a copy through CP_* and returns CMD_STATUS.
uint32_t StartCopy(RegisterMaster& csr, uint64_t src, uint64_t dst,
                   uint32_t bytes) {
  WriteWide(csr, regs::kCpSrcLoOffset, src);
  WriteWide(csr, regs::kCpDstLoOffset, dst);
  csr.Write(regs::kCpBytesOffset, bytes);
  csr.Write(regs::kCpCmdOffset, static_cast<uint32_t>(regs::CpCmd::kCopy));
  return csr.Read(regs::kCmdStatusOffset);
}

// LOG-6.13: the copy engine reads a remote source with one RDMA READ and
// writes a remote destination with one WRITE, ends with DONE and RESULT
// OK, and refuses commands its rules forbid, changing nothing.
void CopiesBetweenDirectRegions(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RegisterMaster& csr = bench.dut_csr();
  constexpr uint32_t kBytes = 512;
  const Bytes source = Pattern(kBytes, 0x4D);
  bench.peer_memory().Poke(0x7000, source);
  const auto done_ok = [](uint32_t status) {
    return (status & regs::kCpStatusDone.Mask()) != 0 &&
           (status & regs::kCpStatusBusy.Mask()) == 0 &&
           (status & regs::kCpStatusResult.Mask()) == 0;  // OK
  };

  size_t from = bench.wire().log().size();
  verdict.Expect(StartCopy(csr, DirectGa(kPeer, 0x7000), DirectGa(kDut, 0x8000),
                           kBytes) == Code(regs::CmdResult::kOk),
                 "a copy from the reference card was refused", {"LOG-6.13"});
  uint32_t status = AwaitCopy(csr, kWithin);
  const bool copied = bench.dut_memory().Peek(0x8000, kBytes) == source;
  verdict.Expect(done_ok(status) && copied,
                 "a copy of 512 B from the reference card ended with "
                 "CP_STATUS " +
                     Hex(status) + " and the bytes " +
                     (copied ? "copied" : "not copied"),
                 {"LOG-6.13"});
  ExpectRdma(context, from, {{Opcode::kReadRequest, 0x7000, kBytes}},
             bench.peer().rkey(), "a copy from the reference card",
             {"LOG-6.13"});

  // One at a time: DONE must be cleared first. Refused commands send
  // nothing.
  from = bench.wire().log().size();
  verdict.Expect(StartCopy(csr, DirectGa(kDut, 0x8000), DirectGa(kPeer, 0x9000),
                           kBytes) == Code(regs::CmdResult::kFull),
                 "a copy started while DONE was still 1", {"LOG-6.13"});
  csr.Write(regs::kCpStatusOffset, regs::kCpStatusDone.Mask());
  struct Refused {
    const char* what;
    uint64_t src;
    uint32_t bytes;
  };
  for (const Refused& refused :
       {Refused{"a copy of 0 B", DirectGa(kDut, 0x8000), 0},
        Refused{"a copy of a page and a byte", DirectGa(kDut, 0x8000),
                static_cast<uint32_t>(kPage + 1)},
        Refused{"a copy from a paged region", PagedGa(kPeer, 1), kBytes},
        Refused{"a copy running past the direct region",
                DirectGa(kPeer, LogicalBench::kDirectBytes - 8), 16}}) {
    const uint32_t result =
        StartCopy(csr, refused.src, DirectGa(kPeer, 0x9000), refused.bytes);
    const uint32_t after = csr.Read(regs::kCpStatusOffset);
    verdict.Expect(result == Code(regs::CmdResult::kBadRange) && after == 0,
                   std::string(refused.what) + " gave CMD_STATUS " +
                       Hex(result) + " and CP_STATUS " + Hex(after) +
                       ", not BAD_RANGE with nothing started",
                   {"LOG-6.13"});
  }
  sc_core::wait(kWithin);
  ExpectRdma(context, from, {}, bench.peer().rkey(),
             "the refused copy commands", {"LOG-6.13"});

  from = bench.wire().log().size();
  verdict.Expect(StartCopy(csr, DirectGa(kDut, 0x8000), DirectGa(kPeer, 0x9000),
                           kBytes) == Code(regs::CmdResult::kOk),
                 "a copy to the reference card was refused", {"LOG-6.13"});
  status = AwaitCopy(csr, kWithin);
  verdict.Expect(
      done_ok(status) && bench.peer_memory().Peek(0x9000, kBytes) == source,
      "a copy of 512 B to the reference card ended with "
      "CP_STATUS " +
          Hex(status),
      {"LOG-6.13"});
  ExpectRdma(context, from, {{Opcode::kWriteOnly, 0x9000, kBytes}},
             bench.peer().rkey(), "a copy to the reference card", {"LOG-6.13"});
}

// MB_DATA's words 1 to 6 for `bytes` (the first byte in bits 31:24 of word
// 1), as docs/registers/logical.md lays them out.
std::vector<uint32_t> MailWords(const Bytes& bytes) {
  std::vector<uint32_t> words(6, 0);
  for (size_t i = 0; i < bytes.size() && i < 24; ++i) {
    words[i / 4] |= uint32_t{bytes[i]} << (24 - 8 * (i % 4));
  }
  return words;
}

// MB_DATA0 as docs/registers/logical.md lays it out: TYPE in bits 7:0,
// LOST in bit 8, the sending node in bits 31:16.
uint32_t MailHead(LogMessageType type, bool lost, uint16_t from) {
  return static_cast<uint32_t>(type) | (lost ? 1u << 8 : 0u) |
         uint32_t{from} << 16;
}

// The news that the connection to `from` failed: TYPE 0, LOST.
uint32_t LostHead(uint16_t from) { return 1u << 8 | uint32_t{from} << 16; }

// LOG-6.12 and LOG-6.10: when the reference card stops answering, the
// DUT's accesses to it, and its fault to a page it owns, complete
// UNREACHABLE once the transport gives up; local accesses go on; the
// firmware's mailbox gets the news once.
void FailedHomeIsUnreachable(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto drop = [](PortFrame&) { return FrameWire::EditResult::kDrop; };
  bench.wire().SetEdit(FrameDirection::kFromDut, drop);
  bench.wire().SetEdit(FrameDirection::kToDut, drop);
  auto store = Issue([=, &bench] {
    return bench.requester(0).Store(DirectGa(kPeer, 0x100), Pattern(8, 1));
  });
  auto load = Issue([=, &bench] {
    return bench.requester(1).Load(DirectGa(kPeer, 0x200), 8);
  });
  const Answer local =
      bench.requester(2).Store(DirectGa(kDut, 0x100), Pattern(8, 2));
  verdict.Expect(local.status == AccessStatus::kOk,
                 "a local store while the home was silent completed " +
                     std::string(AccessStatusName(local.status)),
                 {"LOG-6.12"});
  // The engine's ACK timeout (about 1 ms) and its 7 retries.
  const sc_time give_up(20, SC_MS);
  const bool done = AwaitDone(*store, give_up) && AwaitDone(*load, give_up);
  verdict.Expect(
      done && store->answer.status == AccessStatus::kUnreachable &&
          load->answer.status == AccessStatus::kUnreachable,
      std::string("the store and load to the silent home ") +
          (done ? "completed " +
                      std::string(AccessStatusName(store->answer.status)) +
                      " and " + AccessStatusName(load->answer.status)
                : "did not complete within 20 ms") +
          ", not UNREACHABLE",
      {"LOG-6.12"});
  const Answer fault = bench.requester(0).Load(PagedGa(kPeer, 3), 8);
  verdict.Expect(fault.status == AccessStatus::kUnreachable,
                 "a fault to the failed owner completed " +
                     std::string(AccessStatusName(fault.status)),
                 {"LOG-6.12"});
  RegisterMaster& csr = bench.dut_csr();
  const uint32_t count = csr.Read(regs::kMbCountOffset);
  const uint32_t word0 = csr.Read(regs::MbDataOffset(0));
  verdict.Expect(count == 1 && word0 == LostHead(kPeer),
                 "the mailbox holds " + std::to_string(count) +
                     " entries, the head's word 0 " + Hex(word0) +
                     "; expected one, LOST from node " + std::to_string(kPeer) +
                     " (" + Hex(LostHead(kPeer)) + ")",
                 {"LOG-6.10"});
}

// LOG-6.10 and LOG-6.8, the DUT's firmware's mailbox: a FRAME_ALLOC_REQ
// from the reference card waits in it with the MAIL interrupt cause, and
// the firmware's answer leaves through MB_SEND; the DUT as owner sends an
// INVAL_REQ through INV_*, resends it after log.inval_retry when the
// acknowledgement is lost, and delivers the INVAL_ACK to the mailbox.
void MailboxCarriesFirmwaresMessages(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RegisterMaster& csr = bench.dut_csr();
  logical::FrameAllocRequest alloc;
  alloc.request_id = 9;
  verdict.Expect(bench.SendFromPeer(logical::EncodeLogMessage(alloc)),
                 "the bench could not send the FRAME_ALLOC_REQ");
  sc_core::wait(2, SC_US);
  std::vector<uint32_t> expected = {
      MailHead(LogMessageType::kFrameAllocRequest, false, kPeer)};
  for (const uint32_t word : MailWords(logical::EncodeLogMessage(alloc))) {
    expected.push_back(word);
  }
  std::vector<uint32_t> words;
  for (uint32_t i = 0; i < expected.size(); ++i) {
    words.push_back(csr.Read(regs::MbDataOffset(i)));
  }
  const uint32_t waiting = csr.Read(regs::kMbCountOffset);
  const bool mail =
      (csr.Read(regs::kIrqStatusOffset) & regs::kIrqStatusMail.Mask()) != 0;
  verdict.Expect(waiting == 1 && words == expected && mail,
                 "a FRAME_ALLOC_REQ from node " + std::to_string(kPeer) +
                     " left MB_COUNT " + std::to_string(waiting) +
                     ", MB_DATA0 " + Hex(words[0]) + " (expected " +
                     Hex(expected[0]) + ") and the MAIL cause " +
                     (mail ? "raised" : "low"),
                 {"LOG-6.10"});
  csr.Write(regs::kMbPopOffset, regs::kMbPopPop.Mask());

  logical::FrameAllocResponse grant;
  grant.granted = true;
  grant.request_id = 9;
  grant.frame = 200;
  const Bytes grant_bytes = logical::EncodeLogMessage(grant);
  const std::vector<uint32_t> grant_words = MailWords(grant_bytes);
  size_t from = bench.wire().log().size();
  csr.Write(regs::kMbSendNodeOffset, kPeer);
  for (uint32_t i = 0; i < grant_words.size(); ++i) {
    csr.Write(regs::MbSendDataOffset(i), grant_words[i]);
  }
  csr.Write(regs::kMbSendOffset, regs::kMbSendSend.Mask());
  const auto sent_at = AwaitFrame(
      bench.wire(), LogSendFromDut(LogMessageType::kFrameAllocResponse),
      kWithin, from);
  verdict.Expect(
      sent_at && bench.wire().log()[*sent_at].packet->payload == grant_bytes,
      "MB_SEND of a FRAME_ALLOC_RSP sent " +
          (sent_at ? Evidence(bench.wire().log()[*sent_at])
                   : std::string("nothing")) +
          ", not its 16 bytes",
      {"LOG-6.10"});

  // An invalidation from the DUT as owner, its first acknowledgement lost.
  bench.wire().SetEdit(
      FrameDirection::kToDut, DropFirst([](const PortFrame& frame) {
        return CarriesLogMessage(frame, LogMessageType::kInvalAck);
      }));
  from = bench.wire().log().size();
  csr.Write(regs::kInvNodeOffset, kPeer);
  WriteWide(csr, regs::kInvGaLoOffset, PagedGa(kDut, 4));
  csr.Write(regs::kInvPagesOffset, 1);
  csr.Write(regs::kInvSendOffset, regs::kInvSendSend.Mask());
  const uint32_t inval_id = csr.Read(regs::kInvIdOffset);
  const auto request_at =
      AwaitFrame(bench.wire(), LogSendFromDut(LogMessageType::kInvalRequest),
                 kWithin, from);
  const auto message =
      request_at ? LogMessageOf(bench.wire().log()[*request_at]) : std::nullopt;
  const auto* request =
      message ? std::get_if<logical::InvalRequest>(&*message) : nullptr;
  verdict.Expect(request != nullptr && request->inval_id == inval_id &&
                     request->ga == PagedGa(kDut, 4) && request->pages == 1,
                 "INV_SEND sent " +
                     (request_at ? Evidence(bench.wire().log()[*request_at])
                                 : std::string("nothing")) +
                     ", not an INVAL_REQ of INV_ID " + Hex(inval_id) +
                     " for one page at INV_GA",
                 {"LOG-6.8", "LOG-6.10"});
  const sc_time retry(1, SC_MS);  // log.inval_retry
  const auto resent_at =
      request_at ? AwaitFrame(bench.wire(),
                              LogSendFromDut(LogMessageType::kInvalRequest),
                              retry + kWithin, *request_at + 1)
                 : std::nullopt;
  const sc_time resent = resent_at ? bench.wire().log()[*resent_at].at -
                                         bench.wire().log()[*request_at].at
                                   : sc_time();
  verdict.Expect(resent_at && resent >= retry && resent <= retry + kWithin,
                 "with its INVAL_ACK lost the INVAL_REQ was " +
                     (resent_at ? "resent after " + resent.to_string()
                                : std::string("not resent")) +
                     "; log.inval_retry is 1 ms",
                 {"LOG-6.8"});
  sc_core::wait(kWithin);
  const uint32_t word0 = csr.Read(regs::MbDataOffset(0));
  const uint32_t held = csr.Read(regs::kMbCountOffset);
  const uint32_t ack_head = MailHead(LogMessageType::kInvalAck, false, kPeer);
  verdict.Expect(held == 1 && word0 == ack_head,
                 "after the resent INVAL_REQ's acknowledgement the mailbox "
                 "holds " +
                     std::to_string(held) + " entries, MB_DATA0 " + Hex(word0) +
                     ", not one INVAL_ACK (" + Hex(ack_head) + ")",
                 {"LOG-6.8", "LOG-6.10"});
}

}  // namespace

std::vector<ConformanceCase> LogFirmwareCases() {
  return {
      LogicalCase("LOG_5_4_TranslatesThroughFirmwaresEntries",
                  TranslatesThroughFirmwaresEntries),
      LogicalCase("LOG_6_13_CopiesBetweenDirectRegions",
                  CopiesBetweenDirectRegions),
      LogicalCase("LOG_6_12_FailedHomeIsUnreachable", FailedHomeIsUnreachable,
                  sc_time(40, SC_MS)),
      LogicalCase("LOG_6_10_MailboxCarriesFirmwaresMessages",
                  MailboxCarriesFirmwaresMessages, sc_time(5, SC_MS)),
  };
}

}  // namespace lq::conformance
