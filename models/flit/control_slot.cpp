// SPDX-License-Identifier: Apache-2.0
// Encoding and strict parsing of the CONTROL flit's slot (DLL-11.3).
#include "models/flit/control_slot.h"

#include <algorithm>
#include <string>

namespace lq::flit {

Result<Bytes> EncodeControlSlot(ByteView message, size_t slot_bytes) {
  if (message.empty() || message.size() > MaxControlMessage(slot_bytes)) {
    return Fail("control message of " + std::to_string(message.size()) +
                " bytes; a " + std::to_string(slot_bytes) +
                "-byte slot carries 1 to " +
                std::to_string(MaxControlMessage(slot_bytes)));
  }
  Bytes slot(slot_bytes, 0);
  StoreBigEndian(slot.data(), kControlLengthBytes, message.size());
  std::copy(message.begin(), message.end(), slot.begin() + kControlLengthBytes);
  return slot;
}

Result<Bytes> ParseControlSlot(ByteView slot) {
  if (slot.size() < kControlLengthBytes) {
    return Fail("control slot of " + std::to_string(slot.size()) + " bytes");
  }
  const size_t length = LoadBigEndian(slot.data(), kControlLengthBytes);
  if (length == 0 || length > MaxControlMessage(slot.size())) {
    return Fail("control message length " + std::to_string(length) +
                    " outside 1.." +
                    std::to_string(MaxControlMessage(slot.size())),
                0);
  }
  const auto end = slot.begin() + kControlLengthBytes + length;
  const auto stray =
      std::find_if(end, slot.end(), [](uint8_t byte) { return byte != 0; });
  if (stray != slot.end()) {
    return Fail("non-zero byte after the control message",
                static_cast<size_t>(stray - slot.begin()));
  }
  return Bytes(slot.begin() + kControlLengthBytes, end);
}

}  // namespace lq::flit
