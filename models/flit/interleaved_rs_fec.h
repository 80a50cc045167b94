// SPDX-License-Identifier: Apache-2.0
// pcie6 FEC framing: three interleaved single-symbol-correcting RS codewords
// over GF(2^8) across the 256-byte flit (PHY-3.1 .. PHY-3.3).
#pragma once

#include <array>

#include "models/fec/reed_solomon.h"
#include "models/flit/flit_fec.h"

namespace lq::flit {

class InterleavedRsFec : public FlitFec {
 public:
  static constexpr size_t kWireBytes = 256;
  static constexpr size_t kContentBytes = 250;
  static constexpr size_t kInterleave = 3;
  static constexpr size_t kCheckSymbols = 2;

  InterleavedRsFec();

  size_t content_bytes() const override { return kContentBytes; }
  size_t wire_bytes() const override { return kWireBytes; }
  void Protect(uint8_t* wire) const override;
  Result<FecReport> Correct(uint8_t* wire) const override;

  // Codeword `index` is RS(n, n - 2): n = 86 for codeword 0, 85 otherwise.
  const fec::ReedSolomon& code(size_t index) const;

 private:
  // Codeword 0 is one symbol longer than 1 and 2 (256 = 86 + 85 + 85).
  fec::ReedSolomon long_code_;
  fec::ReedSolomon short_code_;
};

}  // namespace lq::flit
