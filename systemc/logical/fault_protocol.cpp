// LogicalUnit's part in the cross-node page-fault protocol
// (docs/spec/log.md section 6): as requester, holding a faulting access and
// asking the page's owner; as owner, queueing fault requests for its
// firmware and sending the firmware's answers.
#include <algorithm>
#include <type_traits>

#include "systemc/logical/logical_unit.h"

namespace lq::logical {

// ---------------------------------------------------------------------------
// Requester.

// LOG-6.1: accesses of this node to one page wait in issue order while the
// first of them resolves a fault; with no fault pending nobody waits.
AccessStatus LogicalUnit::TranslatePaged(
    const FaultRequest& access, uint16_t owner, Translation& where,
    std::optional<sc_core::sc_time>& faulted) {
  const uint64_t page = PageNumber(config_.space, access.ga);
  PageHold& hold = holds_[page];  // stays put while others are added
  const uint64_t number = next_hold_++;
  hold.queue.push_back(number);
  while (hold.queue.front() != number) {
    wait(hold.changed);
  }
  const AccessStatus status = TranslateAtHead(access, owner, where, faulted);
  hold.queue.pop_front();
  if (hold.queue.empty()) {
    holds_.erase(page);
  } else {
    hold.changed.notify(sc_core::SC_ZERO_TIME);
  }
  return status;
}

AccessStatus LogicalUnit::TranslateAtHead(
    const FaultRequest& access, uint16_t owner, Translation& where,
    std::optional<sc_core::sc_time>& faulted) {
  const uint64_t page = PageNumber(config_.space, access.ga);
  unsigned faults = 0;
  for (;;) {
    const TranslateResult result = Translate(
        config_.space, page_table_.Find(page), access.access, access.ga);
    if (result.translation) {
      where = *result.translation;
      return AccessStatus::kOk;
    }
    ++counters_.faults_raised[static_cast<size_t>(result.cause)];
    if (++faults > config_.fault_retries) {
      return AccessStatus::kFaultError;  // LOG-6.7
    }
    if (!faulted) {
      faulted = sc_core::sc_time_stamp();
    }
    FaultRequest request = access;
    request.cause = result.cause;
    const AccessStatus status =
        ResolveFault(request, owner, *faulted + config_.fault_timeout);
    if (status != AccessStatus::kOk) {
      return status;
    }
  }
}

uint16_t LogicalUnit::TakeSlot() {
  if (free_slots_.empty()) {
    ++counters_.held_slot_waits;
    while (free_slots_.empty()) {
      wait(slot_freed_);
    }
  }
  const uint16_t id = free_slots_.back();
  free_slots_.pop_back();
  return id;
}

AccessStatus LogicalUnit::ResolveFault(FaultRequest request, uint16_t owner,
                                       const sc_core::sc_time& deadline) {
  request.fault_id = TakeSlot();
  HeldSlot& slot = slots_[request.fault_id];
  slot.waiting = true;
  slot.owner = owner;
  slot.page_ga = request.ga - request.ga % config_.space.page_bytes;
  slot.outcome.reset();
  slot.busy = false;
  slot.owner_lost = false;
  AccessStatus status = AccessStatus::kOk;
  for (;;) {
    if (!Post(owner, request)) {
      slot.owner_lost = true;
    }
    while (!slot.outcome && !slot.busy && !slot.owner_lost &&
           sc_core::sc_time_stamp() < deadline) {
      wait(deadline - sc_core::sc_time_stamp(), slot.changed);
    }
    if (slot.owner_lost) {
      ++counters_.unreachable;  // LOG-6.7
      status = AccessStatus::kUnreachable;
      break;
    }
    if (slot.busy && !slot.outcome) {
      slot.busy = false;  // LOG-6.2: ask again after log.busy_retry
      wait(std::min(config_.busy_retry, deadline - sc_core::sc_time_stamp()));
    }
    if (slot.outcome) {
      status = *slot.outcome;
      break;
    }
    if (sc_core::sc_time_stamp() >= deadline) {
      ++counters_.fault_timeouts;
      status = AccessStatus::kFaultError;
      break;
    }
  }
  slot.waiting = false;
  free_slots_.push_back(request.fault_id);
  slot_freed_.notify(sc_core::SC_ZERO_TIME);
  return status;
}

// LOG-6.5, LOG-6.6: what the held access does with its answer.
AccessStatus LogicalUnit::Answered(const FaultResponse& response,
                                   uint64_t page_ga) {
  if (response.status == FaultStatus::kReject) {
    ++counters_.fault_rejects;
    switch (response.reason) {
      case RejectReason::kRange:
        return AccessStatus::kAddressError;
      case RejectReason::kPermission:
        return AccessStatus::kCommandError;
      default:
        return AccessStatus::kFaultError;
    }
  }
  const auto pte = Pte::Decode(response.pte);
  if (!pte || !pte->valid) {
    ++counters_.bad_ptes;
    return AccessStatus::kFaultError;
  }
  if (!InstallPte(PageNumber(config_.space, page_ga), *pte)) {
    return AccessStatus::kFaultError;  // LOG-5.3, counted as bad_ptes
  }
  return AccessStatus::kOk;
}

bool LogicalUnit::Post(uint16_t node, const LogMessage& message) {
  if (node == config_.node) {
    OnMessage(node, message);  // LOG-6.1: no network to itself
    return true;
  }
  return messenger_.Send(node, message);
}

// A FAULT_RSP (or BUSY) for one of this node's held slots.
void LogicalUnit::TakeFaultResponse(const FaultResponse& response) {
  const uint64_t page_ga =
      response.page_ga - response.page_ga % config_.space.page_bytes;
  if (response.fault_id >= config_.held_slots ||
      !slots_[response.fault_id].waiting ||
      slots_[response.fault_id].page_ga != page_ga ||
      slots_[response.fault_id].outcome) {
    ++counters_.late_fault_responses;  // LOG-6.7: installs nothing
    return;
  }
  HeldSlot& slot = slots_[response.fault_id];
  if (response.status == FaultStatus::kBusy) {
    slot.busy = true;
  } else {
    slot.outcome = Answered(response, page_ga);
  }
  slot.changed.notify(sc_core::SC_ZERO_TIME);
}

void LogicalUnit::OnPeerLost(uint16_t peer) {
  ForgetInvalidations(peer);
  for (unsigned id = 0; id < config_.held_slots; ++id) {
    HeldSlot& slot = slots_[id];
    if (slot.waiting && slot.owner == peer && !slot.owner_lost) {
      slot.owner_lost = true;
      slot.changed.notify(sc_core::SC_ZERO_TIME);
    }
  }
}

// ---------------------------------------------------------------------------
// Messages.

void LogicalUnit::OnMessage(uint16_t from, const LogMessage& message) {
  if (const auto* request = std::get_if<FaultRequest>(&message)) {
    if (request->requester != from) {
      messenger_.CountBad();  // a node may only ask for itself
      return;
    }
    QueueFault(*request);
  } else if (const auto* response = std::get_if<FaultResponse>(&message)) {
    TakeFaultResponse(*response);
  } else if (const auto* inval = std::get_if<InvalRequest>(&message)) {
    TakeInvalRequest(from, *inval);
  } else if (const auto* ack = std::get_if<InvalAck>(&message)) {
    TakeInvalAck(from, *ack);
  } else {
    Deliver(from, message);  // FRAME_* messages are the firmware's
  }
}

// ---------------------------------------------------------------------------
// Owner.

// LOG-6.2: queue the request for the firmware, or answer BUSY at once.
void LogicalUnit::QueueFault(const FaultRequest& request) {
  if (fault_queue_.size() >= config_.fault_queue_entries) {
    ++counters_.busy_responses;
    FaultResponse busy;
    busy.status = FaultStatus::kBusy;
    busy.fault_id = request.fault_id;
    busy.page_ga = request.ga - request.ga % config_.space.page_bytes;
    Post(request.requester, busy);
    return;
  }
  FaultRecord record;
  record.request = request;
  record.time_ns =
      static_cast<uint64_t>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
  record.seq = fault_seq_++;
  fault_queue_.push_back(record);
  fault_queued_.notify(sc_core::SC_ZERO_TIME);
}

void LogicalUnit::PopFault() {
  if (!fault_queue_.empty()) {
    fault_queue_.pop_front();
  }
}

bool LogicalUnit::AnswerFault(uint16_t requester,
                              const FaultResponse& response) {
  ++counters_.faults_served;
  return Post(requester, response);
}

}  // namespace lq::logical
