// SPDX-License-Identifier: Apache-2.0
// Transport conformance cases, trn.md section 5 and TRN-6.1, TRN-6.15:
// queue-pair states, modifies, QPNs, attribute defaults and connection
// set-up, seen through the DUT's API and at its port.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "generated/cpp/transport_regs.h"
#include "systemc/conformance/conformance_case.h"
#include "systemc/conformance/trn_case_helpers.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::transport;
using sc_core::sc_time;
using sc_core::SC_US;
using transport::QpModify;
using transport::QpState;
using transport::TransportEngine;

QpModify To(QpState state) {
  QpModify modify;
  modify.to = state;
  return modify;
}

// Expects `modify` of `qpn` to succeed or fail as `allowed` says, and the
// QP to be in `after` then.
void ExpectModify(TransportCaseContext& context, uint32_t qpn,
                  const QpModify& modify, bool allowed, QpState after,
                  const std::string& what, const char* clause) {
  TransportEngine& dut = context.bench.dut();
  const bool done = dut.ModifyQp(qpn, modify).ok();
  context.verdict.Expect(done == allowed && dut.qp_state(qpn) == after,
                         what + (done ? " was accepted" : " was refused") +
                             ", leaving " +
                             transport::QpStateName(dut.qp_state(qpn)),
                         {clause});
}

// Every transition of the diagram that a modify may take, and some it
// may not; QPNs as they are allocated and destroyed.
void QpStatesChangeOnlyAsShown(TransportCaseContext& context) {
  TransportEngine& dut = context.bench.dut();
  Verdict& verdict = context.verdict;
  const uint32_t q = dut.CreateQp();
  verdict.Expect(q == 2 && dut.qp_state(q) == QpState::kReset,
                 "the first QP is " + std::to_string(q) + " in " +
                     transport::QpStateName(dut.qp_state(q)) +
                     "; expected 2 in RESET",
                 {"TRN-5.4", "TRN-5.1"});
  QpModify rtr = To(QpState::kRtr);
  rtr.remote_node = TransportBench::kPeerNode;
  rtr.remote_qpn = 2;
  using S = QpState;
  struct Step {
    QpModify modify;
    bool allowed;
    S after;
  };
  // From RESET, each of the diagram's modifies at least once, with the
  // refused ones between them.
  const std::vector<Step> steps = {
      {rtr, false, S::kReset},
      {To(S::kRts), false, S::kReset},
      {To(S::kError), false, S::kReset},
      {To(S::kInit), true, S::kInit},
      {To(S::kRts), false, S::kInit},
      {To(S::kReset), true, S::kReset},
      {To(S::kInit), true, S::kInit},
      {To(S::kError), true, S::kError},
      {To(S::kRts), false, S::kError},
      {To(S::kReset), true, S::kReset},
      {To(S::kInit), true, S::kInit},
      {rtr, true, S::kRtr},
      {To(S::kInit), false, S::kRtr},
      {To(S::kError), true, S::kError},
      {To(S::kReset), true, S::kReset},
      {To(S::kInit), true, S::kInit},
      {rtr, true, S::kRtr},
      {To(S::kReset), true, S::kReset},
      {To(S::kInit), true, S::kInit},
      {rtr, true, S::kRtr},
      {To(S::kRts), true, S::kRts},
      {To(S::kRtr), false, S::kRts},
      {To(S::kReset), true, S::kReset},
      {To(S::kInit), true, S::kInit},
      {rtr, true, S::kRtr},
      {To(S::kRts), true, S::kRts},
      {To(S::kError), true, S::kError},
      {To(S::kReset), true, S::kReset},
  };
  for (const Step& step : steps) {
    const std::string what =
        std::string(transport::QpStateName(dut.qp_state(q))) + " -> " +
        transport::QpStateName(step.modify.to);
    ExpectModify(context, q, step.modify, step.allowed, step.after, what,
                 "TRN-5.1");
  }
  // QPNs go on upward and a destroyed one is not given again.
  const uint32_t second = dut.CreateQp();
  const bool destroyed = dut.DestroyQp(second).ok();
  const uint32_t third = dut.CreateQp();
  verdict.Expect(second == 3 && destroyed && third == 4,
                 "QPNs " + std::to_string(second) +
                     " then, after destroying "
                     "it, " +
                     std::to_string(third) + "; expected 3 then 4",
                 {"TRN-5.4"});
}

// Modifies with attributes out of range; then a connection with defaults.
void ABadModifyFailsAndChangesNothing(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  TransportEngine& dut = bench.dut();
  Verdict& verdict = context.verdict;
  const uint32_t q = dut.CreateQp();
  const uint32_t p = bench.peer().CreateQp();
  QpModify init = To(QpState::kInit);
  if (!verdict.Expect(
          dut.ModifyQp(q, init).ok() && bench.peer().ModifyQp(p, init).ok(),
          "RESET -> INIT refused")) {
    return;
  }
  QpModify rtr = To(QpState::kRtr);
  rtr.remote_node = TransportBench::kPeerNode;
  rtr.remote_qpn = p;
  struct Bad {
    const char* what;
    QpModify modify;
    const char* clause;
  };
  std::vector<Bad> bad_rtr;
  bad_rtr.push_back({"PMTU 1000", rtr, "TRN-5.3"});
  bad_rtr.back().modify.pmtu = 1000;
  // Out-of-range PSNs whose low 24 bits are not the default 0, so that a
  // modify refused but half-applied would show.
  bad_rtr.push_back({"rq_psn 2^24 + 5", rtr, "TRN-5.3"});
  bad_rtr.back().modify.rq_psn = (1u << 24) + 5;
  bad_rtr.push_back({"min_rnr_timer 32", rtr, "TRN-5.3"});
  bad_rtr.back().modify.min_rnr_timer = 32;
  bad_rtr.push_back({"congestion control 'fastest'", rtr, "TRN-5.8"});
  bad_rtr.back().modify.congestion_control = "fastest";
  bad_rtr.push_back({"no remote QPN", rtr, "TRN-5.3"});
  bad_rtr.back().modify.remote_qpn.reset();
  for (const Bad& bad : bad_rtr) {
    ExpectModify(context, q, bad.modify, false, QpState::kInit,
                 std::string("INIT -> RTR with ") + bad.what, bad.clause);
  }
  ExpectModify(context, q, rtr, true, QpState::kRtr, "INIT -> RTR", "TRN-5.3");
  QpModify rts = To(QpState::kRts);
  std::vector<Bad> bad_rts;
  bad_rts.push_back({"sq_psn 2^24 + 7", rts, "TRN-5.3"});
  bad_rts.back().modify.sq_psn = (1u << 24) + 7;
  bad_rts.push_back({"timeout 32", rts, "TRN-5.3"});
  bad_rts.back().modify.timeout = 32;
  bad_rts.push_back({"retry_cnt 8", rts, "TRN-5.3"});
  bad_rts.back().modify.retry_cnt = 8;
  bad_rts.push_back({"rnr_retry 8", rts, "TRN-5.3"});
  bad_rts.back().modify.rnr_retry = 8;
  for (const Bad& bad : bad_rts) {
    ExpectModify(context, q, bad.modify, false, QpState::kRtr,
                 std::string("RTR -> RTS with ") + bad.what, bad.clause);
  }
  ExpectModify(context, q, rts, true, QpState::kRts, "RTR -> RTS", "TRN-5.3");
  // The partner with defaults too; its rq_psn 0 is the DUT's default sq_psn.
  QpModify peer_rtr = To(QpState::kRtr);
  peer_rtr.remote_node = TransportBench::kDutNode;
  peer_rtr.remote_qpn = q;
  if (!verdict.Expect(bench.peer().ModifyQp(p, peer_rtr).ok() &&
                          bench.peer().ModifyQp(p, rts).ok(),
                      "the partner's QP could not be connected")) {
    return;
  }
  // TRN-5.6: connecting puts nothing on the wire.
  sc_core::wait(sc_time(5, SC_US));
  verdict.Expect(
      bench.wire().log().empty(),
      "frames crossed the port before any work request: " +
          (bench.wire().log().empty() ? std::string()
                                      : Evidence(bench.wire().log().front())),
      {"TRN-5.6"});
  // Nothing the refused modifies named took: PMTU 4096, first PSN 0.
  FillPattern(bench.dut_memory(), 0, 5000, 3);
  if (!PostOrFail(context, dut, q, WriteWr(1, 5000, 0, bench.peer_rkey()), 0)) {
    return;
  }
  ExpectSuccess(context, AwaitCompletions(dut, 1, sc_time(50, SC_US)), 1,
                {"TRN-5.5"});
  const auto sent = FramesWhere(bench.wire(), RequestFromDut());
  verdict.Expect(
      sent.size() == 2 && sent[0]->packet->payload.size() == 4096 &&
          sent[0]->packet->bth.psn == 0 &&
          sent[1]->packet->payload.size() == 904,
      "with default attributes a 5000 B WRITE went as " +
          std::to_string(sent.size()) + " packets, the first " +
          (sent.empty() ? std::string("none") : Evidence(*sent.front())) +
          "; expected PMTU 4096 from PSN 0",
      {"TRN-5.5", "TRN-5.3"});
  // And the DUT expects PSN 0 (rq_psn's default), not 5.
  const Bytes data = FillPattern(bench.peer_memory(), 0, 64, 4);
  if (!PostOrFail(context, bench.peer(), p,
                  WriteWr(2, 64, 0x8000, bench.dut_rkey()), 0)) {
    return;
  }
  const auto done = AwaitCompletions(bench.peer(), 1, sc_time(50, SC_US));
  verdict.Expect(
      done.size() == 1 &&
          done[0].completion.status == transport::CompletionStatus::kSuccess &&
          ReadMemory(bench.dut_memory(), 0x8000, 64) == data,
      "the partner's WRITE from PSN 0 was not executed: the DUT "
      "does not expect PSN 0",
      {"TRN-5.5", "TRN-5.3"});
}

// At each PMTU but 1024 (the other cases' own): a WRITE of 2 PMTU + 88 B
// goes as PMTU, PMTU, 88.
void SegmentsAtEveryPmtu(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  for (const uint32_t pmtu : {256u, 512u, 2048u, 4096u}) {
    ConnectionOptions options;
    options.pmtu = pmtu;
    const auto c = ConnectOrFail(context, options);
    if (!c) {
      return;
    }
    const size_t mark = bench.wire().log().size();
    const uint32_t length = pmtu * 2 + 88;
    if (!PostOrFail(context, bench.dut(), c->dut_qpn,
                    WriteWr(pmtu, length, 0, bench.peer_rkey()), 0)) {
      return;
    }
    AwaitCompletions(bench.dut(), 1, sc_time(20, SC_US));
    const auto sent = FramesWhere(bench.wire(), RequestFromDut(), mark);
    std::vector<size_t> payloads;
    for (const PortFrame* frame : sent) {
      payloads.push_back(frame->packet->payload.size());
    }
    verdict.Expect(payloads == std::vector<size_t>{pmtu, pmtu, 88},
                   "PMTU " + std::to_string(pmtu) + ": a " +
                       std::to_string(length) + " B WRITE went as " +
                       std::to_string(payloads.size()) + " packets",
                   {"TRN-6.1"});
  }
}

// A WRITE whose bytes lie past the end of the DUT's memory.
void AnUnreadableLocalBufferFailsTheWr(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  const auto c = ConnectOrFail(context);
  if (!c ||
      !PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(1, 64, 0, bench.peer_rkey()),
                  TransportBench::kMemoryBytes - 16) ||
      !PostOrFail(context, bench.dut(), c->dut_qpn,
                  WriteWr(2, 64, 0, bench.peer_rkey()), 0)) {
    return;
  }
  const auto done = AwaitCompletions(bench.dut(), 2, sc_time(20, SC_US));
  verdict.Expect(
      done.size() == 2 && done[0].completion.wr_id == 1 &&
          done[0].completion.status ==
              transport::CompletionStatus::kLocProtErr &&
          done[1].completion.wr_id == 2 &&
          done[1].completion.status == transport::CompletionStatus::kFlushErr,
      "expected WR 1 LOC_PROT_ERR, then WR 2 FLUSH_ERR; " +
          std::to_string(done.size()) + " completions",
      {"TRN-6.15"});
  verdict.Expect(bench.dut().qp_state(c->dut_qpn) == QpState::kError,
                 "the QP did not go to ERROR", {"TRN-6.15"});
  verdict.Expect(FramesWhere(bench.wire(), RequestFromDut()).empty(),
                 "the failed WR, or the one after it, was sent", {"TRN-6.15"});
}

// The DUT's register block as firmware drives it (TRN-5.7); a bus error is
// evidence against the clause.
class Firmware {
 public:
  explicit Firmware(TransportCaseContext& context)
      : csr_(context.bench.dut_csr()), verdict_(context.verdict) {}

  uint32_t Read(uint32_t offset) {
    uint32_t value = 0;
    verdict_.Expect(csr_.Access(tlm::TLM_READ_COMMAND, offset, value) ==
                        tlm::TLM_OK_RESPONSE,
                    "bus error reading " + std::to_string(offset), {"TRN-5.7"});
    return value;
  }
  void Write(uint32_t offset, uint32_t value) {
    verdict_.Expect(csr_.Access(tlm::TLM_WRITE_COMMAND, offset, value) ==
                        tlm::TLM_OK_RESPONSE,
                    "bus error writing " + std::to_string(offset), {"TRN-5.7"});
  }
  void Wide(uint32_t lo_offset, uint64_t value) {
    Write(lo_offset, static_cast<uint32_t>(value));
    Write(lo_offset + 4, static_cast<uint32_t>(value >> 32));
  }
  // QP_CMD with `fields`; returns CMD_STATUS's result.
  uint32_t Command(uint32_t qpn, regs::QpCmd command, uint32_t fields = 0) {
    Write(regs::kQpNumOffset, qpn);
    Write(regs::kQpCmdOffset,
          regs::kQpCmdCmd.Place(static_cast<uint32_t>(command)) | fields);
    return Read(regs::kCmdStatusOffset);
  }
  uint32_t Modify(uint32_t qpn, regs::State to) {
    return Command(qpn, regs::QpCmd::kModify,
                   regs::kQpCmdToState.Place(static_cast<uint32_t>(to)));
  }

 private:
  RegisterMaster& csr_;
  Verdict& verdict_;
};

constexpr uint32_t kCmdOk = static_cast<uint32_t>(regs::CmdResult::kOk);

// A transport case whose DUT firmware owns, through its registers.
ConformanceCase FirmwareCase(const char* name,
                             std::function<void(TransportCaseContext&)> body) {
  ConformanceCase c = TransportCase(name, std::move(body));
  c.transport_bench.registers = true;
  return c;
}

// TRN-5.7: firmware connects a QP through the DUT's registers (the
// partner through its API), is refused a bad step, posts a WRITE by
// doorbell and takes its completion from the CQE registers.
void FirmwareConnectsThroughRegisters(TransportCaseContext& context) {
  TransportBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  Firmware firmware(context);
  const uint32_t peer_qpn = bench.peer().CreateQp();
  firmware.Write(
      regs::kQpCmdOffset,
      regs::kQpCmdCmd.Place(static_cast<uint32_t>(regs::QpCmd::kCreate)));
  const uint32_t created = firmware.Read(regs::kCmdStatusOffset);
  const uint32_t qpn = firmware.Read(regs::kQpNumOffset);
  verdict.Expect(created == kCmdOk && bench.dut().has_qp(qpn),
                 "CREATE gave status " + std::to_string(created) + " and QPN " +
                     std::to_string(qpn),
                 {"TRN-5.7"});
  // TRN-5.3 through the registers: RESET -> RTS is refused, an unknown
  // QP is reported as such.
  const uint32_t refused = firmware.Modify(qpn, regs::State::kRts);
  const uint32_t unknown = firmware.Modify(qpn + 100, regs::State::kInit);
  verdict.Expect(
      refused == static_cast<uint32_t>(regs::CmdResult::kRefused) &&
          unknown == static_cast<uint32_t>(regs::CmdResult::kNoSuch) &&
          firmware.Read(regs::kQpStateOffset) ==
              static_cast<uint32_t>(regs::State::kReset),
      "RESET -> RTS gave " + std::to_string(refused) + ", an unknown QP " +
          std::to_string(unknown),
      {"TRN-5.7"});
  // TRN-5.6's steps: INIT; RTR with the partner and PMTU 1024; RTS.
  uint32_t steps = firmware.Modify(qpn, regs::State::kInit);
  firmware.Write(regs::kQpRemoteNodeOffset, TransportBench::kPeerNode);
  firmware.Write(regs::kQpRemoteQpnOffset, peer_qpn);
  firmware.Write(regs::kQpRqPsnOffset, 0);
  firmware.Write(regs::kQpPathOffset, regs::kQpPathPmtu.Place(3));
  steps |= firmware.Modify(qpn, regs::State::kRtr);
  firmware.Write(regs::kQpSqPsnOffset, 0x100);
  steps |= firmware.Modify(qpn, regs::State::kRts);
  QpModify rtr = To(QpState::kRtr);
  rtr.remote_node = TransportBench::kDutNode;
  rtr.remote_qpn = qpn;
  rtr.pmtu = 1024;
  rtr.rq_psn = 0x100;
  const bool partner =
      bench.peer().ModifyQp(peer_qpn, To(QpState::kInit)).ok() &&
      bench.peer().ModifyQp(peer_qpn, rtr).ok() &&
      bench.peer().ModifyQp(peer_qpn, To(QpState::kRts)).ok();
  if (!verdict.Expect(steps == kCmdOk && partner &&
                          bench.dut().qp_state(qpn) == QpState::kRts,
                      "the set-up steps through the registers failed",
                      {"TRN-5.7"})) {
    return;
  }
  verdict.Expect(bench.wire().log().empty(),
                 "the set-up put frames on the wire", {"TRN-5.7"});
  // A WRITE by doorbell, and its completion from the CQE registers.
  const Bytes data = FillPattern(bench.dut_memory(), 0, 2000, 9);
  firmware.Wide(regs::kWrIdLoOffset, 0x77);
  firmware.Write(
      regs::kWrOpOffset,
      regs::kWrOpKind.Place(static_cast<uint32_t>(regs::WrKind::kWrite)));
  firmware.Write(regs::kWrLengthOffset, 2000);
  firmware.Wide(regs::kWrLocalLoOffset, 0);
  firmware.Wide(regs::kWrRemoteLoOffset, 0x20000);
  firmware.Write(regs::kWrRkeyOffset, bench.peer_rkey());
  firmware.Write(regs::kSqDoorbellOffset, qpn);
  verdict.Expect(firmware.Read(regs::kCmdStatusOffset) == kCmdOk,
                 "the doorbell was refused", {"TRN-5.7"});
  for (int t = 0; t < 50 && firmware.Read(regs::kCqCountOffset) == 0; ++t) {
    sc_core::wait(sc_time(1, SC_US));
  }
  const uint32_t cqe_qp = firmware.Read(regs::kCqeQpOffset);
  const uint32_t status = firmware.Read(regs::kCqeStatusOffset);
  const uint64_t wr_id = firmware.Read(regs::kCqeWrIdLoOffset) |
                         uint64_t{firmware.Read(regs::kCqeWrIdHiOffset)} << 32;
  verdict.Expect(regs::kCqeQpValid.Read(cqe_qp) != 0 &&
                     regs::kCqeQpQpn.Read(cqe_qp) == qpn &&
                     regs::kCqeStatusStatus.Read(status) ==
                         static_cast<uint32_t>(regs::WcStatus::kSuccess) &&
                     wr_id == 0x77,
                 "CQE: QP word " + std::to_string(cqe_qp) + ", status " +
                     std::to_string(status) + ", wr_id " +
                     std::to_string(wr_id),
                 {"TRN-5.7"});
  const auto writes = FramesWhere(bench.wire(), RequestFromDut());
  verdict.Expect(writes.size() == 2 && writes[0]->packet &&
                     writes[0]->packet->bth.psn == 0x100 &&
                     writes[0]->packet->bth.dest_qp == peer_qpn &&
                     ReadMemory(bench.peer_memory(), 0x20000, 2000) == data,
                 std::to_string(writes.size()) +
                     " WRITE packets from the DUT, not 2 from PSN 0x100 to the "
                     "partner's QP with the data",
                 {"TRN-5.7"});
}

}  // namespace

std::vector<ConformanceCase> TrnQpCases() {
  return {
      TransportCase("TRN_5_1_QpStatesChangeOnlyAsShown",
                    QpStatesChangeOnlyAsShown),
      TransportCase("TRN_5_3_ABadModifyFailsAndChangesNothing",
                    ABadModifyFailsAndChangesNothing),
      FirmwareCase("TRN_5_7_FirmwareConnectsThroughRegisters",
                   FirmwareConnectsThroughRegisters),
      TransportCase("TRN_6_1_SegmentsAtEveryPmtu", SegmentsAtEveryPmtu),
      TransportCase("TRN_6_15_AnUnreadableLocalBufferFailsTheWr",
                    AnUnreadableLocalBufferFailsTheWr),
  };
}

}  // namespace lq::conformance
