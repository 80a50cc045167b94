// SPDX-License-Identifier: Apache-2.0
// Declared component parameters (name, meaning, default, unit, valid range)
// and a validated set of values for them: the one source for scenario keys,
// `--set` overrides and `lqemu list`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lq {

enum class ParamType { kInteger, kReal, kText, kChoice };

struct ParamSpec {
  std::string key;      // Dotted scenario key, e.g. "link.ber".
  std::string meaning;  // One line for `lqemu list` and the docs.
  std::string default_value;
  std::string unit;  // "" for none.
  ParamType type = ParamType::kText;
  double min = 0;  // Inclusive range for kInteger and kReal.
  double max = 0;
  // Allowed values for kChoice; for kInteger and kReal, words accepted in
  // place of a number (e.g. "auto"), which readers test with Text first.
  std::vector<std::string> choices;
};

// Declarations of the usual kinds.
inline ParamSpec IntegerParam(const std::string& key,
                              const std::string& meaning,
                              const std::string& default_value,
                              const std::string& unit, double min, double max) {
  return {key, meaning, default_value, unit, ParamType::kInteger, min, max, {}};
}
inline ParamSpec RealParam(const std::string& key, const std::string& meaning,
                           const std::string& default_value,
                           const std::string& unit, double min, double max) {
  return {key, meaning, default_value, unit, ParamType::kReal, min, max, {}};
}
inline ParamSpec ChoiceParam(const std::string& key, const std::string& meaning,
                             const std::string& default_value,
                             std::vector<std::string> choices) {
  return {key, meaning, default_value,     "", ParamType::kChoice,
          0,   0,       std::move(choices)};
}

// Values for a fixed list of declared parameters, starting from their
// defaults. Every value stored has passed its declaration's checks.
class ParamSet {
 public:
  explicit ParamSet(std::vector<ParamSpec> specs);

  const std::vector<ParamSpec>& specs() const { return specs_; }

  // Sets `key` to `value`; on failure returns why (unknown key, wrong type,
  // out of range) and leaves the set unchanged.
  std::optional<std::string> Set(const std::string& key,
                                 const std::string& value);

  // Typed reads of a declared key. Precondition: the key is declared with a
  // matching type and, for a number, holds one rather than one of its words
  // (a programming error otherwise, caught by an assert).
  int64_t Integer(const std::string& key) const;
  double Real(const std::string& key) const;
  const std::string& Text(const std::string& key) const;
  // Whether `key` is a number key holding a number, not one of its words
  // (router.clock_ghz `auto`): what Integer() or Real() may read.
  bool HoldsNumber(const std::string& key) const;

  // All keys with their current values, in declaration order.
  std::vector<std::pair<std::string, std::string>> Values() const;

  // The declared keys that begin with `prefix` ("traffic."), in order.
  std::vector<std::string> KeysUnder(const std::string& prefix) const;

  // The keys Set since construction or the last ForgetGiven: what a
  // scenario file or --set gave, as opposed to defaults. A run refuses a
  // given key it would not use (DESIGN section 2).
  const std::set<std::string>& given() const { return given_; }
  // Treats every value set so far as a default (e.g. the embedded default
  // scenario's).
  void ForgetGiven() { given_.clear(); }

 private:
  const ParamSpec* Find(const std::string& key) const;

  std::vector<ParamSpec> specs_;
  std::map<std::string, std::string> values_;
  std::set<std::string> given_;
};

}  // namespace lq
