// SPDX-License-Identifier: Apache-2.0
// KeyUsage: which scenario keys a run reads, and, for keys it reads only in
// other settings, why it does not read them in these. A run refuses a key
// that a scenario file or --set gave and it would not read (DESIGN.md
// section 2: no key is ever silently ignored).
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lq::app {

class KeyUsage {
 public:
  // The run reads `key` (or each of `keys`).
  void Use(const std::string& key);
  void Use(const std::vector<std::string>& keys);
  void Use(std::initializer_list<std::string> keys) {
    Use(std::vector<std::string>(keys));
  }
  // The run does not read `key` (or `keys`) because `why`, e.g. "fault.kind
  // is none". A key the run uses stays used.
  void Skip(const std::string& key, const std::string& why);
  void Skip(const std::vector<std::string>& keys, const std::string& why);
  void Skip(std::initializer_list<std::string> keys, const std::string& why) {
    Skip(std::vector<std::string>(keys), why);
  }
  // `key` is not to be given, because `why`, even if a part of the run
  // reads it (a phased run's phases each set their own workload).
  void Refuse(const std::string& key, const std::string& why);
  // Use(keys) if `condition`, else Skip(keys, why).
  void UseIf(bool condition, const std::vector<std::string>& keys,
             const std::string& why);
  // Adds what `other` uses; a key keeps a reason only while neither uses it.
  void Merge(const KeyUsage& other);

  bool Uses(const std::string& key) const { return used_.count(key) != 0; }
  // Why the run does not read `key`, if it said.
  std::optional<std::string> WhySkipped(const std::string& key) const;

 private:
  std::set<std::string> used_;
  std::map<std::string, std::string> skipped_;
};

}  // namespace lq::app
