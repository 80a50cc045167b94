// SPDX-License-Identifier: Apache-2.0
// InputUnit: widening the ring of packets behind the heads, which happens
// only in a SystemC router whose VC holds more small packets than its
// buffer has slots.
#include "models/network/input_unit.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace lq::net {

void InputUnit::Widen() {
  constexpr uint32_t kMostPackets = std::numeric_limits<uint16_t>::max();
  if (slice_ >= kMostPackets - 1u) {
    throw std::length_error("an input VC holds more than 65,535 packets");
  }
  const uint32_t wider = std::min(slice_ * 2, kMostPackets - 1u);
  std::pmr::vector<PacketState> ring(size_t{size()} * wider,
                                     ring_.get_allocator());
  for (unsigned i = 0; i < size(); ++i) {
    Vc& in = vcs_[i];
    for (uint32_t k = 0; k + 1u < in.size; ++k) {
      ring[size_t{i} * wider + k] = ring_[Slot(i, in.behind + k)];
    }
    in.behind = 0;
  }
  ring_.swap(ring);
  slice_ = wider;
}

}  // namespace lq::net
