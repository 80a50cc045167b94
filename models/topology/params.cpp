// SPDX-License-Identifier: Apache-2.0
// Strict parsing of registry parameters: every bad value is an error that
// names the parameter, never a silent default.
#include "models/topology/params.h"

#include <cctype>

namespace lq::topo {
namespace {

const ParamSpec* FindSpec(const ComponentInfo& info, const std::string& name) {
  for (const ParamSpec& spec : info.params) {
    if (spec.name == name) {
      return &spec;
    }
  }
  return nullptr;
}

}  // namespace

Result<bool> CheckKnownParams(const ComponentInfo& info,
                              const ParamMap& params) {
  for (const auto& [key, value] : params) {
    if (FindSpec(info, key) == nullptr) {
      std::string known;
      for (const ParamSpec& spec : info.params) {
        known += (known.empty() ? "" : ", ") + spec.name;
      }
      return Fail("unknown parameter '" + key + "' for " + info.name +
                  " (known: " + (known.empty() ? "none" : known) + ")");
    }
  }
  return true;
}

std::string ParamOrDefault(const ComponentInfo& info, const ParamMap& params,
                           const std::string& name) {
  const auto found = params.find(name);
  if (found != params.end()) {
    return found->second;
  }
  const ParamSpec* spec = FindSpec(info, name);
  return spec == nullptr ? std::string() : spec->default_value;
}

Result<uint32_t> ParseUnsigned(const std::string& name, const std::string& text,
                               uint32_t min, uint32_t max) {
  // Ten digits hold any uint32_t; more would overflow the accumulator below.
  constexpr size_t kMaxDigits = 10;
  if (text.empty() || text.size() > kMaxDigits) {
    return Fail(name + ": expected a number, got '" + text + "'");
  }
  uint64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return Fail(name + ": expected a number, got '" + text + "'");
    }
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value < min || value > max) {
    return Fail(name + ": " + text + " is outside " + std::to_string(min) +
                ".." + std::to_string(max));
  }
  return static_cast<uint32_t>(value);
}

Result<std::vector<uint32_t>> ParseSizeList(const std::string& name,
                                            const std::string& text,
                                            uint32_t min, uint32_t max) {
  std::vector<uint32_t> sizes;
  size_t start = 0;
  while (true) {
    const size_t end = text.find_first_of("x,", start);
    const std::string piece =
        text.substr(start, end == std::string::npos ? end : end - start);
    Result<uint32_t> size = ParseUnsigned(name, piece, min, max);
    if (!size) {
      return size.error();
    }
    sizes.push_back(*size);
    if (end == std::string::npos) {
      return sizes;
    }
    start = end + 1;
  }
}

Result<size_t> ParseChoice(const std::string& name, const std::string& text,
                           const std::vector<std::string>& choices) {
  std::string listed;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == text) {
      return i;
    }
    listed += (i == 0 ? "" : "|") + choices[i];
  }
  return Fail(name + ": expected " + listed + ", got '" + text + "'");
}

}  // namespace lq::topo
