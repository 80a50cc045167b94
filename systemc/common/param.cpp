// SPDX-License-Identifier: Apache-2.0
// Validation and typed access for declared parameters.
#include "systemc/common/param.h"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace lq {
namespace {

std::optional<double> ParseNumber(const std::string& text, bool integer) {
  if (text.empty()) {
    return std::nullopt;
  }
  errno = 0;
  char* end = nullptr;
  const double value =
      integer ? static_cast<double>(std::strtoll(text.c_str(), &end, 0))
              : std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// Levenshtein distance: the fewest single-character insertions, deletions
// and substitutions that turn `a` into `b`.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Whether `value` is one of the words a numeric `spec` takes for a number.
bool IsWordOf(const ParamSpec& spec, const std::string& value) {
  return std::find(spec.choices.begin(), spec.choices.end(), value) !=
         spec.choices.end();
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) {
    out += (out.empty() ? "" : ", ") + word;
  }
  return out;
}

}  // namespace

ParamSet::ParamSet(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
  for (const auto& spec : specs_) {
    values_[spec.key] = spec.default_value;
  }
}

const ParamSpec* ParamSet::Find(const std::string& key) const {
  for (const auto& spec : specs_) {
    if (spec.key == key) {
      return &spec;
    }
  }
  return nullptr;
}

std::optional<std::string> ParamSet::Set(const std::string& key,
                                         const std::string& value) {
  const ParamSpec* spec = Find(key);
  if (spec == nullptr) {
    // The nearest key, if a typo away: a third of the key's length at most.
    const ParamSpec* nearest = nullptr;
    size_t best = std::max<size_t>(1, key.size() / 3) + 1;
    for (const auto& known : specs_) {
      const size_t distance = EditDistance(key, known.key);
      if (distance < best) {
        best = distance;
        nearest = &known;
      }
    }
    return "unknown key '" + key + "' (" +
           (nearest != nullptr ? "did you mean '" + nearest->key + "'? " : "") +
           "`lqemu list` names every key)";
  }
  switch (spec->type) {
    case ParamType::kInteger:
    case ParamType::kReal: {
      const bool integer = spec->type == ParamType::kInteger;
      if (IsWordOf(*spec, value)) {
        break;
      }
      const auto number = ParseNumber(value, integer);
      if (!number) {
        std::string words;
        for (const auto& word : spec->choices) {
          words += " or '" + word + "'";
        }
        return "'" + key + "' wants " + (integer ? "an integer" : "a number") +
               words + ", not '" + value + "'";
      }
      if (*number < spec->min || *number > spec->max) {
        char range[96];
        std::snprintf(range, sizeof(range), "%g..%g", spec->min, spec->max);
        return "'" + key + "' = " + value + " is outside " + range +
               (spec->unit.empty() ? "" : " " + spec->unit);
      }
      break;
    }
    case ParamType::kChoice:
      if (std::find(spec->choices.begin(), spec->choices.end(), value) ==
          spec->choices.end()) {
        return "'" + key + "' must be one of: " + Join(spec->choices) +
               " (not '" + value + "')";
      }
      break;
    case ParamType::kText:
      break;
  }
  values_[key] = value;
  given_.insert(key);
  return std::nullopt;
}

bool ParamSet::HoldsNumber(const std::string& key) const {
  const ParamSpec* spec = Find(key);
  return spec != nullptr &&
         (spec->type == ParamType::kInteger ||
          spec->type == ParamType::kReal) &&
         !IsWordOf(*spec, values_.at(key));
}

int64_t ParamSet::Integer(const std::string& key) const {
  assert(HoldsNumber(key) && Find(key)->type == ParamType::kInteger);
  return std::strtoll(values_.at(key).c_str(), nullptr, 0);
}

double ParamSet::Real(const std::string& key) const {
  assert(HoldsNumber(key) && Find(key)->type == ParamType::kReal);
  return std::strtod(values_.at(key).c_str(), nullptr);
}

const std::string& ParamSet::Text(const std::string& key) const {
  assert(Find(key));
  return values_.at(key);
}

std::vector<std::pair<std::string, std::string>> ParamSet::Values() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& spec : specs_) {
    out.emplace_back(spec.key, values_.at(spec.key));
  }
  return out;
}

std::vector<std::string> ParamSet::KeysUnder(const std::string& prefix) const {
  std::vector<std::string> keys;
  for (const auto& spec : specs_) {
    if (spec.key.rfind(prefix, 0) == 0) {
      keys.push_back(spec.key);
    }
  }
  return keys;
}

}  // namespace lq
