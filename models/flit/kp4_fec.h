// SPDX-License-Identifier: Apache-2.0
// ib FEC framing: the 642-byte flit content packed MSB-first into 10-bit
// symbols of one RS(544,514) "KP4" codeword over GF(2^10) (PHY-3.4, PHY-2.8).
#pragma once

#include <array>

#include "models/fec/reed_solomon.h"
#include "models/flit/flit_fec.h"

namespace lq::flit {

class Kp4Fec : public FlitFec {
 public:
  static constexpr size_t kWireBytes = 680;     // 544 symbols x 10 bits.
  static constexpr size_t kContentBytes = 642;  // 5136 bits.
  static constexpr size_t kSymbols = 544;
  static constexpr size_t kMessageSymbols = 514;  // 5136 bits + 4 pad bits.
  static constexpr size_t kPadByte = 642;         // High nibble is the pad.

  Kp4Fec();

  size_t content_bytes() const override { return kContentBytes; }
  size_t wire_bytes() const override { return kWireBytes; }
  void Protect(uint8_t* wire) const override;
  Result<FecReport> Correct(uint8_t* wire) const override;

  const fec::ReedSolomon& code() const { return code_; }

  using SymbolBlock = std::array<fec::Symbol, kSymbols>;
  // The wire block as 544 symbols, each the next 10 bits MSB-first.
  static void Unpack(const uint8_t* wire, SymbolBlock& symbols);
  static void Pack(const SymbolBlock& symbols, uint8_t* wire);

 private:
  fec::ReedSolomon code_;
};

}  // namespace lq::flit
