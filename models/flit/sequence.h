// SPDX-License-Identifier: Apache-2.0
// Modulo-1024 arithmetic on flit sequence numbers (docs/spec/dll.md §2).
#pragma once

#include <cstdint>

#include "models/flit/dlp.h"

namespace lq::flit {

// Fewer than half the sequence space may be unacknowledged, so that "ahead"
// and "behind" are never ambiguous (DLL-2.3).
inline constexpr uint16_t kSeqHalfWindow = kSeqModulus / 2;

// seq + delta, wrapped into the sequence space (delta may be negative).
inline uint16_t SeqAdd(uint16_t seq, int delta) {
  const int wrapped = (static_cast<int>(seq) + delta) % kSeqModulus;
  return static_cast<uint16_t>(wrapped < 0 ? wrapped + kSeqModulus : wrapped);
}

// How far `to` lies after `from`, in [0, 1024).
inline uint16_t SeqDistance(uint16_t from, uint16_t to) {
  return static_cast<uint16_t>((to - from) & (kSeqModulus - 1));
}

// True when `seq` is 1..511 steps after `reference`: a newer flit.
inline bool SeqIsAfter(uint16_t seq, uint16_t reference) {
  const uint16_t distance = SeqDistance(reference, seq);
  return distance != 0 && distance < kSeqHalfWindow;
}

}  // namespace lq::flit
