// SPDX-License-Identifier: Apache-2.0
// A systematic Reed-Solomon codec RS(n, k) over any GaloisField, with a
// syndrome / Berlekamp-Massey / Chien / Forney decoder (docs/spec/phy.md §3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/common/result.h"
#include "models/fec/galois_field.h"

namespace lq::fec {

enum class RsStatus {
  kClean,          // The word was a codeword; nothing changed.
  kCorrected,      // Up to t symbols were wrong and have been repaired.
  kUncorrectable,  // More errors than the code can repair; word unchanged.
};

const char* RsStatusName(RsStatus status);

struct RsDecodeReport {
  RsStatus status = RsStatus::kClean;
  // Codeword indices of the repaired symbols (kCorrected only), ascending.
  std::vector<size_t> corrected_positions;

  size_t corrected() const { return corrected_positions.size(); }
};

// RS(n, k): k message symbols followed by n - k parity symbols. Symbol i of a
// codeword is the coefficient of x^(n-1-i), so message[0] is the highest-degree
// term and the last parity symbol is the constant term. A code with
// n < 2^m - 1 is a shortened code: the missing leading symbols are zeros.
// The generator is g(x) = (x - alpha^b)(x - alpha^(b+1))...(x -
// alpha^(b+n-k-1)) with b = first_root. Immutable after Create; share it
// freely.
class ReedSolomon {
 public:
  // Parity symbols are limited so the decoder can work in fixed stack arrays.
  static constexpr size_t kMaxParity = 64;

  // Fails unless 0 < k < n <= 2^m - 1, n - k is even and at most kMaxParity.
  static Result<ReedSolomon> Create(GaloisField field, size_t n, size_t k,
                                    unsigned first_root = 0);

  const GaloisField& field() const { return field_; }
  size_t n() const { return n_; }
  size_t k() const { return k_; }
  size_t parity_symbols() const { return n_ - k_; }
  // t: the number of symbol errors every codeword can be corrected from.
  size_t correctable() const { return (n_ - k_) / 2; }
  unsigned first_root() const { return first_root_; }
  // g(x) with generator()[i] the coefficient of x^i; generator().back() is 1.
  const std::vector<Symbol>& generator() const { return generator_; }

  // Computes the n - k parity symbols of `message` (k symbols). Symbols must
  // be field elements (< 2^m); higher bits are ignored.
  void Encode(const Symbol* message, Symbol* parity) const;

  // Checks and, where possible, corrects the n symbols of `codeword` in
  // place. An uncorrectable word is left exactly as received. A word with
  // more than t errors may, rarely, be "corrected" to a different codeword;
  // the flit CRC exists to catch that (PHY-3.7).
  RsDecodeReport Decode(Symbol* codeword) const;

 private:
  ReedSolomon(GaloisField field, size_t n, size_t k, unsigned first_root);

  // Runs the encoder's division register over `count` symbols and returns it.
  void Remainder(const Symbol* message, Symbol* reg) const;

  GaloisField field_;
  size_t n_;
  size_t k_;
  unsigned first_root_;
  std::vector<Symbol> generator_;
  // feedback_products_[f * (n-k) + j] = f * g_(n-k-1-j): one contiguous row
  // per feedback value, so each encoder step is a row XOR the compiler can
  // vectorise instead of n-k separate log/antilog multiplications.
  std::vector<Symbol> feedback_products_;
  // For codes of at most kPackedParity parity symbols (pcie6's RS(86,84)...
  // interleaves): each row packed into one word, symbol j in bits
  // [16j, 16j+16), so that an encoder step is one shift and one XOR on a
  // register held in a machine word. Empty for longer codes.
  static constexpr size_t kPackedParity = 4;
  std::vector<uint64_t> packed_rows_;
};

}  // namespace lq::fec
