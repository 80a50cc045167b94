// SPDX-License-Identifier: Apache-2.0
// The headline of the supernode run (decision 0020): each seed claim
// beside the figure its phases measured and whether the claim holds, read
// from the stats the phases wrote.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "systemc/app/phase_runner.h"
#include "systemc/common/param.h"

namespace lq::app {

// Reading a phase's stats JSON by key path.
namespace stats {

using Json = nlohmann::ordered_json;

inline const Json* Find(const Json& json,
                        std::initializer_list<const char*> path) {
  const Json* node = &json;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) {
      return nullptr;
    }
    node = &(*node)[key];
  }
  return node;
}

inline double Number(const Json& json,
                     std::initializer_list<const char*> path) {
  const Json* node = Find(json, path);
  return node != nullptr && node->is_number() ? node->get<double>() : NAN;
}

// A count at `path`: 0 where the stats have none.
inline double Count(const Json& json, std::initializer_list<const char*> path) {
  const double value = Number(json, path);
  return std::isnan(value) ? 0 : value;
}

}  // namespace stats

// printf into a string, of up to 255 characters: a report's phrases.
std::string Format(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
// "a, b, c": a report's list.
std::string Joined(const std::vector<std::string>& parts);

// The finished phases by name; a failed phase has no stats, a skipped one
// a reason.
class Phases {
 public:
  Phases(const std::vector<PhaseResult>& results,
         std::map<std::string, std::string> skipped = {})
      : skipped_(std::move(skipped)) {
    for (const auto& result : results) {
      if (result.Ok() && result.stats) {
        stats_.emplace_back(result.name, &*result.stats);
      } else {
        failed_.push_back(result.name);
      }
    }
  }
  // Why a phase of `names` was skipped, or nothing.
  std::optional<std::string> Skipped(
      const std::vector<std::string>& names) const {
    for (const auto& name : names) {
      if (const auto it = skipped_.find(name); it != skipped_.end()) {
        return it->second;
      }
    }
    return std::nullopt;
  }
  bool AnyFailed(const std::vector<std::string>& names) const {
    return std::any_of(names.begin(), names.end(), [this](const auto& name) {
      return std::find(failed_.begin(), failed_.end(), name) != failed_.end();
    });
  }
  const stats::Json* Stats(const std::string& name) const {
    for (const auto& [phase, stats] : stats_) {
      if (phase == name) {
        return stats;
      }
    }
    return nullptr;
  }

 private:
  std::map<std::string, std::string> skipped_;
  std::vector<std::pair<std::string, const stats::Json*>> stats_;
  std::vector<std::string> failed_;
};

struct HeadlineRow {
  std::string claim;
  std::string measured;  // The figure, or why there is none.
  std::string phase;     // The phase group that measured it.
  std::optional<bool> holds;
};

// The rows, one per seed claim, in the table's order.
std::vector<HeadlineRow> Headline(const Phases& phases, const ParamSet& params);
// "holds", "does not hold", or "-" for a row without a figure.
const char* Verdict(const HeadlineRow& row);
// The stats file's headline[].
nlohmann::ordered_json HeadlineJson(const std::vector<HeadlineRow>& rows);

}  // namespace lq::app
