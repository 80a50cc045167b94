// SPDX-License-Identifier: Apache-2.0
// Slicing-by-8 CRC computation for reflected algorithms, folded by
// carry-less multiplication over long runs where x86-64 has PCLMULQDQ, and
// byte-wise computation for MSB-first ones.
#include "models/crc/crc.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define LQ_CRC_HAS_CLMUL 1
#endif

namespace lq::crc {
namespace {

constexpr size_t kFoldBytes = 16;  // One 128-bit block.
// Runs shorter than two blocks have nothing to fold.
constexpr size_t kMinFoldBytes = 2 * kFoldBytes;

uint64_t Reflect(uint64_t value, unsigned width) {
  uint64_t out = 0;
  for (unsigned i = 0; i < width; ++i) {
    out = (out << 1) | ((value >> i) & 1);
  }
  return out;
}

uint64_t WidthMask(unsigned width) {
  return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// x^power modulo the generator x^width + poly, in normal form.
uint64_t PowerModulo(unsigned power, uint64_t poly, unsigned width) {
  const uint64_t top = uint64_t{1} << (width - 1);
  uint64_t value = 1;
  for (unsigned i = 0; i < power; ++i) {
    const bool carry = (value & top) != 0;
    value = (value << 1) & WidthMask(width);
    value ^= carry ? poly : 0;
  }
  return value;
}

// Folding. In a reflected CRC the message's first bit is the highest power of
// x, and a 16-byte block loaded little-endian holds bit i at x^(127 - i): its
// first 8 bytes are L * x^64 and its last 8 bytes H, each of degree <= 63. The
// CRC depends only on the message modulo the generator, so a block followed
// 128 bits later by the next one may be replaced by L * x^192 + H * x^128,
// reduced to degree <= 126 and added into that next block. The carry-less
// product of two such 64-bit halves lands one power of x high in the 128-bit
// frame, so the constants are x^191 and x^127 modulo the generator,
// reflected. After the last fold, the 16 bytes left and the tail go through
// the tables from a zero register; the register the caller passed in was
// added into the first 8 bytes, as the tables would.
#if LQ_CRC_HAS_CLMUL
__attribute__((target("pclmul,sse2"))) void FoldBlocks(
    const uint8_t* p, size_t blocks, uint64_t reg, uint64_t first_half,
    uint64_t second_half, uint8_t* folded) {
  const __m128i constants = _mm_set_epi64x(static_cast<long long>(second_half),
                                           static_cast<long long>(first_half));
  __m128i acc =
      _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                    _mm_cvtsi64_si128(static_cast<long long>(reg)));
  for (size_t block = 1; block < blocks; ++block) {
    const __m128i next = _mm_loadu_si128(
        reinterpret_cast<const __m128i*>(p + block * kFoldBytes));
    const __m128i first = _mm_clmulepi64_si128(acc, constants, 0x00);
    const __m128i second = _mm_clmulepi64_si128(acc, constants, 0x11);
    acc = _mm_xor_si128(_mm_xor_si128(first, second), next);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(folded), acc);
}

bool ProcessorHasClmul() { return __builtin_cpu_supports("pclmul"); }
#endif

}  // namespace

CrcEngine::CrcEngine(const CrcParams& params, CrcMethod method)
    : params_(params), mask_(WidthMask(params.width)) {
  const unsigned width = params_.width;
#if LQ_CRC_HAS_CLMUL
  folds_with_clmul_ =
      params_.reflected && method == CrcMethod::kFastest && ProcessorHasClmul();
#else
  static_cast<void>(method);
#endif
  if (params_.reflected) {
    fold_first_half_ = Reflect(PowerModulo(191, params_.poly, width), 64);
    fold_second_half_ = Reflect(PowerModulo(127, params_.poly, width), 64);
    const uint64_t poly = Reflect(params_.poly, width);
    for (unsigned b = 0; b < 256; ++b) {
      uint64_t reg = b;
      for (int bit = 0; bit < 8; ++bit) {
        reg = (reg & 1) ? (reg >> 1) ^ poly : reg >> 1;
      }
      tables_[0][b] = reg;
    }
    for (unsigned k = 1; k < 8; ++k) {
      for (unsigned b = 0; b < 256; ++b) {
        const uint64_t prev = tables_[k - 1][b];
        tables_[k][b] = (prev >> 8) ^ tables_[0][prev & 0xFF];
      }
    }
  } else {
    const uint64_t top = uint64_t{1} << (width - 1);
    for (unsigned b = 0; b < 256; ++b) {
      uint64_t reg = static_cast<uint64_t>(b) << (width - 8);
      for (int bit = 0; bit < 8; ++bit) {
        reg = (reg & top) ? (reg << 1) ^ params_.poly : reg << 1;
      }
      tables_[0][b] = reg & mask_;
    }
  }
}

uint64_t CrcEngine::Update(uint64_t reg, ByteView data) const {
  return params_.reflected ? UpdateReflected(reg, data)
                           : UpdateNormal(reg, data);
}

uint64_t CrcEngine::UpdateReflected(uint64_t reg, ByteView data) const {
  const uint8_t* p = data.data();
  size_t n = data.size();
#if LQ_CRC_HAS_CLMUL
  if (folds_with_clmul_ && n >= kMinFoldBytes) {
    const size_t blocks = n / kFoldBytes;
    uint8_t folded[kFoldBytes];
    FoldBlocks(p, blocks, reg, fold_first_half_, fold_second_half_, folded);
    reg = UpdateReflectedTables(0, folded, kFoldBytes);
    p += blocks * kFoldBytes;
    n -= blocks * kFoldBytes;
  }
#endif
  return UpdateReflectedTables(reg, p, n);
}

uint64_t CrcEngine::UpdateReflectedTables(uint64_t reg, const uint8_t* p,
                                          size_t n) const {
  // Eight bytes at a time: fold the register into the block, then look up
  // each byte's contribution at its distance from the block's end.
  while (n >= 8) {
    const uint64_t block = LoadLittleEndian(p, 8) ^ reg;
    reg = 0;
    for (unsigned k = 0; k < 8; ++k) {
      reg ^= tables_[7 - k][(block >> (8 * k)) & 0xFF];
    }
    p += 8;
    n -= 8;
  }
  for (; n > 0; --n, ++p) {
    reg = tables_[0][(reg ^ *p) & 0xFF] ^ (reg >> 8);
  }
  return reg & mask_;
}

uint64_t CrcEngine::UpdateNormal(uint64_t reg, ByteView data) const {
  const unsigned shift = params_.width - 8;
  for (uint8_t byte : data) {
    reg = tables_[0][((reg >> shift) ^ byte) & 0xFF] ^ (reg << 8);
  }
  return reg & mask_;
}

uint64_t CrcEngine::Finish(uint64_t reg) const {
  return (reg ^ params_.xor_out) & mask_;
}

const CrcEngine& Crc32() {
  static const CrcEngine engine(kCrc32IsoHdlc);
  return engine;
}

const CrcEngine& Crc32C() {
  static const CrcEngine engine(kCrc32C);
  return engine;
}

const CrcEngine& Crc16Ib() {
  static const CrcEngine engine(kCrc16Ib);
  return engine;
}

const CrcEngine& Crc64Xz() {
  static const CrcEngine engine(kCrc64Xz);
  return engine;
}

}  // namespace lq::crc
