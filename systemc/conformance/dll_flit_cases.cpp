// SPDX-License-Identifier: Apache-2.0
// Conformance cases of the data-link layer's flit rules (docs/spec/dll.md
// sections 1-5: the link header, sequence numbers, ACK/NAK, replay,
// credits). Each drives the DUT through its PHY port, its network side and
// its registers only, with a reference controller as the link partner.
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>

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

ConformanceCase SendsOnlyWellFormedFlits() {
  ConformanceCase c;
  c.name = "DLL_1_3_SendsOnlyWellFormedFlits";
  c.traffic.dut_slots = 300;
  c.traffic.peer_slots = 300;
  c.body = [](CaseContext& context) {
    if (!AwaitTraffic(context)) {
      return;
    }
    const phy::LinkProfile& profile = context.bench.profile();
    // DLL-4.8: one flit per flit time (at the widest width; training
    // flits go on every lane at once, and narrower links are slower).
    const sc_time flit_time = FlitTime(context.bench);
    std::optional<sc_time> previous;
    uint64_t checked = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction != FlitDirection::kFromDut) {
        continue;
      }
      if (!context.verdict.Expect(
              !previous || flit.at >= *previous + flit_time,
              "a flit from the DUT less than a flit time (" +
                  Micros(flit_time) + ") after the one before, at " +
                  Micros(previous.value_or(flit.at)) + ": " + Describe(flit),
              {"DLL-4.8"})) {
        return;
      }
      previous = flit.at;
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
      if (!slot_used && !context.verdict.Expect(
                            std::all_of(flit.content.begin(), slot_end,
                                        [](uint8_t byte) { return byte == 0; }),
                            "non-zero slot in " + Describe(flit) + " (DLL-1.5)",
                            {"DLL-1.5", "PHY-2.6"})) {
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
    if (!AwaitTraffic(context)) {
      return;
    }
    const auto& log = context.bench.tap().log();
    const std::vector<size_t> fresh = NewPayloadsFromDut(context.bench.tap());
    context.verdict.Expect(
        fresh.size() == kSlots,
        Str(fresh.size()) + " new PAYLOAD flits for " + Str(kSlots) + " slots");
    if (fresh.empty()) {
      return;
    }
    // NEXT_TX_SEQ is 0 at link-up (DLL-2.2), and numbers follow on
    // (DLL-2.1).
    context.verdict.Expect(log[fresh[0]].header->flit_seq == 0,
                           Describe(log[fresh[0]]) + ", expected seq 0",
                           {"DLL-2.2"});
    uint16_t expected = log[fresh[0]].header->flit_seq;
    for (size_t index : fresh) {
      const PortFlit& flit = log[index];
      if (!context.verdict.Expect(
              flit.header->flit_seq == expected,
              Describe(flit) + ", expected seq " + Str(expected),
              {"DLL-2.1"})) {
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
    if (!AwaitTraffic(context)) {
      return;
    }
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

// Damages the first transmission of every `period`-th PAYLOAD flit on its
// way to the DUT (CRC mismatch), up to the `last`-th; counts them in
// `damaged`. Resends arrive intact, so each gap costs one resend when the
// DUT holds the flits after it (DLL-3.3).
void DamagePayloadsToDut(CaseContext& context, uint64_t period, uint64_t last,
                         std::shared_ptr<uint64_t> damaged) {
  struct Seen {
    uint64_t fresh = 0;
    std::optional<uint16_t> newest;
  };
  auto seen = std::make_shared<Seen>();
  context.bench.tap().set_to_dut_edit([=](PortFlit& flit) {
    if (!flit.Is(FlitType::kPayload) ||
        (seen->newest &&
         !flit::SeqIsAfter(flit.header->flit_seq, *seen->newest))) {
      return PortTap::EditResult::kPass;
    }
    seen->newest = flit.header->flit_seq;
    if (++seen->fresh % period == 0 && seen->fresh <= last) {
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
    // At line rate, so that the flit after a gap is a PAYLOAD flit (a NOP
    // would show the loss by its watermark, DLL-3.6), and gaps 150 flits
    // apart, so that one is filled before the next opens.
    DamagePayloadsToDut(context, 150, UINT64_MAX, damaged);
    if (!AwaitTraffic(context)) {
      return;
    }
    ExpectDeliveredOnce(context, context.bench.dut_net(), kSlots, "the DUT");
    // DLL-3.3, DLL-3.5: flits after a gap are held, so each damaged flit
    // costs one resend, not a go-back of everything after it.
    uint64_t intact = 0, selective = 0, standard = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      const bool to_dut = flit.direction == FlitDirection::kToDut;
      intact += to_dut && flit.Is(FlitType::kPayload) ? 1 : 0;
      if (!to_dut && flit.header) {
        selective += flit.header->replay == ReplayCommand::kSelectiveNak;
        standard += flit.header->replay == ReplayCommand::kStandardNak;
      }
    }
    context.verdict.Expect(
        intact == kSlots,
        Str(intact) + " intact PAYLOAD flits reached the DUT for " +
            Str(kSlots) + " slots and " + Str(*damaged) +
            " damaged ones: flits after a gap were not held (the DUT sent " +
            Str(selective) + " selective and " + Str(standard) +
            " standard NAKs)",
        {"DLL-3.3"});
    context.verdict.Note(Str(kSlots) + " delivered in order, " + Str(*damaged) +
                         " PAYLOAD flits damaged on the way, " +
                         Str(intact > kSlots ? intact - kSlots : 0) +
                         " resent beyond one per gap");
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
    if (!AwaitTraffic(context)) {
      return;
    }
    const uint32_t errors =
        context.bench.dut_csr().Read(regs::kCrcErrorsOffset);
    context.verdict.Expect(
        errors == *damaged,
        "CRC_ERRORS " + Str(errors) + " after " + Str(*damaged) + " bad flits",
        {"DLL-3.2"});
    const uint32_t cause = context.bench.dut_csr().Read(regs::kIrqStatusOffset);
    context.verdict.Expect(regs::kIrqStatusCrcError.Read(cause) != 0,
                           "IRQ_STATUS " + HexText(cause, 8) +
                               " after bad flits: CRC_ERROR not raised "
                               "(DLL-7.5)",
                           {"DLL-7.5"});
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
    WriteCtrl(context.bench.dut_csr(), 0, regs::kCtrlSelNakEn.Mask());
  }
  if (!AwaitTraffic(context)) {
    return;
  }
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
  if (!AwaitTraffic(context)) {
    return;
  }
  if (!context.verdict.Expect(
          nak->sent, "no ACK to the DUT to turn into " +
                         std::string(flit::ReplayCommandName(command)))) {
    return;
  }
  const auto& log = tap.log();
  std::optional<uint16_t> newest;  // Newest new flit before the NAK.
  std::optional<size_t> first_resend;
  std::map<uint16_t, size_t> original;  // Seq to its first transmission.
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
        original[seq] = i;
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
  // DLL-1.6: a resent flit repeats its slot and VC (its link fields are
  // built afresh, which the checks of DLL-1.3 cover).
  const auto repeats_original = [&](const PortFlit& flit) {
    const PortFlit& first = log[original.at(flit.header->flit_seq)];
    const size_t slot = tap.profile().payload_bytes;
    return context.verdict.Expect(
        flit.header->payload_vc == first.header->payload_vc &&
            std::equal(flit.content.begin(), flit.content.begin() + slot,
                       first.content.begin()),
        Describe(flit) + " does not repeat the slot and VC of " +
            Describe(first),
        {"DLL-1.6"});
  };
  if (!repeats_original(resend)) {
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
                                      ", expected seq " + Str(next)) ||
          !repeats_original(flit)) {
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
    WriteCreditInit(context.bench.peer_csr(), kInit);
    PortTap& tap = context.bench.tap();
    tap.set_to_dut_edit(ZeroCreditCounts(tap));
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    WaitUntil(context.bench.traffic().start + sc_time(5, SC_US));
    std::array<uint64_t, flit::kLinkVcs> sent{};
    for (size_t index : NewPayloadsFromDut(tap)) {
      ++sent[tap.log()[index].header->payload_vc];
    }
    for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
      context.verdict.Expect(sent[vc] <= kInit,
                             Str(sent[vc]) + " new PAYLOAD flits on VC " +
                                 Str(vc) + " with " + Str(kInit) + " credits");
      const uint32_t avail =
          context.bench.dut_csr().Read(regs::CreditAvailOffset(vc));
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

ConformanceCase AckSeqIsLastInOrder() {
  ConformanceCase c;
  c.name = "DLL_3_1_AckSeqIsLastInOrder";
  constexpr uint64_t kSlots = 200;
  c.traffic.peer_slots = kSlots;
  c.body = [](CaseContext& context) {
    if (!AwaitTraffic(context)) {
      return;
    }
    sc_core::wait(1, SC_US);
    const PortTap& tap = context.bench.tap();
    uint16_t received = flit::SeqAdd(0, -1);  // Newest in order, 1023.
    uint16_t acked = received;
    uint64_t acks = 0;
    for (size_t index : ByTime(tap)) {
      const PortFlit& flit = tap.log()[index];
      if (!flit.header || flit.header->type == FlitType::kIdle) {
        continue;
      }
      const flit::DlpHeader& h = *flit.header;
      if (flit.direction == FlitDirection::kToDut) {
        if (h.type == FlitType::kPayload &&
            h.flit_seq == flit::SeqAdd(received, 1)) {
          received = h.flit_seq;
        }
        continue;
      }
      if (h.replay == ReplayCommand::kNone) {
        continue;
      }
      ++acks;
      if (!context.verdict.Expect(
              !flit::SeqIsAfter(h.ack_seq, received) &&
                  !flit::SeqIsAfter(acked, h.ack_seq),
              Describe(flit) + ": ack_seq must lie between the last sent (" +
                  Str(acked) + ") and the newest received in order (" +
                  Str(received) + ")")) {
        return;
      }
      acked = h.ack_seq;
    }
    context.verdict.Expect(acked == (kSlots - 1) % flit::kSeqModulus,
                           "last ack_seq " + Str(acked) + " after " +
                               Str(kSlots) + " flits, expected " +
                               Str(kSlots - 1));
    context.verdict.Note(Str(acks) + " commands checked, last " + Str(acked));
  };
  return c;
}

ConformanceCase DuplicateIsReAcked() {
  ConformanceCase c;
  c.name = "DLL_3_4_DuplicateIsDiscardedAndReAcked";
  constexpr uint64_t kSlots = 20;
  c.traffic.peer_slots = kSlots;
  c.traffic.interval = sc_time(200, SC_NS);
  c.body = [](CaseContext& context) {
    struct Duplicate {
      bool sent = false;
      uint16_t seq = 0;
      sc_time at;
    };
    auto duplicate = std::make_shared<Duplicate>();
    auto payloads = std::make_shared<uint64_t>(0);
    PortTap& tap = context.bench.tap();
    const sc_time after(30, SC_NS);  // Well after the original is ACKed.
    tap.set_to_dut_edit([=, &tap](PortFlit& flit) {
      if (flit.Is(FlitType::kPayload) && ++*payloads == 5) {
        tap.InjectToDut(flit.content, after + sc_time(60, SC_NS));
        duplicate->sent = true;
        duplicate->seq = flit.header->flit_seq;
        duplicate->at = flit.at + after + sc_time(60, SC_NS);
      }
      return PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    ExpectDeliveredOnce(context, context.bench.dut_net(), kSlots, "the DUT");
    if (!context.verdict.Expect(duplicate->sent, "no duplicate was sent")) {
      return;
    }
    const std::optional<size_t> ack = WaitForFlit(
        context, FlitDirection::kFromDut, 0,
        [&](const PortFlit& flit) {
          return flit.header && flit.at > duplicate->at &&
                 flit.header->replay != ReplayCommand::kNone;
        },
        duplicate->at + sc_time(100, SC_NS));
    if (!context.verdict.Expect(ack.has_value(),
                                "no ACK within 100 ns of the duplicate of " +
                                    Str(duplicate->seq))) {
      return;
    }
    const PortFlit& flit = tap.log()[*ack];
    context.verdict.Expect(
        flit.header->replay == ReplayCommand::kAck &&
            flit.header->ack_seq == duplicate->seq,
        Describe(flit) + ", expected ACK " + Str(duplicate->seq));
    context.verdict.Note("duplicate of " + Str(duplicate->seq) +
                         " re-ACKed: " + Describe(flit));
  };
  return c;
}

ConformanceCase TrailingLossGetsStandardNak() {
  ConformanceCase c;
  c.name = "DLL_3_6_TrailingLossGetsOneStandardNak";
  constexpr uint64_t kSlots = 40;
  c.traffic.peer_slots = kSlots;
  c.body = [](CaseContext& context) {
    auto payloads = std::make_shared<uint64_t>(0);
    auto lost = std::make_shared<std::optional<uint16_t>>();
    context.bench.tap().set_to_dut_edit([=](PortFlit& flit) {
      // The last new PAYLOAD flit: only NOPs follow, whose watermark
      // shows the loss.
      if (flit.Is(FlitType::kPayload) && !*lost && ++*payloads == kSlots) {
        *lost = flit.header->flit_seq;
        return PortTap::EditResult::kDrop;
      }
      return PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    if (!context.verdict.Expect(lost->has_value(), "no flit was dropped")) {
      return;
    }
    const uint16_t ack = flit::SeqAdd(**lost, -1);
    const PortTap& tap = context.bench.tap();
    std::optional<sc_time> resent;  // The lost flit's replay reaching the DUT.
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction == FlitDirection::kToDut &&
          flit.Is(FlitType::kPayload) && flit.header->flit_seq == **lost &&
          (!resent || flit.at < *resent)) {
        resent = flit.at;  // The first: the dropped original is not logged.
      }
    }
    uint64_t naks = 0;
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction != FlitDirection::kFromDut || !flit.header ||
          (resent && flit.at > *resent) ||
          (flit.header->replay != ReplayCommand::kStandardNak &&
           flit.header->replay != ReplayCommand::kSelectiveNak)) {
        continue;
      }
      ++naks;
      if (naks == 1) {
        context.verdict.Expect(
            flit.header->replay == ReplayCommand::kStandardNak &&
                flit.header->ack_seq == ack,
            Describe(flit) + ": expected a standard NAK " + Str(ack),
            {"DLL-3.6"});
      } else if (!context.verdict.Expect(
                     false,
                     Describe(flit) + ": a second NAK before the lost flit "
                                      "is back",
                     {"DLL-3.7"})) {
        return;
      }
    }
    context.verdict.Expect(naks == 1,
                           "no NAK for the trailing loss of " + Str(**lost));
    context.verdict.Note("lost " + Str(**lost) + ", " + Str(naks) +
                         " standard NAK " + Str(ack));
  };
  return c;
}

ConformanceCase AcksWithinTheAckTimeout() {
  ConformanceCase c;
  c.name = "DLL_3_9_AcksWithinTheAckTimeout";
  constexpr uint64_t kSlots = 30;
  c.traffic.peer_slots = kSlots;
  c.traffic.interval = sc_time(200, SC_NS);  // One at a time: no coalescing.
  c.body = [](CaseContext& context) {
    if (!AwaitTraffic(context)) {
      return;
    }
    sc_core::wait(1, SC_US);
    // ACK_TIMEOUT is 16 flit times (32 ns); the rest is the controller's
    // receive and transmit pipelines.
    const sc_time bound = FlitTime(context.bench) * 16 + sc_time(48, SC_NS);
    const PortTap& tap = context.bench.tap();
    const std::vector<size_t> order = ByTime(tap);
    sc_time worst = sc_core::SC_ZERO_TIME;
    for (size_t k = 0; k < order.size(); ++k) {
      const PortFlit& in = tap.log()[order[k]];
      if (in.direction != FlitDirection::kToDut || !in.Is(FlitType::kPayload)) {
        continue;
      }
      std::optional<sc_time> acked;
      for (size_t j = k + 1; j < order.size() && !acked; ++j) {
        const PortFlit& out = tap.log()[order[j]];
        if (out.direction == FlitDirection::kFromDut && out.header &&
            out.header->replay == ReplayCommand::kAck &&
            !flit::SeqIsAfter(in.header->flit_seq, out.header->ack_seq)) {
          acked = out.at;
        }
      }
      if (!context.verdict.Expect(acked && *acked - in.at <= bound,
                                  "seq " + Str(in.header->flit_seq) +
                                      " reached the DUT at " + Micros(in.at) +
                                      " and was not ACKed within " +
                                      Micros(bound))) {
        return;
      }
      worst = std::max(worst, *acked - in.at);
    }
    context.verdict.Note("slowest ACK " + Micros(worst) + " after its flit");
  };
  return c;
}

ConformanceCase ReplayTimerResends() {
  ConformanceCase c;
  c.name = "DLL_4_5_ReplayTimerResendsWhenNothingIsAcked";
  constexpr uint64_t kSlots = 600;
  c.traffic.dut_slots = kSlots;
  c.body = [](CaseContext& context) {
    PortTap& tap = context.bench.tap();
    // No ACK reaches the DUT until it has replayed once. The replay timer
    // is long enough (REPLAY_TIMEOUT 2000 flit times, 4 us) for a DUT
    // without a full-buffer stop to send all 600.
    constexpr uint32_t kTimeout = 2000;
    context.bench.dut_csr().Write(regs::kReplayTimeoutOffset, kTimeout);
    auto replayed = std::make_shared<bool>(false);
    tap.set_to_dut_edit(
        StripReplayCommands(tap, [replayed] { return !*replayed; }));
    context.bench.peer_net().ExpectSlots(kSlots);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    // The first flit sent twice, and what was sent before it.
    const std::optional<size_t> first = WaitForFlit(
        context, FlitDirection::kFromDut, 0,
        [](const PortFlit& flit) { return flit.Is(FlitType::kPayload); },
        context.bench.traffic().start + sc_time(10, SC_US));
    if (!context.verdict.Expect(first.has_value(), "the DUT sent nothing")) {
      return;
    }
    const std::optional<size_t> again = WaitForFlit(
        context, FlitDirection::kFromDut, *first + 1,
        [](const PortFlit& flit) {
          return flit.Is(FlitType::kPayload) && flit.header->flit_seq == 0;
        },
        tap.log()[*first].at + sc_time(10, SC_US));
    *replayed = true;
    if (!context.verdict.Expect(again.has_value(),
                                "no replay within 10 us without ACKs")) {
      return;
    }
    uint64_t sent_before = 0;
    for (size_t index : NewPayloadsFromDut(tap)) {
      sent_before += tap.log()[index].at < tap.log()[*again].at ? 1 : 0;
    }
    // DLL-2.3, DLL-4.1: the replay buffer (at most 511) fills and new
    // flits stop, long before the timer.
    context.verdict.Expect(
        sent_before <= 511 && sent_before < kSlots,
        Str(sent_before) + " of " + Str(kSlots) +
            " flits sent unacknowledged in " +
            Micros(tap.log()[*again].at - tap.log()[*first].at) +
            ": no stop at a full replay buffer of at most 511",
        {"DLL-2.3", "DLL-4.1"});
    const sc_time timeout = FlitTime(context.bench) * kTimeout;
    const sc_time waited = tap.log()[*again].at - tap.log()[*first].at;
    context.verdict.Expect(
        waited >= timeout && waited <= timeout + sc_time(100, SC_NS),
        "seq 0 resent " + Micros(waited) + " after it was first sent, " +
            "expected REPLAY_TIMEOUT " + Micros(timeout) +
            " (+ 100 ns), as written before training",
        {"DLL-4.5"});
    context.bench.peer_net().WaitForExpected();
    ExpectDeliveredOnce(context, context.bench.peer_net(), kSlots,
                        "after the replay the partner", {"DLL-4.1"});
    context.verdict.Note("resent after " + Micros(waited) + " with " +
                         Str(sent_before) + " flits outstanding");
  };
  return c;
}

ConformanceCase FifthReplayEscalates() {
  ConformanceCase c;
  c.name = "DLL_4_7_FifthReplayEscalatesToRecovery";
  constexpr uint64_t kSlots = 40;
  c.traffic.dut_slots = kSlots;
  c.body = [](CaseContext& context) {
    PortTap& tap = context.bench.tap();
    // No ACK reaches the DUT until it retrains, and until then every copy
    // of its first flit reaches the partner bad: after Recovery only the
    // DUT's replay (DLL-4.9) can bring it.
    auto retraining = std::make_shared<bool>(false);
    tap.set_to_dut_edit(
        StripReplayCommands(tap, [retraining] { return !*retraining; }));
    tap.set_from_dut_edit([retraining](PortFlit& flit) {
      return !*retraining && flit.Is(FlitType::kPayload) &&
                     flit.header->flit_seq == 0
                 ? PortTap::EditResult::kDrop
                 : PortTap::EditResult::kPass;
    });
    context.bench.dut_csr().Write(regs::kIrqEnableOffset, 0);
    context.bench.peer_net().ExpectSlots(kSlots);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    const std::optional<size_t> training = WaitForFlit(
        context, FlitDirection::kFromDut, 0,
        [&](const PortFlit& flit) {
          return flit.Is(FlitType::kTraining) &&
                 flit.at > context.bench.traffic().start;
        },
        context.bench.traffic().start + sc_time(20, SC_US));
    *retraining = true;
    if (!context.verdict.Expect(training.has_value(),
                                "no retraining within 20 us without ACKs")) {
      return;
    }
    const auto& log = tap.log();
    // Copies of seq 0 before Recovery: every one was damaged on its way.
    uint64_t sends_of_first = 0;
    for (size_t i = 0; i < *training; ++i) {
      sends_of_first +=
          log[i].direction == FlitDirection::kFromDut && !log[i].header ? 1 : 0;
    }
    context.verdict.Expect(sends_of_first == 5,
                           "seq 0 sent " + Str(sends_of_first) +
                               " times before retraining, expected 1 + "
                               "REPLAY_LIMIT (4) replays",
                           {"DLL-4.7", "DLL-6.6"});
    // DLL-6.13: training sets sent in Recovery say so.
    const Result<flit::TrainingSet> ts = flit::ParseTrainingSet(
        tap.profile(),
        ByteView(log[*training].content).Sub(0, tap.profile().payload_bytes));
    context.verdict.Expect(ts && ts->in_recovery,
                           "a training set sent in Recovery without "
                           "in_recovery = 1 (DLL-6.13)",
                           {"DLL-6.13"});
    context.bench.peer_net().WaitForExpected();
    RegisterMaster& csr = context.bench.dut_csr();
    const uint32_t cause = csr.Read(regs::kIrqStatusOffset);
    context.verdict.Expect(
        regs::kIrqStatusReplayEscalation.Read(cause) != 0 &&
            regs::kIrqStatusLinkDown.Read(cause) == 0,
        "IRQ_STATUS " + HexText(cause, 8) +
            ": expected REPLAY_ESCALATION and no LINK_DOWN (DLL-7.3)",
        {"DLL-7.3"});
    const uint32_t retrains = csr.Read(regs::kRetrainsOffset);
    const uint32_t downs = csr.Read(regs::kLinkDownsOffset);
    const uint32_t replays = csr.Read(regs::kReplaysOffset);
    context.verdict.Expect(retrains == 1 && downs == 0,
                           "RETRAINS " + Str(retrains) + ", LINK_DOWNS " +
                               Str(downs) + ", expected 1 and 0",
                           {"DLL-7.3"});
    context.verdict.Expect(replays == 4,
                           "REPLAYS " + Str(replays) +
                               ", expected 4 (the replay after Recovery is "
                               "not counted, DLL-8.6)",
                           {"DLL-4.7", "DLL-4.9"});
    ExpectDeliveredOnce(context, context.bench.peer_net(), kSlots,
                        "after Recovery (DLL-4.9) the partner", {"DLL-4.9"});
    context.verdict.Note("retrained after seq 0 was sent " +
                         Str(sends_of_first) + " times");
  };
  return c;
}

ConformanceCase StaleAckIsIgnored() {
  ConformanceCase c;
  c.name = "DLL_4_2_StaleAckIsIgnoredAndCounted";
  constexpr uint64_t kSlots = 400;
  c.traffic.dut_slots = kSlots;
  c.body = [](CaseContext& context) {
    auto bent = std::make_shared<std::optional<std::string>>();
    PortTap& tap = context.bench.tap();
    tap.set_to_dut_edit([=, &tap](PortFlit& flit) {
      if (!*bent && flit.header && flit.header->replay == ReplayCommand::kAck &&
          NewPayloadsFromDut(tap).size() >= 100) {
        // Far beyond anything outstanding (at most 511 are).
        flit::DlpHeader header = *flit.header;
        header.ack_seq = flit::SeqAdd(header.ack_seq, 600);
        tap.Rewrite(flit, header);
        *bent = Describe(flit);
      }
      return PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    if (!context.verdict.Expect(bent->has_value(), "no ACK was bent")) {
      return;
    }
    const uint32_t errors =
        context.bench.dut_csr().Read(regs::kProtocolErrorsOffset);
    context.verdict.Expect(errors == 1, "PROTOCOL_ERRORS " + Str(errors) +
                                            " after one invalid ACK (" +
                                            **bent + ")");
    ExpectDeliveredOnce(context, context.bench.peer_net(), kSlots,
                        "the partner");
    context.verdict.Note("ignored " + **bent);
  };
  return c;
}

ConformanceCase LinkDownEmptiesReplayBuffer() {
  ConformanceCase c;
  c.name = "DLL_4_10_LinkDownEmptiesTheReplayBuffer";
  c.traffic.dut_slots = 400;
  c.traffic.peer_slots = 100;
  c.body = [](CaseContext& context) {
    PortTap& tap = context.bench.tap();
    // Once the DUT has sent 50 flits, nothing is acknowledged any more.
    tap.set_to_dut_edit(StripReplayCommands(
        tap, [&tap] { return NewPayloadsFromDut(tap).size() >= 50; }));
    RegisterMaster& csr = context.bench.dut_csr();
    csr.Write(regs::kIrqEnableOffset, 0);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    WaitForNewPayloads(tap, 100);
    WriteCtrl(csr, 0, regs::kCtrlEnable.Mask());
    const sc_time down_at = sc_core::sc_time_stamp();
    sc_core::wait(1, SC_US);
    // What was outstanding: new flits after the last ACK the DUT got.
    uint16_t acked = flit::SeqAdd(0, -1);
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction == FlitDirection::kToDut && flit.header &&
          flit.header->replay == ReplayCommand::kAck && flit.at < down_at) {
        acked = flit.header->ack_seq;
      }
    }
    // Every new flit sent since is unacknowledged, those a pipeline still
    // put on the wire after the write included (DLL-6.10 allows 200 ns).
    uint64_t outstanding = 0;
    for (size_t index : NewPayloadsFromDut(tap)) {
      const PortFlit& flit = tap.log()[index];
      outstanding += flit::SeqIsAfter(flit.header->flit_seq, acked) ? 1 : 0;
    }
    const uint32_t lost = csr.Read(regs::kLostOnDownOffset);
    context.verdict.Expect(lost == outstanding,
                           "LOST_ON_DOWN " + Str(lost) + ", " +
                               Str(outstanding) + " flits were outstanding",
                           {"DLL-4.10"});
    const uint32_t status = csr.Read(regs::kStatusOffset);
    const uint32_t cause = csr.Read(regs::kIrqStatusOffset);
    context.verdict.Expect(
        regs::kStatusLinkUp.Read(status) == 0 &&
            regs::kStatusWidth.Read(status) == 0 &&
            regs::kIrqStatusLinkDown.Read(cause) != 0 &&
            csr.Read(regs::kLinkDownsOffset) == 1,
        "STATUS " + HexText(status, 8) + ", IRQ_STATUS " + HexText(cause, 8) +
            ": a link-down clears LINK_UP and WIDTH, raises LINK_DOWN and "
            "counts in LINK_DOWNS (DLL-7.2)",
        {"DLL-7.2"});
    const size_t before = tap.log().size();
    WriteCtrl(csr, 0);
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    // After the new link-up the credit counts start again from 0
    // (DLL-5.9), and nothing old is replayed: the first PAYLOAD flit is
    // number 0 (DLL-2.2) and carries a slot never sent before.
    const std::optional<size_t> idle = WaitForFlit(
        context, FlitDirection::kFromDut, before,
        [](const PortFlit& flit) { return flit.Is(FlitType::kIdle); },
        sc_core::sc_time_stamp() + sc_time(5, SC_US));
    if (context.verdict.Expect(idle.has_value(),
                               "no IDLE flit in the new training")) {
      const PortFlit& flit = tap.log()[*idle];
      context.verdict.Expect(
          flit.header->credit_count == 0,
          Describe(flit) + ": credit counts must restart at 0", {"DLL-5.9"});
    }
    const std::optional<size_t> payload = WaitForFlit(
        context, FlitDirection::kFromDut, before,
        [](const PortFlit& flit) { return flit.Is(FlitType::kPayload); },
        sc_core::sc_time_stamp() + sc_time(5, SC_US));
    if (context.verdict.Expect(payload.has_value(),
                               "no PAYLOAD flit after the link-up")) {
      const PortFlit& flit = tap.log()[*payload];
      const size_t slot = tap.profile().payload_bytes;
      bool old_slot = false;
      for (size_t i = 0; i < before; ++i) {
        const PortFlit& sent = tap.log()[i];
        old_slot = old_slot || (sent.direction == FlitDirection::kFromDut &&
                                sent.Is(FlitType::kPayload) &&
                                std::equal(sent.content.begin(),
                                           sent.content.begin() + slot,
                                           flit.content.begin()));
      }
      context.verdict.Expect(
          flit.header->flit_seq == 0 && !old_slot,
          Describe(flit) + (old_slot ? ", a slot sent before the link-down"
                                     : ", expected seq 0"),
          {"DLL-4.10", "DLL-2.2"});
    }
    context.verdict.Note("LOST_ON_DOWN " + Str(lost));
  };
  return c;
}

ConformanceCase ReplaysConsumeNoCredit() {
  ConformanceCase c;
  c.name = "DLL_5_4_ReplaysConsumeNoCredit";
  constexpr uint32_t kInit = 8;
  constexpr uint64_t kSlots = 16;  // 4 per VC: half of each VC's credit.
  c.traffic.dut_slots = kSlots;
  c.body = [](CaseContext& context) {
    WriteCreditInit(context.bench.peer_csr(), kInit);
    PortTap& tap = context.bench.tap();
    const PortTap::Edit zero = ZeroCreditCounts(tap);
    auto naked = std::make_shared<bool>(false);
    tap.set_to_dut_edit([=, &tap](PortFlit& flit) {
      zero(flit);
      // The first ACK after the DUT's last new flit becomes a standard
      // NAK for it: the DUT replays what the ACK did not cover.
      if (!*naked && flit.header &&
          flit.header->replay == ReplayCommand::kAck &&
          NewPayloadsFromDut(tap).size() == kSlots &&
          flit.header->ack_seq != flit::SeqAdd(uint16_t{kSlots}, -1)) {
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
    sc_core::wait(1, SC_US);
    uint64_t payloads = 0;
    for (const PortFlit& flit : tap.log()) {
      payloads += flit.direction == FlitDirection::kFromDut &&
                          flit.Is(FlitType::kPayload)
                      ? 1
                      : 0;
    }
    if (!context.verdict.Expect(*naked,
                                "stimulus: no ACK to turn into a "
                                "NAK") ||
        !context.verdict.Expect(payloads > kSlots,
                                "nothing replayed after a standard NAK (" +
                                    Str(payloads) + " PAYLOAD flits for " +
                                    Str(kSlots) + " slots)")) {
      return;
    }
    for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
      const uint32_t avail =
          context.bench.dut_csr().Read(regs::CreditAvailOffset(vc));
      context.verdict.Expect(avail == kInit - kSlots / flit::kLinkVcs,
                             "CREDIT_AVAIL_VC" + Str(vc) + " " + Str(avail) +
                                 " after 4 new flits and a replay, expected " +
                                 Str(kInit - kSlots / flit::kLinkVcs));
    }
    context.verdict.Note(Str(payloads - kSlots) + " flits replayed");
  };
  return c;
}

ConformanceCase CreditCountsRotate() {
  ConformanceCase c;
  c.name = "DLL_5_5_CreditCountsRotateAndTrackFreedSlots";
  constexpr uint64_t kSlots = 200;
  c.traffic.peer_slots = kSlots;
  c.body = [](CaseContext& context) {
    if (!AwaitTraffic(context)) {
      return;
    }
    sc_core::wait(1, SC_US);
    int previous = -1;  // The credit VC of the flit before; -1: none yet.
    std::array<uint16_t, flit::kLinkVcs> last{};
    uint64_t checked = 0;
    for (const PortFlit& flit : context.bench.tap().log()) {
      if (flit.direction != FlitDirection::kFromDut || !flit.header) {
        continue;
      }
      if (flit.header->type == FlitType::kTraining) {
        previous = -1;  // The rotation restarts with the link.
        continue;
      }
      const uint8_t vc = flit.header->credit_vc;
      if (previous >= 0 &&
          !context.verdict.Expect(
              vc == (previous + 1) % flit::kLinkVcs,
              Describe(flit) + " after credit vc " + Str(previous),
              {"DLL-5.5"})) {
        return;
      }
      previous = vc;
      last[vc] = flit.header->credit_count;
      ++checked;
    }
    // The DUT's network side takes every slot at once: FREED(v) is what
    // arrived on v.
    for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
      context.verdict.Expect(
          last[vc] == kSlots / flit::kLinkVcs,
          "last credit count of VC " + Str(vc) + " is " + Str(last[vc]) + ", " +
              Str(kSlots / flit::kLinkVcs) + " slots were freed",
          {"DLL-5.5", "DLL-4.11"});
    }
    context.verdict.Note(Str(checked) + " flits rotate the credit VC");
  };
  return c;
}

ConformanceCase LostCreditUpdatesRecovered() {
  ConformanceCase c;
  c.name = "DLL_5_6_LostCreditUpdatesAreMadeUp";
  constexpr uint32_t kInit = 8;
  constexpr uint64_t kSlots = 200;
  c.traffic.dut_slots = kSlots;
  c.body = [](CaseContext& context) {
    WriteCreditInit(context.bench.peer_csr(), kInit);
    // Every other one of the first 120 flits to the DUT in L0 arrives
    // bad, its credit count with it. (Later ones stay intact: a TL partner
    // closes with one round of counts the channel must not damage,
    // DLL-4.11.)
    auto seen = std::make_shared<uint64_t>(0);
    context.bench.tap().set_to_dut_edit([seen](PortFlit& flit) {
      if (flit.header &&
          (flit.Is(FlitType::kNop) || flit.Is(FlitType::kPayload)) &&
          ++*seen % 2 == 0 && *seen <= 120) {
        flit.content[0] ^= 0x5A;
        flit.header.reset();
      }
      return PortTap::EditResult::kPass;
    });
    if (!AwaitTraffic(context)) {
      return;
    }
    ExpectDeliveredOnce(context, context.bench.peer_net(), kSlots,
                        "the partner", {"DLL-5.6"});
    // DLL-5.7: no new flit on v beyond INIT(v) plus the credit returned
    // to the DUT in an intact flit before it.
    const PortTap& tap = context.bench.tap();
    std::array<uint64_t, flit::kLinkVcs> consumed{}, returned{};
    std::optional<uint16_t> newest;
    for (size_t index : ByTime(tap)) {
      const PortFlit& flit = tap.log()[index];
      if (!flit.header || flit.header->type == FlitType::kTraining ||
          flit.header->type == FlitType::kIdle) {
        continue;
      }
      const flit::DlpHeader& h = *flit.header;
      if (flit.direction == FlitDirection::kToDut) {
        returned[h.credit_vc] =
            std::max<uint64_t>(returned[h.credit_vc], h.credit_count);
      } else if (h.type == FlitType::kPayload &&
                 (!newest || flit::SeqIsAfter(h.flit_seq, *newest))) {
        newest = h.flit_seq;
        const unsigned vc = h.payload_vc;
        if (!context.verdict.Expect(
                ++consumed[vc] <= kInit + returned[vc],
                Describe(flit) + " is new flit " + Str(consumed[vc]) +
                    " on its VC with " + Str(returned[vc]) +
                    " credits returned and " + Str(kInit) + " advertised",
                {"DLL-5.7"})) {
          return;
        }
      }
    }
    context.verdict.Note(Str(std::min<uint64_t>(*seen, 120) / 2) +
                         " flits to the DUT damaged");
  };
  return c;
}

ConformanceCase OverrunIsDiscarded() {
  ConformanceCase c;
  c.name = "DLL_5_8_OverrunIsDiscardedAndCounted";
  constexpr uint32_t kInit = 4;
  c.traffic.peer_slots = 48;      // 12 per VC
  c.traffic.dut_room_per_vc = 0;  // The DUT's network takes nothing.
  c.body = [](CaseContext& context) {
    WriteCreditInit(context.bench.dut_csr(), kInit);
    // The partner is told of 8 freed slots per VC that were never freed,
    // so it sends 12 per VC into 4 slots.
    PortTap& tap = context.bench.tap();
    tap.set_from_dut_edit([&tap](PortFlit& flit) {
      if (flit.header && flit.header->type != FlitType::kTraining) {
        flit::DlpHeader header = *flit.header;
        header.credit_count = static_cast<uint16_t>(header.credit_count + 8);
        tap.Rewrite(flit, header);
      }
      return PortTap::EditResult::kPass;
    });
    if (!WaitLinkUp(context, kLinkUpWithin)) {
      return;
    }
    WaitUntil(context.bench.traffic().start + sc_time(5, SC_US));
    const uint32_t errors =
        context.bench.dut_csr().Read(regs::kProtocolErrorsOffset);
    context.verdict.Expect(errors > 0,
                           "PROTOCOL_ERRORS 0 after the partner overran "
                           "every VC buffer");
    // Accepted flits are acknowledged: at most INIT per VC may be.
    std::optional<uint16_t> highest;
    for (const PortFlit& flit : tap.log()) {
      if (flit.direction == FlitDirection::kFromDut && flit.header &&
          flit.header->replay == ReplayCommand::kAck &&
          flit.header->type != FlitType::kIdle &&
          (!highest || flit::SeqIsAfter(flit.header->ack_seq, *highest))) {
        highest = flit.header->ack_seq;
      }
    }
    context.verdict.Expect(
        highest && !flit::SeqIsAfter(*highest, kInit * flit::kLinkVcs - 1),
        "the DUT acknowledged up to " + (highest ? Str(*highest) : "none") +
            ", more than its " + Str(kInit * flit::kLinkVcs) + " slots");
    context.verdict.Note("PROTOCOL_ERRORS " + Str(errors));
  };
  return c;
}

}  // namespace

std::vector<ConformanceCase> DllFlitCases() {
  return {SendsOnlyWellFormedFlits(),
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
          AckSeqIsLastInOrder(),
          DuplicateIsReAcked(),
          TrailingLossGetsStandardNak(),
          AcksWithinTheAckTimeout(),
          ReplayTimerResends(),
          FifthReplayEscalates(),
          StaleAckIsIgnored(),
          LinkDownEmptiesReplayBuffer(),
          ReplaysConsumeNoCredit(),
          CreditCountsRotate(),
          LostCreditUpdatesRecovered(),
          OverrunIsDiscarded()};
}

}  // namespace lq::conformance
