// SPDX-License-Identifier: Apache-2.0
// Decoding of the RC transport's 5-bit timer codes: the local ACK timeout
// and the RNR NAK timer (docs/spec/trn.md, TRN-7).
#pragma once

#include <cstdint>

#include "models/common/result.h"

namespace lq::roce {

inline constexpr uint8_t kTimerCodeMax = 31;
// What LocalAckTimeoutNs returns for code 0: the timer never expires.
inline constexpr uint64_t kNoTimeout = UINT64_MAX;

// 4.096 us x 2^code for code 1..31, kNoTimeout for 0 (TRN-7.4) [S19].
Result<uint64_t> LocalAckTimeoutNs(uint8_t code);

// The minimum RNR NAK delay of an AETH RNR timer code (TRN-7.6 table).
Result<uint64_t> RnrTimerNs(uint8_t code);

}  // namespace lq::roce
