// SPDX-License-Identifier: Apache-2.0
// The transmitter's queue of link control messages (docs/spec/dll.md
// DLL-11.4): up to CONTROL_QUEUE messages, oldest first, each encoded as
// the CONTROL flit's slot and ready from the cycle it was offered for. Both
// link controllers, the TL model and the RTL's wrapper, keep one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::link {

inline constexpr size_t kControlQueueDepth = 4;  // CONTROL_QUEUE (DLL-11.4)

class ControlQueue {
 public:
  explicit ControlQueue(size_t slot_bytes, size_t depth = kControlQueueDepth);

  // Queues `message`, to leave from `cycle` on. Returns false when the
  // queue was full: the oldest message was discarded, and counted, to make
  // room. Fails for a message the slot cannot carry, the caller's error.
  Result<bool> Offer(ByteView message, uint64_t cycle);

  // Whether the oldest message may leave at `cycle`.
  bool Ready(uint64_t cycle) const;
  // The cycle the oldest message becomes ready, if one waits.
  std::optional<uint64_t> NextCycle() const;
  // The oldest message's slot, while one waits.
  const Bytes& Front() const { return entries_.front().slot; }
  // Takes the oldest message's slot out.
  Bytes Pop();

  uint64_t dropped() const { return dropped_; }

 private:
  struct Entry {
    uint64_t cycle;
    Bytes slot;
  };
  size_t slot_bytes_;
  size_t depth_;
  std::deque<Entry> entries_;
  uint64_t dropped_ = 0;
};

}  // namespace lq::link
