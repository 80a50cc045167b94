// SPDX-License-Identifier: Apache-2.0
// Table construction for GF(2^m): powers of alpha by repeated shift-and-reduce.
#include "models/fec/galois_field.h"

#include <string>
#include <vector>

namespace lq::fec {

namespace {
constexpr unsigned kMinBits = 2;
constexpr unsigned kMaxBits = 16;
}  // namespace

Result<GaloisField> GaloisField::Create(unsigned bits, uint32_t poly) {
  if (bits < kMinBits || bits > kMaxBits) {
    return Fail("GF(2^m) needs 2 <= m <= 16, got m = " + std::to_string(bits));
  }
  if ((poly >> bits) != 1) {
    return Fail("field polynomial must have degree " + std::to_string(bits));
  }
  GaloisField field(bits, poly);
  // alpha is primitive exactly when its powers alpha^0 .. alpha^(2^m - 2)
  // are 2^m - 1 distinct non-zero elements.
  std::vector<bool> seen(field.size(), false);
  for (uint32_t i = 0; i < field.order(); ++i) {
    const Symbol element = field.exp_[i];
    if (element == 0 || seen[element]) {
      return Fail("polynomial is not primitive: alpha^" + std::to_string(i) +
                  " repeats an earlier power or is zero");
    }
    seen[element] = true;
  }
  return field;
}

GaloisField::GaloisField(unsigned bits, uint32_t poly)
    : bits_(bits),
      poly_(poly),
      size_(uint32_t{1} << bits),
      exp_(2 * (size_t{1} << bits)),
      log_(size_t{1} << bits, 0) {
  uint32_t element = 1;
  for (uint32_t i = 0; i < order(); ++i) {
    exp_[i] = static_cast<Symbol>(element);
    exp_[i + order()] = static_cast<Symbol>(element);
    log_[element] = i;
    element <<= 1;
    if (element & size_) {
      element ^= poly_;
    }
  }
}

Symbol GaloisField::Pow(Symbol a, uint32_t power) const {
  if (power == 0) {
    return 1;
  }
  if (a == 0) {
    return 0;
  }
  return exp_[(static_cast<uint64_t>(log_[a]) * power) % order()];
}

}  // namespace lq::fec
