// SPDX-License-Identifier: Apache-2.0
// LogicalUnit's part in invalidation (docs/spec/log.md LOG-6.8): as
// sharer, removing translations and acknowledging once the accesses made
// with them have completed; as owner, sending INVAL_REQs until they are
// acknowledged. Also the firmware's mailbox (LOG-6.10).
#include <algorithm>

#include "systemc/logical/logical_unit.h"

namespace lq::logical {

// ---------------------------------------------------------------------------
// Sharer.

void LogicalUnit::TakeInvalRequest(uint16_t from, const InvalRequest& request) {
  if (request.ga >> kOffsetBits != from) {
    messenger_.CountBad();  // only a page's owner revokes it
    return;
  }
  const auto owed = std::find_if(
      pending_acks_.begin(), pending_acks_.end(), [&](const PendingAck& p) {
        return p.owner == from && p.ack.inval_id == request.inval_id;
      });
  if (owed != pending_acks_.end()) {
    return;  // sent again while its accesses finish: it will be answered
  }
  ++counters_.invalidations;
  const uint64_t first = PageNumber(config_.space, request.ga);
  page_table_.RemoveRange(first, request.pages);
  PendingAck pending{from, InvalAck{request.inval_id, request.ga}, {}};
  for (const auto& [page, count] : in_flight_) {
    if (page - first < request.pages && page >= first) {
      pending.pages.insert(page);
    }
  }
  if (pending.pages.empty()) {
    Post(from, pending.ack);
  } else {
    pending_acks_.push_back(std::move(pending));
  }
}

void LogicalUnit::ReleasePage(uint64_t page) {
  const auto found = in_flight_.find(page);
  if (--found->second != 0) {
    return;
  }
  in_flight_.erase(found);
  for (auto it = pending_acks_.begin(); it != pending_acks_.end();) {
    it->pages.erase(page);
    if (it->pages.empty()) {
      Post(it->owner, it->ack);
      it = pending_acks_.erase(it);
    } else {
      ++it;
    }
  }
}

// ---------------------------------------------------------------------------
// Owner.

std::optional<uint16_t> LogicalUnit::Invalidate(uint16_t sharer, uint64_t ga,
                                                uint32_t pages) {
  constexpr size_t kIds = size_t{1} << 16;
  if (invals_.size() >= kIds) {
    return std::nullopt;  // every INVAL_ID awaits its acknowledgement
  }
  while (invals_.count(next_inval_id_) != 0) {
    ++next_inval_id_;  // not reused while in use (LOG-6.8)
  }
  const uint16_t id = next_inval_id_++;
  OutstandingInval& inval = invals_[id];
  inval.sharer = sharer;
  inval.request = InvalRequest{id, ga, pages};
  inval.sent = sc_core::sc_time_stamp();
  if (!Post(sharer, inval.request)) {
    ForgetInvalidations(sharer);  // no connection: reported at once
  }
  inval_changed_.notify(sc_core::SC_ZERO_TIME);
  return id;
}

void LogicalUnit::TakeInvalAck(uint16_t from, const InvalAck& ack) {
  const auto found = invals_.find(ack.inval_id);
  if (found == invals_.end() || found->second.sharer != from) {
    return;  // the answer to a request sent again: already delivered
  }
  invals_.erase(found);
  Deliver(from, ack);
}

// The sharer's connection failed: its invalidations end without an
// acknowledgement, which the firmware learns from the mailbox.
void LogicalUnit::ForgetInvalidations(uint16_t sharer) {
  for (auto it = invals_.begin(); it != invals_.end();) {
    if (it->second.sharer == sharer) {
      Deliver(sharer, InvalAck{it->first, it->second.request.ga}, true);
      it = invals_.erase(it);
    } else {
      ++it;
    }
  }
}

void LogicalUnit::ResendInvalidations() {
  for (;;) {
    if (invals_.empty()) {
      wait(inval_changed_);
      continue;
    }
    sc_core::sc_time due = sc_core::sc_max_time();
    for (const auto& [id, inval] : invals_) {
      due = std::min(due, inval.sent + config_.inval_retry);
    }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (due > now) {
      wait(due - now, inval_changed_);
      continue;
    }
    for (auto& [id, inval] : invals_) {
      if (inval.sent + config_.inval_retry <= now) {
        inval.sent = now;
        messenger_.Send(inval.sharer, inval.request);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Mailbox.

void LogicalUnit::Deliver(uint16_t from, std::optional<LogMessage> message,
                          bool lost) {
  mailbox_.push_back({from, std::move(message), lost});
  mailbox_event_.notify(sc_core::SC_ZERO_TIME);
}

void LogicalUnit::PopMailbox() {
  if (!mailbox_.empty()) {
    mailbox_.pop_front();
  }
}

}  // namespace lq::logical
