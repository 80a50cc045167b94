// SPDX-License-Identifier: Apache-2.0
// The earliest of several optional times: what an event-driven model keeps
// while it asks each of its parts when it next needs to run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

namespace lq {

// Makes `earliest` the earlier of itself and `at`; an empty one is later
// than any time.
inline void KeepEarliest(std::optional<uint64_t>& earliest,
                         std::optional<uint64_t> at) {
  if (at) {
    earliest = std::min(earliest.value_or(*at), *at);
  }
}

}  // namespace lq
