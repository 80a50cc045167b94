// SPDX-License-Identifier: Apache-2.0
// Scenario loading: YAML text (a file or the embedded default) flattened to
// dotted keys, checked against the declared parameters, then overridden by
// --set and --seed. Every failure names the file, the line and the fix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"
#include "systemc/common/param.h"

namespace lq::app {

// The embedded default scenario (systemc/app/default_scenario.yaml).
extern const char* const kDefaultScenarioYaml;

// Applies the YAML document `text` (named `source` in messages) to `params`.
// Keys nest as maps ("link: {ber: 1e-6}" sets "link.ber"); lists are not
// scenario values.
std::optional<std::string> ApplyYaml(const std::string& text,
                                     const std::string& source,
                                     ParamSet& params);

// Applies "key=value" overrides from the command line.
std::optional<std::string> ApplyOverrides(
    const std::vector<std::string>& overrides, ParamSet& params);

// Reads a whole file; fails with a message naming it.
Result<std::string> ReadFile(const std::string& path);

}  // namespace lq::app
