// Conformance cases of the data-link layer (docs/spec/dll.md). Each drives
// the DUT through its PHY port, its network side and its registers only,
// with a reference controller as the link partner.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "generated/cpp/lc_regs.h"
#include "models/common/hex.h"
#include "models/flit/sequence.h"
#include "testbench/conformance/case_helpers.h"
#include "testbench/conformance/conformance_case.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::lc;
using flit::FlitType;
using flit::ReplayCommand;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

// Training at LTSSM_TIME_SCALE 1e-4 takes a few microseconds.
const sc_time kLinkUpWithin(40, SC_US);
constexpr uint32_t kLtssmL0 = 3;
constexpr uint32_t kLtssmDisabled = 5;
// CTRL at reset: ENABLE, SEL_NAK_EN, TARGET_WIDTH x16.
constexpr uint32_t kCtrlReset = 0x00100009;

std::string Str(uint64_t value) { return std::to_string(value); }

ConformanceCase TrainsToL0AtFullWidth() {
  ConformanceCase c;
  c.name = "DLL_6_1_TrainsToL0AtFullWidth";
  c.body = [](CaseContext& context) {
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const uint32_t status = context.bench.dut_csr().Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLtssm.Read(status) == kLtssmL0,
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
                           "the line stays high after IRQ_STATUS was cleared");
    context.verdict.Expect(
        regs::kIrqStatusLinkUp.Read(csr.Read(regs::kIrqStatusOffset)) == 0,
        "writing 1 did not clear IRQ_STATUS.LINK_UP");
  };
  return c;
}

ConformanceCase SendsOnlyWellFormedFlits() {
  ConformanceCase c;
  c.name = "DLL_1_3_SendsOnlyWellFormedFlits";
  c.traffic.dut_slots = 300;
  c.traffic.peer_slots = 300;
  c.body = [](CaseContext& context) {
    context.bench.dut_net().ExpectSlots(300);
    context.bench.peer_net().ExpectSlots(300);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    context.bench.dut_net().WaitForExpected();
    context.bench.peer_net().WaitForExpected();
    const phy::LinkProfile& profile = context.bench.profile();
    uint64_t checked = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction != FlitDirection::kFromDut) {
        continue;
      }
      ++checked;
      // CheckContent rejects a bad CRC, reserved bits and codes, VCs above
      // 3 and non-zero fields that do not apply to the type (DLL-1.3..1.5).
      if (!context.verdict.Expect(
              flit.header.has_value(),
              "malformed flit from the DUT at " + Micros(flit.at) +
                  ", DLP bytes " +
                  HexBytes(ByteView(flit.content)
                               .Sub(profile.payload_bytes, flit::kDlpBytes)))) {
        return;
      }
      const bool slot_used = flit::CarriesSlot(flit.header->type) ||
                             flit.header->type == FlitType::kTraining;
      const auto slot_end = flit.content.begin() + profile.payload_bytes;
      if (!slot_used &&
          !context.verdict.Expect(
              std::all_of(flit.content.begin(), slot_end,
                          [](uint8_t byte) { return byte == 0; }),
              "non-zero slot in " + Describe(flit) + " (DLL-1.5)")) {
        return;
      }
    }
    context.verdict.Note(Str(checked) + " flits checked");
  };
  return c;
}

ConformanceCase NumbersNewPayloadsFromZero() {
  ConformanceCase c;
  c.name = "DLL_2_1_NumbersNewPayloadsInOrderFromZero";
  constexpr uint64_t kSlots = 1100;  // Past the wrap at 1024.
  c.traffic.dut_slots = kSlots;
  c.body = [](CaseContext& context) {
    context.bench.peer_net().ExpectSlots(kSlots);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    context.bench.peer_net().WaitForExpected();
    const auto& log = context.bench.tap().log();
    const std::vector<size_t> fresh = NewPayloadsFromDut(context.bench.tap());
    context.verdict.Expect(
        fresh.size() == kSlots,
        Str(fresh.size()) + " new PAYLOAD flits for " + Str(kSlots) + " slots");
    uint16_t expected = 0;  // NEXT_TX_SEQ at link-up (DLL-2.2).
    for (size_t index : fresh) {
      const PortFlit& flit = log[index];
      if (!context.verdict.Expect(
              flit.header->flit_seq == expected,
              Describe(flit) + ", expected seq " + Str(expected))) {
        return;
      }
      expected = flit::SeqAdd(expected, 1);
    }
    context.verdict.Note(Str(fresh.size()) + " numbered 0.." +
                         Str(flit::SeqAdd(expected, -1)) + " across the wrap");
  };
  return c;
}

ConformanceCase NopCarriesWatermark() {
  ConformanceCase c;
  c.name = "DLL_2_4_NopCarriesWatermark";
  c.traffic.dut_slots = 200;
  c.traffic.interval = sc_time(30, SC_NS);  // NOPs between the payloads.
  c.body = [](CaseContext& context) {
    context.bench.peer_net().ExpectSlots(200);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    context.bench.peer_net().WaitForExpected();
    sc_core::wait(1, SC_US);
    uint16_t newest = flit::SeqAdd(0, -1);  // 1023 before any (DLL-2.4).
    uint64_t nops = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction != FlitDirection::kFromDut || !flit.header) {
        continue;
      }
      const flit::DlpHeader& h = *flit.header;
      if (h.type == FlitType::kPayload &&
          flit::SeqIsAfter(h.flit_seq, newest)) {
        newest = h.flit_seq;
      } else if (h.type == FlitType::kNop) {
        ++nops;
        if (!context.verdict.Expect(
                h.flit_seq == newest,
                Describe(flit) + ", newest sent " + Str(newest))) {
          return;
        }
      }
    }
    context.verdict.Expect(nops > 0, "the DUT sent no NOP to check");
    context.verdict.Note(Str(nops) + " NOPs checked");
  };
  return c;
}

ConformanceCase IdleCarriesAck() {
  ConformanceCase c;
  c.name = "DLL_3_10_IdleCarriesAckOfLastInOrder";
  c.body = [](CaseContext& context) {
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    uint64_t idles = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction != FlitDirection::kFromDut ||
          !flit.Is(FlitType::kIdle)) {
        continue;
      }
      ++idles;
      // Nothing was received before this link-up: NEXT_RCV_SEQ - 1 = 1023.
      if (!context.verdict.Expect(
              flit.header->replay == ReplayCommand::kAck &&
                  flit.header->ack_seq == flit::SeqAdd(0, -1),
              Describe(flit) + ", expected ACK 1023")) {
        return;
      }
    }
    context.verdict.Expect(idles > 0, "no IDLE flit before link-up");
    context.verdict.Note(Str(idles) + " IDLE flits checked");
  };
  return c;
}

// Damages every `period`-th PAYLOAD flit on its way to the DUT (CRC
// mismatch); counts them in `damaged`.
void DamagePayloadsToDut(CaseContext& context, uint64_t period, uint64_t last,
                         std::shared_ptr<uint64_t> damaged) {
  auto seen = std::make_shared<uint64_t>(0);
  context.bench.tap().set_to_dut_edit([=](PortFlit& flit) {
    if (flit.Is(FlitType::kPayload) && ++*seen % period == 0 && *seen <= last) {
      flit.content[0] ^= 0x5A;  // The CRC no longer matches.
      flit.header.reset();
      ++*damaged;
    }
    return PortTap::EditResult::kPass;
  });
}

ConformanceCase DeliversInOrderDespiteErrors() {
  ConformanceCase c;
  c.name = "DLL_3_8_DeliversInOrderExactlyOnceDespiteErrors";
  constexpr uint64_t kSlots = 1000;
  c.traffic.peer_slots = kSlots;
  c.body = [](CaseContext& context) {
    auto damaged = std::make_shared<uint64_t>(0);
    DamagePayloadsToDut(context, 37, UINT64_MAX, damaged);
    context.bench.dut_net().ExpectSlots(kSlots);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    context.bench.dut_net().WaitForExpected();
    const testing::SlotReport& report = context.bench.dut_net().report();
    context.verdict.Expect(report.delivered == kSlots && report.lost == 0 &&
                               report.duplicated == 0 && report.corrupted == 0,
                           "delivered " + Str(report.delivered) + ", lost " +
                               Str(report.lost) + ", duplicated " +
                               Str(report.duplicated) + ", corrupted " +
                               Str(report.corrupted) + " of " + Str(kSlots));
    context.verdict.Note(Str(report.delivered) + " delivered in order, " +
                         Str(*damaged) + " PAYLOAD flits damaged on the way");
  };
  return c;
}

ConformanceCase CountsBadFlits() {
  ConformanceCase c;
  c.name = "DLL_3_2_CountsBadFlitsInCrcErrors";
  c.traffic.peer_slots = 100;
  c.traffic.interval = sc_time(20, SC_NS);
  c.body = [](CaseContext& context) {
    auto damaged = std::make_shared<uint64_t>(0);
    DamagePayloadsToDut(context, 10, 30, damaged);
    context.bench.dut_net().ExpectSlots(100);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    context.bench.dut_net().WaitForExpected();
    const uint32_t errors =
        context.bench.dut_csr().Read(regs::kCrcErrorsOffset);
    context.verdict.Expect(
        errors == *damaged,
        "CRC_ERRORS " + Str(errors) + " after " + Str(*damaged) + " bad flits");
    context.verdict.Note("CRC_ERRORS " + Str(errors));
  };
  return c;
}

// Drops the `nth` PAYLOAD flit on its way to the DUT and waits for the
// DUT's NAK; `selective` is whether CTRL.SEL_NAK_EN stays 1.
void CheckNakForGap(CaseContext& context, bool selective) {
  struct Dropped {
    bool done = false;
    uint16_t seq = 0;
    sc_time at;
  };
  auto dropped = std::make_shared<Dropped>();
  auto payloads = std::make_shared<uint64_t>(0);
  context.bench.tap().set_to_dut_edit([=](PortFlit& flit) {
    if (flit.Is(FlitType::kPayload) && ++*payloads == 10) {
      dropped->done = true;
      dropped->seq = flit.header->flit_seq;
      dropped->at = flit.at;
      return PortTap::EditResult::kDrop;
    }
    return PortTap::EditResult::kPass;
  });
  if (!selective) {
    context.bench.dut_csr().Write(regs::kCtrlOffset,
                                  kCtrlReset & ~regs::kCtrlSelNakEn.Mask());
  }
  if (!WaitLinkUp(context, kLinkUpWithin)) {
    return;
  }
  context.bench.dut_net().WaitForExpected();
  if (!context.verdict.Expect(dropped->done, "no PAYLOAD flit was dropped")) {
    return;
  }
  const ReplayCommand wanted =
      selective ? ReplayCommand::kSelectiveNak : ReplayCommand::kStandardNak;
  const uint16_t ack = flit::SeqAdd(dropped->seq, -1);
  // The next payload, a flit time later, shows the gap; the NAK goes at
  // once (DLL-3.3, DLL-3.5).
  const sc_time within = dropped->at + sc_time(300, SC_NS);
  const std::optional<size_t> nak = WaitForFlit(
      context, FlitDirection::kFromDut, 0,
      [&](const PortFlit& flit) {
        return flit.header && flit.at > dropped->at &&
               (flit.header->replay == ReplayCommand::kStandardNak ||
                flit.header->replay == ReplayCommand::kSelectiveNak);
      },
      within);
  if (!context.verdict.Expect(
          nak.has_value(),
          "no NAK within 300 ns of losing seq " + Str(dropped->seq))) {
    return;
  }
  const PortFlit& first = context.bench.tap().log()[*nak];
  context.verdict.Expect(
      first.header->replay == wanted && first.header->ack_seq == ack,
      Describe(first) + ", expected " + flit::ReplayCommandName(wanted) + " " +
          Str(ack));
  if (!selective) {
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction == FlitDirection::kFromDut && flit.header &&
          !context.verdict.Expect(
              flit.header->replay != ReplayCommand::kSelectiveNak,
              "selective NAK with SEL_NAK_EN = 0: " + Describe(flit))) {
        return;
      }
    }
  }
  context.verdict.Note(Describe(first));
}

// At line rate, so that the flit after the lost one is a PAYLOAD flit: a
// NOP would show the loss by its watermark (DLL-3.6) instead.
ConformanceCase NakForGapCase(const std::string& name, bool selective) {
  ConformanceCase c;
  c.name = name;
  c.traffic.peer_slots = 40;
  c.body = [selective](CaseContext& context) {
    context.bench.dut_net().ExpectSlots(40);
    CheckNakForGap(context, selective);
  };
  return c;
}

// While the DUT streams, turns one ACK on its way to the DUT into `command`
// (same ack_seq A) and checks the DUT's resend: A + 1 within 100 ns, then,
// for a standard NAK, A + 2.. in order (go-back, DLL-4.3); for a selective
// one, a new flit next (DLL-4.4).
void CheckReplayOnNak(CaseContext& context, ReplayCommand command) {
  struct Nak {
    bool sent = false;
    uint16_t ack = 0;
    sc_time at;
  };
  auto nak = std::make_shared<Nak>();
  PortTap& tap = context.bench.tap();
  tap.set_to_dut_edit([=, &tap](PortFlit& flit) {
    if (nak->sent || !flit.header ||
        flit.header->replay != ReplayCommand::kAck ||
        NewPayloadsFromDut(tap).size() < 100) {
      return PortTap::EditResult::kPass;
    }
    flit::DlpHeader header = *flit.header;
    header.replay = command;
    tap.Rewrite(flit, header);
    nak->sent = true;
    nak->ack = header.ack_seq;
    nak->at = flit.at;
    return PortTap::EditResult::kPass;
  });
  if (!WaitLinkUp(context, kLinkUpWithin)) {
    return;
  }
  context.bench.peer_net().WaitForExpected();
  if (!context.verdict.Expect(
          nak->sent, "no ACK to the DUT to turn into " +
                         std::string(flit::ReplayCommandName(command)))) {
    return;
  }
  const auto& log = tap.log();
  std::optional<uint16_t> newest;  // Newest new flit before the NAK.
  std::optional<size_t> first_resend;
  for (size_t i = 0; i < log.size(); ++i) {
    const PortFlit& flit = log[i];
    if (flit.direction != FlitDirection::kFromDut ||
        !flit.Is(FlitType::kPayload)) {
      continue;
    }
    const uint16_t seq = flit.header->flit_seq;
    const bool fresh = !newest || flit::SeqIsAfter(seq, *newest);
    if (flit.at <= nak->at) {
      if (fresh) {
        newest = seq;
      }
    } else if (!fresh) {
      first_resend = i;
      break;
    }
  }
  const uint16_t expected = flit::SeqAdd(nak->ack, 1);
  if (!context.verdict.Expect(
          newest && flit::SeqIsAfter(*newest, nak->ack),
          "stimulus: no flit outstanding after " + Str(nak->ack))) {
    return;
  }
  if (!context.verdict.Expect(
          first_resend &&
              log[*first_resend].at <= nak->at + sc_time(100, SC_NS),
          "no resend within 100 ns of " +
              std::string(flit::ReplayCommandName(command)) + " " +
              Str(nak->ack) + " reaching the DUT at " + Micros(nak->at))) {
    return;
  }
  const PortFlit& resend = log[*first_resend];
  if (!context.verdict.Expect(
          resend.header->flit_seq == expected,
          Describe(resend) + ", expected seq " + Str(expected) + " first")) {
    return;
  }
  // The payload flits after the first resend.
  uint16_t next = flit::SeqAdd(expected, 1);
  for (size_t i = *first_resend + 1; i < log.size(); ++i) {
    const PortFlit& flit = log[i];
    if (flit.direction != FlitDirection::kFromDut ||
        !flit.Is(FlitType::kPayload)) {
      continue;
    }
    const uint16_t seq = flit.header->flit_seq;
    if (command == ReplayCommand::kSelectiveNak) {
      context.verdict.Expect(flit::SeqIsAfter(seq, *newest),
                             "after a selective resend of " + Str(expected) +
                                 ": " + Describe(flit) +
                                 ", expected a new flit");
      break;
    }
    if (!flit::SeqIsAfter(next, *newest)) {  // Still inside the replay.
      if (!context.verdict.Expect(seq == next,
                                  "go-back replay: " + Describe(flit) +
                                      ", expected seq " + Str(next))) {
        return;
      }
      next = flit::SeqAdd(next, 1);
    }
  }
  context.verdict.Note(std::string(flit::ReplayCommandName(command)) + " " +
                       Str(nak->ack) + " at " + Micros(nak->at) + "; resent " +
                       Str(expected) + " at " + Micros(resend.at));
}

ConformanceCase ReplayOnNakCase(const std::string& name,
                                ReplayCommand command) {
  ConformanceCase c;
  c.name = name;
  c.traffic.dut_slots = 400;
  c.body = [command](CaseContext& context) {
    context.bench.peer_net().ExpectSlots(400);
    CheckReplayOnNak(context, command);
  };
  return c;
}

ConformanceCase NoPayloadBeyondCredit() {
  ConformanceCase c;
  c.name = "DLL_5_3_NoNewPayloadBeyondCredit";
  constexpr uint32_t kInit = 8;
  c.traffic.dut_slots = 200;
  c.body = [](CaseContext& context) {
    // The partner advertises 8 credits per VC and, as far as the DUT can
    // tell, never frees one: every count reaching the DUT reads 0.
    for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
      context.bench.peer_csr().Write(0x040 + 4 * vc, kInit);
    }
    PortTap& tap = context.bench.tap();
    tap.set_to_dut_edit([&tap](PortFlit& flit) {
      if (flit.header && flit.header->type != FlitType::kTraining &&
          flit.header->credit_count != 0) {
        flit::DlpHeader header = *flit.header;
        header.credit_count = 0;
        tap.Rewrite(flit, header);
      }
      return PortTap::EditResult::kPass;
    });
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    sc_core::wait(context.bench.traffic().start + sc_time(5, SC_US) -
                  sc_core::sc_time_stamp());
    std::array<uint64_t, flit::kLinkVcs> sent{};
    for (size_t index : NewPayloadsFromDut(tap)) {
      ++sent[tap.log()[index].header->payload_vc];
    }
    for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
      context.verdict.Expect(sent[vc] <= kInit,
                             Str(sent[vc]) + " new PAYLOAD flits on VC " +
                                 Str(vc) + " with " + Str(kInit) + " credits");
      const uint32_t avail =
          context.bench.dut_csr().Read(0x050 + 4 * vc);  // CREDIT_AVAIL
      context.verdict.Expect(
          avail == kInit - std::min<uint64_t>(sent[vc], kInit),
          "CREDIT_AVAIL_VC" + Str(vc) + " " + Str(avail) + " after " +
              Str(sent[vc]) + " of " + Str(kInit) + " credits");
    }
    context.verdict.Note("new PAYLOAD flits per VC: " + Str(sent[0]) + " " +
                         Str(sent[1]) + " " + Str(sent[2]) + " " +
                         Str(sent[3]));
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
    csr.Write(regs::kCtrlOffset, kCtrlReset & ~regs::kCtrlEnable.Mask());
    const sc_time disabled_at = sc_core::sc_time_stamp();
    sc_core::wait(1, SC_US);
    const uint32_t status = csr.Read(regs::kStatusOffset);
    context.verdict.Expect(regs::kStatusLtssm.Read(status) == kLtssmDisabled &&
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
    csr.Write(regs::kCtrlOffset, kCtrlReset);
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

}  // namespace

std::vector<ConformanceCase> DllCases() {
  return {TrainsToL0AtFullWidth(),
          LinkUpRaisesInterrupt(),
          SendsOnlyWellFormedFlits(),
          NumbersNewPayloadsFromZero(),
          NopCarriesWatermark(),
          IdleCarriesAck(),
          DeliversInOrderDespiteErrors(),
          CountsBadFlits(),
          NakForGapCase("DLL_3_5_GapGetsSelectiveNak", true),
          NakForGapCase("DLL_3_11_StandardNakWhenSelectiveOff", false),
          ReplayOnNakCase("DLL_4_3_StandardNakStartsGoBackReplay",
                          ReplayCommand::kStandardNak),
          ReplayOnNakCase("DLL_4_4_SelectiveNakResendsOneFlit",
                          ReplayCommand::kSelectiveNak),
          NoPayloadBeyondCredit(),
          UnmappedOffsetIsBusError(),
          BadWriteChangesNothing(),
          DisableTakesLinkDown()};
}

}  // namespace lq::conformance
