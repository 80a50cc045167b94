// Statistics as a component reports them: hierarchical name and value
// (`node12.port3.phy.bit_errors`), in the component's declaration order.
#pragma once

#include <cstdint>
#include <iterator>
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

}  // namespace lq
