// SPDX-License-Identifier: Apache-2.0
// Statistics as a component reports them: hierarchical name and value
// (`node12.port3.phy.bit_errors`), in the component's declaration order.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace lq {

struct Stat {
  std::string name;
  uint64_t value = 0;
};

using StatList = std::vector<Stat>;

// Appends `more` to `stats`, in its order.
inline void Append(StatList& stats, StatList more) {
  stats.insert(stats.end(), std::make_move_iterator(more.begin()),
               std::make_move_iterator(more.end()));
}

// The value of the statistic whose name is `leaf` or ends in "." + `leaf`
// (a component's statistics carry its hierarchical name), if there is one.
inline std::optional<uint64_t> StatValue(const StatList& stats,
                                         const std::string& leaf) {
  for (const Stat& stat : stats) {
    const size_t size = stat.name.size();
    if (stat.name == leaf ||
        (size > leaf.size() && stat.name[size - leaf.size() - 1] == '.' &&
         stat.name.compare(size - leaf.size(), leaf.size(), leaf) == 0)) {
      return stat.value;
    }
  }
  return std::nullopt;
}

}  // namespace lq
