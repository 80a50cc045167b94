// SPDX-License-Identifier: Apache-2.0
// Numbered slots: what FillNumberedSlot writes, IsNumberedSlot recognises,
// and nothing else.
#include "systemc/link/numbered_slot.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

namespace lq::testing {
namespace {

// Whole words only, a partial last word of each length, the smallest slot.
constexpr size_t kSizes[] = {10, 11, 17, 18, 25, 236, 242, 243};

TEST(NumberedSlot, RecognisesTheSlotItWrote) {
  for (const size_t size : kSizes) {
    for (const uint64_t number : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) {
      const Bytes slot = NumberedSlot(size, 1, 3, number);
      EXPECT_TRUE(IsNumberedSlot(slot, 1, 3, number)) << size;
    }
  }
}

TEST(NumberedSlot, RejectsEverySingleBitFlip) {
  for (const size_t size : kSizes) {
    const Bytes slot = NumberedSlot(size, 0, 2, 12345);
    for (size_t bit = 0; bit < size * 8; ++bit) {
      Bytes flipped = slot;
      flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      EXPECT_FALSE(IsNumberedSlot(flipped, 0, 2, 12345))
          << "size " << size << ", bit " << bit;
    }
  }
}

TEST(NumberedSlot, RejectsAnotherIdentity) {
  const Bytes slot = NumberedSlot(236, 0, 2, 7);
  EXPECT_FALSE(IsNumberedSlot(slot, 1, 2, 7));  // side
  EXPECT_FALSE(IsNumberedSlot(slot, 0, 1, 7));  // VC
  EXPECT_FALSE(IsNumberedSlot(slot, 0, 2, 8));  // number
}

TEST(NumberedSlot, RejectsASlotShorterThanItsHeader) {
  const Bytes slot = NumberedSlot(kSlotHeaderBytes, 0, 0, 0);
  EXPECT_FALSE(
      IsNumberedSlot(ByteView(slot.data(), kSlotHeaderBytes - 1), 0, 0, 0));
}

}  // namespace
}  // namespace lq::testing
