// SPDX-License-Identifier: Apache-2.0
// 24-bit packet sequence number arithmetic with the modulo-2^23 window
// comparisons of RC transport (docs/spec/trn.md, TRN-6).
#pragma once

#include <cstdint>

namespace lq::roce {

inline constexpr unsigned kPsnBits = 24;
inline constexpr uint32_t kPsnMask = (uint32_t{1} << kPsnBits) - 1;
// Half the PSN space: a PSN at most this far ahead counts as "after".
inline constexpr uint32_t kPsnHalfWindow = uint32_t{1} << (kPsnBits - 1);

// psn + count, wrapped to 24 bits.
constexpr uint32_t PsnAdd(uint32_t psn, uint32_t count) {
  return (psn + count) & kPsnMask;
}

// Signed distance from `from` to `to` in the range [-2^23, 2^23 - 1]:
// positive when `to` lies after `from` in the modulo-2^23 window.
constexpr int32_t PsnDistance(uint32_t from, uint32_t to) {
  const uint32_t forward = (to - from) & kPsnMask;
  return forward < kPsnHalfWindow ? static_cast<int32_t>(forward)
                                  : static_cast<int32_t>(forward) -
                                        static_cast<int32_t>(kPsnMask) - 1;
}

// True when `psn` lies before `reference`: (psn - reference) mod 2^24 is
// 2^23 or more (TRN-6.3).
constexpr bool PsnBefore(uint32_t psn, uint32_t reference) {
  return PsnDistance(reference, psn) < 0;
}

// True when `psn` lies after `reference`: (psn - reference) mod 2^24 is
// between 1 and 2^23 - 1.
constexpr bool PsnAfter(uint32_t psn, uint32_t reference) {
  return PsnDistance(reference, psn) > 0;
}

}  // namespace lq::roce
