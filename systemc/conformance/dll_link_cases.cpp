// SPDX-License-Identifier: Apache-2.0
// Conformance cases of the data-link layer's link management
// (docs/spec/dll.md sections 6-8 and 11: training, link events and
// interrupts, registers, control messages), driven through the DUT's port,
// network side and registers with a reference controller as the partner.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generated/cpp/lc_regs.h"
#include "models/common/hex.h"
#include "models/flit/sequence.h"
#include "models/flit/training_set.h"
#include "systemc/common/time_text.h"
#include "systemc/conformance/case_helpers.h"
#include "systemc/conformance/conformance_case.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::lc;
using flit::FlitType;
using flit::ReplayCommand;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

ConformanceCase TrainsToL0AtFullWidth() {
  ConformanceCase c;
  c.name = "DLL_6_1_TrainsToL0AtFullWidth";
  c.body = [](CaseContext& context) {
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const uint32_t status = context.bench.dut_csr().Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLtssm.Read(status) ==
                               static_cast<uint32_t>(regs::Ltssm::kL0),
                           "STATUS.LTSSM " +
                               Str(regs::kStatusLtssm.Read(status)) +
                               " with LINK_UP set, expected L0 (3)");
    const unsigned lanes = context.bench.profile().max_lanes;
    context.verdict.Expect(
        regs::kStatusWidth.Read(status) == lanes,
        "STATUS.WIDTH " + Str(regs::kStatusWidth.Read(status)) +
            " on a clean link, expected the profile's " + Str(lanes));
    context.verdict.Note("L0 at x" + Str(regs::kStatusWidth.Read(status)) +
                         " by " + Micros(sc_core::sc_time_stamp()));
  };
  return c;
}

ConformanceCase LinkUpRaisesInterrupt() {
  ConformanceCase c;
  c.name = "DLL_7_1_LinkUpRaisesInterrupt";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    csr.Write(regs::kIrqEnableOffset, regs::kIrqEnableLinkUp.Mask());
    const sc_time until = sc_core::sc_time_stamp() + kLinkUpWithin;
    sc_core::wait(kLinkUpWithin, context.bench.dut_irq().posedge_event());
    if (!context.verdict.Expect(
            sc_core::sc_time_stamp() < until,
            "no interrupt within " + Micros(kLinkUpWithin))) {
      return;
    }
    const uint32_t cause = csr.Read(regs::kIrqStatusOffset);
    context.verdict.Expect(
        regs::kIrqStatusLinkUp.Read(cause) != 0,
        "IRQ_STATUS " + Str(cause) + " does not name LINK_UP");
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLinkUp.Read(status) != 0,
                           "interrupt raised before STATUS.LINK_UP");
    csr.Write(regs::kIrqStatusOffset, cause);  // W1C (DLL-8.5).
    sc_core::wait(20, SC_NS);
    context.verdict.Expect(!context.bench.dut_irq().read(),
                           "the line stays high after IRQ_STATUS was cleared",
                           {"DLL-8.5"});
    context.verdict.Expect(
        regs::kIrqStatusLinkUp.Read(csr.Read(regs::kIrqStatusOffset)) == 0,
        "writing 1 did not clear IRQ_STATUS.LINK_UP", {"DLL-8.5"});
  };
  return c;
}

ConformanceCase UnmappedOffsetIsBusError() {
  ConformanceCase c;
  c.name = "DLL_8_1_UnmappedOrMisalignedAccessIsBusError";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    for (uint32_t offset : {0x0FCu, 0x034u, 0x200u, 0x006u}) {
      uint32_t value = 0;
      const tlm::tlm_response_status read =
          csr.Access(tlm::TLM_READ_COMMAND, offset, value);
      context.verdict.Expect(read != tlm::TLM_OK_RESPONSE,
                             "read of 0x" + HexText(offset) + " answered OK");
    }
    uint32_t ctrl_before = csr.Read(regs::kCtrlOffset);
    uint32_t value = 0;
    context.verdict.Expect(csr.Access(tlm::TLM_WRITE_COMMAND, 0x006, value) !=
                               tlm::TLM_OK_RESPONSE,
                           "misaligned write into CTRL answered OK");
    context.verdict.Expect(csr.Read(regs::kCtrlOffset) == ctrl_before,
                           "a refused write changed CTRL");
  };
  return c;
}

ConformanceCase BadWriteChangesNothing() {
  ConformanceCase c;
  c.name = "DLL_8_3_RefusedWriteChangesNothing";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    const uint32_t ctrl = csr.Read(regs::kCtrlOffset);
    uint32_t value = (ctrl & ~regs::kCtrlSelNakEn.Mask()) | 0x80000000u;
    context.verdict.Expect(csr.Access(tlm::TLM_WRITE_COMMAND, regs::kCtrlOffset,
                                      value) != tlm::TLM_OK_RESPONSE,
                           "CTRL write with reserved bit 31 answered OK");
    context.verdict.Expect(csr.Read(regs::kCtrlOffset) == ctrl,
                           "the refused CTRL write changed SEL_NAK_EN");
    const uint32_t timeout = csr.Read(regs::kReplayTimeoutOffset);
    value = 374;
    context.verdict.Expect(
        csr.Access(tlm::TLM_WRITE_COMMAND, regs::kReplayTimeoutOffset, value) !=
            tlm::TLM_OK_RESPONSE,
        "REPLAY_TIMEOUT 374 (< 375) answered OK");
    context.verdict.Expect(csr.Read(regs::kReplayTimeoutOffset) == timeout,
                           "the refused write changed REPLAY_TIMEOUT");
    value = 1;
    context.verdict.Expect(
        csr.Access(tlm::TLM_WRITE_COMMAND, regs::kStatusOffset, value) !=
            tlm::TLM_OK_RESPONSE,
        "write to read-only STATUS answered OK");
  };
  return c;
}

ConformanceCase DisableTakesLinkDown() {
  ConformanceCase c;
  c.name = "DLL_6_10_DisableSilencesAndEnableRetrains";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    WriteCtrl(csr, 0, regs::kCtrlEnable.Mask());
    const sc_time disabled_at = sc_core::sc_time_stamp();
    sc_core::wait(1, SC_US);
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(
        regs::kStatusLtssm.Read(status) ==
                static_cast<uint32_t>(regs::Ltssm::kDisabled) &&
            regs::kStatusLinkUp.Read(status) == 0,
        "STATUS " + HexText(status, 8) +
            " 1 us after ENABLE = 0, expected DISABLED");
    sc_core::wait(2, SC_US);
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction == FlitDirection::kFromDut &&
          flit.at > disabled_at + sc_time(200, SC_NS) &&
          !context.verdict.Expect(false,
                                  "sent while disabled: " + Describe(flit))) {
        break;
      }
    }
    WriteCtrl(csr, 0);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const uint32_t downs = csr.Read(regs::kLinkDownsOffset);
    context.verdict.Expect(downs == 1,
                           "LINK_DOWNS " + Str(downs) + " after one disable");
    context.verdict.Note("back in L0 at " + Micros(sc_core::sc_time_stamp()));
  };
  return c;
}

// The DUT's TRAINING flits from `from` on, each parsed; a failure names
// the first that does not parse.
std::vector<std::pair<size_t, flit::TrainingSet>> TrainingSetsFromDut(
    CaseContext& context, size_t from = 0) {
  const PortTap& tap = context.bench.tap();
  std::vector<std::pair<size_t, flit::TrainingSet>> sets;
  for (size_t i = from; i < tap.log().size(); ++i) {
    const PortFlit& flit = tap.log()[i];
    if (flit.direction != FlitDirection::kFromDut ||
        !flit.Is(FlitType::kTraining)) {
      continue;
    }
    Result<flit::TrainingSet> ts = flit::ParseTrainingSet(
        tap.profile(),
        ByteView(flit.content).Sub(0, tap.profile().payload_bytes));
    if (!context.verdict.Expect(static_cast<bool>(ts),
                                "malformed training set at " + Micros(flit.at) +
                                    ": " + (ts ? "" : ts.error().reason))) {
      return sets;
    }
    sets.emplace_back(i, *ts);
  }
  return sets;
}

ConformanceCase TrainingSequence() {
  ConformanceCase c;
  c.name = "DLL_6_5_TrainsThroughTs1Ts2AndIdle";
  c.body = [](CaseContext& context) {
    // CREDIT_INIT takes effect at the next entry to Polling (DLL-8.7).
    constexpr uint32_t kInit2 = 40;
    context.bench.dut_csr().Write(regs::CreditInitOffset(2), kInit2);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const PortTap& tap = context.bench.tap();
    uint64_t ts1 = 0, ts2 = 0, idles = 0;
    std::optional<uint64_t> init2;
    for (const auto& [index, ts] : TrainingSetsFromDut(context)) {
      context.verdict.Expect(
          !ts.in_recovery && ts.profile_id == tap.profile().wire_id,
          "training set at " + Micros(tap.log()[index].at) +
              " with in_recovery or another profile (DLL-6.3, DLL-6.13)",
          {"DLL-6.3"});
      if (ts.kind == flit::TrainingSetKind::kTs1) {
        context.verdict.Expect(ts2 == 0 && ts.proposed_width == 0,
                               "a TS1 after a TS2, or proposing a width, at " +
                                   Micros(tap.log()[index].at),
                               {"DLL-6.3", "DLL-6.5"});
        ++ts1;
      } else {
        ++ts2;
        init2 = ts.initial_credits[2];
      }
    }
    bool in_l0 = false;
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction != FlitDirection::kFromDut || !flit.header) {
        continue;
      }
      in_l0 = in_l0 || flit.Is(FlitType::kNop) || flit.Is(FlitType::kPayload);
      if (flit.Is(FlitType::kIdle)) {
        context.verdict.Expect(!in_l0, "IDLE after L0: " + Describe(flit),
                               {"DLL-6.5"});
        ++idles;
      }
    }
    // DLL-6.5: each exit needs 16 sent; training flits go on every lane.
    const unsigned lanes = tap.profile().max_lanes;
    context.verdict.Expect(ts1 >= 16 && ts2 >= 16 && idles >= 16,
                           Str(ts1) + " TS1, " + Str(ts2) + " TS2, " +
                               Str(idles) +
                               " IDLE flits before L0, "
                               "expected 16 or more of each",
                           {"DLL-6.5"});
    context.verdict.Expect(
        init2 && *init2 == kInit2,
        "TS2 advertises INIT(2) = " + (init2 ? Str(*init2) : "none") +
            ", CREDIT_INIT_VC2 was " + Str(kInit2),
        {"DLL-6.3", "DLL-8.7"});
    context.verdict.Note(Str(ts1) + " TS1 and " + Str(ts2) + " TS2 (" +
                         Str(lanes) + " lanes each), " + Str(idles) +
                         " IDLE; INIT(2) " + Str(init2.value_or(0)));
  };
  return c;
}

ConformanceCase SilentPartner() {
  ConformanceCase c;
  c.name = "DLL_6_4_SilentPartnerTimesOutToDetect";
  c.limit = sc_time(60, SC_US);
  c.body = [](CaseContext& context) {
    // The partner is held in Disabled: it never sends a training set.
    WriteCtrl(context.bench.peer_csr(), 0, regs::kCtrlEnable.Mask());
    std::vector<regs::Ltssm> states;
    bool up = false;
    while (sc_core::sc_time_stamp() < sc_time(30, SC_US)) {
      const regs::Ltssm state = DutLtssm(context);
      if (states.empty() || states.back() != state) {
        states.push_back(state);
      }
      up = up || state == regs::Ltssm::kL0;
      sc_core::wait(50, SC_NS);
    }
    context.verdict.Expect(!up, "link up without a partner", {"DLL-6.4"});
    // Polling times out to Detect, again and again (DLL-6.1).
    uint64_t returns = 0;
    for (size_t i = 1; i < states.size(); ++i) {
      returns += states[i - 1] == regs::Ltssm::kPolling &&
                 states[i] == regs::Ltssm::kDetect;
    }
    context.verdict.Expect(
        returns >= 2,
        "Polling returned to Detect " + Str(returns) + " times in 30 us",
        {"DLL-6.4"});
    // DLL-6.2: Polling.Active lasts 24 ms x LTSSM_TIME_SCALE; the DUT's
    // first burst of training flits measures it.
    const PortTap& tap = context.bench.tap();
    std::optional<sc_time> first, last;
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction != FlitDirection::kFromDut) {
        continue;
      }
      if (last && flit.at - *last > sc_time(500, SC_NS)) {
        break;  // Detect.Quiet: silent (DLL-6.4).
      }
      first = first.value_or(flit.at);
      last = flit.at;
    }
    if (!context.verdict.Expect(first.has_value(), "no training flit sent")) {
      return;
    }
    const sc_time expected = kRcvrLockTimeout;  // Polling.Active's, the same
    const sc_time burst = *last - *first;
    context.verdict.Expect(burst >= expected * 0.95 && burst <= expected * 1.05,
                           "Polling.Active sent for " + Micros(burst) +
                               ", expected " + Micros(expected) +
                               " (24 ms x 1e-4) within 5 %",
                           {"DLL-6.2"});
    context.verdict.Note("Polling.Active " + Micros(burst) + ", " +
                         Str(returns) + " returns to Detect");
  };
  return c;
}

ConformanceCase RetrainKeepsTheLink() {
  ConformanceCase c;
  c.name = "DLL_6_6_RetrainKeepsSequenceAndCredits";
  c.traffic.dut_slots = 1000;
  c.traffic.peer_slots = 1000;
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    csr.Write(regs::kIrqEnableOffset, 0);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const PortTap& tap = context.bench.tap();
    WaitForNewPayloads(tap, 300);
    const size_t before = tap.log().size();
    WriteCtrl(csr, regs::kCtrlRetrain.Mask());
    if (!AwaitTraffic(context)) {
      return;
    }
    ExpectDeliveredOnce(context, context.bench.dut_net(), 1000, "the DUT");
    ExpectDeliveredOnce(context, context.bench.peer_net(), 1000, "the partner");
    const auto sets = TrainingSetsFromDut(context, before);
    bool all_recovery = !sets.empty();
    for (const auto& [index, ts] : sets) {
      all_recovery = all_recovery && ts.in_recovery;
    }
    context.verdict.Expect(all_recovery,
                           "training sets after RETRAIN without "
                           "in_recovery = 1 (DLL-6.13), or none",
                           {"DLL-6.6", "DLL-6.13"});
    // Numbering goes on across Recovery (DLL-2.2, DLL-6.7).
    const std::vector<size_t> fresh = NewPayloadsFromDut(tap);
    context.verdict.Expect(fresh.size() == 1000,
                           Str(fresh.size()) +
                               " new flits for 1000 slots: numbering "
                               "restarted in Recovery",
                           {"DLL-6.7"});
    const uint32_t replays = csr.Read(regs::kReplaysOffset);
    context.verdict.Expect(replays == 0,
                           "REPLAYS " + Str(replays) +
                               " on a clean link: the ACK loop outran "
                               "REPLAY_TIMEOUT (DLL-4.6)",
                           {"DLL-4.6"});
    const uint32_t retrains = csr.Read(regs::kRetrainsOffset);
    const uint32_t downs = csr.Read(regs::kLinkDownsOffset);
    const uint32_t cause = csr.Read(regs::kIrqStatusOffset);
    context.verdict.Expect(retrains == 1 && downs == 0 &&
                               regs::kIrqStatusLinkDown.Read(cause) == 0,
                           "RETRAINS " + Str(retrains) + ", LINK_DOWNS " +
                               Str(downs) + ", IRQ_STATUS " +
                               HexText(cause, 8) +
                               ": a retrain is no link-down (DLL-7.3)",
                           {"DLL-7.3"});
    context.verdict.Note(Str(sets.size()) + " training sets in Recovery");
  };
  return c;
}

ConformanceCase SilenceInL0EndsInLinkDown() {
  ConformanceCase c;
  c.name = "DLL_6_8_RecoveryTimeoutIsALinkDown";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    // The partner goes silent; the DUT's retraining gets no answer.
    WriteCtrl(context.bench.peer_csr(), 0, regs::kCtrlEnable.Mask());
    WriteCtrl(csr, regs::kCtrlRetrain.Mask());
    const sc_time waited = WaitForLinkDown(
        csr, sc_core::sc_time_stamp(), sc_time(20, SC_US), sc_time(100, SC_NS));
    const sc_time timeout = kRcvrLockTimeout;
    // Polled every 100 ns, and the retrain starts within a few cycles.
    context.verdict.Expect(
        csr.Read(regs::kLinkDownsOffset) == 1 && waited >= timeout &&
            waited <= timeout + sc_time(300, SC_NS),
        "LINK_DOWNS " + Str(csr.Read(regs::kLinkDownsOffset)) + " " +
            Micros(waited) +
            " after RETRAIN with a silent partner, expected "
            "1 after Recovery.RcvrLock's " +
            Micros(timeout));
    context.verdict.Note("link down " + Micros(waited) + " after RETRAIN");
  };
  return c;
}

ConformanceCase PayloadInIdleEntersL0() {
  ConformanceCase c;
  c.name = "DLL_6_9_PayloadInIdleSubstateEntersL0";
  c.traffic.peer_slots = 8;
  c.traffic.start = sc_core::SC_ZERO_TIME;  // The first flit the partner can.
  c.body = [](CaseContext& context) {
    // The DUT sees only 4 of the partner's IDLE flits (8 are needed), so
    // it is still in Configuration.Idle when the partner's first PAYLOAD
    // flit comes.
    auto idles = std::make_shared<uint64_t>(0);
    context.bench.tap().set_to_dut_edit([idles](PortFlit& flit) {
      return flit.Is(FlitType::kIdle) && ++*idles > 4
                 ? PortTap::EditResult::kDrop
                 : PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    ExpectDeliveredOnce(context, context.bench.dut_net(), 8, "the DUT");
    // The flit that took the DUT to L0 was accepted there, not discarded
    // and brought back by a NAK and a replay.
    uint64_t naks = 0, first_sends = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (!flit.header) {
        continue;
      }
      if (flit.direction == FlitDirection::kFromDut) {
        naks += flit.header->replay == ReplayCommand::kStandardNak ||
                flit.header->replay == ReplayCommand::kSelectiveNak;
      } else if (flit.Is(FlitType::kPayload) && flit.header->flit_seq == 0) {
        ++first_sends;
      }
    }
    context.verdict.Expect(naks == 0 && first_sends == 1,
                           "the DUT sent " + Str(naks) +
                               " NAKs and seq 0 arrived " + Str(first_sends) +
                               " times: the first PAYLOAD flit was not "
                               "accepted in Configuration.Idle");
    context.verdict.Note("L0 after " + Str(std::min<uint64_t>(*idles, 4)) +
                         " IDLE flits and a PAYLOAD flit");
  };
  return c;
}

ConformanceCase LoopbackTrainsAlone() {
  ConformanceCase c;
  c.name = "DLL_6_11_LoopbackTrainsAgainstItself";
  c.body = [](CaseContext& context) {
    WriteCtrl(context.bench.peer_csr(), 0, regs::kCtrlEnable.Mask());
    WriteCtrl(context.bench.dut_csr(), regs::kCtrlLoopback.Mask());
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    uint64_t sent = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      sent += flit.direction == FlitDirection::kFromDut;
    }
    context.verdict.Expect(sent == 0, Str(sent) +
                                          " flits reached the PHY in "
                                          "loopback");
    const uint32_t status = context.bench.dut_csr().Read(regs::kStatusOffset);
    context.verdict.Expect(
        regs::kStatusWidth.Read(status) == context.bench.profile().max_lanes,
        "loopback trained to x" + Str(regs::kStatusWidth.Read(status)));
    context.verdict.Note("L0 in loopback at x" +
                         Str(regs::kStatusWidth.Read(status)));
  };
  return c;
}

ConformanceCase InterruptIsMaskedLevel() {
  ConformanceCase c;
  c.name = "DLL_7_6_CausesRecordedInterruptFollowsEnable";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    csr.Write(regs::kIrqEnableOffset, 0);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const uint32_t cause = csr.Read(regs::kIrqStatusOffset);
    context.verdict.Expect(regs::kIrqStatusLinkUp.Read(cause) != 0,
                           "LINK_UP not recorded while disabled");
    context.verdict.Expect(!context.bench.dut_irq().read(),
                           "the line is high with IRQ_ENABLE 0");
    csr.Write(regs::kIrqEnableOffset, regs::kIrqEnableLinkUp.Mask());
    sc_core::wait(1, SC_NS);  // One link-controller clock.
    context.verdict.Expect(context.bench.dut_irq().read(),
                           "the line is low 1 ns after enabling a recorded "
                           "cause");
    csr.Write(regs::kIrqEnableOffset, 0);
    sc_core::wait(1, SC_NS);
    context.verdict.Expect(!context.bench.dut_irq().read(),
                           "the line stays high 1 ns after IRQ_ENABLE 0");
  };
  return c;
}

ConformanceCase ReservedBitsReadZero() {
  ConformanceCase c;
  c.name = "DLL_8_2_ReservedBitsReadZeroAndReadsChangeNothing";
  c.traffic.peer_slots = 50;
  c.body = [](CaseContext& context) {
    if (!AwaitTraffic(context)) {
      return;
    }
    RegisterMaster& csr = context.bench.dut_csr();
    for (const lq::regs::Register& reg : regs::kRegisters) {
      uint32_t defined = 0;
      bool counter = false;
      for (const lq::regs::Field& field : reg.fields) {
        defined |= field.Mask();
        counter = counter || reg.name.find("_LO") != std::string_view::npos;
      }
      const uint32_t value = csr.Read(reg.offset);
      context.verdict.Expect(
          (value & ~defined) == 0,
          std::string(reg.name) + " reads " + HexText(value, 8) +
              ": reserved bits set (defined " + HexText(defined, 8) + ")");
      if (!counter && reg.name != "STATUS" &&
          reg.name.find("CREDIT_AVAIL") == std::string_view::npos) {
        const uint32_t again = csr.Read(reg.offset);
        context.verdict.Expect(again == value,
                               std::string(reg.name) + " read " +
                                   HexText(value, 8) + " then " +
                                   HexText(again, 8));
      }
    }
  };
  return c;
}

ConformanceCase CountersClear() {
  ConformanceCase c;
  c.name = "DLL_8_4_CntClearZeroesEveryCounter";
  c.traffic.dut_slots = 100;
  c.traffic.peer_slots = 100;
  c.body = [](CaseContext& context) {
    // Give the counters something to count: three damaged flits to the
    // DUT (CRC_ERRORS, NAKS_SENT), one ACK to it turned into a NAK
    // (NAKS_RECEIVED, REPLAYS), then a retrain (RETRAINS).
    PortTap& tap = context.bench.tap();
    auto payloads = std::make_shared<uint64_t>(0);
    auto naked = std::make_shared<bool>(false);
    tap.set_to_dut_edit([payloads, naked, &tap](PortFlit& flit) {
      if (flit.Is(FlitType::kPayload) && ++*payloads % 20 == 0 &&
          *payloads <= 60) {
        flit.content[0] ^= 0x5A;
        flit.header.reset();
      } else if (!*naked && flit.header &&
                 flit.header->replay == ReplayCommand::kAck &&
                 NewPayloadsFromDut(tap).size() >= 50) {
        flit::DlpHeader header = *flit.header;
        header.replay = ReplayCommand::kStandardNak;
        tap.Rewrite(flit, header);
        *naked = true;
      }
      return PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    RegisterMaster& csr = context.bench.dut_csr();
    WriteCtrl(csr, regs::kCtrlRetrain.Mask());
    sc_core::wait(1, SC_US);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const struct {
      uint32_t offset;
      const char* name;
    } counted[] = {{regs::kTxFlitsLoOffset, "TX_FLITS"},
                   {regs::kRxFlitsLoOffset, "RX_FLITS"},
                   {regs::kCrcErrorsOffset, "CRC_ERRORS"},
                   {regs::kNaksSentOffset, "NAKS_SENT"},
                   {regs::kNaksReceivedOffset, "NAKS_RECEIVED"},
                   {regs::kReplaysOffset, "REPLAYS"},
                   {regs::kRetrainsOffset, "RETRAINS"}};
    for (const auto& counter : counted) {
      context.verdict.Expect(
          csr.Read(counter.offset) > 0,
          std::string("stimulus: ") + counter.name + " is 0 before CNT_CLEAR");
    }
    WriteCtrl(csr, regs::kCtrlCntClear.Mask());
    for (uint32_t offset = regs::kTxFlitsLoOffset;
         offset <= regs::kLostOnDownOffset; offset += 4) {
      const uint32_t value = csr.Read(offset);
      context.verdict.Expect(value == 0, "counter at 0x" + HexText(offset) +
                                             " reads " + Str(value) +
                                             " after CNT_CLEAR");
    }
  };
  return c;
}

ConformanceCase CountersCountTheirFlits() {
  ConformanceCase c;
  c.name = "DLL_8_6_CountersMatchTheFlitsAtThePort";
  c.traffic.dut_slots = 500;
  c.traffic.peer_slots = 500;
  c.body = [](CaseContext& context) {
    auto seen = std::make_shared<uint64_t>(0);
    context.bench.tap().set_to_dut_edit([seen](PortFlit& flit) {
      if (flit.Is(FlitType::kPayload) && ++*seen % 41 == 0) {
        flit.content[0] ^= 0x5A;
        flit.header.reset();
      }
      return PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    sc_core::wait(2, SC_US);
    uint64_t tx = 0, rx = 0, bad = 0, naks_sent = 0, naks_received = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      const bool out = flit.direction == FlitDirection::kFromDut;
      if (!flit.header) {
        bad += out ? 0 : 1;
        continue;
      }
      const bool nak = flit.header->replay == ReplayCommand::kStandardNak ||
                       flit.header->replay == ReplayCommand::kSelectiveNak;
      const bool payload = flit.Is(FlitType::kPayload);
      (out ? tx : rx) += payload ? 1 : 0;
      (out ? naks_sent : naks_received) += nak ? 1 : 0;
    }
    RegisterMaster& csr = context.bench.dut_csr();
    const auto expect = [&](uint32_t offset, const char* name, uint64_t seen) {
      const uint32_t value = csr.Read(offset);
      context.verdict.Expect(value == seen, std::string(name) + " " +
                                                Str(value) + ", " + Str(seen) +
                                                " at the port");
    };
    expect(regs::kTxFlitsLoOffset, "TX_FLITS", tx);
    expect(regs::kRxFlitsLoOffset, "RX_FLITS", rx);
    expect(regs::kCrcErrorsOffset, "CRC_ERRORS", bad);
    expect(regs::kNaksSentOffset, "NAKS_SENT", naks_sent);
    expect(regs::kNaksReceivedOffset, "NAKS_RECEIVED", naks_received);
    context.verdict.Note("TX " + Str(tx) + ", RX " + Str(rx) + ", bad " +
                         Str(bad) + ", NAKs " + Str(naks_sent));
  };
  return c;
}

ConformanceCase ErrorInjection() {
  ConformanceCase c;
  c.name = "DLL_8_8_ErrInjectDamagesTheNextFlit";
  c.traffic.dut_slots = 200;
  c.traffic.interval = sc_time(10, SC_NS);
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const PortTap& tap = context.bench.tap();
    WaitForNewPayloads(tap, 50);
    const size_t mark = tap.log().size();
    csr.Write(regs::kErrInjectOffset, regs::kErrInjectSeqErr.Mask());
    const std::optional<size_t> bent = WaitForFlit(
        context, FlitDirection::kFromDut, mark,
        [&](const PortFlit& flit) {
          return flit.Is(FlitType::kPayload) && flit.header->flit_seq >= 512;
        },
        sc_core::sc_time_stamp() + sc_time(1, SC_US));
    if (context.verdict.Expect(bent.has_value(),
                               "no PAYLOAD flit numbered + 512 after "
                               "SEQ_ERR")) {
      // The flit's true number is the one after the newest sent before it
      // (all below 512 here).
      uint16_t newest = flit::SeqAdd(0, -1);
      for (size_t i = 0; i < *bent; ++i) {
        const PortFlit& flit = tap.log()[i];
        if (flit.direction == FlitDirection::kFromDut &&
            flit.Is(FlitType::kPayload) && flit.header->flit_seq < 512 &&
            flit::SeqIsAfter(flit.header->flit_seq, newest)) {
          newest = flit.header->flit_seq;
        }
      }
      const uint16_t expected = flit::SeqAdd(newest, 1 + 512);
      context.verdict.Expect(tap.log()[*bent].header->flit_seq == expected,
                             Describe(tap.log()[*bent]) + ", expected seq " +
                                 Str(expected) + " (" +
                                 Str(flit::SeqAdd(newest, 1)) + " + 512)");
    }
    context.bench.peer_net().ExpectSlots(200);
    context.bench.peer_net().WaitForExpected();
    ExpectDeliveredOnce(context, context.bench.peer_net(), 200,
                        "after SEQ_ERR the partner");
    const size_t before_crc = tap.log().size();
    csr.Write(regs::kErrInjectOffset, regs::kErrInjectCrcErr.Mask());
    sc_core::wait(1, SC_US);
    uint64_t bad = 0;
    for (size_t i = before_crc; i < tap.log().size(); ++i) {
      bad += tap.log()[i].direction == FlitDirection::kFromDut &&
             !tap.log()[i].header;
    }
    context.verdict.Expect(bad <= 1, Str(bad) + " bad flits after one CRC_ERR");
    const uint32_t partner_errors =
        context.bench.peer_csr().Read(regs::kCrcErrorsOffset);
    context.verdict.Expect(partner_errors == 1,
                           "the partner counted " + Str(partner_errors) +
                               " CRC errors after one CRC_ERR");
    context.verdict.Note(bent ? Describe(tap.log()[*bent]) : "");
  };
  return c;
}

// Link control messages of `bytes` bytes, numbered from `first`.
Bytes ControlMessage(uint8_t number, size_t bytes = 12) {
  Bytes message(bytes, 0);
  for (size_t i = 0; i < bytes; ++i) {
    message[i] = static_cast<uint8_t>(number + i);
  }
  return message;
}

ConformanceCase ControlMessages() {
  ConformanceCase c;
  c.name = "DLL_11_3_ControlMessagesCrossTheLink";
  c.traffic.dut_slots = 100;
  c.body = [](CaseContext& context) {
    ConformanceBench& bench = context.bench;
    // Six offered before link-up: only the newest 4 wait (DLL-11.4).
    for (uint8_t k = 1; k <= 6; ++k) {
      bench.dut_net().SendControl(ControlMessage(k), sc_core::SC_ZERO_TIME);
    }
    if (!AwaitTraffic(context)) {
      return;
    }
    // Two more in L0, and one from the partner.
    bench.dut_net().SendControl(ControlMessage(7, 30), sc_time(10, SC_NS));
    bench.dut_net().SendControl(ControlMessage(8, 1), sc_time(10, SC_NS));
    bench.peer_net().SendControl(ControlMessage(9), sc_time(10, SC_NS));
    sc_core::wait(2, SC_US);
    std::vector<Bytes> expected;
    for (uint8_t k : {3, 4, 5, 6}) {
      expected.push_back(ControlMessage(k));
    }
    expected.push_back(ControlMessage(7, 30));
    expected.push_back(ControlMessage(8, 1));
    std::vector<Bytes> got;
    for (const auto& [at, message] : bench.peer_net().report().controls) {
      got.push_back(message);
    }
    context.verdict.Expect(got == expected,
                           "the partner got " + Str(got.size()) +
                               " messages, expected messages 3 to 8 in order",
                           {"DLL-11.3", "DLL-11.4"});
    const auto& mine = bench.dut_net().report().controls;
    context.verdict.Expect(
        mine.size() == 1 && mine[0].second == ControlMessage(9),
        "the DUT's network got " + Str(mine.size()) +
            " messages, expected the partner's one",
        {"DLL-11.3"});
    // The CONTROL flits themselves (DLL-11.1, 11.2, 11.3, 11.5).
    const PortTap& tap = bench.tap();
    uint64_t controls = 0, payloads = 0;
    uint16_t newest = flit::SeqAdd(0, -1);
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction != FlitDirection::kFromDut || !flit.header) {
        continue;
      }
      if (flit.Is(FlitType::kPayload)) {
        ++payloads;
        newest = flit::SeqIsAfter(flit.header->flit_seq, newest)
                     ? flit.header->flit_seq
                     : newest;
        continue;
      }
      if (!flit.Is(FlitType::kControl)) {
        continue;
      }
      const size_t length = LoadBigEndian(flit.content.data(), 2);
      const auto slot_end = flit.content.begin() + tap.profile().payload_bytes;
      context.verdict.Expect(
          length >= 1 && length + 2 <= tap.profile().payload_bytes &&
              std::all_of(flit.content.begin() + 2 + length, slot_end,
                          [](uint8_t byte) { return byte == 0; }) &&
              flit.header->payload_vc == 0 && flit.header->flit_seq == newest,
          Describe(flit) + ": length " + Str(length) +
              ", expected a NOP's fields and a well-formed slot",
          {"DLL-11.2", "DLL-11.3"});
      ++controls;
    }
    context.verdict.Expect(controls == expected.size(),
                           Str(controls) + " CONTROL flits for " +
                               Str(expected.size()) + " messages",
                           {"DLL-11.4"});
    const uint32_t tx = bench.dut_csr().Read(regs::kTxFlitsLoOffset);
    context.verdict.Expect(tx == payloads,
                           "TX_FLITS " + Str(tx) + " with " + Str(payloads) +
                               " PAYLOAD flits: CONTROL flits counted",
                           {"DLL-11.5"});
    context.verdict.Note(Str(controls) + " CONTROL flits");
  };
  return c;
}

ConformanceCase ControlFlitsAreNotReplayed() {
  ConformanceCase c;
  c.name = "DLL_11_1_LostControlFlitIsNotReplayed";
  c.body = [](CaseContext& context) {
    ConformanceBench& bench = context.bench;
    // The first CONTROL flit from the DUT arrives bad.
    auto damaged = std::make_shared<bool>(false);
    bench.tap().set_from_dut_edit([damaged](PortFlit& flit) {
      if (!*damaged && flit.Is(FlitType::kControl)) {
        *damaged = true;
        return PortTap::EditResult::kDrop;
      }
      return PortTap::EditResult::kPass;
    });
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    bench.dut_net().SendControl(ControlMessage(1), sc_time(10, SC_NS));
    sc_core::wait(100, SC_NS);
    bench.dut_net().SendControl(ControlMessage(2), sc_time(10, SC_NS));
    sc_core::wait(3, SC_US);  // Longer than the replay timer.
    const auto& got = bench.peer_net().report().controls;
    context.verdict.Expect(
        *damaged && got.size() == 1 && got[0].second == ControlMessage(2),
        "the partner got " + Str(got.size()) +
            " messages after the first was lost, expected only the second");
    const uint32_t replays = bench.dut_csr().Read(regs::kReplaysOffset);
    context.verdict.Expect(
        replays == 0, "REPLAYS " + Str(replays) + " after a lost CONTROL flit");
  };
  return c;
}

ConformanceCase NarrowerAfterRecovery() {
  ConformanceCase c;
  c.name = "DLL_7_4_NarrowerWidthAfterRecoveryIsReported";
  c.traffic.peer_slots = 200;
  c.traffic.start = sc_time(30, SC_US);
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    // The upper half of the lanes fails towards the DUT, as a PHY reports
    // it (PHY-5.4): the DUT retrains on the lanes that are left.
    const unsigned half = context.bench.profile().max_lanes / 2;
    auto failed = std::make_shared<bool>(false);
    PortTap& tap = context.bench.tap();
    tap.set_to_dut_edit([half, failed, &tap](PortFlit& /*flit*/) {
      if (!*failed) {
        *failed = true;
        tap.FailLanesToDut(((1u << half) - 1) << half, sc_time(1, SC_NS));
      }
      return PortTap::EditResult::kPass;
    });
    sc_core::wait(1, SC_US);
    if (!AwaitTraffic(context)) {
      return;
    }
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(
        regs::kStatusWidth.Read(status) == half,
        "STATUS.WIDTH " + Str(regs::kStatusWidth.Read(status)) +
            " after Recovery with " + Str(half) + " lanes locked");
    context.verdict.Expect(csr.Read(regs::kLinkDownsOffset) == 0,
                           "the narrower retrain was a link-down");
    ExpectDeliveredOnce(context, context.bench.dut_net(), 200, "the DUT");
    context.verdict.Note("x" + Str(regs::kStatusWidth.Read(status)) +
                         " after Recovery");
  };
  return c;
}

ConformanceCase FreshPartnerInRecoveryIsALinkDown() {
  ConformanceCase c;
  c.name = "DLL_6_13_TrainingSetWithoutRecoveryFlagEndsRecovery";
  c.body = [](CaseContext& context) {
    RegisterMaster& csr = context.bench.dut_csr();
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    // From now on the partner's training sets reach the DUT as if the
    // partner had been through Detect: in_recovery = 0.
    PortTap& tap = context.bench.tap();
    auto rewritten = std::make_shared<uint64_t>(0);
    tap.set_to_dut_edit([rewritten, &tap](PortFlit& flit) {
      if (!flit.Is(FlitType::kTraining)) {
        return PortTap::EditResult::kPass;
      }
      const size_t slot = tap.profile().payload_bytes;
      Result<flit::TrainingSet> ts = flit::ParseTrainingSet(
          tap.profile(), ByteView(flit.content).Sub(0, slot));
      if (ts && ts->in_recovery) {
        ts->in_recovery = false;
        const Bytes encoded =
            flit::EncodeTrainingSet(tap.profile(), *ts).value();
        std::copy(encoded.begin(), encoded.end(), flit.content.begin());
        tap.Reseal(flit);
        ++*rewritten;
      }
      return PortTap::EditResult::kPass;
    });
    WriteCtrl(csr, regs::kCtrlRetrain.Mask());
    const sc_time waited = WaitForLinkDown(
        csr, sc_core::sc_time_stamp(), sc_time(2, SC_US), sc_time(50, SC_NS));
    if (!context.verdict.Expect(*rewritten > 0,
                                "stimulus: the partner sent no training set "
                                "in Recovery")) {
      return;
    }
    // Far sooner than any Recovery timeout (2.4 us at this scale).
    context.verdict.Expect(
        csr.Read(regs::kLinkDownsOffset) == 1 && waited < sc_time(1, SC_US),
        "no link-down within 1 us of training sets "
        "without in_recovery reaching the DUT in "
        "Recovery");
    context.verdict.Note("link down " + Micros(waited) + " after RETRAIN");
  };
  return c;
}

}  // namespace

std::vector<ConformanceCase> DllLinkCases() {
  return {TrainsToL0AtFullWidth(),
          LinkUpRaisesInterrupt(),
          UnmappedOffsetIsBusError(),
          BadWriteChangesNothing(),
          DisableTakesLinkDown(),
          TrainingSequence(),
          SilentPartner(),
          RetrainKeepsTheLink(),
          SilenceInL0EndsInLinkDown(),
          PayloadInIdleEntersL0(),
          LoopbackTrainsAlone(),
          InterruptIsMaskedLevel(),
          ReservedBitsReadZero(),
          CountersClear(),
          CountersCountTheirFlits(),
          ErrorInjection(),
          ControlMessages(),
          ControlFlitsAreNotReplayed(),
          NarrowerAfterRecovery(),
          FreshPartnerInRecoveryIsALinkDown()};
}

}  // namespace lq::conformance
