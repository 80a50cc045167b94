// SPDX-License-Identifier: Apache-2.0
// Gathers every third byte of a pcie6 flit into a codeword and back.
#include "models/flit/interleaved_rs_fec.h"

#include <string>

namespace lq::flit {

namespace {

constexpr size_t kMaxCodewordBytes =
    (InterleavedRsFec::kWireBytes + InterleavedRsFec::kInterleave - 1) /
    InterleavedRsFec::kInterleave;

// Bytes i of the flit with i mod 3 == index, in increasing i.
size_t CodewordLength(size_t index, size_t span) {
  return (span - index + InterleavedRsFec::kInterleave - 1) /
         InterleavedRsFec::kInterleave;
}

fec::ReedSolomon MakeCode(size_t index) {
  const size_t n = CodewordLength(index, InterleavedRsFec::kWireBytes);
  const size_t k = CodewordLength(index, InterleavedRsFec::kContentBytes);
  return fec::ReedSolomon::Create(
             fec::GaloisField::Create(fec::kGf256Bits, fec::kGf256Poly).value(),
             n, k)
      .value();
}

}  // namespace

InterleavedRsFec::InterleavedRsFec()
    : long_code_(MakeCode(0)), short_code_(MakeCode(1)) {}

const fec::ReedSolomon& InterleavedRsFec::code(size_t index) const {
  return index == 0 ? long_code_ : short_code_;
}

void InterleavedRsFec::Protect(uint8_t* wire) const {
  std::array<fec::Symbol, kMaxCodewordBytes> symbols{};
  for (size_t index = 0; index < kInterleave; ++index) {
    const fec::ReedSolomon& rs = code(index);
    for (size_t s = 0; s < rs.k(); ++s) {
      symbols[s] = wire[index + s * kInterleave];
    }
    rs.Encode(symbols.data(), symbols.data() + rs.k());
    for (size_t s = rs.k(); s < rs.n(); ++s) {
      wire[index + s * kInterleave] = static_cast<uint8_t>(symbols[s]);
    }
  }
}

Result<FecReport> InterleavedRsFec::Correct(uint8_t* wire) const {
  FecReport report;
  report.codewords = kInterleave;
  std::array<fec::Symbol, kMaxCodewordBytes> symbols{};
  for (size_t index = 0; index < kInterleave; ++index) {
    const fec::ReedSolomon& rs = code(index);
    for (size_t s = 0; s < rs.n(); ++s) {
      symbols[s] = wire[index + s * kInterleave];
    }
    const fec::RsDecodeReport decoded = rs.Decode(symbols.data());
    if (decoded.status == fec::RsStatus::kUncorrectable) {
      return Fail("FEC uncorrectable in codeword " + std::to_string(index),
                  index);
    }
    for (size_t position : decoded.corrected_positions) {
      wire[index + position * kInterleave] =
          static_cast<uint8_t>(symbols[position]);
    }
    report.codewords_corrected += decoded.corrected() > 0 ? 1 : 0;
    report.symbols_corrected += decoded.corrected();
  }
  return report;
}

}  // namespace lq::flit
