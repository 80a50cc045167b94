// SPDX-License-Identifier: Apache-2.0
// Payload slots that carry their own identity (sender side, VC, number) and
// bytes derived from it, so a scoreboard can tell lost, duplicated,
// reordered and corrupted slots apart from the bytes alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "models/common/bytes.h"

namespace lq::testing {

inline constexpr size_t kSlotNumberBytes = 8;  // Bytes 0..7: the number.
inline constexpr size_t kSlotVcByte = 8;
inline constexpr size_t kSlotSideByte = 9;
inline constexpr size_t kSlotHeaderBytes = 10;

inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Writes slot `number` of VC `vc` from `side`, `size` bytes long, to `slot`.
inline void FillNumberedSlot(uint8_t* slot, size_t size, unsigned side,
                             unsigned vc, uint64_t number) {
  StoreBigEndian(slot, kSlotNumberBytes, number);
  slot[kSlotVcByte] = static_cast<uint8_t>(vc);
  slot[kSlotSideByte] = static_cast<uint8_t>(side);
  uint64_t state = (number << 3) ^ (uint64_t{vc} << 1) ^ side;
  // Whole words with a constant width, which compiles to one store each.
  size_t i = kSlotHeaderBytes;
  for (; i + sizeof(uint64_t) <= size; i += sizeof(uint64_t)) {
    StoreLittleEndian(slot + i, sizeof(uint64_t), SplitMix64(state));
  }
  if (i < size) {
    StoreLittleEndian(slot + i, size - i, SplitMix64(state));
  }
}

// Slot `number` of VC `vc` from `side`, `size` bytes long.
inline Bytes NumberedSlot(size_t size, unsigned side, unsigned vc,
                          uint64_t number) {
  Bytes slot(size);
  FillNumberedSlot(slot.data(), size, side, vc, number);
  return slot;
}

inline uint64_t SlotNumber(const Bytes& slot) {
  return LoadBigEndian(slot.data(), kSlotNumberBytes);
}

// Scores one arrival numbered `number` on a stream whose next number is
// `expected`: a duplicate (nullopt, `expected` unchanged) or the count of
// numbers skipped (lost) before it, with `expected` moved past it.
inline std::optional<uint64_t> AcceptNumber(uint64_t number,
                                            uint64_t& expected) {
  if (number < expected) {
    return std::nullopt;
  }
  const uint64_t skipped = number - expected;
  expected = number + 1;
  return skipped;
}

}  // namespace lq::testing
