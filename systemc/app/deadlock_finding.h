// SPDX-License-Identifier: Apache-2.0
// What the deadlock watchdog found (NET-4.7): nothing, or when it declared
// a deadlock and the cycle of input VCs waiting on one another.
#pragma once

#include <string>

namespace lq::app {

struct DeadlockFinding {
  bool detected = false;
  double at_ns = 0;
  std::string cycle;
};

}  // namespace lq::app
