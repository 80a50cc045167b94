// SPDX-License-Identifier: Apache-2.0
// CRC engine for the checks lqemu's protocols use: the flit CRC, the RoCEv2
// ICRC, Ethernet's FCS and the 16-bit link CRCs. Table-driven, with the long
// runs of a reflected algorithm folded by carry-less multiplication where the
// processor has it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "models/common/bytes.h"

namespace lq::crc {

// A CRC in the Rocksoft/Williams parameter model (as in the public CRC
// catalogues). lqemu uses only algorithms whose input and output are either
// both reflected or both not, so one flag covers both.
struct CrcParams {
  const char* name;
  unsigned width;    // Bits, 8..64.
  uint64_t poly;     // Generator, normal (MSB-first) form, without x^width.
  uint64_t init;     // Register value before the first byte.
  bool reflected;    // Bytes enter LSB first, and the result is reflected.
  uint64_t xor_out;  // XORed into the register to give the check value.
  uint64_t check;    // Published check value over ASCII "123456789".
};

// The catalogue entries the spec names (docs/spec/phy.md, trn.md).
inline constexpr CrcParams kCrc32IsoHdlc{"CRC-32/ISO-HDLC", 32,   0x04C11DB7,
                                         0xFFFFFFFF,        true, 0xFFFFFFFF,
                                         0xCBF43926};
inline constexpr CrcParams kCrc32C{
    "CRC-32/ISCSI", 32, 0x1EDC6F41, 0xFFFFFFFF, true, 0xFFFFFFFF, 0xE3069283};
inline constexpr CrcParams kCrc32Bzip2{
    "CRC-32/BZIP2", 32, 0x04C11DB7, 0xFFFFFFFF, false, 0xFFFFFFFF, 0xFC891918};
// InfiniBand VCRC form of the 0x100B polynomial (protocol-facts §7).
inline constexpr CrcParams kCrc16Ib{
    "CRC-16/IB-VCRC", 16, 0x100B, 0xFFFF, true, 0xFFFF, 0x0A3D};
// MSB-first form of 0x100B, as PCIe's DLLP CRC uses the polynomial.
inline constexpr CrcParams kCrc16Dllp{
    "CRC-16/0x100B-MSB", 16, 0x100B, 0xFFFF, false, 0x0000, 0xBA6E};
// CRC-64/XZ (ECMA-182 polynomial): lqemu's 8-byte flit CRC (PHY-2.3).
inline constexpr CrcParams kCrc64Xz{
    "CRC-64/XZ",        64,   0x42F0E1EBA9EA3693,
    0xFFFFFFFFFFFFFFFF, true, 0xFFFFFFFFFFFFFFFF,
    0x995DC9BBDF1939FA};

// How an engine computes: the fastest way this processor allows, or the
// lookup tables alone (what tests compare the fast way against).
enum class CrcMethod { kFastest, kTablesOnly };

// Computes one CRC algorithm. Construction builds the lookup tables (8 KiB);
// after that the engine is immutable and may be shared freely.
class CrcEngine {
 public:
  explicit CrcEngine(const CrcParams& params,
                     CrcMethod method = CrcMethod::kFastest);

  const CrcParams& params() const { return params_; }
  // Whether runs of 32 bytes or more are folded by carry-less multiplication
  // (x86-64 PCLMULQDQ; reflected algorithms only).
  bool folds_with_clmul() const { return folds_with_clmul_; }

  // The whole CRC of `data`: Finish(Update(Begin(), data)).
  uint64_t Compute(ByteView data) const {
    return Finish(Update(Begin(), data));
  }

  // Register-level access, for checks that start from a pre-loaded register
  // (the RoCEv2 ICRC) or that are computed over scattered pieces.
  uint64_t Begin() const { return params_.init & mask_; }
  uint64_t Update(uint64_t reg, ByteView data) const;
  uint64_t Finish(uint64_t reg) const;

 private:
  uint64_t UpdateReflected(uint64_t reg, ByteView data) const;
  uint64_t UpdateNormal(uint64_t reg, ByteView data) const;
  uint64_t UpdateReflectedTables(uint64_t reg, const uint8_t* p,
                                 size_t n) const;

  CrcParams params_;
  uint64_t mask_;
  bool folds_with_clmul_ = false;
  // The folding constants: x^191 and x^127 modulo the polynomial, reflected
  // into 64 bits (crc.cpp says why those powers).
  uint64_t fold_first_half_ = 0;
  uint64_t fold_second_half_ = 0;
  // Slicing-by-8 tables: tables_[k][b] is the register contribution of byte b
  // seen k bytes before the end of an 8-byte block.
  std::array<std::array<uint64_t, 256>, 8> tables_{};
};

// Shared engines for the algorithms above, built on first use.
const CrcEngine& Crc32();    // CRC-32/ISO-HDLC
const CrcEngine& Crc32C();   // CRC-32/ISCSI
const CrcEngine& Crc16Ib();  // CRC-16/IB-VCRC
const CrcEngine& Crc64Xz();  // CRC-64/XZ

}  // namespace lq::crc
