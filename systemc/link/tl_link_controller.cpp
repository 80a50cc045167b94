// SPDX-License-Identifier: Apache-2.0
// The TL link controller's timing: which flit leaves when, and when what
// arrives takes effect. The decisions are models/link's.
#include "systemc/link/tl_link_controller.h"

#include <algorithm>
#include <string>
#include <utility>

#include "generated/cpp/lc_regs.h"
#include "systemc/link/lc_declaration.h"

namespace lq::link {

namespace {

namespace regs = lq::regs::lc;
using flit::FlitType;
using sc_core::sc_time;

constexpr unsigned kVcs = flit::kLinkVcs;
constexpr uint64_t kPsPerMs = 1000000000;

bool CarriesLinkFields(TxKind kind) {
  return kind == TxKind::kResend || kind == TxKind::kReplay ||
         kind == TxKind::kNew || kind == TxKind::kNop ||
         kind == TxKind::kControl;
}

bool IsPayload(TxKind kind) {
  return kind == TxKind::kResend || kind == TxKind::kReplay ||
         kind == TxKind::kNew;
}

}  // namespace

TlLinkController::TlLinkController(sc_core::sc_module_name name,
                                   const TlLinkControllerConfig& config)
    : sc_module(name),
      csr("csr"),
      phy("phy"),
      network("network"),
      irq("irq"),
      config_(config),
      clock_(CycleClock::FromNs(config.clock_ns)),
      tx_(config.profile, config.buffers.replay_flits),
      rx_(config.profile, config.buffers),
      ltssm_(config.profile,
             static_cast<uint64_t>(static_cast<double>(kPsPerMs) *
                                   config.ltssm_time_scale)),
      regs_(config.profile.wire_id,
            LcPulses{
                [this] {
                  LtssmInputs in;
                  in.retrain = true;
                  StepLtssm(in);
                },
                [this] { tx_.ArmCrcError(); }, [this] { tx_.ArmSeqError(); },
                [this] { tx_.ArmDropAck(); }, [this] { corrupt_armed_ = true; },
                [this] { ApplyRegisters(); }},
            [this] {
              LcStatus status;
              status.ltssm = ltssm_.StatusCode();
              status.link_up = ltssm_.link_up();
              status.profile_id = ltssm_.profile_id();
              status.width = ltssm_.width();
              for (unsigned vc = 0; vc < kVcs; ++vc) {
                status.credit_avail[vc] = tx_.CreditAvailable(vc);
              }
              return status;
            }),
      tx_slots_(kVcs),
      control_(config.profile.payload_bytes),
      network_room_(kVcs, 0) {
  if (clock_.period_ps() == 0) {
    SC_REPORT_ERROR(this->name(), "the link clock must be non-zero");
  }
  phy.in(*static_cast<phy::PhyRxIf*>(this));
  network.in(*static_cast<SlotIf*>(this));
  csr.register_b_transport(this, &TlLinkController::BTransport);
  csr.register_transport_dbg(this, &TlLinkController::TransportDebug);
  ApplyRegisters();

  SC_HAS_PROCESS(TlLinkController);
  SC_METHOD(OnTxTime);
  sensitive << tx_event_;
  dont_initialize();
  SC_METHOD(OnRxDue);
  sensitive << rx_event_;
  dont_initialize();
  SC_METHOD(OnLtssmTimeout);
  sensitive << ltssm_event_;
  dont_initialize();
  SC_METHOD(DriveIrq);
  sensitive << irq_event_;
  dont_initialize();
}

// ---------------------------------------------------------------------------
// Start.

void TlLinkController::start_of_simulation() {
  irq.write(false);
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    network.out->Credit(vc, config_.tx_slots_per_vc, sc_core::SC_ZERO_TIME);
  }
  if (config_.start_trained) {
    OnLtssmEvents(ltssm_.StartTrained(0));
  } else {
    StepLtssm({});
  }
}

// ---------------------------------------------------------------------------
// Transmit side.

void TlLinkController::KickTx(uint64_t cycle) {
  tx_event_.notify(CycleClock::OffsetOfPs(std::max(
      {cycle * clock_.period_ps(), reg_free_ps_, CycleClock::NowPs()})));
}

bool TlLinkController::NopNeeded(bool& idle_fill) const {
  idle_fill = false;
  const VcCredits& freed = rx_.Freed();
  if (tx_.Outstanding() != 0 || rx_.AckWork() || freed != carried_) {
    return true;
  }
  // Closing round: every count the idle stream would repeat (decision 0006).
  idle_fill = freed != filled_;
  return idle_fill;
}

void TlLinkController::OnTxTime() {
  ++activations_;
  const uint64_t now = clock_.Next();
  if (CycleClock::NowPs() < reg_free_ps_) {
    KickTx(0);
    return;
  }
  // DLL-4.11: what arrives by this cycle is taken before its flit is
  // chosen, whichever of the two methods the kernel runs first.
  TakeDueRx(now);
  const TxMode mode = ltssm_.Mode();
  HandleTxEvents(tx_.CheckTimer(mode == TxMode::kL0));

  uint32_t offered = 0;
  uint64_t next_slot_cycle = UINT64_MAX;
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    if (tx_slots_[vc].empty()) {
      continue;
    }
    if (tx_slots_[vc].front().cycle <= now) {
      offered |= 1u << vc;
    } else {
      next_slot_cycle = std::min(next_slot_cycle, tx_slots_[vc].front().cycle);
    }
  }
  const bool control_ready = control_.Ready(now);
  if (!control_ready && control_.NextCycle()) {
    next_slot_cycle = std::min(next_slot_cycle, *control_.NextCycle());
  }
  const TxChoice choice = tx_.Choose(ltssm_.Mode(), offered, control_ready);
  bool idle_fill = false;
  if (choice.kind == TxKind::kNone ||
      (choice.kind == TxKind::kNop && !NopNeeded(idle_fill))) {
    if (next_slot_cycle != UINT64_MAX) {
      KickTx(next_slot_cycle);  // A slot announced for later.
    }
    return;  // Silent: the idle NOP stream is implicit.
  }

  TxLinkFields fields;
  fields.command = rx_.Command();
  fields.ack_seq = rx_.AckSeq();
  fields.freed = &rx_.Freed();
  Bytes training_slot;
  if (choice.kind == TxKind::kTraining) {
    training_slot =
        flit::EncodeTrainingSet(config_.profile, ltssm_.Record()).value();
  }
  const unsigned credit_vc = tx_.NextCreditVc();
  Bytes content;
  if (choice.kind == TxKind::kNew) {
    std::deque<TxSlot>& queue = tx_slots_[choice.vc];
    content = tx_.Send(choice, queue.front().bytes, fields, training_slot);
    queue.pop_front();
    network.out->Credit(choice.vc, 1, clock_.OffsetOf(now));
  } else if (choice.kind == TxKind::kControl) {
    content = tx_.Send(choice, control_.Pop(), fields, training_slot);
    ++control_sent_;
  } else {
    content = tx_.Send(choice, ByteView(), fields, training_slot);
  }

  if (IsPayload(choice.kind)) {
    regs_.Count(LcCounter::kTxFlits);
  }
  if (CarriesLinkFields(choice.kind) || choice.kind == TxKind::kIdle) {
    carried_[credit_vc] = rx_.Freed()[credit_vc];
    if (idle_fill) {
      filled_[credit_vc] = carried_[credit_vc];
    }
  }
  if (CarriesLinkFields(choice.kind)) {
    if (rx_.CommandSent()) {
      regs_.Count(LcCounter::kNaksSent);
    }
  } else {
    rx_.OnFlitTime();
  }
  // Flits leave at the PHY's own pace, which need not be whole cycles.
  const uint64_t at_ps = std::max(
      (now + config_.latency.tx_cycles) * clock_.period_ps(), phy_free_ps_);
  Transmit(std::move(content), idle_fill, at_ps, IsPayload(choice.kind));
  LtssmInputs sent;
  sent.tx_sent = true;
  StepLtssm(sent);
  KickTx(0);
  UpdateIrq();
}

void TlLinkController::Transmit(Bytes content, bool idle_fill, uint64_t at_ps,
                                bool payload) {
  ++tx_flits_;
  tx_idle_fill_ += idle_fill ? 1 : 0;
  reg_free_ps_ = at_ps;
  const sc_time offset = CycleClock::OffsetOfPs(at_ps);
  if (ltssm_.control().loopback) {
    // DLL-6.11: back to our own receive path instead of the PHY.
    phy::PhyRxFlit flit;
    flit.content = std::move(content);
    Enqueue({clock_.CycleAt(offset) + config_.latency.rx_check_cycles,
             false,
             std::move(flit),
             {}});
    phy_free_ps_ = at_ps + clock_.period_ps();
    return;
  }
  phy::PhyTxFlit flit;
  flit.content = std::move(content);
  flit.width = ltssm_.width();
  flit.corrupt_bytes = corrupt_armed_ ? regs_.corrupt_bytes() : 0;
  flit.idle_fill = idle_fill;
  flit.carries_slot = payload;
  corrupt_armed_ = false;
  if (payload) {
    Probe(probe_, *this, PathPoint::kLinkToPhy, offset);
  }
  const sc_time busy = phy.out->Transmit(std::move(flit), offset);
  phy_free_ps_ = at_ps + static_cast<uint64_t>(busy.value());
}

void TlLinkController::HandleTxEvents(const TxEvents& events) {
  if (events.nak_received) {
    regs_.Count(LcCounter::kNaksReceived);
  }
  if (events.replay_started) {
    regs_.Count(LcCounter::kReplays);
  }
  if (events.protocol_error) {
    regs_.Count(LcCounter::kProtocolErrors);
  }
  if (events.escalate) {
    regs_.Raise(regs::kIrqStatusReplayEscalation.Mask());
    LtssmInputs in;
    in.escalate = true;
    StepLtssm(in);
  }
}

// ---------------------------------------------------------------------------
// Receive side.

void TlLinkController::Receive(phy::PhyRxFlit flit, const sc_time& delay) {
  if (ltssm_.control().loopback) {
    return;  // DLL-6.11: the receive path hears only our own flits.
  }
  Enqueue({clock_.CycleAt(delay) + config_.latency.rx_check_cycles,
           false,
           std::move(flit),
           {}});
}

void TlLinkController::UpdateLanes(phy::LaneStatus status,
                                   const sc_time& delay) {
  Enqueue({clock_.CycleAt(delay), true, {}, status});
}

void TlLinkController::Enqueue(RxItem item) {
  // Flits arrive in order; a lane report may overtake them.
  auto it = rx_items_.end();
  while (it != rx_items_.begin() && std::prev(it)->cycle > item.cycle) {
    --it;
  }
  rx_items_.insert(it, std::move(item));
  rx_event_.notify(clock_.OffsetOf(rx_items_.front().cycle));
}

RxState TlLinkController::ReceiverState() const {
  RxState state;
  state.l0 = ltssm_.state() == LtssmState::kL0;
  state.idle = ltssm_.state() == LtssmState::kConfigIdle ||
               ltssm_.state() == LtssmState::kRecoveryIdle;
  state.selective_nak = selective_nak_;
  state.own_init = &ltssm_.own_init();
  return state;
}

void TlLinkController::OnRxDue() {
  ++activations_;
  const uint64_t now = clock_.Next();
  TakeDueRx(now);
  KickTx(now);
  UpdateIrq();
}

void TlLinkController::TakeDueRx(uint64_t now) {
  while (!rx_items_.empty() && rx_items_.front().cycle <= now) {
    RxItem item = std::move(rx_items_.front());
    rx_items_.pop_front();
    if (item.lanes) {
      ltssm_.set_receivers(item.status.receivers);
      LtssmInputs in;
      in.lock_lost = item.status.lock_lost;
      StepLtssm(in);
    } else {
      ProcessFlit(item.flit);
    }
  }
  if (!rx_items_.empty()) {
    rx_event_.notify(clock_.OffsetOf(rx_items_.front().cycle));
  }
  DeliverSlots();
}

void TlLinkController::ProcessFlit(const phy::PhyRxFlit& flit) {
  ++rx_flits_;
  if (flit.fec_corrected && !flit.bad) {
    regs_.Count(LcCounter::kFecCorrected);
  }
  const bool l0 = ltssm_.state() == LtssmState::kL0;
  const RxOutcome outcome =
      rx_.Receive(flit.content, flit.bad, ReceiverState());
  if (outcome.counted_bad) {
    regs_.Count(LcCounter::kCrcErrors);
    regs_.Raise(regs::kIrqStatusCrcError.Mask());
  }
  if (outcome.payload) {
    regs_.Count(LcCounter::kRxFlits);
  }
  if (outcome.overflow) {
    regs_.Count(LcCounter::kProtocolErrors);
  }
  if (outcome.control) {
    ++control_received_;
    network.out->Control(
        *outcome.control,
        clock_.OffsetOf(clock_.Next() + config_.latency.rx_deliver_cycles));
  }
  control_rejected_ += outcome.control_rejected;
  LtssmInputs in;
  if (outcome.link_fields) {
    const TxEvents events = tx_.OnLinkFields(outcome.header, l0);
    HandleTxEvents(TxEvents{events.nak_received, events.replay_started, false,
                            events.protocol_error});
    in.escalate = events.escalate;
    if (events.escalate) {
      regs_.Raise(regs::kIrqStatusReplayEscalation.Mask());
    }
  }
  in.rx_flit = true;
  in.rx_lane = flit.lane;
  in.good = outcome.good;
  in.type = outcome.header.type;
  in.training_set =
      outcome.training_set ? &outcome.training_set.value() : nullptr;
  in.bad_limit = outcome.bad_limit;
  StepLtssm(in);
}

void TlLinkController::DeliverSlots() {
  // The network may grant room from inside Put(): the loop below sees it.
  if (delivering_) {
    return;
  }
  delivering_ = true;
  const uint64_t earliest = clock_.Next() + config_.latency.rx_deliver_cycles;
  while (rx_.HasSlot() && network_room_[rx_.NextSlot().vc] > 0) {
    RxSlot slot = rx_.Deliver();
    --network_room_[slot.vc];
    next_deliver_cycle_ = std::max(earliest, next_deliver_cycle_ + 1);
    const sc_time leaves = clock_.OffsetOf(next_deliver_cycle_);
    Probe(probe_, *this, PathPoint::kLinkOut, leaves);
    network.out->Put({slot.vc, std::move(slot.bytes)}, leaves);
    ++slots_out_;
    rx_.Drain(ReceiverState());  // Room for held flits.
  }
  delivering_ = false;
}

// ---------------------------------------------------------------------------
// Link training.

void TlLinkController::StepLtssm(const LtssmInputs& in) {
  const uint64_t now_ps = CycleClock::NowPs();
  const LtssmState before = ltssm_.state();
  OnLtssmEvents(ltssm_.Step(in, now_ps));
  const uint64_t deadline = ltssm_.Deadline();
  if (deadline != armed_deadline_) {
    armed_deadline_ = deadline;
    ltssm_event_.cancel();
    if (deadline != Ltssm::kNever) {
      ltssm_event_.notify(CycleClock::OffsetOfPs(deadline));
    }
  }
  if (ltssm_.state() != before) {
    KickTx(clock_.Next());
    if (state_observer_) {
      state_observer_(ltssm_.state(), now_ps);
    }
  }
}

void TlLinkController::OnLtssmEvents(const LtssmEvents& events) {
  if (events.link_down) {
    regs_.Count(LcCounter::kLostOnDown, tx_.Reset(ltssm_.partner_init()));
    regs_.Count(LcCounter::kLinkDowns);
    regs_.Raise(regs::kIrqStatusLinkDown.Mask());
    rx_.Reset();
  }
  if (events.link_reset) {
    tx_.Reset(ltssm_.partner_init());
    rx_.Reset();
  }
  if (events.link_down || events.link_reset) {
    carried_ = {};
    filled_ = {};
  }
  if (events.link_up) {
    regs_.Raise(regs::kIrqStatusLinkUp.Mask());
  }
  if (events.retrain) {
    regs_.Count(LcCounter::kRetrains);
  }
  if (events.replay_all) {
    tx_.ReplayAll();
  }
}

void TlLinkController::OnLtssmTimeout() {
  ++activations_;
  StepLtssm({});
  UpdateIrq();
}

// ---------------------------------------------------------------------------
// Network side.

void TlLinkController::Put(Slot slot, const sc_time& delay) {
  if (const char* refusal =
          SlotRefusal(slot, slot_bytes(), tx_slots_, config_.tx_slots_per_vc)) {
    SC_REPORT_ERROR(name(), refusal);
    return;
  }
  std::deque<TxSlot>& queue = tx_slots_[slot.vc];
  const uint64_t cycle = clock_.CycleAt(delay);
  Probe(probe_, *this, PathPoint::kLinkIn, delay);
  queue.push_back({cycle, std::move(slot.bytes)});
  ++slots_in_;
  KickTx(cycle);
}

void TlLinkController::Credit(unsigned vc, unsigned count,
                              const sc_time& /*delay*/) {
  if (vc < kVcs) {
    network_room_[vc] += count;
    DeliverSlots();
    KickTx(clock_.Next());
  }
}

void TlLinkController::ResetNetworkSide() {
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    tx_slots_[vc].clear();
    network_room_[vc] = 0;
    network.out->Credit(vc, config_.tx_slots_per_vc, sc_core::SC_ZERO_TIME);
  }
}

void TlLinkController::Control(Bytes message, const sc_time& delay) {
  const uint64_t cycle = clock_.CycleAt(delay);
  const Result<bool> queued = control_.Offer(message, cycle);
  if (!queued) {
    SC_REPORT_ERROR(name(), queued.error().reason.c_str());
    return;
  }
  if (*queued) {
    KickTx(cycle);
  }
}

// ---------------------------------------------------------------------------
// Registers.

void TlLinkController::ApplyRegisters() {
  ltssm_.set_control(regs_.Control());
  tx_.set_replay_timeout(regs_.replay_timeout());
  tx_.set_replay_limit(regs_.replay_limit());
  selective_nak_ = regs_.selective_nak();
}

void TlLinkController::UpdateIrq() {
  // One process drives the line (sc_signal allows one writer).
  if (regs_.Irq() != irq_level_) {
    irq_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TlLinkController::DriveIrq() {
  irq_level_ = regs_.Irq();
  irq.write(irq_level_);
}

void TlLinkController::BTransport(tlm::tlm_generic_payload& trans,
                                  sc_time& delay) {
  if (!IsRegisterAccess(trans)) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  // The registers change with the link: access them at the caller's time.
  wait(delay);
  ++csr_accesses_;
  AccessRegister(
      trans, [this](uint32_t offset) { return regs_.Read(offset); },
      [this](uint32_t offset, uint32_t value) {
        return WriteRegister(offset, value);
      });
  UpdateIrq();
  // The register port answers in the cycle after the request, as lc_csr.
  delay = sc_time(static_cast<double>(clock_.period_ps()), sc_core::SC_PS);
}

bool TlLinkController::WriteRegister(uint32_t offset, uint32_t value) {
  if (!regs_.Write(offset, value)) {
    return false;
  }
  // The register hooks applied what the datapath reads.
  StepLtssm({});
  KickTx(clock_.Next());
  return true;
}

// A debugger reads without latching a counter's HI half, and writes as
// firmware would, at the kernel's time.
unsigned int TlLinkController::TransportDebug(tlm::tlm_generic_payload& trans) {
  const unsigned bytes = ServeDebugAccess(
      trans, [this](uint32_t offset) { return regs_.Peek(offset); },
      [this](uint32_t offset, uint32_t value) {
        return WriteRegister(offset, value);
      });
  UpdateIrq();
  return bytes;
}

const ComponentDecl& TlLinkController::Declaration() {
  return TlLinkControllerDeclaration();
}

StatList TlLinkController::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("activations", activations_)
      .Add("tx_flits", tx_flits_)
      .Add("rx_flits", rx_flits_)
      .Add("slots_in", slots_in_)
      .Add("slots_out", slots_out_)
      .Add("control_sent", control_sent_)
      .Add("control_received", control_received_)
      .Add("control_dropped", control_.dropped())
      .Add("control_rejected", control_rejected_)
      .Add("csr_accesses", csr_accesses_)
      .Add("tx_idle_fill", tx_idle_fill_)
      .Add("tx_payload_flits", regs_.counter(LcCounter::kTxFlits))
      .Add("crc_errors", regs_.counter(LcCounter::kCrcErrors))
      .Add("replays", regs_.counter(LcCounter::kReplays));
  return stats.Take();
}

std::optional<LinkCounters> TlLinkController::Counters() const {
  return LinkCounters{regs_.counter(LcCounter::kTxFlits),
                      regs_.counter(LcCounter::kCrcErrors),
                      regs_.counter(LcCounter::kReplays)};
}

}  // namespace lq::link
