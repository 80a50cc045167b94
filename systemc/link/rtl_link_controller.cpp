// SPDX-License-Identifier: Apache-2.0
// The RTL wrapper's translation between pins and sockets, batch by batch.
#include "systemc/link/rtl_link_controller.h"

#include <string>
#include <utility>

#include "models/flit/control_slot.h"
#include "models/flit/dlp.h"
#include "systemc/link/lc_declaration.h"

namespace lq::link {

namespace {

using sc_core::sc_time;

constexpr unsigned kVcs = kLcVcs;

// Whether a flit's content, as lc_top sends it, carries a payload slot: its
// DLP follows the slot.
bool CarriesSlot(const Bytes& content) {
  return content.size() > kLcSlotBytes &&
         flit::CarriesSlot(flit::PeekFlitType(content[kLcSlotBytes]));
}

}  // namespace

RtlLinkController::RtlLinkController(sc_core::sc_module_name name,
                                     const RtlLinkControllerConfig& config)
    : sc_module(name),
      csr("csr"),
      phy("phy"),
      network("network"),
      irq("irq"),
      config_(config),
      clock_(CycleClock::FromNs(config.clock_ns)),
      model_(config.model ? config.model(config.waveform, clock_.period_ps())
                          : std::make_unique<LcRtlModel>(config.waveform,
                                                         clock_.period_ps())),
      tx_slots_(kVcs),
      control_(kSlotBytes),
      network_room_(kVcs, 0) {
  if (clock_.period_ps() == 0 || config.batch_cycles == 0) {
    SC_REPORT_ERROR(this->name(), "clock and batch must be non-zero");
  }
  if (!model_) {
    SC_REPORT_ERROR(this->name(), "the model factory made no model");
  }
  // The state out of reset is where the LTSSM starts, not a change.
  ltssm_state_ = ModelLtssmState().value_or(LtssmState::kDisabled);
  phy.in(*static_cast<phy::PhyRxIf*>(this));
  network.in(*static_cast<SlotIf*>(this));
  csr.register_b_transport(this, &RtlLinkController::BTransport);
  csr.register_transport_dbg(this, &RtlLinkController::TransportDebug);

  SC_HAS_PROCESS(RtlLinkController);
  SC_THREAD(Run);
  SC_METHOD(DriveIrq);
  sensitive << irq_event_;
  dont_initialize();
}

void RtlLinkController::start_of_simulation() {
  irq.write(false);
  // The PHY's lookahead bounds how far ahead the model may run.
  const uint64_t lookahead_cycles =
      static_cast<uint64_t>(phy.out->Lookahead().value()) / clock_.period_ps();
  batch_cycles_ = static_cast<unsigned>(std::max<uint64_t>(
      1, std::min<uint64_t>(config_.batch_cycles, lookahead_cycles)));
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    network.out->Credit(vc, config_.tx_slots_per_vc, sc_core::SC_ZERO_TIME);
  }
}

sc_time RtlLinkController::Offset() const {
  return clock_.OffsetOf(model_->cycles());
}

uint64_t RtlLinkController::Late(uint64_t cycle) {
  if (cycle < model_->cycles()) {
    ++late_inputs_;
    return model_->cycles();
  }
  return cycle;
}

void RtlLinkController::Receive(phy::PhyRxFlit flit, const sc_time& delay) {
  rx_flits_.push_back({{Late(clock_.CycleAt(delay))}, std::move(flit)});
}

void RtlLinkController::UpdateLanes(phy::LaneStatus status,
                                    const sc_time& delay) {
  lane_updates_.push_back({{Late(clock_.CycleAt(delay))}, status});
}

void RtlLinkController::Put(Slot slot, const sc_time& delay) {
  if (const char* refusal =
          SlotRefusal(slot, kSlotBytes, tx_slots_, config_.tx_slots_per_vc)) {
    SC_REPORT_ERROR(name(), refusal);
    return;
  }
  std::deque<TxEntry>& queue = tx_slots_[slot.vc];
  slot.bytes.resize(kSlotBytes);  // Short slots are zero-padded (PHY-2.4).
  queue.push_back({{Late(clock_.CycleAt(delay))}, std::move(slot.bytes)});
  ++slots_in_;
  Probe(probe_, *this, PathPoint::kLinkIn, delay);
}

void RtlLinkController::Control(Bytes message, const sc_time& delay) {
  const Result<bool> queued =
      control_.Offer(message, Late(clock_.CycleAt(delay)));
  if (!queued) {
    SC_REPORT_ERROR(name(), queued.error().reason.c_str());
  }
}

void RtlLinkController::Credit(unsigned vc, unsigned count,
                               const sc_time& /*delay*/) {
  // Room appears at once: the network grants it no later than it exists.
  if (vc < kVcs) {
    network_room_[vc] += count;
  }
}

void RtlLinkController::ResetNetworkSide() {
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    tx_slots_[vc].clear();
    network_room_[vc] = 0;
    network.out->Credit(vc, config_.tx_slots_per_vc, sc_core::SC_ZERO_TIME);
  }
}

void RtlLinkController::Run() {
  for (;;) {
    ++activations_;
    if (pending_csr_ != nullptr) {
      StepCycle(pending_csr_);
      pending_csr_ = nullptr;
      csr_done_.notify(Offset());
    }
    const uint64_t target = clock_.Current() + batch_cycles_;
    while (model_->cycles() < target) {
      StepCycle(nullptr);
    }
    // Sleep a batch, or until a CSR access wants the model.
    wait(sc_time(static_cast<double>(batch_cycles_ * clock_.period_ps()),
                 sc_core::SC_PS),
         csr_request_);
  }
}

void RtlLinkController::StepCycle(CsrAccess* csr_access) {
  LcInputs in;
  ApplyInputs(csr_access, in);
  const uint64_t cycle = model_->cycles();
  model_->Cycle(in, outputs_);               // Counts the cycle.
  TakeOutputs(cycle, outputs_, csr_access);  // Moves the byte buffers out.
  if (in.phy_rx_valid) {
    rx_flits_.pop_front();
  }
  WatchLtssm(cycle);
}

std::optional<LtssmState> RtlLinkController::ModelLtssmState() const {
  const std::optional<unsigned> code = model_->LtssmState();
  if (!code || *code > static_cast<unsigned>(LtssmState::kRecoveryIdle)) {
    return std::nullopt;
  }
  return static_cast<LtssmState>(*code);
}

void RtlLinkController::WatchLtssm(uint64_t cycle) {
  const std::optional<LtssmState> state = ModelLtssmState();
  if (!state || *state == ltssm_state_) {
    return;
  }
  ltssm_state_ = *state;
  if (state_observer_) {
    // The state register changed at the clock edge that ended `cycle`.
    state_observer_(ltssm_state_, (cycle + 1) * clock_.period_ps());
  }
}

void RtlLinkController::ApplyInputs(CsrAccess* csr_access, LcInputs& in) {
  // PHY receive side: at most one flit per cycle.
  if (!rx_flits_.empty() && rx_flits_.front().cycle <= model_->cycles()) {
    const phy::PhyRxFlit& flit = rx_flits_.front().flit;
    in.phy_rx_valid = true;
    in.phy_rx_bad = flit.bad;
    in.phy_rx_fec_corrected = flit.fec_corrected;
    in.phy_rx_lane = flit.lane;
    in.phy_rx_flit = &flit.content;
    ++rx_flits_in_;
  }
  uint32_t lock_lost = 0;
  while (!lane_updates_.empty() &&
         lane_updates_.front().cycle <= model_->cycles()) {
    receivers_ = lane_updates_.front().status.receivers;
    lock_lost |= lane_updates_.front().status.lock_lost;
    lane_updates_.pop_front();
  }
  in.phy_receivers = receivers_;
  in.phy_lock_lost = lock_lost;
  in.phy_tx_ready = model_->cycles() >= phy_free_cycle_;

  // Network side.
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    const std::deque<TxEntry>& queue = tx_slots_[vc];
    if (!queue.empty() && queue.front().cycle <= model_->cycles()) {
      in.tx_valid |= 1u << vc;
      in.tx_slots[vc] = &queue.front().bytes;
    }
  }
  in.rx_ready = network_room_[model_->NextRxVc()] > 0;
  if (control_.Ready(model_->cycles())) {
    in.ctrl_tx_valid = true;
    in.ctrl_tx_slot = &control_.Front();
  }

  if (csr_access != nullptr) {
    in.reg_req = true;
    in.reg_we = csr_access->write;
    in.reg_addr = csr_access->address;
    in.reg_wdata = csr_access->data;
  }
}

void RtlLinkController::TakeOutputs(uint64_t cycle, LcOutputs& out,
                                    CsrAccess* csr_access) {
  const sc_time offset = clock_.OffsetOf(cycle);
  for (unsigned vc = 0; vc < kVcs; ++vc) {
    if ((out.tx_taken >> vc) & 1u) {
      tx_slots_[vc].pop_front();
      network.out->Credit(vc, 1, offset);
    }
  }
  if (out.phy_tx) {
    const bool payload = CarriesSlot(out.phy_tx_flit);
    if (payload) {
      Probe(probe_, *this, PathPoint::kLinkToPhy, offset);
    }
    phy::PhyTxFlit flit;
    flit.content = std::move(out.phy_tx_flit);
    flit.width = out.width;
    flit.corrupt_bytes = out.corrupt_bytes;
    flit.carries_slot = payload;
    const sc_time busy = phy.out->Transmit(std::move(flit), offset);
    phy_free_cycle_ = cycle + clock_.Cycles(busy);
    ++tx_flits_;
  }
  if (out.rx) {
    if (network_room_[out.rx_vc] == 0) {
      SC_REPORT_ERROR(name(), "rx_vc_o changed within a cycle");
    }
    --network_room_[out.rx_vc];
    Probe(probe_, *this, PathPoint::kLinkOut, offset);
    network.out->Put({out.rx_vc, std::move(out.rx_slot)}, offset);
    ++slots_out_;
  }
  if (out.ctrl_taken) {
    control_.Pop();
    ++control_sent_;
  }
  if (out.ctrl_rx) {
    // The RTL hands up any good CONTROL flit's slot; its form is checked
    // here, as the TL model's receiver does (DLL-11.3).
    Result<Bytes> message = flit::ParseControlSlot(out.ctrl_rx_slot);
    if (message) {
      ++control_received_;
      network.out->Control(std::move(message).value(), offset);
    } else {
      ++control_rejected_;
    }
  }
  if (csr_access != nullptr) {
    csr_access->data = out.reg_rdata;
    csr_access->error = out.reg_error;
  }
  if (out.irq != irq_level_) {
    irq_level_ = out.irq;
    irq_changes_.emplace_back(cycle, irq_level_);
    if (irq_changes_.size() == 1) {
      irq_event_.notify(offset);
    }
  }
}

void RtlLinkController::DriveIrq() {
  // Changes leave in cycle order, each at its own time.
  const uint64_t now = clock_.Current();
  while (!irq_changes_.empty() && irq_changes_.front().first <= now) {
    irq.write(irq_changes_.front().second);
    irq_changes_.pop_front();
  }
  if (!irq_changes_.empty()) {
    irq_event_.notify(clock_.OffsetOf(irq_changes_.front().first));
  }
}

RtlLinkController::CsrAccess RtlLinkController::AccessOf(
    const tlm::tlm_generic_payload& trans) {
  CsrAccess access;
  access.write = trans.is_write();
  access.address = static_cast<uint32_t>(trans.get_address());
  if (access.write) {
    access.data = static_cast<uint32_t>(
        LoadLittleEndian(trans.get_data_ptr(), kRegisterBytes));
  }
  return access;
}

void RtlLinkController::BTransport(tlm::tlm_generic_payload& trans,
                                   sc_time& delay) {
  if (!IsRegisterAccess(trans)) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  // Only the model's own thread steps it: bring the caller's time to the
  // kernel, hand the access over, and wait while that thread does it at the
  // model's next cycle.
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  CsrAccess access = AccessOf(trans);
  pending_csr_ = &access;
  csr_request_.notify(sc_core::SC_ZERO_TIME);
  wait(csr_done_);
  ++csr_accesses_;
  if (access.error) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (!access.write) {
    StoreLittleEndian(trans.get_data_ptr(), kRegisterBytes, access.data);
  }
  delay = Offset();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// A debugger's access (decision 0042: reads peek, writes act). A read is
// the model's register pins evaluated between clock edges, as of its last
// cycle, and changes nothing (TX_FLITS_HI keeps its snapshot); a write is
// made at once, on a cycle of its own, as the bus would make it.
unsigned int RtlLinkController::TransportDebug(
    tlm::tlm_generic_payload& trans) {
  if (!IsRegisterAccess(trans)) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return 0;
  }
  CsrAccess access = AccessOf(trans);
  if (access.write) {
    StepCycle(&access);
    ++csr_accesses_;
    trans.set_response_status(access.error ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                           : tlm::TLM_OK_RESPONSE);
    return access.error ? 0 : kRegisterBytes;
  }
  const std::optional<LcRegisterAnswer> answer =
      model_->PeekRegister(false, access.address, 0);
  if (!answer || answer->error) {
    trans.set_response_status(answer ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                     : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return 0;
  }
  StoreLittleEndian(trans.get_data_ptr(), kRegisterBytes, answer->rdata);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return kRegisterBytes;
}

const ComponentDecl& RtlLinkController::Declaration() {
  return RtlLinkControllerDeclaration();
}

StatList RtlLinkController::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("cycles", model_->cycles())
      .Add("activations", activations_)
      .Add("tx_flits", tx_flits_)
      .Add("rx_flits", rx_flits_in_)
      .Add("slots_in", slots_in_)
      .Add("slots_out", slots_out_)
      .Add("control_sent", control_sent_)
      .Add("control_received", control_received_)
      .Add("control_dropped", control_.dropped())
      .Add("control_rejected", control_rejected_)
      .Add("csr_accesses", csr_accesses_)
      .Add("late_inputs", late_inputs_);
  return stats.Take();
}

}  // namespace lq::link
