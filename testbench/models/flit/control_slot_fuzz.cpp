// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes as the slot of a CONTROL flit. A slot that
// parses must re-encode to exactly its own bytes; one that does not must,
// by an independent reading, hold a length out of range or a non-zero byte
// after the message (DLL-11.3).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "models/flit/control_slot.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const lq::ByteView slot(data, size);
  const auto message = lq::flit::ParseControlSlot(slot);
  if (message.ok()) {
    const auto again = lq::flit::EncodeControlSlot(*message, size);
    Require(again.ok() && *again == lq::Bytes(slot.begin(), slot.end()));
    return 0;
  }
  if (size < 2) {
    return 0;
  }
  const size_t length = size_t{data[0]} << 8 | data[1];
  const bool length_bad = length == 0 || length > size - 2;
  Require(length_bad || std::any_of(data + 2 + length, data + size,
                                    [](uint8_t byte) { return byte != 0; }));
  return 0;
}
