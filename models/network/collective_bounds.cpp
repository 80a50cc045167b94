// SPDX-License-Identifier: Apache-2.0
// Injection and bisection bounds of collectives on a torus.
#include "models/network/collective_bounds.h"

#include <algorithm>

namespace lq::net {

CollectiveBounds AllToAllBounds(uint32_t nodes,
                                const std::vector<uint32_t>& torus_sizes,
                                uint64_t block, double port_bytes_per_ns,
                                double link_bytes_per_ns) {
  CollectiveBounds bounds;
  const auto n = static_cast<double>(nodes);
  const auto bytes = static_cast<double>(block);
  bounds.injection_ns = (n - 1) * bytes / port_bytes_per_ns;
  const uint32_t largest =
      torus_sizes.empty()
          ? 0
          : *std::max_element(torus_sizes.begin(), torus_sizes.end());
  if (largest >= 2 && largest % 2 == 0) {
    const double crossing_links = (largest == 2 ? 1.0 : 2.0) * n / largest;
    const double crossing_bytes = (n / 2) * (n / 2) * bytes;
    bounds.bisection_ns = crossing_bytes / (crossing_links * link_bytes_per_ns);
  }
  return bounds;
}

CollectiveBounds AllReduceBounds(uint32_t nodes, uint64_t buffer,
                                 double port_bytes_per_ns) {
  CollectiveBounds bounds;
  if (nodes > 1) {
    bounds.injection_ns = 2.0 * (nodes - 1) / nodes *
                          static_cast<double>(buffer) / port_bytes_per_ns;
  }
  return bounds;
}

}  // namespace lq::net
