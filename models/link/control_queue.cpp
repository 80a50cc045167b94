// SPDX-License-Identifier: Apache-2.0
// The control-message queue: bounded, in order, losing only what overflows.
#include "models/link/control_queue.h"

#include <utility>

#include "models/flit/control_slot.h"

namespace lq::link {

ControlQueue::ControlQueue(size_t slot_bytes, size_t depth)
    : slot_bytes_(slot_bytes), depth_(depth) {}

Result<bool> ControlQueue::Offer(ByteView message, uint64_t cycle) {
  Result<Bytes> slot = flit::EncodeControlSlot(message, slot_bytes_);
  if (!slot) {
    return slot.error();
  }
  // Offers come in time order; a later one never leaves before an earlier.
  if (!entries_.empty() && cycle < entries_.back().cycle) {
    cycle = entries_.back().cycle;
  }
  const bool room = entries_.size() < depth_;
  if (!room) {
    entries_.pop_front();  // the oldest is the stalest
    ++dropped_;
  }
  entries_.push_back({cycle, std::move(slot).value()});
  return room;
}

bool ControlQueue::Ready(uint64_t cycle) const {
  return !entries_.empty() && entries_.front().cycle <= cycle;
}

std::optional<uint64_t> ControlQueue::NextCycle() const {
  if (entries_.empty()) {
    return std::nullopt;
  }
  return entries_.front().cycle;
}

Bytes ControlQueue::Pop() {
  Bytes slot = std::move(entries_.front().slot);
  entries_.pop_front();
  return slot;
}

}  // namespace lq::link
