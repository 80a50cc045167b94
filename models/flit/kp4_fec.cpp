// SPDX-License-Identifier: Apache-2.0
// Bit packing between bytes and 10-bit symbols, and the KP4 codeword.
#include "models/flit/kp4_fec.h"

#include <cstring>

#include "models/common/bytes.h"

namespace lq::flit {

namespace {

// Five bytes (40 bits) hold exactly four 10-bit symbols.
constexpr size_t kGroupBytes = 5;
constexpr size_t kGroupSymbols = 4;
constexpr unsigned kSymbolBits = fec::kGf1024Bits;
constexpr uint64_t kSymbolMask = (uint64_t{1} << kSymbolBits) - 1;
constexpr uint8_t kPadMask = 0xF0;

}  // namespace

Kp4Fec::Kp4Fec()
    : code_(fec::ReedSolomon::Create(
                fec::GaloisField::Create(kSymbolBits, fec::kGf1024Poly).value(),
                kSymbols, kMessageSymbols)
                .value()) {}

void Kp4Fec::Unpack(const uint8_t* wire, SymbolBlock& symbols) {
  for (size_t group = 0; group < kWireBytes / kGroupBytes; ++group) {
    const uint64_t bits =
        LoadBigEndian(wire + group * kGroupBytes, kGroupBytes);
    for (size_t s = 0; s < kGroupSymbols; ++s) {
      const unsigned shift = kSymbolBits * (kGroupSymbols - 1 - s);
      symbols[group * kGroupSymbols + s] =
          static_cast<fec::Symbol>((bits >> shift) & kSymbolMask);
    }
  }
}

void Kp4Fec::Pack(const SymbolBlock& symbols, uint8_t* wire) {
  for (size_t group = 0; group < kWireBytes / kGroupBytes; ++group) {
    uint64_t bits = 0;
    for (size_t s = 0; s < kGroupSymbols; ++s) {
      bits = (bits << kSymbolBits) |
             (symbols[group * kGroupSymbols + s] & kSymbolMask);
    }
    StoreBigEndian(wire + group * kGroupBytes, kGroupBytes, bits);
  }
}

void Kp4Fec::Protect(uint8_t* wire) const {
  // Clearing the tail zeroes the four pad bits before the message is read.
  std::memset(wire + kContentBytes, 0, kWireBytes - kContentBytes);
  SymbolBlock symbols;
  Unpack(wire, symbols);
  code_.Encode(symbols.data(), symbols.data() + kMessageSymbols);
  Pack(symbols, wire);
}

Result<FecReport> Kp4Fec::Correct(uint8_t* wire) const {
  FecReport report;
  report.codewords = 1;
  SymbolBlock symbols;
  Unpack(wire, symbols);
  const fec::RsDecodeReport decoded = code_.Decode(symbols.data());
  if (decoded.status == fec::RsStatus::kUncorrectable) {
    return Fail("FEC uncorrectable in codeword 0", 0);
  }
  if (decoded.status == fec::RsStatus::kCorrected) {
    Pack(symbols, wire);
    report.codewords_corrected = 1;
    report.symbols_corrected = decoded.corrected();
  }
  if ((wire[kPadByte] & kPadMask) != 0) {
    return Fail("non-zero pad bits in FEC block", kPadByte);
  }
  return report;
}

}  // namespace lq::flit
