// SPDX-License-Identifier: Apache-2.0
// Arithmetic in a binary extension field GF(2^m) with log/antilog tables, the
// symbol alphabet of lqemu's Reed-Solomon codes (docs/spec/phy.md §3).
#pragma once

#include <cstdint>
#include <vector>

#include "models/common/result.h"

namespace lq::fec {

// One field element. 16 bits hold every field lqemu uses (m <= 16).
using Symbol = uint16_t;

// GF(2^8) with x^8+x^4+x^3+x^2+1, the field of the pcie6 flit codewords.
inline constexpr unsigned kGf256Bits = 8;
inline constexpr uint32_t kGf256Poly = 0x11D;
// GF(2^10) with x^10+x^3+1, the field of the RS(544,514) "KP4" code.
inline constexpr unsigned kGf1024Bits = 10;
inline constexpr uint32_t kGf1024Poly = 0x409;

// An immutable field GF(2^m) whose generator element alpha is the root x of
// the primitive polynomial. Elements are polynomials over GF(2) held as bit
// patterns, so addition is XOR.
class GaloisField {
 public:
  // Builds the field for `bits` = m in [2, 16] and the polynomial `poly`
  // (bit m set). Fails unless the polynomial is primitive, because only then
  // do the powers of alpha reach every non-zero element.
  static Result<GaloisField> Create(unsigned bits, uint32_t poly);

  unsigned bits() const { return bits_; }
  uint32_t poly() const { return poly_; }
  // Number of elements, 2^m.
  uint32_t size() const { return size_; }
  // Order of the multiplicative group, 2^m - 1.
  uint32_t order() const { return size_ - 1; }

  static Symbol Add(Symbol a, Symbol b) { return a ^ b; }
  Symbol Mul(Symbol a, Symbol b) const {
    if (a == 0 || b == 0) {
      return 0;
    }
    return exp_[log_[a] + log_[b]];
  }
  // Precondition: b != 0.
  Symbol Div(Symbol a, Symbol b) const {
    if (a == 0) {
      return 0;
    }
    return exp_[log_[a] + order() - log_[b]];
  }
  // Precondition: a != 0.
  Symbol Inv(Symbol a) const { return exp_[order() - log_[a]]; }
  // alpha^power for any power; negative powers count down from alpha^0.
  Symbol Exp(int64_t power) const {
    const int64_t reduced = power % static_cast<int64_t>(order());
    return exp_[reduced < 0 ? reduced + order() : reduced];
  }
  // The discrete logarithm base alpha. Precondition: a != 0.
  uint32_t Log(Symbol a) const { return log_[a]; }
  // a^power for power >= 0 (0^0 is 1).
  Symbol Pow(Symbol a, uint32_t power) const;

 private:
  GaloisField(unsigned bits, uint32_t poly);

  unsigned bits_;
  uint32_t poly_;
  uint32_t size_;
  // exp_ holds two periods of alpha^i so that Mul and Div need no modulo.
  std::vector<Symbol> exp_;
  std::vector<uint32_t> log_;
};

}  // namespace lq::fec
