// SPDX-License-Identifier: Apache-2.0
// Slicing-by-8 CRC computation for reflected algorithms and byte-wise
// computation for MSB-first ones.
#include "models/crc/crc.h"

namespace lq::crc {
namespace {

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

}  // namespace

CrcEngine::CrcEngine(const CrcParams& params)
    : params_(params), mask_(WidthMask(params.width)) {
  const unsigned width = params_.width;
  if (params_.reflected) {
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
