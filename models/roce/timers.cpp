// SPDX-License-Identifier: Apache-2.0
// The IBA timer-code tables used by the RC requester.
#include "models/roce/timers.h"

#include <array>

namespace lq::roce {
namespace {

constexpr uint64_t kAckTimeoutUnitNs = 4096;
constexpr uint64_t kNsPerUs = 1000;

// RNR timer codes in microseconds, index = code (Linux enum ib_rnr_timeout).
constexpr std::array<uint64_t, kTimerCodeMax + 1> kRnrTimerUs{
    655360, 10,    20,    30,     40,     60,     80,     120,
    160,    240,   320,   480,    640,    960,    1280,   1920,
    2560,   3840,  5120,  7680,   10240,  15360,  20480,  30720,
    40960,  61440, 81920, 122880, 163840, 245760, 327680, 491520};

}  // namespace

Result<uint64_t> LocalAckTimeoutNs(uint8_t code) {
  if (code > kTimerCodeMax) {
    return Fail("local ACK timeout code is 5 bits");
  }
  if (code == 0) {
    return kNoTimeout;
  }
  return kAckTimeoutUnitNs << code;
}

Result<uint64_t> RnrTimerNs(uint8_t code) {
  if (code > kTimerCodeMax) {
    return Fail("RNR timer code is 5 bits");
  }
  return kRnrTimerUs[code] * kNsPerUs;
}

}  // namespace lq::roce
