// SPDX-License-Identifier: Apache-2.0
// Scenario parameters for app tests: the defaults with some keys set; a
// value the declarations refuse fails the calling test.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "systemc/app/run_command.h"

namespace lq::app {

inline ParamSet ScenarioParams(
    const std::vector<std::pair<std::string, std::string>>& set) {
  ParamSet params(ScenarioParamSpecs());
  for (const auto& [key, value] : set) {
    EXPECT_FALSE(params.Set(key, value)) << key << "=" << value;
  }
  return params;
}

}  // namespace lq::app
