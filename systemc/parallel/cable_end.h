// SPDX-License-Identifier: Apache-2.0
// The receiver (WindowSync::Listen) of what crosses a cut cable to one of
// its ends (decision 0050): one per port, whichever fidelity its cable has.
#pragma once

#include <cstdint>

#include "models/topology/topology.h"

namespace lq::parallel {

inline uint64_t CableEndReceiver(topo::PortRef end) {
  return (uint64_t{1} << 48) | (uint64_t{end.node} << 8) | end.port;
}

}  // namespace lq::parallel
