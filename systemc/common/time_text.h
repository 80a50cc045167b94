// SPDX-License-Identifier: Apache-2.0
// A simulated time as reports and messages print it: "23.456 us".
#pragma once

#include <cstdio>
#include <string>
#include <systemc>

namespace lq {

inline std::string Micros(const sc_core::sc_time& time) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f us", time.to_seconds() * 1e6);
  return text;
}

}  // namespace lq
