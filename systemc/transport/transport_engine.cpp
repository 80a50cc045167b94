// SPDX-License-Identifier: Apache-2.0
// TransportEngine: queue pairs, wire bytes and DMA around models/transport.
#include "systemc/transport/transport_engine.h"

#include <cstddef>
#include <string>
#include <utility>

#include "models/common/bytes.h"
#include "models/common/earliest.h"
#include "models/roce/addressing.h"
#include "models/roce/frame_edits.h"
#include "models/roce/psn.h"
#include "models/transport/segmentation.h"
#include "systemc/common/cycle_clock.h"

namespace lq::transport {

namespace {

net::NetworkInterfaceConfig InterfaceFor(const TransportEngineConfig& config) {
  net::NetworkInterfaceConfig interface = config.interface;
  interface.node = static_cast<uint16_t>(config.node);
  interface.in_order = true;  // RC expects a connection's packets in order
  return interface;
}

constexpr size_t kAtomicBytes = 8;
// Request bytes the engine lets wait in its network interface: enough to
// keep the local port busy, few enough that posted work stays in the send
// queues rather than in the interface.
constexpr size_t kInjectionWindowBytes = 32 * 1024;

// When a QP whose pacing holds a packet back should look again: when
// pacing lets it go, or sooner if a timer of its control changes the rate
// (and with it the gap, TRN-10.1) first.
uint64_t PacingWakePs(const CongestionControl& cc) {
  std::optional<uint64_t> wake = cc.next_send_ps();
  KeepEarliest(wake, cc.next_timer_ps());
  return *wake;
}

bool IsResponse(roce::Opcode opcode) {
  return opcode == roce::Opcode::kReadResponseFirst ||
         opcode == roce::Opcode::kReadResponseMiddle ||
         opcode == roce::Opcode::kReadResponseLast ||
         opcode == roce::Opcode::kReadResponseOnly ||
         opcode == roce::Opcode::kAtomicAcknowledge;
}

}  // namespace

TransportEngine::TransportEngine(const sc_core::sc_module_name& name,
                                 const TransportEngineConfig& config)
    : sc_module(name),
      memory("memory"),
      config_(config),
      interface_("interface", InterfaceFor(config),
                 [this](net::Delivered delivered) {
                   // TRN-4.7: taken when its last byte is in, at `at`.
                   wake_.notify(delivered.at - sc_core::sc_time_stamp());
                   inbox_.push_back(std::move(delivered));
                 }) {
  // Bad names or parameters are the builder's bug, caught before any QP:
  // the default's name, and the parameters of every control a QP may pick.
  if (const auto control =
          CreateCongestionControl(config.congestion, config.congestion_params);
      !control) {
    SC_REPORT_ERROR(this->name(), control.error().reason.c_str());
  }
  for (const std::string& name : CongestionControlNames()) {
    if (const auto control =
            CreateCongestionControl(name, config.congestion_params);
        !control) {
      SC_REPORT_ERROR(this->name(), control.error().reason.c_str());
    }
  }
  SC_HAS_PROCESS(TransportEngine);
  SC_THREAD(Run);
}

uint32_t TransportEngine::CreateQp() {
  const uint32_t qpn = next_qpn_++;
  qps_[qpn];
  return qpn;
}

Result<bool> TransportEngine::DestroyQp(uint32_t qpn) {
  WaitOutOfDma();
  const auto it = qps_.find(qpn);
  if (it == qps_.end()) {
    return Fail("no QP " + std::to_string(qpn));
  }
  const Qp& qp = it->second;
  const QpState state = qp.context.state();
  if ((state != QpState::kReset && state != QpState::kError) ||
      !qp.send_buffers.empty() || !qp.receive_buffers.empty()) {
    return Fail("QP " + std::to_string(qpn) + " is " + QpStateName(state) +
                " or has work requests outstanding");
  }
  qps_.erase(it);
  busy_.erase(qpn);
  return true;
}

QpState TransportEngine::qp_state(uint32_t qpn) const {
  const auto it = qps_.find(qpn);
  return it == qps_.end() ? QpState::kReset : it->second.context.state();
}

Result<QpState> TransportEngine::ModifyQp(uint32_t qpn,
                                          const QpModify& modify) {
  WaitOutOfDma();
  const auto it = qps_.find(qpn);
  if (it == qps_.end()) {
    return Fail("no QP " + std::to_string(qpn));
  }
  Qp& qp = it->second;
  QpModify step = modify;
  if (step.to == QpState::kRtr && !step.congestion_control) {
    step.congestion_control = config_.congestion;  // TRN-5.5's default
  }
  auto state = qp.context.Modify(step);
  if (!state) {
    return state;
  }
  const QpAttributes& attributes = qp.context.attributes();
  switch (*state) {
    case QpState::kReset:
      // TRN-5.2: outstanding work requests go without completions.
      counters_.work_discarded +=
          qp.send_buffers.size() + qp.receive_buffers.size();
      qp = Qp{};
      break;
    case QpState::kRtr:
      qp.responder.emplace(attributes, config_.responder);
      for (const RecvWr& wr : qp.early_receives) {
        qp.responder->PostReceive(wr);
      }
      qp.early_receives.clear();
      // From RTR on: the QP takes CNPs and paces READ responses (TRN-5.5).
      qp.cc = CreateCongestionControl(attributes.congestion_control,
                                      config_.congestion_params)
                  .value();  // the name was checked by the modify, the
                             // parameters when the engine was built
      break;
    case QpState::kRts:
      qp.requester.emplace(attributes, config_.requester);
      break;
    case QpState::kError:
      EnterError(qpn, qp);
      break;
    case QpState::kInit:
      break;
  }
  busy_.emplace(qpn, &qp);
  Poke();
  return state;
}

Result<TransportEngine::Qp*> TransportEngine::QpForPost(uint32_t qpn,
                                                        uint64_t wr_id,
                                                        bool receive) {
  const auto it = qps_.find(qpn);
  if (it == qps_.end()) {
    return Fail("no QP " + std::to_string(qpn));
  }
  Qp& qp = it->second;
  if (qp.context.state() == QpState::kError) {
    Complete(
        {qpn, receive, {wr_id, CompletionStatus::kFlushErr, 0, std::nullopt}});
    return static_cast<Qp*>(nullptr);
  }
  const bool allowed =
      receive ? qp.context.may_post_receive() : qp.context.may_post_send();
  if (!allowed) {
    return Fail(std::string(receive ? "receive WRs need INIT or later"
                                    : "send WRs need RTS") +
                ", QP is " + QpStateName(qp.context.state()) + " (TRN-5.2)");
  }
  const auto& outstanding = receive ? qp.receive_buffers : qp.send_buffers;
  if (outstanding.count(wr_id) != 0) {
    return Fail("work request " + std::to_string(wr_id) +
                " is still outstanding on that queue (TRN-5.2)");
  }
  return &qp;
}

Result<bool> TransportEngine::PostSend(uint32_t qpn, const SendWr& wr,
                                       uint64_t local_address) {
  auto qp = QpForPost(qpn, wr.wr_id, false);
  if (!qp) {
    return qp.error();
  }
  ++counters_.work_posted;
  if (*qp != nullptr) {
    (*qp)->send_buffers[wr.wr_id] = local_address;
    (*qp)->requester->Post(wr);
    busy_.emplace(qpn, *qp);
    Poke();
  }
  return true;
}

Result<bool> TransportEngine::PostReceive(uint32_t qpn, const RecvWr& wr,
                                          uint64_t local_address) {
  auto qp = QpForPost(qpn, wr.wr_id, true);
  if (!qp) {
    return qp.error();
  }
  ++counters_.work_posted;
  if (*qp != nullptr) {
    (*qp)->receive_buffers[wr.wr_id] = local_address;
    if ((*qp)->responder) {
      (*qp)->responder->PostReceive(wr);
    } else {
      (*qp)->early_receives.push_back(wr);  // in INIT: until RTR
    }
  }
  return true;
}

std::vector<EngineCompletion> TransportEngine::PollCompletions() {
  std::vector<EngineCompletion> taken;
  taken.swap(completions_);
  return taken;
}

uint64_t TransportEngine::NowNs() const {
  return sc_core::sc_time_stamp().value() /
         sc_core::sc_time(1, sc_core::SC_NS).value();
}

bool TransportEngine::Idle(const Qp& qp) {
  return !qp.held && qp.replies.empty() &&
         (!qp.requester || qp.requester->outstanding() == 0);
}

void TransportEngine::Poke() {
  poked_ = true;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void TransportEngine::Run() {
  constexpr uint64_t kPsPerNs = 1000;
  while (true) {
    poked_ = false;
    while (InboxDue()) {
      const net::Delivered delivered = std::move(inbox_.front());
      inbox_.pop_front();
      Receive(delivered);
    }
    std::optional<uint64_t> next_ps;
    // Only the QPs with something to do: an idle QP's turn would change
    // nothing (its congestion control catches up when next used).
    for (auto busy = busy_.begin(); busy != busy_.end();) {
      const uint32_t qpn = busy->first;
      Qp& qp = *busy->second;
      if (qp.cc) {
        qp.cc->Advance(CycleClock::NowPs());
      }
      KeepEarliest(next_ps, SendResponses(qpn, qp));
      if (qp.requester && qp.context.requester_runs()) {
        const auto due = qp.requester->deadline();
        if (due && *due <= NowNs()) {
          const uint32_t unacked = qp.requester->unacked_psn();
          const uint32_t next = qp.requester->next_psn();
          qp.requester->OnTimer(NowNs());
          AfterRequesterEvent(qp, unacked, next, false);
        }
        KeepEarliest(next_ps, SendRequests(qpn, qp));
        if (qp.requester->failed()) {
          qp.context.EnterError();
          EnterError(qpn, qp);
        }
      }
      Collect(qpn, qp);
      ObserveRate(qpn, qp);
      if (qp.requester && qp.context.requester_runs()) {
        const auto deadline = qp.requester->deadline();
        KeepEarliest(next_ps,
                     deadline ? std::optional<uint64_t>(*deadline * kPsPerNs)
                              : std::nullopt);
      }
      // The congestion control's timers wake the engine only while pacing
      // holds a packet back: its every use runs those due first, so an
      // idle QP costs nothing.
      busy = Idle(qp) ? busy_.erase(busy) : std::next(busy);
    }
    if (InboxDue() || poked_) {
      continue;  // DMA waits let more arrive, and let others post or modify
    }
    if (!inbox_.empty()) {
      KeepEarliest(next_ps, static_cast<uint64_t>(inbox_.front().at.value()));
    }
    // With the window full, the interface admitting a packet is news too.
    sc_core::sc_event_or_list events;
    events |= wake_;
    if (interface_.pending_bytes() >= kInjectionWindowBytes) {
      events |= interface_.admitted_event();
    }
    if (next_ps) {
      wait(CycleClock::OffsetOfPs(*next_ps), events);
    } else {
      wait(events);
    }
  }
}

// Requests go out while the interface holds less than the window and the
// QP's congestion control lets them (TRN-10.1, TRN-11.7); replies are
// never held back. Pacing is asked before the requester, so that a packet
// the requester hands out is sent at once (its ACK timer runs from then)
// unless the window holds it, which an acknowledgement soon opens.
std::optional<uint64_t> TransportEngine::SendRequests(uint32_t qpn, Qp& qp) {
  while (interface_.pending_bytes() < kInjectionWindowBytes) {
    // A frame that arrived while the last request's DMA ran is acted on
    // before the next request goes (Run() comes back here after it): an
    // ACK, NAK or CNP must not wait for a long message to be sent out.
    if (InboxDue()) {
      return std::nullopt;
    }
    if (qp.cc->next_send_ps() > CycleClock::NowPs()) {
      const bool more = qp.held || qp.requester->outstanding() > 0;
      return more ? std::optional<uint64_t>(PacingWakePs(*qp.cc))
                  : std::nullopt;
    }
    if (!qp.held) {
      qp.held = qp.requester->Next(NowNs());
    }
    if (!qp.held) {
      break;
    }
    const uint64_t frame = roce::FrameSize(qp.held->opcode, qp.held->length);
    if (!qp.cc->WindowAllows(frame)) {
      break;
    }
    RequestPacket request = *qp.held;
    qp.held.reset();
    // A READ's or atomic's response acknowledges it unasked; the window may
    // want an ACK of the others too (TRN-11.7).
    const bool window_asks = qp.cc->OnSent(
        CycleClock::NowPs(), frame,
        SentRequest{request.psn,
                    request.ack_req || IsReadOrAtomic(request.opcode)});
    request.ack_req = request.ack_req || window_asks;
    Transmit(qpn, qp, request);
  }
  return std::nullopt;
}

void TransportEngine::ObserveRate(uint32_t qpn, Qp& qp) {
  if (!rate_observer_ || !qp.cc || qp.cc->rate_bps() == qp.observed_rate_bps) {
    return;
  }
  qp.observed_rate_bps = qp.cc->rate_bps();
  rate_observer_(qpn, qp.observed_rate_bps, CycleClock::NowPs());
}

void TransportEngine::AfterRequesterEvent(Qp& qp, uint32_t unacked_before,
                                          uint32_t next_before, bool becn) {
  const uint32_t unacked = qp.requester->unacked_psn();
  if (unacked != unacked_before) {
    qp.cc->OnAcknowledged(CycleClock::NowPs(), unacked, becn);
  }
  const uint32_t next = qp.requester->next_psn();
  if (roce::PsnBefore(next, next_before)) {
    qp.cc->OnRewind(next);
    qp.held.reset();  // Next() makes it again
  }
}

void TransportEngine::Notify(uint32_t qpn, Qp& qp) {
  const auto interval_ps = qp.cc ? qp.cc->cnp_interval_ps() : std::nullopt;
  if (!interval_ps || (qp.last_cnp_ps &&
                       CycleClock::NowPs() < *qp.last_cnp_ps + *interval_ps)) {
    return;
  }
  qp.last_cnp_ps = CycleClock::NowPs();
  ++counters_.cnps_sent;
  SendFrame(qp.context.attributes().remote_node,
            roce::MakeCnp(PathOf(qpn, qp)));
}

void TransportEngine::CarryBecn(Qp& qp, roce::RocePacket& packet) {
  packet.bth.becn = qp.becn_due;
  qp.becn_due = false;
}

roce::Path TransportEngine::PathOf(uint32_t qpn, const Qp& qp) const {
  roce::Path path;
  path.local_node = config_.node;
  path.remote_node = qp.context.attributes().remote_node;
  path.local_qpn = qpn;
  path.remote_qpn = qp.context.attributes().remote_qpn;
  path.pkey = qp.context.attributes().pkey;
  return path;
}

void TransportEngine::Transmit(uint32_t qpn, Qp& qp,
                               const RequestPacket& request) {
  roce::RocePacket packet =
      roce::NewPacket(PathOf(qpn, qp), request.opcode, request.psn);
  packet.bth.ack_req = request.ack_req;
  if (request.reth) {
    packet.reth = request.reth;
  }
  if (request.atomic) {
    packet.atomic_eth = request.atomic;
  }
  if (request.immediate) {
    packet.imm_dt = roce::ImmDt{*request.immediate};
  }
  packet.payload.resize(request.length);
  const uint64_t base = qp.send_buffers.at(request.wr_id);
  if (request.length > 0 && !Dma(tlm::TLM_READ_COMMAND, base + request.offset,
                                 packet.payload.data(), request.length)) {
    ++counters_.dma_errors;
    qp.requester->FailLocal(request.wr_id);  // TRN-6.15: nothing goes out
    return;
  }
  counters_.retransmits += request.retransmit ? 1 : 0;
  SendFrame(qp.context.attributes().remote_node, packet);
}

void TransportEngine::SendFrame(uint32_t remote_node,
                                const roce::RocePacket& packet) {
  auto frame = roce::BuildPacket(packet);
  if (!frame) {
    // Our own packets are built from checked attributes: a failure here is
    // a bug in the engine, not bad input.
    SC_REPORT_ERROR(name(), frame.error().reason.c_str());
    return;
  }
  ++counters_.packets_sent;
  Probe(probe_, *this, PathPoint::kFrameSent);
  if (tap_) {
    tap_(sc_core::sc_time_stamp(), frame.value());
  }
  interface_.Send(static_cast<uint16_t>(remote_node),
                  roce::PriorityOfDscp(packet.ip.dscp),
                  std::move(frame.value()));
}

bool TransportEngine::InboxDue() const {
  return !inbox_.empty() && inbox_.front().at <= sc_core::sc_time_stamp();
}

void TransportEngine::Receive(const net::Delivered& delivered) {
  Probe(probe_, *this, PathPoint::kFrameReceived);
  auto parsed = roce::ParsePacket(delivered.payload);
  if (!parsed) {
    ++counters_.bad_packets;  // TRN-4: dropped, never half-used
    return;
  }
  ++counters_.packets_received;
  const roce::RocePacket& packet = parsed.value();
  const auto it = qps_.find(packet.bth.dest_qp);
  // TRN-4.6 and TRN-2.3: no such QP, one not accepting packets, or not
  // this QP's peer or partition.
  if (it == qps_.end() || !it->second.context.accepts_packets() ||
      delivered.header.src != it->second.context.attributes().remote_node ||
      packet.bth.pkey != it->second.context.attributes().pkey) {
    ++counters_.stray_packets;
    return;
  }
  const uint32_t qpn = it->first;
  Qp& qp = it->second;
  busy_.emplace(it->first, &qp);
  const auto opcode = static_cast<roce::Opcode>(packet.bth.opcode);
  const auto ecn = roce::ReadEcn(delivered.payload);
  const bool ce = ecn && *ecn == roce::Ecn::kCe;
  counters_.ce_received += ce ? 1 : 0;
  if (opcode == roce::Opcode::kCnp) {
    if (qp.cc) {  // TRN-9.6: to the reaction point, never acknowledged
      ++counters_.cnps_received;
      qp.cc->OnCnp(CycleClock::NowPs());
    }
    return;
  }
  if (opcode == roce::Opcode::kAcknowledge || IsResponse(opcode)) {
    if (!qp.requester) {
      return;
    }
    const uint32_t unacked = qp.requester->unacked_psn();
    const uint32_t next = qp.requester->next_psn();
    if (opcode == roce::Opcode::kAcknowledge) {
      if (packet.aeth) {
        qp.requester->OnAcknowledge(packet.bth.psn, *packet.aeth, NowNs());
      }
    } else {
      TakeResponse(qp, packet);
      if (ce) {
        Notify(qpn, qp);  // the requester is the NP of read responses
      }
    }
    AfterRequesterEvent(qp, unacked, next, packet.bth.becn);
    return;
  }
  if (ce) {
    if (qp.cc && qp.cc->marks_return_as_becn()) {
      // TRN-11.3: an in-sequence request's mark rides on the next reply.
      qp.becn_due =
          qp.becn_due || packet.bth.psn == qp.responder->expected_psn();
    } else {
      Notify(qpn, qp);  // TRN-9.5
    }
  }
  RequestHeader request;
  request.opcode = opcode;
  request.psn = packet.bth.psn;
  request.ack_req = packet.bth.ack_req;
  request.length = static_cast<uint32_t>(packet.payload.size());
  request.reth = packet.reth;
  if (packet.imm_dt) {
    request.immediate = packet.imm_dt->immediate;
  }
  request.atomic = packet.atomic_eth;
  const uint64_t duplicates = qp.responder->duplicates();
  const uint64_t out_of_sequence = qp.responder->out_of_sequence();
  ResponderStep step = qp.responder->OnRequest(request);
  counters_.duplicates += qp.responder->duplicates() - duplicates;
  counters_.out_of_sequence +=
      qp.responder->out_of_sequence() - out_of_sequence;
  if (step.place && step.place->length > 0) {
    const Placement& place = *step.place;
    const auto refusal = Place(qp, place, packet.payload);
    if (refusal) {
      step.reply =
          Reply{request.psn, roce::Aeth::Nak(qp.responder->msn(), *refusal)};
      step.fatal = true;  // TRN-6.13
      if (place.to_receive_wr) {
        // The receive WR the bytes were for ends in error, not in success
        // (a LAST or ONLY packet) nor in a flush (a FIRST or MIDDLE one).
        qp.responder->DropReceive(place.wr_id);
        step.completion = Completion{place.wr_id, CompletionStatus::kLocQpOpErr,
                                     0, std::nullopt};
      } else if (step.completion) {
        // A WRITE with immediate data consumed a receive WR it never
        // completes: the QP's error flushes it.
        step.completion->status = CompletionStatus::kFlushErr;
      }
    }
  }
  if (step.read) {
    AnswerRead(qpn, qp, *step.read);
  }
  if (step.atomic) {
    AnswerAtomic(qpn, qp, *step.atomic);
  }
  if (step.completion) {
    qp.receive_buffers.erase(step.completion->wr_id);
    Complete({qpn, true, *step.completion});
  }
  if (step.reply) {
    roce::RocePacket reply = roce::MakeAcknowledge(
        PathOf(qpn, qp), step.reply->psn, step.reply->aeth);
    CarryBecn(qp, reply);
    if (step.fatal) {  // the QP's queued replies die with it
      SendFrame(qp.context.attributes().remote_node, reply);
    } else {
      SendReply(qpn, qp, reply);
    }
  }
  if (step.fatal) {
    qp.context.EnterError();
    EnterError(qpn, qp);
  }
}

bool TransportEngine::MayAccess(uint32_t rkey, uint64_t address,
                                uint64_t length, RemoteAccess access) {
  if (regions_.Allows(rkey, address, length, access)) {
    return true;
  }
  ++counters_.access_errors;
  return false;
}

std::optional<roce::NakCode> TransportEngine::Place(Qp& qp,
                                                    const Placement& place,
                                                    Bytes payload) {
  if (!place.to_receive_wr &&
      !MayAccess(place.rkey, place.address, payload.size(), kRemoteWrite)) {
    return roce::NakCode::kRemoteAccessError;
  }
  const uint64_t address =
      place.to_receive_wr ? qp.receive_buffers.at(place.wr_id) + place.offset
                          : place.address;
  if (!Dma(tlm::TLM_WRITE_COMMAND, address, payload.data(), payload.size())) {
    ++counters_.dma_errors;
    return roce::NakCode::kRemoteOperationalError;
  }
  return std::nullopt;
}

void TransportEngine::TakeResponse(Qp& qp, const roce::RocePacket& packet) {
  const auto opcode = static_cast<roce::Opcode>(packet.bth.opcode);
  const uint64_t original =
      packet.atomic_ack_eth ? packet.atomic_ack_eth->original_data : 0;
  const auto data = qp.requester->OnResponse(
      opcode, packet.bth.psn, static_cast<uint32_t>(packet.payload.size()),
      original, NowNs());
  if (!data) {
    return;  // stale or out of order: discarded (TRN-6.12)
  }
  const uint64_t base = qp.send_buffers.at(data->wr_id);
  bool ok = true;
  if (data->atomic) {
    uint8_t bytes[kAtomicBytes];
    StoreLittleEndian(bytes, kAtomicBytes, data->original);
    ok = Dma(tlm::TLM_WRITE_COMMAND, base, bytes, kAtomicBytes);
  } else if (!packet.payload.empty()) {
    Bytes payload = packet.payload;
    ok = Dma(tlm::TLM_WRITE_COMMAND, base + data->offset, payload.data(),
             payload.size());
  }
  if (!ok) {
    ++counters_.dma_errors;
    qp.requester->FailLocal(data->wr_id);  // TRN-6.15
  }
}

void TransportEngine::AnswerRead(uint32_t qpn, Qp& qp, const ReadAnswer& read) {
  if (!MayAccess(read.rkey, read.address, read.length, kRemoteRead)) {
    RefuseOperation(qpn, qp, read.first_psn, read.msn,
                    roce::NakCode::kRemoteAccessError);
    return;
  }
  // TRN-6.11: a READ arriving again means the requester went back to its
  // PSN (go-back-N), so the answers still queued from that READ's on go
  // again from the start: its own, if queued, restarts; those of later
  // READs, which come again too, give way to it so that responses stay in
  // PSN order (TRN-6.12).
  for (size_t i = 0; i < qp.replies.size(); ++i) {
    const std::optional<ReadAnswer>& queued = qp.replies[i].read;
    if (!queued || roce::PsnBefore(queued->first_psn, read.first_psn)) {
      continue;
    }
    if (i == 0) {
      qp.next_response = 0;
    }
    if (queued->first_psn == read.first_psn) {
      return;
    }
    qp.replies.erase(qp.replies.begin() + static_cast<std::ptrdiff_t>(i),
                     qp.replies.end());
    break;
  }
  qp.replies.push_back({read, {}});
  SendResponses(qpn, qp);  // at once unless pacing holds it
}

void TransportEngine::SendReply(uint32_t qpn, Qp& qp,
                                const roce::RocePacket& packet) {
  if (qp.replies.empty()) {
    SendFrame(qp.context.attributes().remote_node, packet);
  } else {
    qp.replies.push_back({std::nullopt, packet});
    SendResponses(qpn, qp);
  }
}

// TRN-10.1: READ responses share the QP's pacing with its requests; they
// are replies, so the injection window does not hold them back.
std::optional<uint64_t> TransportEngine::SendResponses(uint32_t qpn, Qp& qp) {
  while (!qp.replies.empty()) {
    if (!qp.replies.front().read) {
      const roce::RocePacket packet = qp.replies.front().packet;
      qp.replies.pop_front();
      SendFrame(qp.context.attributes().remote_node, packet);
      continue;
    }
    if (qp.cc && qp.cc->next_send_ps() > CycleClock::NowPs()) {
      return PacingWakePs(*qp.cc);
    }
    SendNextResponse(qpn, qp);
  }
  return std::nullopt;
}

// TRN-6.2, TRN-6.4: the READ's bytes as response packets, one PSN each.
void TransportEngine::SendNextResponse(uint32_t qpn, Qp& qp) {
  const ReadAnswer read = *qp.replies.front().read;
  const uint32_t pmtu = qp.context.attributes().pmtu;
  const uint32_t count = PacketCount(read.length, pmtu);
  const uint32_t i = qp.next_response;
  roce::RocePacket packet =
      roce::NewPacket(PathOf(qpn, qp), ReadResponseOpcode(i, count),
                      roce::PsnAdd(read.first_psn, i));
  if (packet.aeth) {
    packet.aeth = roce::Aeth::Ack(read.msn);
  }
  if (i == 0) {
    CarryBecn(qp, packet);
  }
  packet.payload.resize(SegmentLength(read.length, pmtu, i, count));
  if (!packet.payload.empty() &&
      !Dma(tlm::TLM_READ_COMMAND, read.address + uint64_t{i} * pmtu,
           packet.payload.data(), packet.payload.size())) {
    ++counters_.dma_errors;
    RefuseOperation(qpn, qp, roce::PsnAdd(read.first_psn, i), read.msn,
                    roce::NakCode::kRemoteOperationalError);
    return;  // ERROR cleared the queue
  }
  if (++qp.next_response == count) {
    qp.replies.pop_front();
    qp.next_response = 0;
  }
  if (qp.cc) {
    qp.cc->OnSent(
        CycleClock::NowPs(),
        roce::FrameSize(ReadResponseOpcode(i, count), packet.payload.size()),
        std::nullopt);
  }
  SendFrame(qp.context.attributes().remote_node, packet);
}

// The 8 bytes at the address, little-endian as the node's memory holds
// them, changed once; a duplicate gets the saved original (TRN-6.11).
void TransportEngine::AnswerAtomic(uint32_t qpn, Qp& qp,
                                   const AtomicAnswer& atomic) {
  uint64_t original = 0;
  if (atomic.replay) {
    original = *atomic.replay;
  } else if (!MayAccess(atomic.rkey, atomic.address, kAtomicBytes,
                        kRemoteAtomic)) {
    RefuseOperation(qpn, qp, atomic.psn, atomic.msn,
                    roce::NakCode::kRemoteAccessError);
    return;
  } else {
    uint8_t bytes[kAtomicBytes];
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bool ok = DmaAccess(tlm::TLM_READ_COMMAND, atomic.address, bytes,
                        kAtomicBytes, delay);
    original = LoadLittleEndian(bytes, kAtomicBytes);
    const uint64_t result =
        atomic.compare_swap
            ? (original == atomic.compare ? atomic.swap_add : original)
            : original + atomic.swap_add;
    StoreLittleEndian(bytes, kAtomicBytes, result);
    ok = ok && DmaAccess(tlm::TLM_WRITE_COMMAND, atomic.address, bytes,
                         kAtomicBytes, delay);
    WaitDma(delay);
    if (!ok) {
      ++counters_.dma_errors;
      RefuseOperation(qpn, qp, atomic.psn, atomic.msn,
                      roce::NakCode::kRemoteOperationalError);
      return;
    }
    qp.responder->SaveAtomic(atomic.psn, original);
  }
  roce::RocePacket packet = roce::NewPacket(
      PathOf(qpn, qp), roce::Opcode::kAtomicAcknowledge, atomic.psn);
  packet.aeth = roce::Aeth::Ack(atomic.msn);
  packet.atomic_ack_eth = roce::AtomicAckEth{original};
  CarryBecn(qp, packet);
  SendReply(qpn, qp, packet);
}

void TransportEngine::RefuseOperation(uint32_t qpn, Qp& qp, uint32_t psn,
                                      uint32_t msn, roce::NakCode code) {
  SendFrame(
      qp.context.attributes().remote_node,
      roce::MakeAcknowledge(PathOf(qpn, qp), psn, roce::Aeth::Nak(msn, code)));
  qp.context.EnterError();
  EnterError(qpn, qp);
}

void TransportEngine::EnterError(uint32_t qpn, Qp& qp) {
  qp.held.reset();
  qp.replies.clear();
  qp.next_response = 0;
  if (qp.requester) {
    qp.requester->Flush();
  }
  if (qp.responder) {
    for (const Completion& c : qp.responder->FlushReceives()) {
      qp.receive_buffers.erase(c.wr_id);
      Complete({qpn, true, c});
    }
  }
  for (const RecvWr& wr : qp.early_receives) {
    qp.receive_buffers.erase(wr.wr_id);
    Complete(
        {qpn, true, {wr.wr_id, CompletionStatus::kFlushErr, 0, std::nullopt}});
  }
  qp.early_receives.clear();
  Collect(qpn, qp);
}

void TransportEngine::Complete(const EngineCompletion& completion) {
  ++(completion.completion.status == CompletionStatus::kSuccess
         ? counters_.work_completed
         : counters_.work_failed);
  Probe(probe_, *this, PathPoint::kCompleted);
  completions_.push_back(completion);
  completions_.back().at_ps = CycleClock::NowPs();
  completion_event_.notify(sc_core::SC_ZERO_TIME);
}

void TransportEngine::Collect(uint32_t qpn, Qp& qp) {
  if (!qp.requester) {
    return;
  }
  for (const Completion& c : qp.requester->TakeCompletions()) {
    qp.send_buffers.erase(c.wr_id);
    Complete({qpn, false, c});
  }
}

bool TransportEngine::Dma(tlm::tlm_command command, uint64_t address,
                          uint8_t* data, size_t length) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const bool ok = DmaAccess(command, address, data, length, delay);
  WaitDma(delay);
  return ok;
}

bool TransportEngine::DmaAccess(tlm::tlm_command command, uint64_t address,
                                uint8_t* data, size_t length,
                                sc_core::sc_time& delay) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(static_cast<unsigned>(length));
  trans.set_streaming_width(static_cast<unsigned>(length));
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  memory->b_transport(trans, delay);
  return trans.is_response_ok();
}

void TransportEngine::WaitDma(const sc_core::sc_time& delay) {
  if (delay > sc_core::SC_ZERO_TIME) {
    in_dma_ = true;
    wait(delay);
    in_dma_ = false;
    dma_done_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TransportEngine::WaitOutOfDma() {
  const sc_core::sc_process_handle caller =
      sc_core::sc_get_current_process_handle();
  while (in_dma_ && caller.valid() &&
         caller.proc_kind() == sc_core::SC_THREAD_PROC_) {
    wait(dma_done_);
  }
}

const ComponentDecl& TransportEngine::Declaration() {
  static const ComponentDecl decl{
      "transport",
      "a card's RDMA transport engine: RC queue pairs over RoCEv2 (trn.md)",
      {{"network", "slot socket",
        "to the router's local port, through its network interface"},
       {"memory", "TLM-2.0 initiator", "DMA to the card's memory"}},
      {{"packets_sent", "packets sent"},
       {"packets_received", "packets received"},
       {"retransmits", "requests sent again (TRN-7.3)"},
       {"bad_packets", "packets failing TRN-4 parsing or the ICRC, dropped"},
       {"stray_packets",
        "packets for no QP, one not accepting them, or another P_Key"},
       {"duplicates",
        "requests that arrived again, not executed again (TRN-6.11)"},
       {"out_of_sequence", "requests ahead of the expected PSN (TRN-7.2)"},
       {"dma_errors", "DMA accesses that failed"},
       {"access_errors", "accesses refused by TRN-6.14's region check"},
       {"ce_received", "packets that arrived CE-marked (TRN-9.2)"},
       {"cnps_sent", "CNPs sent (TRN-9.6)"},
       {"cnps_received", "CNPs handed to a QP's congestion control"},
       {"work_posted", "work requests posted, send and receive"},
       {"work_completed", "work requests completed successfully"},
       {"work_failed",
        "work requests completed with an error, flushes included"},
       {"work_discarded",
        "work requests discarded by a modify to RESET (TRN-5.2)"}}};
  return decl;
}

StatList TransportEngine::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("packets_sent", counters_.packets_sent)
      .Add("packets_received", counters_.packets_received)
      .Add("retransmits", counters_.retransmits)
      .Add("bad_packets", counters_.bad_packets)
      .Add("stray_packets", counters_.stray_packets)
      .Add("duplicates", counters_.duplicates)
      .Add("out_of_sequence", counters_.out_of_sequence)
      .Add("dma_errors", counters_.dma_errors)
      .Add("access_errors", counters_.access_errors)
      .Add("ce_received", counters_.ce_received)
      .Add("cnps_sent", counters_.cnps_sent)
      .Add("cnps_received", counters_.cnps_received)
      .Add("work_posted", counters_.work_posted)
      .Add("work_completed", counters_.work_completed)
      .Add("work_failed", counters_.work_failed)
      .Add("work_discarded", counters_.work_discarded);
  return stats.Take();
}

}  // namespace lq::transport
