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

// The state whose SplitMix64 draws fill slot `number` of VC `vc` from `side`
// after its header.
inline uint64_t NumberedSlotSeed(unsigned side, unsigned vc, uint64_t number) {
  return (number << 3) ^ (uint64_t{vc} << 1) ^ side;
}

// Writes slot `number` of VC `vc` from `side`, `size` bytes long, to `slot`.
inline void FillNumberedSlot(uint8_t* slot, size_t size, unsigned side,
                             unsigned vc, uint64_t number) {
  StoreBigEndian(slot, kSlotNumberBytes, number);
  slot[kSlotVcByte] = static_cast<uint8_t>(vc);
  slot[kSlotSideByte] = static_cast<uint8_t>(side);
  uint64_t state = NumberedSlotSeed(side, vc, number);
  // Whole words with a constant width, which compiles to one store each.
  size_t i = kSlotHeaderBytes;
  for (; i + sizeof(uint64_t) <= size; i += sizeof(uint64_t)) {
    StoreLittleEndian(slot + i, sizeof(uint64_t), SplitMix64(state));
  }
  if (i < size) {
    StoreLittleEndian(slot + i, size - i, SplitMix64(state));
  }
}

// The number a slot carries in its first bytes.
inline uint64_t SlotNumber(ByteView slot) {
  return LoadBigEndian(slot.data(), kSlotNumberBytes);
}

// Whether `slot` is slot `number` of VC `vc` from `side`, as FillNumberedSlot
// writes it at slot.size() bytes: compared a word at a time as it is derived,
// with no copy made.
inline bool IsNumberedSlot(ByteView slot, unsigned side, unsigned vc,
                           uint64_t number) {
  const size_t size = slot.size();
  if (size < kSlotHeaderBytes || SlotNumber(slot) != number ||
      slot[kSlotVcByte] != static_cast<uint8_t>(vc) ||
      slot[kSlotSideByte] != static_cast<uint8_t>(side)) {
    return false;
  }
  uint64_t state = NumberedSlotSeed(side, vc, number);
  size_t i = kSlotHeaderBytes;
  for (; i + sizeof(uint64_t) <= size; i += sizeof(uint64_t)) {
    if (LoadLittleEndian(slot.data() + i, sizeof(uint64_t)) !=
        SplitMix64(state)) {
      return false;
    }
  }
  if (i == size) {
    return true;
  }
  const size_t rest = size - i;
  const uint64_t mask = (uint64_t{1} << (rest * 8)) - 1;
  return LoadLittleEndian(slot.data() + i, rest) == (SplitMix64(state) & mask);
}

// Slot `number` of VC `vc` from `side`, `size` bytes long.
inline Bytes NumberedSlot(size_t size, unsigned side, unsigned vc,
                          uint64_t number) {
  Bytes slot(size);
  FillNumberedSlot(slot.data(), size, side, vc, number);
  return slot;
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
