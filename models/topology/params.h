// SPDX-License-Identifier: Apache-2.0
// Named parameters of registry components: their declarations (for
// `lqemu list`) and strict parsing of the string values a scenario gives.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/common/result.h"

namespace lq::topo {

// Parameter values as a scenario gives them: key -> text.
using ParamMap = std::map<std::string, std::string>;

// One declared parameter: what `lqemu list` prints.
struct ParamSpec {
  std::string name;
  std::string meaning;
  std::string default_value;
};

// A component a registry can build by name.
struct ComponentInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
};

// Rejects keys that `info` does not declare, naming the known ones.
Result<bool> CheckKnownParams(const ComponentInfo& info,
                              const ParamMap& params);

// The value of `name` from `params`, else its declared default.
std::string ParamOrDefault(const ComponentInfo& info, const ParamMap& params,
                           const std::string& name);

// Parses a decimal unsigned integer in [min, max]; `name` goes in errors.
Result<uint32_t> ParseUnsigned(const std::string& name, const std::string& text,
                               uint32_t min, uint32_t max);

// Parses "4x8x8" (or "4,8,8") into sizes, each in [min, max].
Result<std::vector<uint32_t>> ParseSizeList(const std::string& name,
                                            const std::string& text,
                                            uint32_t min, uint32_t max);

// Parses one of `choices`, returning its index.
Result<size_t> ParseChoice(const std::string& name, const std::string& text,
                           const std::vector<std::string>& choices);

}  // namespace lq::topo
