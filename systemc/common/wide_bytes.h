// SPDX-License-Identifier: Apache-2.0
// Conversion between lq::Bytes and Verilator's packed-vector storage, in the
// RTL byte order: byte 0 of a flit is the most significant byte of the vector
// (docs/spec/phy.md PHY-2.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "models/common/bytes.h"
#include "verilated.h"

namespace lq::rtl {

// Verilator stores a vector wider than 64 bits as 32-bit words, word 0 holding
// bits 31..0.
inline constexpr size_t kBitsPerWord = 32;
inline constexpr size_t kBitsPerByte = 8;

inline constexpr size_t kBytesPerWord = kBitsPerWord / kBitsPerByte;

// On a little-endian host the word array's memory holds the vector's bytes
// from the least significant up, so byte i of n is memory byte n - 1 - i:
// packing and unpacking are a reversed copy.
inline constexpr bool kVectorIsReversedInMemory =
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// Copies `count` bytes from `from` to `to` in reverse order. With SSE2 (every
// x86-64) it stores 16 bytes at a time, so that the CRC's 16-byte loads of an
// unpacked flit each read one earlier store whole: a load that spans several
// smaller stores waits for them to retire, which cost as much as the CRC.
inline void CopyReversed(const uint8_t* from, size_t count, uint8_t* to) {
  size_t i = 0;
#if defined(__SSE2__)
  constexpr size_t kBlock = sizeof(__m128i);
  for (; i + kBlock <= count; i += kBlock) {
    __m128i block = _mm_loadu_si128(
        reinterpret_cast<const __m128i*>(from + count - i - kBlock));
    block = _mm_shuffle_epi32(block, _MM_SHUFFLE(0, 1, 2, 3));  // 32-bit
    block = _mm_shufflelo_epi16(block, _MM_SHUFFLE(2, 3, 0, 1));
    block = _mm_shufflehi_epi16(block, _MM_SHUFFLE(2, 3, 0, 1));  // 16-bit
    block = _mm_or_si128(_mm_slli_epi16(block, 8),
                         _mm_srli_epi16(block, 8));  // bytes
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), block);
  }
#endif
  for (; i < count; ++i) {
    to[i] = from[count - 1 - i];
  }
}

// Writes `bytes` into a vector of bytes.size() * 8 bits held in `words` (byte 0
// on top). Word w holds bytes n-4w-4 .. n-4w-1 of n, the first of them in its
// top byte: a big-endian word, of fewer bytes at the top of the vector, whose
// unused bits are zero.
inline void PackBytes(ByteView bytes, WData* words) {
  const size_t n = bytes.size();
  if constexpr (kVectorIsReversedInMemory) {
    auto* memory = reinterpret_cast<uint8_t*>(words);
    CopyReversed(bytes.data(), n, memory);
    const size_t padded =
        (n + kBytesPerWord - 1) / kBytesPerWord * kBytesPerWord;
    std::memset(memory + n, 0, padded - n);
    return;
  }
  size_t w = 0;
  for (; (w + 1) * kBytesPerWord <= n; ++w) {
    words[w] = static_cast<WData>(LoadBigEndian(
        bytes.data() + n - (w + 1) * kBytesPerWord, kBytesPerWord));
  }
  if (const size_t rest = n - w * kBytesPerWord; rest != 0) {
    words[w] = static_cast<WData>(LoadBigEndian(bytes.data(), rest));
  }
}

// Reads `byte_count` bytes back from such a vector into `bytes`.
inline void UnpackBytesInto(const WData* words, uint8_t* bytes,
                            size_t byte_count) {
  if constexpr (kVectorIsReversedInMemory) {
    CopyReversed(reinterpret_cast<const uint8_t*>(words), byte_count, bytes);
    return;
  }
  size_t w = 0;
  for (; (w + 1) * kBytesPerWord <= byte_count; ++w) {
    StoreBigEndian(bytes + byte_count - (w + 1) * kBytesPerWord, kBytesPerWord,
                   words[w]);
  }
  if (const size_t rest = byte_count - w * kBytesPerWord; rest != 0) {
    StoreBigEndian(bytes, rest, words[w]);
  }
}

// The same, into a new vector.
inline Bytes UnpackBytes(const WData* words, size_t byte_count) {
  Bytes bytes(byte_count);
  UnpackBytesInto(words, bytes.data(), byte_count);
  return bytes;
}

template <size_t kWords>
void ToWide(ByteView bytes, VlWide<kWords>& wide) {
  PackBytes(bytes, wide.data());
}

template <size_t kWords>
Bytes FromWide(const VlWide<kWords>& wide, size_t byte_count) {
  return UnpackBytes(wide.data(), byte_count);
}

// Ports of 64 bits or fewer are plain integers: byte 0 is again the most
// significant, i.e. the bytes read as one big-endian number.
inline uint64_t ToNarrow(ByteView bytes) {
  return LoadBigEndian(bytes.data(), bytes.size());
}

inline Bytes FromNarrow(uint64_t value, size_t byte_count) {
  Bytes bytes(byte_count);
  StoreBigEndian(bytes.data(), byte_count, value);
  return bytes;
}

// Drive/Sample work on any data port whose width is a whole number of bytes,
// whichever C++ type Verilator chose for it, so that tests can be written once
// for every parameter variant of a module.
template <typename Port>
void Drive(Port& port, ByteView bytes) {
  port = static_cast<Port>(ToNarrow(bytes));
}

template <size_t kWords>
void Drive(VlWide<kWords>& port, ByteView bytes) {
  ToWide(bytes, port);
}

template <typename Port>
Bytes Sample(const Port& port, size_t byte_count) {
  return FromNarrow(port, byte_count);
}

template <size_t kWords>
Bytes Sample(const VlWide<kWords>& port, size_t byte_count) {
  return FromWide(port, byte_count);
}

}  // namespace lq::rtl
