// SPDX-License-Identifier: Apache-2.0
// Bookkeeping of the keys a run reads and why it leaves others unread.
#include "systemc/app/key_usage.h"

namespace lq::app {

void KeyUsage::Use(const std::string& key) {
  used_.insert(key);
  skipped_.erase(key);
}

void KeyUsage::Use(const std::vector<std::string>& keys) {
  for (const auto& key : keys) {
    Use(key);
  }
}

void KeyUsage::Skip(const std::string& key, const std::string& why) {
  if (!Uses(key)) {
    skipped_.emplace(key, why);
  }
}

void KeyUsage::Skip(const std::vector<std::string>& keys,
                    const std::string& why) {
  for (const auto& key : keys) {
    Skip(key, why);
  }
}

void KeyUsage::Refuse(const std::string& key, const std::string& why) {
  used_.erase(key);
  skipped_[key] = why;
}

void KeyUsage::UseIf(bool condition, const std::vector<std::string>& keys,
                     const std::string& why) {
  if (condition) {
    Use(keys);
  } else {
    Skip(keys, why);
  }
}

void KeyUsage::Merge(const KeyUsage& other) {
  for (const auto& key : other.used_) {
    Use(key);
  }
  for (const auto& [key, why] : other.skipped_) {
    Skip(key, why);
  }
}

std::optional<std::string> KeyUsage::WhySkipped(const std::string& key) const {
  const auto found = skipped_.find(key);
  if (found == skipped_.end()) {
    return std::nullopt;
  }
  return found->second;
}

}  // namespace lq::app
