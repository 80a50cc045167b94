// SPDX-License-Identifier: Apache-2.0
// A component's statistic as a GoogleTest reads it: the value of the one
// whose name ends in `leaf` (StatValue), or a test failure and 0 when the
// component has no such statistic.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "systemc/common/stat_list.h"

namespace lq::testing {

inline uint64_t ExpectStat(const StatList& stats, const std::string& leaf) {
  if (const auto value = StatValue(stats, leaf)) {
    return *value;
  }
  ADD_FAILURE() << "no statistic " << leaf;
  return 0;
}

}  // namespace lq::testing
