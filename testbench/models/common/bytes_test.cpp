// SPDX-License-Identifier: Apache-2.0
// The byte-order accessors of models/common/bytes.h: every width, both
// orders, at every alignment, against the byte each position must hold.
#include "models/common/bytes.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace lq {
namespace {

constexpr uint64_t kValue = 0x0123456789ABCDEFull;
constexpr size_t kMaxWidth = sizeof(uint64_t);
constexpr size_t kOffsets = 8;  // Every alignment of an 8-byte word.

// The low `width` bytes of kValue; byte i of the field counted from the
// least significant end.
uint8_t LowByte(size_t i) { return static_cast<uint8_t>(kValue >> (8 * i)); }

uint64_t LowBytes(size_t width) {
  return width == kMaxWidth ? kValue : kValue & ((1ull << (8 * width)) - 1);
}

using Store = void (*)(uint8_t*, size_t, uint64_t);
using Load = uint64_t (*)(const uint8_t*, size_t);

// Stores kValue at every width and alignment and checks each byte written,
// that nothing past the field changed, and that the load reads it back.
// `significance(width, i)`: which byte of the value (0 the least
// significant) byte i of a field `width` bytes wide holds.
template <typename Significance>
void ExpectRoundTrips(Store store, Load load, Significance significance) {
  for (size_t width = 0; width <= kMaxWidth; ++width) {
    for (size_t offset = 0; offset < kOffsets; ++offset) {
      std::array<uint8_t, kOffsets + kMaxWidth + 1> buffer{};
      store(buffer.data() + offset, width, kValue);
      for (size_t i = 0; i < width; ++i) {
        EXPECT_EQ(buffer[offset + i], LowByte(significance(width, i)))
            << "width " << width << " offset " << offset << " byte " << i;
      }
      EXPECT_EQ(buffer[offset + width], 0) << "wrote past the field";
      EXPECT_EQ(load(buffer.data() + offset, width), LowBytes(width));
    }
  }
}

TEST(Bytes, BigEndianPutsTheMostSignificantByteFirst) {
  ExpectRoundTrips(StoreBigEndian, LoadBigEndian,
                   [](size_t width, size_t i) { return width - 1 - i; });
}

TEST(Bytes, LittleEndianPutsTheLeastSignificantByteFirst) {
  ExpectRoundTrips(StoreLittleEndian, LoadLittleEndian,
                   [](size_t, size_t i) { return i; });
}

// Widths the compiler knows take the word path (one load or store); these
// calls name them as literals, at every alignment, against the byte loop of
// the same width known only at run time.
TEST(Bytes, ConstantWordWidthsEqualTheByteLoop) {
  for (size_t offset = 0; offset < kOffsets; ++offset) {
    volatile size_t runtime_four = 4;
    volatile size_t runtime_eight = 8;
    std::array<uint8_t, kOffsets + kMaxWidth> word{};
    std::array<uint8_t, kOffsets + kMaxWidth> loop{};
    uint8_t* w = word.data() + offset;
    uint8_t* l = loop.data() + offset;

    StoreBigEndian(w, 4, kValue);
    StoreBigEndian(l, runtime_four, kValue);
    EXPECT_EQ(word, loop) << "big-endian 4 at offset " << offset;
    EXPECT_EQ(LoadBigEndian(w, 4), LoadBigEndian(l, runtime_four));

    StoreBigEndian(w, 8, kValue);
    StoreBigEndian(l, runtime_eight, kValue);
    EXPECT_EQ(word, loop) << "big-endian 8 at offset " << offset;
    EXPECT_EQ(LoadBigEndian(w, 8), LoadBigEndian(l, runtime_eight));

    StoreLittleEndian(w, 4, ~kValue);
    StoreLittleEndian(l, runtime_four, ~kValue);
    EXPECT_EQ(word, loop) << "little-endian 4 at offset " << offset;
    EXPECT_EQ(LoadLittleEndian(w, 4), LoadLittleEndian(l, runtime_four));

    StoreLittleEndian(w, 8, ~kValue);
    StoreLittleEndian(l, runtime_eight, ~kValue);
    EXPECT_EQ(word, loop) << "little-endian 8 at offset " << offset;
    EXPECT_EQ(LoadLittleEndian(w, 8), LoadLittleEndian(l, runtime_eight));
  }
}

TEST(Bytes, LoadsReadOnlyTheirWidth) {
  const std::array<uint8_t, 10> bytes = {0x01, 0x02, 0x03, 0x04, 0x05,
                                         0x06, 0x07, 0x08, 0xFF, 0xFF};
  EXPECT_EQ(LoadBigEndian(bytes.data(), 4), 0x01020304u);
  EXPECT_EQ(LoadLittleEndian(bytes.data(), 4), 0x04030201u);
  EXPECT_EQ(LoadBigEndian(bytes.data(), 8), 0x0102030405060708ull);
  EXPECT_EQ(LoadLittleEndian(bytes.data(), 8), 0x0807060504030201ull);
  EXPECT_EQ(LoadBigEndian(bytes.data() + 1, 3), 0x020304u);
  EXPECT_EQ(LoadBigEndian(bytes.data(), 0), 0u);
}

}  // namespace
}  // namespace lq
