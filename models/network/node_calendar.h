// SPDX-License-Identifier: Apache-2.0
// NodeCalendar: which nodes act at which cycle, taken cycle by cycle, each
// cycle's nodes in ascending order. The cycles just ahead are a wheel of
// bit sets, one bit per node, so that adding a node and taking a cycle's
// nodes cost a few word operations and no comparison of one entry with
// another; the rare cycles farther ahead wait in a heap until the wheel
// reaches them. The cycle kernel's sources make their packets by it: a
// Bernoulli source's next packet is a geometric number of cycles away,
// almost always within the wheel.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace lq::net {

class NodeCalendar {
 public:
  // Nodes 0..nodes-1; the wheel holds kWheelCycles cycles from the next to
  // be taken, the first being cycle 0.
  explicit NodeCalendar(uint32_t nodes)
      : words_((nodes + 63) / 64),
        bits_(size_t{kWheelCycles} * words_, 0),
        counts_(kWheelCycles, 0) {}

  // Node `node` acts at cycle `at`, no earlier than the next cycle to be
  // taken; a node may be added for any number of cycles, but once per
  // cycle.
  void Add(uint64_t at, uint32_t node) {
    if (at - next_ >= kWheelCycles) {
      later_.push({at, node});
      return;
    }
    const size_t slot = at & (kWheelCycles - 1);
    bits_[slot * words_ + node / 64] |= uint64_t{1} << (node % 64);
    ++counts_[slot];
  }

  // Appends the nodes that act at cycle `now` to `due`, in ascending
  // order, and forgets them. Cycles are taken one after another, from 0.
  void Take(uint64_t now, std::vector<uint32_t>& due) {
    next_ = now;
    while (!later_.empty() && later_.top().first - now < kWheelCycles) {
      const auto [at, node] = later_.top();
      later_.pop();
      Add(at, node);
    }
    next_ = now + 1;
    const size_t slot = now & (kWheelCycles - 1);
    if (counts_[slot] == 0) {
      return;
    }
    counts_[slot] = 0;
    uint64_t* words = &bits_[slot * words_];
    for (size_t w = 0; w < words_; ++w) {
      for (uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
        due.push_back(static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits)));
      }
      words[w] = 0;
    }
  }

 private:
  // A power of two, so that a mask finds a cycle's slot.
  static constexpr uint64_t kWheelCycles = 256;

  size_t words_;                  // per slot
  std::vector<uint64_t> bits_;    // slot * words_ + node / 64
  std::vector<uint32_t> counts_;  // nodes per slot, to skip empty ones
  uint64_t next_ = 0;             // the next cycle to be taken
  // (cycle, node) beyond the wheel, the earliest first.
  std::priority_queue<std::pair<uint64_t, uint32_t>,
                      std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      later_;
};

}  // namespace lq::net
