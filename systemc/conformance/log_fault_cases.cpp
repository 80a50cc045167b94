// SPDX-License-Identifier: Apache-2.0
// Logical-layer conformance cases, log.md section 6 and LOG-2.5, LOG-4.2:
// the cross-node page-fault protocol at the DUT's port, with the DUT as
// requester (the reference card owns the pages and the bench is its
// firmware) and as owner (the bench is the DUT's firmware, through its
// registers), and the LOG messages it must discard.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "generated/cpp/logical_regs.h"
#include "systemc/common/stat_list.h"
#include "systemc/conformance/log_case_helpers.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::logical;
using logical::AccessKind;
using logical::AccessStatus;
using logical::AccessStatusName;
using logical::FaultCause;
using logical::FaultRecord;
using logical::FaultRequest;
using logical::FaultResponse;
using logical::FaultStatus;
using logical::LogMessageType;
using logical::RejectReason;
using logical::testing::Answer;
using roce::Opcode;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

// The message of the record's frame `index`, as type T, if it is one.
template <typename T>
std::optional<T> MessageAt(const FrameWire& wire, size_t index) {
  const auto message = LogMessageOf(wire.log()[index]);
  if (!message || !std::holds_alternative<T>(*message)) {
    return std::nullopt;
  }
  return std::get<T>(*message);
}

std::string Describe(const FaultRequest& request) {
  return "ACCESS " + std::to_string(static_cast<int>(request.access)) +
         " CAUSE " + std::to_string(static_cast<int>(request.cause)) +
         " REQUESTER " + std::to_string(request.requester) + " GA " +
         Hex(request.ga) + " SIZE " + std::to_string(request.size);
}

// LOG-6.1, LOG-6.10, LOG-4.2, LOG-6.6, the DUT as requester: accesses to
// two unmapped pages of the reference card send one FAULT_REQ per page,
// laid out as LOG-6.10 says, and nothing else; the page answered first
// goes on while the other's accesses wait; those then go in issue order
// under the PTE, which stays installed.
void FaultGoesToTheOwnerOnce(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const size_t from = bench.wire().log().size();
  const uint64_t load_ga = PagedGa(kPeer, 2, 0x10);
  const uint64_t store_ga = PagedGa(kPeer, 2, 0x20);
  const uint64_t other_ga = PagedGa(kPeer, 7);
  const Bytes stored = Pattern(8, 0x5A);
  auto load =
      Issue([=, &bench] { return bench.requester(0).Load(load_ga, 16); });
  sc_core::wait(10, SC_NS);
  auto store =
      Issue([=, &bench] { return bench.requester(1).Store(store_ga, stored); });
  sc_core::wait(10, SC_NS);
  auto other =
      Issue([=, &bench] { return bench.requester(2).Load(other_ga, 8); });

  sc_core::wait(2, SC_US);
  const std::vector<const PortFrame*> requests = FramesWhere(
      bench.wire(), LogSendFromDut(LogMessageType::kFaultRequest), from);
  verdict.Expect(requests.size() == 2,
                 "the DUT sent " + std::to_string(requests.size()) +
                     " FAULT_REQs for three accesses to two pages",
                 {"LOG-6.1", "LOG-2.4", "LOG-6.10"});
  const std::vector<FaultRequest> expected = {
      {AccessKind::kLoad, FaultCause::kNotMapped, kDut, 0, load_ga, 16},
      {AccessKind::kLoad, FaultCause::kNotMapped, kDut, 0, other_ga, 8}};
  for (size_t i = 0; i < requests.size() && i < expected.size(); ++i) {
    const auto message = LogMessageOf(*requests[i]);
    const FaultRequest* request =
        message ? std::get_if<FaultRequest>(&*message) : nullptr;
    const FaultRequest& want = expected[i];
    verdict.Expect(
        request != nullptr && requests[i]->packet->payload.size() == 24 &&
            request->access == want.access && request->cause == want.cause &&
            request->requester == want.requester && request->ga == want.ga &&
            request->size == want.size,
        Evidence(*requests[i]) + " is not a 24-byte FAULT_REQ of " +
            Describe(want) +
            (request ? " but one of " + Describe(*request) : ""),
        {"LOG-6.10"});
  }
  verdict.Expect(FramesWhere(bench.wire(), RdmaFromDut(), from).empty(),
                 "the DUT performed a faulting access before its owner "
                 "answered",
                 {"LOG-6.1"});

  const auto first = AwaitFaultAtPeer(context, kWithin);
  const auto second = AwaitFaultAtPeer(context, kWithin);
  if (!verdict.Expect(first && second,
                      "the owner did not take a FAULT_REQ for each of the "
                      "two pages within 5 us")) {
    return;
  }

  // Page 7 answered first: its access completes, page 2's wait.
  const FaultRecord& page7 =
      logical::PageNumber(bench.peer().space(), first->request.ga) ==
              logical::PageNumber(bench.peer().space(), other_ga)
          ? *first
          : *second;
  const FaultRecord& page2 = &page7 == &*first ? *second : *first;
  const Bytes frame9 = Pattern(8, 0x33);
  bench.peer_memory().Poke(9 * kPage, frame9);
  AnswerFromPeer(context, page7, FaultStatus::kMap, GrantingPte(kPeer, 9));
  verdict.Expect(AwaitDone(*other, kWithin) &&
                     other->answer.status == AccessStatus::kOk &&
                     other->answer.data == frame9,
                 "the access to the page answered first did not complete "
                 "with the bytes of its frame",
                 {"LOG-4.2", "LOG-6.6"});
  verdict.Expect(!load->done && !store->done,
                 "an access to the page not yet answered completed",
                 {"LOG-6.1", "LOG-4.2"});

  const Bytes frame5 = Pattern(16, 0x44);
  bench.peer_memory().Poke(5 * kPage + 0x10, frame5);
  const size_t answered = bench.wire().log().size();
  AnswerFromPeer(context, page2, FaultStatus::kMap, GrantingPte(kPeer, 5));
  const bool done = AwaitDone(*load, kWithin) && AwaitDone(*store, kWithin);
  verdict.Expect(done && load->answer.status == AccessStatus::kOk &&
                     store->answer.status == AccessStatus::kOk &&
                     load->answer.data == frame5 &&
                     bench.peer_memory().Peek(5 * kPage + 0x20, 8) == stored,
                 "the held load and store did not complete at frame 5 once "
                 "their page was mapped",
                 {"LOG-6.6"});
  ExpectRdma(context, answered,
             {{Opcode::kReadRequest, 5 * kPage + 0x10, 16},
              {Opcode::kWriteOnly, 5 * kPage + 0x20, 8}},
             bench.peer().rkey(), "the held load and store, in issue order",
             {"LOG-6.6", "LOG-4.2"});

  // The PTE stays: the page faults no more.
  const size_t later = bench.wire().log().size();
  const Answer again = bench.requester(0).Load(PagedGa(kPeer, 2, 0x100), 8);
  verdict.Expect(
      again.status == AccessStatus::kOk &&
          FramesWhere(bench.wire(),
                      LogSendFromDut(LogMessageType::kFaultRequest), later)
              .empty(),
      "a later load from the mapped page faulted again or completed " +
          std::string(AccessStatusName(again.status)),
      {"LOG-6.6"});
}

// LOG-6.1 and LOG-5.8, the DUT as requester and owner at once: a fault on
// a page the DUT owns goes to its own fault queue, not onto the wire, even
// though the page's frame is at the other card; its firmware's answer then
// sends the access to that home.
void OwnFaultsSkipTheNetwork(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RegisterMaster& csr = bench.dut_csr();
  const uint64_t ga = PagedGa(kDut, 6, 0x20);
  const Bytes frame_bytes = Pattern(8, 0x71);
  bench.peer_memory().Poke(12 * kPage + 0x20, frame_bytes);
  const size_t from = bench.wire().log().size();
  auto load = Issue([=, &bench] { return bench.requester(0).Load(ga, 8); });
  sc_core::wait(2, SC_US);
  const auto sends = [&] {
    return FramesWhere(
        bench.wire(),
        [](const PortFrame& f) {
          return f.from_dut() && f.opcode() == Opcode::kSendOnly;
        },
        from);
  };
  const uint32_t queued = csr.Read(regs::kFqCountOffset);
  const uint32_t ga_word = csr.Read(regs::FqDataOffset(0));
  const uint32_t requester_word = csr.Read(regs::FqDataOffset(2));
  const size_t sent = sends().size();
  verdict.Expect(queued == 1 && (requester_word & 0xFFFF) == kDut &&
                     ga_word == static_cast<uint32_t>(ga) && sent == 0,
                 "a fault on a page the DUT owns left " +
                     std::to_string(queued) +
                     " records in its own fault queue (GA_LO " + Hex(ga_word) +
                     ", REQUESTER word " + Hex(requester_word) + ") and " +
                     std::to_string(sent) + " SENDs on the wire",
                 {"LOG-6.1", "LOG-5.8"});
  AnswerFromDutFirmware(csr, kDut, static_cast<uint16_t>(requester_word >> 16),
                        FaultStatus::kMap, PagedGa(kDut, 6),
                        GrantingPte(kPeer, 12));
  const bool done = AwaitDone(*load, kWithin);
  verdict.Expect(done && load->answer.status == AccessStatus::kOk &&
                     load->answer.data == frame_bytes && sends().empty(),
                 "the access did not complete with the bytes of frame 12 at "
                 "node " +
                     std::to_string(kPeer) +
                     " once the DUT's firmware answered, without a LOG "
                     "message on the wire",
                 {"LOG-6.1", "LOG-5.8"});
  ExpectRdma(context, from, {{Opcode::kReadRequest, 12 * kPage + 0x20, 8}},
             bench.peer().rkey(), "the load, once mapped to the other card",
             {"LOG-5.8"});
}

// LOG-6.5, LOG-6.6 and LOG-2.5: each REJECT completes the held access with
// its status, and the accesses held behind it fault in turn; a PTE whose
// frame lies outside the home's direct region is not used.
void RejectsCompleteWithTheirStatus(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  struct Rejection {
    RejectReason reason;
    AccessStatus status;
  };
  const std::vector<Rejection> rejections = {
      {RejectReason::kRange, AccessStatus::kAddressError},
      {RejectReason::kPermission, AccessStatus::kCommandError},
      {RejectReason::kNoMemory, AccessStatus::kFaultError},
      {RejectReason::kHomeLost, AccessStatus::kFaultError}};
  uint64_t page = 10;
  for (const Rejection& rejection : rejections) {
    auto access = Issue([=, &bench] {
      return bench.requester(0).Load(PagedGa(kPeer, page), 8);
    });
    const auto record = AwaitFaultAtPeer(context, kWithin);
    if (!verdict.Expect(record.has_value(), "no FAULT_REQ reached the owner")) {
      return;
    }
    AnswerFromPeer(context, *record, FaultStatus::kReject, 0, rejection.reason);
    const bool done = AwaitDone(*access, kWithin);
    verdict.Expect(done && access->answer.status == rejection.status,
                   "REJECT with REASON " +
                       std::to_string(static_cast<int>(rejection.reason)) +
                       " completed the access " +
                       (access->done ? AccessStatusName(access->answer.status)
                                     : "not at all") +
                       ", not " + AccessStatusName(rejection.status),
                   {"LOG-6.5"});
    ++page;
  }

  // ALLOCATED and MIGRATED install their PTE as MAP does.
  for (const FaultStatus grant :
       {FaultStatus::kAllocated, FaultStatus::kMigrated}) {
    const uint64_t ga = PagedGa(kPeer, page, 0x18);
    const auto frame = static_cast<uint32_t>(page);
    const Bytes bytes = Pattern(8, static_cast<uint8_t>(page));
    bench.peer_memory().Poke(frame * kPage + 0x18, bytes);
    auto access = Issue([=, &bench] { return bench.requester(0).Load(ga, 8); });
    const auto record = AwaitFaultAtPeer(context, kWithin);
    if (!verdict.Expect(record.has_value(), "no FAULT_REQ reached the owner")) {
      return;
    }
    AnswerFromPeer(context, *record, grant, GrantingPte(kPeer, frame));
    const bool done = AwaitDone(*access, kWithin);
    verdict.Expect(done && access->answer.status == AccessStatus::kOk &&
                       access->answer.data == bytes,
                   "STATUS " + std::to_string(static_cast<int>(grant)) +
                       " did not complete the access with the bytes of the "
                       "frame its PTE names",
                   {"LOG-6.5"});
    ++page;
  }

  // Two accesses to one page: the first rejected, the second faults anew.
  const uint64_t ga = PagedGa(kPeer, page);
  auto rejected = Issue([=, &bench] { return bench.requester(0).Load(ga, 8); });
  sc_core::wait(10, SC_NS);
  auto behind =
      Issue([=, &bench] { return bench.requester(1).Load(ga + 8, 8); });
  const auto first = AwaitFaultAtPeer(context, kWithin);
  if (!verdict.Expect(first.has_value(), "no FAULT_REQ reached the owner")) {
    return;
  }
  AnswerFromPeer(context, *first, FaultStatus::kReject, 0,
                 RejectReason::kRange);
  const auto second = AwaitFaultAtPeer(context, kWithin);
  verdict.Expect(AwaitDone(*rejected, kWithin) && second &&
                     second->request.ga == ga + 8 && !behind->done,
                 "after a REJECT the access held behind it did not send a "
                 "FAULT_REQ of its own",
                 {"LOG-6.6"});
  if (second) {
    AnswerFromPeer(context, *second, FaultStatus::kMap, GrantingPte(kPeer, 3));
    verdict.Expect(AwaitDone(*behind, kWithin) &&
                       behind->answer.status == AccessStatus::kOk,
                   "the access held behind a REJECT did not complete once "
                   "its own fault was answered",
                   {"LOG-6.6"});
  }

  // A PTE past the home's direct region (LOG-2.5, LOG-5.3).
  const size_t from = bench.wire().log().size();
  const auto frames = static_cast<uint32_t>(LogicalBench::kDirectBytes / kPage);
  auto outside = Issue(
      [=, &bench] { return bench.requester(0).Load(PagedGa(kPeer, 30), 8); });
  const auto record = AwaitFaultAtPeer(context, kWithin);
  if (!verdict.Expect(record.has_value(), "no FAULT_REQ reached the owner")) {
    return;
  }
  AnswerFromPeer(context, *record, FaultStatus::kMap,
                 GrantingPte(kPeer, frames));
  const bool done = AwaitDone(*outside, kWithin);
  const size_t rdma = FramesWhere(bench.wire(), RdmaFromDut(), from).size();
  verdict.Expect(
      done && outside->answer.status == AccessStatus::kFaultError && rdma == 0,
      "given a PTE of frame " + std::to_string(frames) +
          ", past the home's direct region, the DUT " +
          (done ? "completed the access " +
                      std::string(AccessStatusName(outside->answer.status))
                : "did not complete the access") +
          " (LOG-5.3: FAULT_ERROR) and sent " + std::to_string(rdma) +
          " RDMA operations",
      {"LOG-2.5"});
}

// LOG-6.7: a FAULT_RSP that names no fault still waiting installs nothing
// and is counted; the real answer then completes the access.
void StrayFaultResponsesInstallNothing(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const uint64_t ga = PagedGa(kPeer, 12);
  const size_t from = bench.wire().log().size();
  auto access = Issue([=, &bench] { return bench.requester(0).Load(ga, 8); });
  const auto record = AwaitFaultAtPeer(context, kWithin);
  if (!verdict.Expect(record.has_value(), "no FAULT_REQ reached the owner")) {
    return;
  }
  FaultResponse stray;
  stray.status = FaultStatus::kMap;
  stray.page_ga = PagedGa(kPeer, 12);
  stray.pte = GrantingPte(kPeer, 6);
  stray.fault_id = static_cast<uint16_t>(record->request.fault_id + 1);
  bench.peer().AnswerFault(kDut, stray);
  FaultResponse other_page = stray;
  other_page.fault_id = record->request.fault_id;
  other_page.page_ga = PagedGa(kPeer, 13);
  bench.peer().AnswerFault(kDut, other_page);
  sc_core::wait(3, SC_US);
  const std::optional<uint64_t> late =
      StatValue(bench.dut().Stats(), "late_fault_responses");
  // Neither page has an entry: PT_CMD READ finds none (LOG-5.2).
  uint32_t entries = 0;
  for (const uint64_t page : {uint64_t{12}, uint64_t{13}}) {
    WriteWide(bench.dut_csr(), regs::kPtGaLoOffset, PagedGa(kPeer, page));
    bench.dut_csr().Write(regs::kPtCmdOffset,
                          static_cast<uint32_t>(regs::PtCmd::kRead));
    if (bench.dut_csr().Read(regs::kCmdStatusOffset) !=
        static_cast<uint32_t>(regs::CmdResult::kNoEntry)) {
      ++entries;
    }
  }
  const bool waits = !access->done;
  const size_t rdma = FramesWhere(bench.wire(), RdmaFromDut(), from).size();
  verdict.Expect(waits && late == 2 && rdma == 0 && entries == 0,
                 "after FAULT_RSPs naming another FAULT_ID and another page, "
                 "the access " +
                     std::string(waits ? "waits" : "completed") + ", " +
                     std::to_string(entries) +
                     " of the two pages have an entry, " +
                     std::to_string(rdma) +
                     " RDMA operations went and late_fault_responses is " +
                     (late ? std::to_string(*late) : "missing") + " of 2",
                 {"LOG-6.7"});
  AnswerFromPeer(context, *record, FaultStatus::kMap, GrantingPte(kPeer, 6));
  const bool done = AwaitDone(*access, kWithin);
  verdict.Expect(done && access->answer.status == AccessStatus::kOk,
                 "the right FAULT_RSP after two stray ones did not complete "
                 "the access",
                 {"LOG-6.7"});
}

// The index of the first FAULT_REQ to the DUT at `from` or later whose GA
// is `ga`, waiting `within` for it.
std::optional<size_t> AwaitFaultRequestToDut(FrameWire& wire, uint64_t ga,
                                             size_t from) {
  return AwaitFrame(
      wire,
      [ga](const PortFrame& frame) {
        const auto message = LogMessageOf(frame);
        return !frame.from_dut() && message &&
               std::holds_alternative<FaultRequest>(*message) &&
               std::get<FaultRequest>(*message).ga == ga;
      },
      kWithin, from);
}

// LOG-6.2, LOG-6.3, LOG-6.4 and LOG-6.10, the DUT as owner: a FAULT_REQ
// becomes a fault record its firmware reads from FQ_DATA with the FAULT
// interrupt raised; with the queue full the DUT answers BUSY at once; the
// firmware's answer leaves as a FAULT_RSP laid out as LOG-6.10 says.
void OwnerQueuesFaultsForFirmware(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  RegisterMaster& csr = bench.dut_csr();
  csr.Write(regs::kIrqEnableOffset, regs::kIrqEnableFault.Mask());
  const uint64_t ga = PagedGa(kDut, 3, 0x40);
  const size_t from = bench.wire().log().size();
  auto load =
      Issue([=, &bench] { return bench.peer_requester(0).Load(ga, 8); });
  const auto request_at = AwaitFaultRequestToDut(bench.wire(), ga, from);
  if (!verdict.Expect(request_at.has_value(),
                      "the reference card sent no FAULT_REQ")) {
    return;
  }
  const FaultRequest request =
      *MessageAt<FaultRequest>(bench.wire(), *request_at);
  const sc_time arrived = bench.wire().log()[*request_at].at;
  const sc_time deadline = sc_core::sc_time_stamp() + kWithin;
  while (!bench.dut_irq().read() && sc_core::sc_time_stamp() < deadline) {
    sc_core::wait(deadline - sc_core::sc_time_stamp(),
                  bench.dut_irq().posedge_event());
  }
  const bool raised = bench.dut_irq().read();
  const uint32_t queued = csr.Read(regs::kFqCountOffset);
  verdict.Expect(raised && queued == 1,
                 "5 us after a FAULT_REQ the FAULT interrupt is " +
                     std::string(raised ? "high" : "low") + " and FQ_COUNT " +
                     std::to_string(queued),
                 {"LOG-6.2"});
  uint32_t words[8];
  for (uint32_t i = 0; i < 8; ++i) {
    words[i] = csr.Read(regs::FqDataOffset(i));
  }
  // LOG-6.3's words: REQUESTER in 15:0 and FAULT_ID in 31:16 of word 2;
  // ACCESS in 7:0, CAUSE in 15:8 and SIZE in 31:16 of word 3.
  const uint32_t requester_word = uint32_t{kPeer} | uint32_t{request.fault_id}
                                                        << 16;
  const uint32_t access_word =
      static_cast<uint32_t>(AccessKind::kLoad) |
      static_cast<uint32_t>(FaultCause::kNotMapped) << 8 | uint32_t{8} << 16;
  const uint64_t time_ns = uint64_t{words[5]} << 32 | words[4];
  const auto arrived_ns = static_cast<uint64_t>(arrived.to_seconds() * 1e9);
  verdict.Expect(
      words[0] == static_cast<uint32_t>(ga) && words[1] == ga >> 32 &&
          words[2] == requester_word && words[3] == access_word &&
          words[7] == 0 && time_ns >= arrived_ns,
      "FQ_DATA0-7 read " + Hex(words[0]) + " " + Hex(words[1]) + " " +
          Hex(words[2]) + " " + Hex(words[3]) + " " + Hex(words[4]) + " " +
          Hex(words[5]) + " " + Hex(words[6]) + " " + Hex(words[7]) +
          " for a load of 8 B at " + Hex(ga) + " from node " +
          std::to_string(kPeer) + ", FAULT_ID " + Hex(request.fault_id) +
          ", that reached the wire at " + std::to_string(arrived_ns) + " ns",
      {"LOG-6.3"});

  // The queue (2 records) fills; a third FAULT_REQ is answered BUSY.
  const size_t busy_from = bench.wire().log().size();
  Issue([=, &bench] {
    return bench.peer_requester(1).Load(PagedGa(kDut, 4), 8);
  });
  sc_core::wait(1, SC_US);
  Issue([=, &bench] {
    return bench.peer_requester(2).Load(PagedGa(kDut, 5), 8);
  });
  const auto third_at =
      AwaitFaultRequestToDut(bench.wire(), PagedGa(kDut, 5), busy_from);
  const auto busy_at =
      third_at ? AwaitFrame(bench.wire(),
                            LogSendFromDut(LogMessageType::kFaultResponse),
                            kWithin, *third_at)
               : std::nullopt;
  const auto busy =
      busy_at ? MessageAt<FaultResponse>(bench.wire(), *busy_at) : std::nullopt;
  const auto third_request =
      third_at ? MessageAt<FaultRequest>(bench.wire(), *third_at)
               : std::nullopt;
  const bool at_once =
      busy_at && third_at &&
      bench.wire().log()[*busy_at].at - bench.wire().log()[*third_at].at <=
          sc_time(1, SC_US);
  const uint32_t full = csr.Read(regs::kFqCountOffset);
  verdict.Expect(
      busy && third_request && busy->status == FaultStatus::kBusy &&
          busy->reason == RejectReason::kNone &&
          busy->fault_id == third_request->fault_id && at_once && full == 2,
      "a FAULT_REQ to a full fault queue (FQ_COUNT " + std::to_string(full) +
          ") got " +
          (busy_at ? Evidence(bench.wire().log()[*busy_at]) : "no answer") +
          ", not a FAULT_RSP BUSY within 1 us",
      {"LOG-6.2"});

  // The firmware answers the head record: MAP to frame 7.
  const Bytes frame7 = Pattern(8, 0x66);
  bench.dut_memory().Poke(7 * kPage + 0x40, frame7);
  const uint64_t pte = GrantingPte(kDut, 7);
  const size_t answer_from = bench.wire().log().size();
  AnswerFromDutFirmware(csr, kPeer, request.fault_id, FaultStatus::kMap,
                        PagedGa(kDut, 3), pte);
  const uint32_t next_seq = csr.Read(regs::FqDataOffset(6));
  verdict.Expect(
      next_seq == words[6] + 1,
      "the next record's SEQ is " + Hex(next_seq) + " after " + Hex(words[6]),
      {"LOG-6.3"});
  const auto response_at =
      AwaitFrame(bench.wire(), LogSendFromDut(LogMessageType::kFaultResponse),
                 kWithin, answer_from);
  const auto response =
      response_at ? MessageAt<FaultResponse>(bench.wire(), *response_at)
                  : std::nullopt;
  verdict.Expect(
      response && response->status == FaultStatus::kMap &&
          response->reason == RejectReason::kNone &&
          response->fault_id == request.fault_id &&
          response->page_ga == PagedGa(kDut, 3) && response->pte == pte &&
          bench.wire().log()[*response_at].packet->payload.size() == 24,
      "after FR_SEND the DUT sent " +
          (response_at ? Evidence(bench.wire().log()[*response_at])
                       : std::string("nothing")) +
          ", not a 24-byte FAULT_RSP MAP echoing FAULT_ID " +
          Hex(request.fault_id) + " with the page's GA and PTE",
      {"LOG-6.4", "LOG-6.10"});
  const bool done = AwaitDone(*load, kWithin);
  verdict.Expect(done && load->answer.status == AccessStatus::kOk &&
                     load->answer.data == frame7,
                 "the reference card's load did not complete with the bytes "
                 "of the frame the DUT's firmware mapped",
                 {"LOG-6.4"});
}

// LOG-6.8 and LOG-6.10, the DUT as sharer: an INVAL_REQ from the owner
// removes the DUT's translation, so that its next access faults, and is
// acknowledged with an INVAL_ACK that echoes it; one for a page the DUT
// holds no entry for is acknowledged at once.
void InvalidationRemovesTranslations(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const uint64_t ga = PagedGa(kPeer, 8);
  auto map = [&](std::shared_ptr<Issued> access) {
    const auto record = AwaitFaultAtPeer(context, kWithin);
    if (record) {
      AnswerFromPeer(context, *record, FaultStatus::kMap,
                     GrantingPte(kPeer, 4));
    }
    return record.has_value() && AwaitDone(*access, kWithin) &&
           access->answer.status == AccessStatus::kOk;
  };
  if (!verdict.Expect(
          map(Issue([=, &bench] { return bench.requester(0).Load(ga, 8); })),
          "the first access to the page did not fault and complete")) {
    return;
  }
  for (const uint64_t page : {uint64_t{8}, uint64_t{9}}) {
    const size_t from = bench.wire().log().size();
    const auto id = bench.peer().Invalidate(kDut, PagedGa(kPeer, page), 1);
    const auto ack_at = AwaitFrame(
        bench.wire(), LogSendFromDut(LogMessageType::kInvalAck), kWithin, from);
    const auto ack = ack_at
                         ? MessageAt<logical::InvalAck>(bench.wire(), *ack_at)
                         : std::nullopt;
    verdict.Expect(id && ack && ack->inval_id == *id &&
                       ack->ga == PagedGa(kPeer, page) &&
                       bench.wire().log()[*ack_at].packet->payload.size() == 16,
                   "an INVAL_REQ for page " + std::to_string(page) +
                       (page == 8 ? " (mapped)" : " (never mapped)") + " got " +
                       (ack_at ? Evidence(bench.wire().log()[*ack_at])
                               : std::string("no INVAL_ACK")) +
                       ", not a 16-byte INVAL_ACK echoing its INVAL_ID and GA",
                   {"LOG-6.8", "LOG-6.10"});
  }
  const size_t from = bench.wire().log().size();
  auto again = Issue([=, &bench] { return bench.requester(0).Load(ga, 8); });
  verdict.Expect(
      AwaitFrame(bench.wire(), LogSendFromDut(LogMessageType::kFaultRequest),
                 kWithin, from)
          .has_value(),
      "after the INVAL_ACK an access to the invalidated page did not fault",
      {"LOG-6.8"});
  verdict.Expect(map(again),
                 "the access after the invalidation did not complete once "
                 "mapped again",
                 {"LOG-6.8"});
}

// LOG-6.10 and LOG-6.8: LOG messages the DUT must discard and count, and
// still serve the next good one.
void MalformedMessagesAreDiscarded(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  FaultRequest good;
  good.requester = kPeer;
  good.fault_id = 3;
  good.ga = PagedGa(kDut, 2);
  good.size = 8;
  const Bytes fault = logical::EncodeLogMessage(good);
  struct Bad {
    const char* what;
    Bytes bytes;
  };
  std::vector<Bad> bad = {
      {"TYPE 9", fault},
      {"a FAULT_REQ of 20 bytes", Bytes(fault.begin(), fault.begin() + 20)},
      {"a FAULT_REQ with reserved byte 3 set", fault},
      {"a FAULT_REQ with CAUSE 9", fault},
      {"a FAULT_REQ with ACCESS 3", fault},
      {"a FAULT_REQ naming node 5 as its REQUESTER", fault},
  };
  bad[0].bytes[0] = 9;
  bad[2].bytes[3] = 1;
  bad[3].bytes[2] = 9;
  bad[4].bytes[1] = 3;
  bad[5].bytes[5] = 5;
  FaultResponse response;
  response.fault_id = 1;
  response.page_ga = PagedGa(kPeer, 1);
  Bytes reason_with_map = logical::EncodeLogMessage(response);
  reason_with_map[2] = 1;
  bad.push_back({"a FAULT_RSP MAP with REASON 1", reason_with_map});
  const auto bad_messages = [&bench] {
    return StatValue(bench.dut().Stats(), "bad_messages").value_or(0);
  };
  const auto answers = [&bench](size_t from) {
    return FramesWhere(
               bench.wire(),
               [](const PortFrame& f) {
                 return f.from_dut() && f.opcode() == Opcode::kSendOnly;
               },
               from)
        .size();
  };

  size_t from = bench.wire().log().size();
  uint64_t before = bad_messages();
  for (const Bad& message : bad) {
    verdict.Expect(bench.SendFromPeer(message.bytes),
                   std::string("the bench could not send ") + message.what);
    sc_core::wait(1, SC_US);
  }
  sc_core::wait(3, SC_US);
  const uint64_t counted = bad_messages() - before;
  const uint32_t queued = bench.dut_csr().Read(regs::kFqCountOffset);
  const size_t answered = answers(from);
  verdict.Expect(counted == bad.size() && queued == 0 && answered == 0,
                 "of " + std::to_string(bad.size()) +
                     " malformed or misdirected messages the DUT counted " +
                     std::to_string(counted) + " in bad_messages, queued " +
                     std::to_string(queued) + " and answered " +
                     std::to_string(answered),
                 {"LOG-6.10"});

  // An INVAL_REQ for a page the DUT itself owns, from another node.
  logical::InvalRequest not_owner;
  not_owner.inval_id = 1;
  not_owner.ga = PagedGa(kDut, 2);
  not_owner.pages = 1;
  from = bench.wire().log().size();
  before = bad_messages();
  verdict.Expect(bench.SendFromPeer(logical::EncodeLogMessage(not_owner)),
                 "the bench could not send the INVAL_REQ");
  sc_core::wait(3, SC_US);
  const uint64_t counted_inval = bad_messages() - before;
  const size_t acks =
      FramesWhere(bench.wire(), LogSendFromDut(LogMessageType::kInvalAck), from)
          .size();
  verdict.Expect(counted_inval == 1 && acks == 0,
                 "an INVAL_REQ from node " + std::to_string(kPeer) +
                     " for a page node " + std::to_string(kDut) +
                     " owns was counted " + std::to_string(counted_inval) +
                     " times in bad_messages and acknowledged " +
                     std::to_string(acks) + " times",
                 {"LOG-6.8"});

  verdict.Expect(bench.SendFromPeer(fault),
                 "the bench could not send the good FAULT_REQ");
  sc_core::wait(3, SC_US);
  verdict.Expect(bench.dut_csr().Read(regs::kFqCountOffset) == 1,
                 "a good FAULT_REQ after the bad ones was not queued",
                 {"LOG-6.10"});
}

}  // namespace

std::vector<ConformanceCase> LogFaultCases() {
  return {
      LogicalCase("LOG_6_1_FaultGoesToTheOwnerOnce", FaultGoesToTheOwnerOnce),
      LogicalCase("LOG_6_1_OwnFaultsSkipTheNetwork", OwnFaultsSkipTheNetwork),
      LogicalCase("LOG_6_5_RejectsCompleteWithTheirStatus",
                  RejectsCompleteWithTheirStatus),
      LogicalCase("LOG_6_7_StrayFaultResponsesInstallNothing",
                  StrayFaultResponsesInstallNothing),
      LogicalCase("LOG_6_2_OwnerQueuesFaultsForFirmware",
                  OwnerQueuesFaultsForFirmware),
      LogicalCase("LOG_6_8_InvalidationRemovesTranslations",
                  InvalidationRemovesTranslations),
      LogicalCase("LOG_6_10_MalformedMessagesAreDiscarded",
                  MalformedMessagesAreDiscarded),
  };
}

}  // namespace lq::conformance
