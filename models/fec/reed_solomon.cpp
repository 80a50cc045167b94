// SPDX-License-Identifier: Apache-2.0
// Reed-Solomon encoding by polynomial division and decoding by syndromes,
// Berlekamp-Massey, Chien search and Forney's formula.
#include "models/fec/reed_solomon.h"

#include <array>
#include <string>
#include <utility>

namespace lq::fec {

namespace {
using ParityArray = std::array<Symbol, ReedSolomon::kMaxParity + 1>;
// Bits of one symbol's lane in a packed row or register.
constexpr unsigned kLaneBits = 16;
}  // namespace

const char* RsStatusName(RsStatus status) {
  switch (status) {
    case RsStatus::kClean:
      return "clean";
    case RsStatus::kCorrected:
      return "corrected";
    case RsStatus::kUncorrectable:
      return "uncorrectable";
  }
  return "unknown";
}

Result<ReedSolomon> ReedSolomon::Create(GaloisField field, size_t n, size_t k,
                                        unsigned first_root) {
  if (k == 0 || k >= n) {
    return Fail("RS(n, k) needs 0 < k < n, got RS(" + std::to_string(n) + ", " +
                std::to_string(k) + ")");
  }
  if (n > field.order()) {
    return Fail("RS code length " + std::to_string(n) +
                " exceeds 2^m - 1 = " + std::to_string(field.order()));
  }
  if ((n - k) % 2 != 0 || n - k > kMaxParity) {
    return Fail("RS parity count must be even and at most " +
                std::to_string(kMaxParity) + ", got " + std::to_string(n - k));
  }
  return ReedSolomon(std::move(field), n, k, first_root);
}

ReedSolomon::ReedSolomon(GaloisField field, size_t n, size_t k,
                         unsigned first_root)
    : field_(std::move(field)), n_(n), k_(k), first_root_(first_root) {
  const size_t parity = n_ - k_;
  // Multiply out g(x) one root at a time, lowest coefficient first.
  generator_.assign(1, 1);
  for (size_t i = 0; i < parity; ++i) {
    const Symbol root = field_.Exp(first_root_ + i);
    std::vector<Symbol> next(generator_.size() + 1, 0);
    for (size_t j = 0; j < generator_.size(); ++j) {
      next[j + 1] ^= generator_[j];
      next[j] ^= field_.Mul(generator_[j], root);
    }
    generator_ = std::move(next);
  }
  feedback_products_.resize(size_t{field_.size()} * parity);
  for (uint32_t f = 0; f < field_.size(); ++f) {
    for (size_t j = 0; j < parity; ++j) {
      feedback_products_[f * parity + j] =
          field_.Mul(static_cast<Symbol>(f), generator_[parity - 1 - j]);
    }
  }
  if (parity <= kPackedParity) {
    packed_rows_.resize(field_.size());
    for (uint32_t f = 0; f < field_.size(); ++f) {
      for (size_t j = 0; j < parity; ++j) {
        packed_rows_[f] |= uint64_t{feedback_products_[f * parity + j]}
                           << (kLaneBits * j);
      }
    }
  }
}

void ReedSolomon::Remainder(const Symbol* message, Symbol* reg) const {
  const size_t parity = n_ - k_;
  const Symbol mask = static_cast<Symbol>(field_.order());
  if (!packed_rows_.empty()) {
    uint64_t packed = 0;
    for (size_t i = 0; i < k_; ++i) {
      const Symbol feedback = (message[i] ^ static_cast<Symbol>(packed)) & mask;
      packed = (packed >> kLaneBits) ^ packed_rows_[feedback];
    }
    for (size_t j = 0; j < parity; ++j) {
      reg[j] = static_cast<Symbol>(packed >> (kLaneBits * j));
    }
    return;
  }
  for (size_t j = 0; j < parity; ++j) {
    reg[j] = 0;
  }
  for (size_t i = 0; i < k_; ++i) {
    // The mask keeps a stray high bit from indexing past the table.
    const Symbol feedback = (message[i] ^ reg[0]) & mask;
    const Symbol* row = &feedback_products_[feedback * parity];
    for (size_t j = 0; j + 1 < parity; ++j) {
      reg[j] = reg[j + 1] ^ row[j];
    }
    reg[parity - 1] = row[parity - 1];
  }
}

void ReedSolomon::Encode(const Symbol* message, Symbol* parity) const {
  Remainder(message, parity);
}

RsDecodeReport ReedSolomon::Decode(Symbol* codeword) const {
  const size_t parity = n_ - k_;
  const size_t t = correctable();
  RsDecodeReport report;

  // The received word is a codeword exactly when re-encoding its message
  // reproduces its parity; the difference is r(x) mod g(x), whose values at
  // the roots of g are the syndromes.
  ParityArray remainder{};
  Remainder(codeword, remainder.data());
  bool clean = true;
  for (size_t j = 0; j < parity; ++j) {
    remainder[j] ^= codeword[k_ + j];
    clean = clean && remainder[j] == 0;
  }
  if (clean) {
    return report;
  }

  ParityArray syndromes{};
  for (size_t i = 0; i < parity; ++i) {
    const Symbol x = field_.Exp(first_root_ + i);
    Symbol value = 0;
    for (size_t j = 0; j < parity; ++j) {
      value = field_.Mul(value, x) ^ remainder[j];
    }
    syndromes[i] = value;
  }

  // Berlekamp-Massey: the shortest LFSR (error locator, lambda[0] = 1) that
  // generates the syndrome sequence.
  ParityArray lambda{};
  ParityArray previous{};
  lambda[0] = 1;
  previous[0] = 1;
  size_t length = 0;
  size_t shift = 1;
  Symbol previous_discrepancy = 1;
  for (size_t r = 0; r < parity; ++r) {
    Symbol discrepancy = syndromes[r];
    for (size_t i = 1; i <= length; ++i) {
      discrepancy ^= field_.Mul(lambda[i], syndromes[r - i]);
    }
    if (discrepancy == 0) {
      ++shift;
      continue;
    }
    const Symbol scale = field_.Div(discrepancy, previous_discrepancy);
    const ParityArray before = lambda;
    for (size_t i = 0; i + shift <= parity; ++i) {
      lambda[i + shift] ^= field_.Mul(scale, previous[i]);
    }
    if (2 * length <= r) {
      length = r + 1 - length;
      previous = before;
      previous_discrepancy = discrepancy;
      shift = 1;
    } else {
      ++shift;
    }
  }
  report.status = RsStatus::kUncorrectable;
  if (length > t) {
    return report;
  }

  // Chien search over the codeword's own positions only: a root that points
  // into the zeros of a shortened code means too many errors.
  ParityArray terms = lambda;
  ParityArray steps{};
  for (size_t j = 0; j <= length; ++j) {
    steps[j] = field_.Exp(-static_cast<int64_t>(j));
  }
  std::array<size_t, kMaxParity / 2> degrees{};
  size_t roots = 0;
  for (size_t degree = 0; degree < n_ && roots < length; ++degree) {
    Symbol sum = 0;
    for (size_t j = 0; j <= length; ++j) {
      sum ^= terms[j];
    }
    if (sum == 0) {
      degrees[roots++] = degree;
    }
    for (size_t j = 1; j <= length; ++j) {
      terms[j] = field_.Mul(terms[j], steps[j]);
    }
  }
  if (roots != length) {
    return report;
  }

  // Forney: e = X^(1-b) * omega(1/X) / lambda'(1/X), with
  // omega(x) = S(x) * lambda(x) mod x^(n-k).
  ParityArray omega{};
  for (size_t i = 0; i < parity; ++i) {
    for (size_t j = 0; j <= length && j <= i; ++j) {
      omega[i] ^= field_.Mul(lambda[j], syndromes[i - j]);
    }
  }
  std::array<Symbol, kMaxParity / 2> values{};
  for (size_t e = 0; e < roots; ++e) {
    const int64_t degree = static_cast<int64_t>(degrees[e]);
    const Symbol x_inverse = field_.Exp(-degree);
    Symbol numerator = 0;
    for (size_t i = parity; i > 0; --i) {
      numerator = field_.Mul(numerator, x_inverse) ^ omega[i - 1];
    }
    // In characteristic 2 the derivative keeps only the odd-degree terms.
    Symbol denominator = 0;
    for (size_t j = 1; j <= length; j += 2) {
      denominator ^= field_.Mul(lambda[j], field_.Pow(x_inverse, j - 1));
    }
    if (denominator == 0) {
      return report;
    }
    const Symbol magnitude =
        field_.Mul(field_.Exp(degree * (1 - static_cast<int64_t>(first_root_))),
                   field_.Div(numerator, denominator));
    if (magnitude == 0) {
      return report;
    }
    values[e] = magnitude;
  }

  report.status = RsStatus::kCorrected;
  report.corrected_positions.resize(roots);
  for (size_t e = 0; e < roots; ++e) {
    // Degrees were found ascending, so positions come out descending.
    const size_t position = n_ - 1 - degrees[e];
    codeword[position] ^= values[e];
    report.corrected_positions[roots - 1 - e] = position;
  }
  return report;
}

}  // namespace lq::fec
