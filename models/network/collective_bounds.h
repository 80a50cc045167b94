// SPDX-License-Identifier: Apache-2.0
// Lower bounds on a collective's completion time on a torus, from what its
// cards can inject and what its bisection can carry: the figures a measured
// collective is compared with, so that a verdict says how much of the
// fabric an algorithm used rather than only how fast it was.
#pragma once

#include <cstdint>
#include <vector>

namespace lq::net {

struct CollectiveBounds {
  // Each card's bytes through its one local port (the injection bound).
  double injection_ns = 0;
  // The bytes that must cross the torus's bisection, over the links that
  // cross it one way; 0 where none is computed (an odd largest dimension).
  double bisection_ns = 0;
  double bound_ns() const {
    return injection_ns > bisection_ns ? injection_ns : bisection_ns;
  }
};

// All-to-all of `block` bytes per ordered pair of `nodes` nodes, each card
// injecting at `port_bytes_per_ns` and each link carrying
// `link_bytes_per_ns` each way. On a torus (`torus_sizes` not empty) the
// bisection halves the largest even dimension k: 2N/k links cross it each
// way (N/k for k = 2, whose ring dimension-order routing uses one link of),
// and (N/2)^2 blocks must.
CollectiveBounds AllToAllBounds(uint32_t nodes,
                                const std::vector<uint32_t>& torus_sizes,
                                uint64_t block, double port_bytes_per_ns,
                                double link_bytes_per_ns);

// An AllReduce of `buffer` bytes on `nodes` nodes: every card sends at
// least 2(N-1)/N of its buffer (reduce-scatter and all-gather).
CollectiveBounds AllReduceBounds(uint32_t nodes, uint64_t buffer,
                                 double port_bytes_per_ns);

}  // namespace lq::net
