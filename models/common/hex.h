// SPDX-License-Identifier: Apache-2.0
// Hexadecimal numbers for messages: "0x" and lower-case digits, zero-padded
// to a minimum width where the field has one.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace lq {

inline std::string HexText(uint64_t value, int min_digits = 1) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", min_digits,
                static_cast<unsigned long long>(value));
  return text;
}

}  // namespace lq
