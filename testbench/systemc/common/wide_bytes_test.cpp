// SPDX-License-Identifier: Apache-2.0
// Bytes in Verilator's packed vectors: PackBytes lays byte 0 on top (PHY-2.2)
// with the top word's unused bits zero, and UnpackBytesInto reads it back, at
// every length, checked bit by bit against that layout rather than against
// the functions' own form.
#include "systemc/common/wide_bytes.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace lq::rtl {
namespace {

constexpr size_t kLongest = 300;  // Past the widest port (1 936 bits).
constexpr WData kSentinel = 0xA5A5A5A5;

// Bit `bit` (0 the least significant) of the vector that holds `bytes`.
bool VectorBit(const Bytes& bytes, size_t bit) {
  const uint8_t byte = bytes[bytes.size() - 1 - bit / kBitsPerByte];
  return (byte >> (bit % kBitsPerByte)) & 1;
}

Bytes RandomBytes(size_t n, std::mt19937& rng) {
  Bytes bytes(n);
  for (uint8_t& byte : bytes) {
    byte = static_cast<uint8_t>(rng());
  }
  return bytes;
}

TEST(WideBytes, PHY_2_2_PackPutsByteZeroOnTopAndClearsUnusedBits) {
  std::mt19937 rng(2);
  for (size_t n = 1; n <= kLongest; ++n) {
    const Bytes bytes = RandomBytes(n, rng);
    const size_t used_words = (n + kBytesPerWord - 1) / kBytesPerWord;
    // Stale bits everywhere, and a word past the vector that must survive.
    std::vector<WData> words(used_words + 1, ~WData{0});
    words[used_words] = kSentinel;
    PackBytes(bytes, words.data());
    for (size_t bit = 0; bit < used_words * kBitsPerWord; ++bit) {
      const bool got = (words[bit / kBitsPerWord] >> (bit % kBitsPerWord)) & 1;
      const bool want = bit < n * kBitsPerByte && VectorBit(bytes, bit);
      ASSERT_EQ(got, want) << n << " bytes, bit " << bit;
    }
    EXPECT_EQ(words[used_words], kSentinel) << n << " bytes";
  }
}

TEST(WideBytes, PHY_2_2_UnpackReadsBackWhatPackWrote) {
  std::mt19937 rng(3);
  for (size_t n = 1; n <= kLongest; ++n) {
    const Bytes bytes = RandomBytes(n, rng);
    std::vector<WData> words((n + kBytesPerWord - 1) / kBytesPerWord);
    PackBytes(bytes, words.data());
    // One byte past the read must survive too.
    Bytes back(n + 1, 0x5A);
    UnpackBytesInto(words.data(), back.data(), n);
    EXPECT_EQ(Bytes(back.begin(), back.begin() + n), bytes) << n << " bytes";
    EXPECT_EQ(back[n], 0x5A) << n << " bytes";
    EXPECT_EQ(UnpackBytes(words.data(), n), bytes) << n << " bytes";
  }
}

}  // namespace
}  // namespace lq::rtl
