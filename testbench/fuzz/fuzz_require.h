// SPDX-License-Identifier: Apache-2.0
// What a fuzz target checks beyond "no crash": a property that must hold for
// every input. A violation traps, which libFuzzer reports with the input.
#pragma once

namespace lq::fuzz {

inline void Require(bool condition) {
  if (!condition) {
    __builtin_trap();
  }
}

}  // namespace lq::fuzz
