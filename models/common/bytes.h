// SPDX-License-Identifier: Apache-2.0
// Byte-buffer vocabulary shared by every codec in models/: a non-owning view
// and big-endian field accessors used by the wire formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lq {

using Bytes = std::vector<uint8_t>;

// A read-only view of contiguous bytes (C++17 has no std::span).
class ByteView {
 public:
  constexpr ByteView() = default;
  constexpr ByteView(const uint8_t* data, size_t size)
      : data_(data), size_(size) {}
  ByteView(const Bytes& bytes)  // NOLINT: implicit by design, like span.
      : data_(bytes.data()), size_(bytes.size()) {}

  constexpr const uint8_t* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const uint8_t* begin() const { return data_; }
  constexpr const uint8_t* end() const { return data_ + size_; }
  constexpr uint8_t operator[](size_t i) const { return data_[i]; }

  // The sub-view [offset, offset + count); the caller checks the bounds.
  constexpr ByteView Sub(size_t offset, size_t count) const {
    return ByteView(data_ + offset, count);
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// A whole 4- or 8-byte word moved between memory and a host integer, in the
// order `big_endian` names. A constant width then compiles to one load or
// store (and a byte swap where the host's order differs): the packing of wide
// RTL ports and the codecs move hundreds of such words a flit. GCC and Clang
// name the host's byte order with __BYTE_ORDER__.
namespace bytes_detail {

inline constexpr bool kHostIsBigEndian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

inline uint32_t SwapUnless(bool same_order, uint32_t word) {
  return same_order ? word : __builtin_bswap32(word);
}

inline uint64_t SwapUnless(bool same_order, uint64_t word) {
  return same_order ? word : __builtin_bswap64(word);
}

// Whether the word path applies: a whole word, of a width the compiler
// knows. A width known only at run time keeps the byte loop, so that the
// call costs no extra branch and GCC sees no wider access than the caller's
// buffer.
inline bool IsConstantWordWidth(size_t width) {
  return __builtin_constant_p(width) &&
         (width == sizeof(uint64_t) || width == sizeof(uint32_t));
}

// Loads `width` bytes into `value` on the word path; false otherwise.
inline bool LoadWord(const uint8_t* p, size_t width, bool big_endian,
                     uint64_t& value) {
  if (!IsConstantWordWidth(width)) {
    return false;
  }
  const bool same_order = big_endian == kHostIsBigEndian;
  if (width == sizeof(uint64_t)) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    value = SwapUnless(same_order, word);
    return true;
  }
  if (width == sizeof(uint32_t)) {
    uint32_t word;
    std::memcpy(&word, p, sizeof word);
    value = SwapUnless(same_order, word);
    return true;
  }
  return false;
}

inline bool StoreWord(uint8_t* p, size_t width, bool big_endian,
                      uint64_t value) {
  if (!IsConstantWordWidth(width)) {
    return false;
  }
  const bool same_order = big_endian == kHostIsBigEndian;
  if (width == sizeof(uint64_t)) {
    const uint64_t word = SwapUnless(same_order, value);
    std::memcpy(p, &word, sizeof word);
    return true;
  }
  if (width == sizeof(uint32_t)) {
    const uint32_t word = SwapUnless(same_order, static_cast<uint32_t>(value));
    std::memcpy(p, &word, sizeof word);
    return true;
  }
  return false;
}

}  // namespace bytes_detail

// Reads an unsigned big-endian (network order) field of `width` bytes.
inline uint64_t LoadBigEndian(const uint8_t* p, size_t width) {
  uint64_t value = 0;
  if (bytes_detail::LoadWord(p, width, true, value)) {
    return value;
  }
  for (size_t i = 0; i < width; ++i) {
    value = (value << 8) | p[i];
  }
  return value;
}

// Writes the low `width` bytes of `value` in big-endian (network) order.
inline void StoreBigEndian(uint8_t* p, size_t width, uint64_t value) {
  if (bytes_detail::StoreWord(p, width, true, value)) {
    return;
  }
  for (size_t i = width; i > 0; --i) {
    p[i - 1] = static_cast<uint8_t>(value);
    value >>= 8;
  }
}

// Reads an unsigned little-endian field of `width` bytes.
inline uint64_t LoadLittleEndian(const uint8_t* p, size_t width) {
  uint64_t value = 0;
  if (bytes_detail::LoadWord(p, width, false, value)) {
    return value;
  }
  for (size_t i = width; i > 0; --i) {
    value = (value << 8) | p[i - 1];
  }
  return value;
}

// Writes the low `width` bytes of `value` in little-endian order.
inline void StoreLittleEndian(uint8_t* p, size_t width, uint64_t value) {
  if (bytes_detail::StoreWord(p, width, false, value)) {
    return;
  }
  for (size_t i = 0; i < width; ++i) {
    p[i] = static_cast<uint8_t>(value);
    value >>= 8;
  }
}

}  // namespace lq
