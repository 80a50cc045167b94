// SPDX-License-Identifier: Apache-2.0
// The payload slot of a CONTROL flit: one link control message, length
// first, the rest of the slot zero (docs/spec/dll.md DLL-11.3).
#pragma once

#include <cstddef>

#include "models/common/bytes.h"
#include "models/common/result.h"

namespace lq::flit {

// Bytes of a control slot ahead of the message: its length, big-endian.
inline constexpr size_t kControlLengthBytes = 2;

// The longest message a slot of `slot_bytes` carries.
constexpr size_t MaxControlMessage(size_t slot_bytes) {
  return slot_bytes > kControlLengthBytes ? slot_bytes - kControlLengthBytes
                                          : 0;
}

// The slot of `slot_bytes` that carries `message`; fails for an empty
// message or one longer than MaxControlMessage(slot_bytes).
Result<Bytes> EncodeControlSlot(ByteView message, size_t slot_bytes);

// The message in `slot`; fails, with the offending byte's offset, for a
// length of 0 or beyond the slot, or a non-zero byte after the message.
Result<Bytes> ParseControlSlot(ByteView slot);

}  // namespace lq::flit
