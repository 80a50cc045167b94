// SPDX-License-Identifier: Apache-2.0
// YAML and --set handling for scenarios.
#include "systemc/app/scenario.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

namespace lq::app {
namespace {

// Keys that lqemu no longer takes, and why each went.
std::optional<std::string> Retired(const std::string& key) {
  static const std::map<std::string, std::string> retired = {
      {"collective.name",
       "use workload.name (alltoall, ring_allreduce or "
       "hierarchical_allreduce, with run.study stack or network) (decision "
       "0033)"},
      {"transport.workload",
       "use workload.name (incast, with run.study stack) (decision 0033)"},
      {"logical.workload",
       "use workload.name (remote_access, with run.study stack) (decision "
       "0033)"},
      {"link.replay_timeout_flits",
       "the interim fabric that took it is gone; the link controllers' "
       "replay timer is their REPLAY_TIMEOUT register (decision 0034)"},
  };
  const auto found = retired.find(key);
  if (found == retired.end()) {
    return std::nullopt;
  }
  return "'" + key + "' is gone: " + found->second;
}

// Sets `key`; the error says what replaced a retired key.
std::optional<std::string> SetKey(ParamSet& params, const std::string& key,
                                  const std::string& value) {
  if (auto retired = Retired(key)) {
    return retired;
  }
  return params.Set(key, value);
}

// The one key a scenario may give as a list: its entries are joined by
// "; " into the key's text.
constexpr std::string_view kListKey = "events";

std::string Where(const std::string& source, const YAML::Mark& mark) {
  return source + ":" + std::to_string(mark.line + 1);
}

std::optional<std::string> ApplyNode(const YAML::Node& node,
                                     const std::string& prefix,
                                     const std::string& source,
                                     ParamSet& params) {
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key =
          (prefix.empty() ? "" : prefix + ".") + entry.first.as<std::string>();
      if (auto error = ApplyNode(entry.second, key, source, params)) {
        return error;
      }
    }
    return std::nullopt;
  }
  if (node.IsScalar()) {
    if (auto error = SetKey(params, prefix, node.Scalar())) {
      return Where(source, node.Mark()) + ": " + *error;
    }
    return std::nullopt;
  }
  if (node.IsSequence() && prefix == kListKey) {
    std::string entries;
    for (const auto& entry : node) {
      if (!entry.IsScalar()) {
        return Where(source, entry.Mark()) + ": each of '" + prefix +
               "' is one line of text";
      }
      entries += (entries.empty() ? "" : "; ") + entry.Scalar();
    }
    if (auto error = SetKey(params, prefix, entries)) {
      return Where(source, node.Mark()) + ": " + *error;
    }
    return std::nullopt;
  }
  if (node.IsNull() && prefix.empty()) {
    return std::nullopt;  // An empty document keeps every default.
  }
  return Where(source, node.Mark()) + ": '" + prefix +
         "' needs a single value (a number or a word), not a list or nothing";
}

}  // namespace

std::optional<std::string> ApplyYaml(const std::string& text,
                                     const std::string& source,
                                     ParamSet& params) {
  YAML::Node document;
  try {
    document = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    return Where(source, error.mark) + ": not valid YAML: " + error.msg;
  }
  if (!document.IsMap() && !document.IsNull()) {
    return source + ":1: a scenario is a map of keys (see `lqemu list`)";
  }
  return ApplyNode(document, "", source, params);
}

std::optional<std::string> ApplyOverrides(
    const std::vector<std::string>& overrides, ParamSet& params) {
  for (const auto& override_text : overrides) {
    const auto equals = override_text.find('=');
    if (equals == std::string::npos || equals == 0) {
      return "--set " + override_text + ": write --set KEY=VALUE";
    }
    if (auto error = SetKey(params, override_text.substr(0, equals),
                            override_text.substr(equals + 1))) {
      return "--set " + override_text + ": " + *error;
    }
  }
  return std::nullopt;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return Fail(path + ": cannot open the scenario file");
  }
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace lq::app
