// SPDX-License-Identifier: Apache-2.0
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
  const AccessStatus status =
      TranslateAtHead(access, page, owner, where, faulted);
  hold.queue.pop_front();
  if (hold.queue.empty()) {
    holds_.erase(page);
  } else {
    hold.changed.notify(sc_core::SC_ZERO_TIME);
  }
  return status;
}

AccessStatus LogicalUnit::TranslateAtHead(
    const FaultRequest& access, uint64_t page, uint16_t owner,
    Translation& where, std::optional<sc_core::sc_time>& faulted) {
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
    FaultRequest request = access;
    request.cause = result.cause;
    const AccessStatus status = ResolveFault(request, owner, faulted);
    if (status != AccessStatus::kOk) {
      return status;
    }
  }
}

// A free held slot, waiting for one until `deadline` (if there is one).
std::optional<uint16_t> LogicalUnit::TakeSlot(
    const std::optional<sc_core::sc_time>& deadline) {
  if (free_slots_.empty()) {
    ++counters_.held_slot_waits;
    while (free_slots_.empty()) {
      if (!deadline) {
        wait(slot_freed_);
      } else if (sc_core::sc_time_stamp() < *deadline) {
        wait(*deadline - sc_core::sc_time_stamp(), slot_freed_);
      } else {
        return std::nullopt;
      }
    }
  }
  const uint16_t slot = free_slots_.front();
  free_slots_.pop_front();
  return slot;
}

// LOG-6.3's FAULT_ID: the slot, and how many faults it has held (modulo
// what 16 bits leave), so that an answer to an earlier fault in the same
// slot is known for late (LOG-6.7).
uint16_t LogicalUnit::NextFaultId(uint16_t slot) {
  const uint32_t generations = (uint32_t{1} << 16) / config_.held_slots;
  HeldSlot& held = slots_[slot];
  held.generation = (held.generation + 1) % generations;
  return static_cast<uint16_t>(held.generation * config_.held_slots + slot);
}

AccessStatus LogicalUnit::ResolveFault(
    FaultRequest request, uint16_t owner,
    std::optional<sc_core::sc_time>& faulted) {
  std::optional<sc_core::sc_time> deadline;
  if (faulted) {
    deadline = *faulted + config_.fault_timeout;
  }
  const std::optional<uint16_t> taken = TakeSlot(deadline);
  if (!taken) {
    ++counters_.fault_timeouts;  // LOG-6.7: no slot before the deadline
    return AccessStatus::kFaultError;
  }
  if (!faulted) {
    faulted = sc_core::sc_time_stamp();  // the first FAULT_REQ goes now
    deadline = *faulted + config_.fault_timeout;
  }
  request.fault_id = NextFaultId(*taken);
  HeldSlot& slot = slots_[*taken];
  slot.fault_id = request.fault_id;
  slot.waiting = true;
  slot.owner = owner;
  slot.page_ga = PageBase(config_.space, request.ga);
  slot.outcome.reset();
  slot.busy = false;
  slot.owner_lost = false;
  AccessStatus status = AccessStatus::kOk;
  for (;;) {
    if (!Post(owner, request)) {
      slot.owner_lost = true;
    }
    while (!slot.outcome && !slot.busy && !slot.owner_lost &&
           sc_core::sc_time_stamp() < *deadline) {
      wait(*deadline - sc_core::sc_time_stamp(), slot.changed);
    }
    if (slot.owner_lost) {
      ++counters_.unreachable;  // LOG-6.7
      status = AccessStatus::kUnreachable;
      break;
    }
    if (slot.busy && !slot.outcome) {
      slot.busy = false;  // LOG-6.2: ask again after log.busy_retry
      wait(std::min(config_.busy_retry, *deadline - sc_core::sc_time_stamp()));
    }
    if (slot.outcome) {
      status = *slot.outcome;
      break;
    }
    if (sc_core::sc_time_stamp() >= *deadline) {
      ++counters_.fault_timeouts;
      status = AccessStatus::kFaultError;
      break;
    }
  }
  slot.waiting = false;
  free_slots_.push_back(*taken);
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

// A FAULT_RSP (or BUSY) from `from` for one of this node's held slots.
void LogicalUnit::TakeFaultResponse(uint16_t from,
                                    const FaultResponse& response) {
  const uint64_t page_ga = PageBase(config_.space, response.page_ga);
  HeldSlot& slot = slots_[response.fault_id % config_.held_slots];
  if (!slot.waiting || slot.fault_id != response.fault_id ||
      slot.owner != from || slot.page_ga != page_ga || slot.outcome) {
    ++counters_.late_fault_responses;  // LOG-6.7: installs nothing
    return;
  }
  if (response.status == FaultStatus::kBusy) {
    slot.busy = true;
  } else {
    slot.outcome = Answered(response, page_ga);
  }
  slot.changed.notify(sc_core::SC_ZERO_TIME);
}

void LogicalUnit::OnPeerLost(uint16_t peer) {
  ForgetInvalidations(peer);
  if (lost_peers_.insert(peer).second) {
    Deliver(peer, std::nullopt, true);  // the firmware's notice (LOG-6.12)
  }
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
    TakeFaultResponse(from, *response);
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
    busy.page_ga = PageBase(config_.space, request.ga);
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
  if (!Post(requester, response)) {
    return false;
  }
  ++counters_.faults_served;
  return true;
}

}  // namespace lq::logical
