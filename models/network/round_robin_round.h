// SPDX-License-Identifier: Apache-2.0
// One round of a bank of round-robin arbiters: candidates are offered to
// arbiters with their distance after the arbiter's pointer, and each
// arbiter's winner is the nearest. Touched arbiters are remembered, so a
// round costs what was offered, not the size of the bank.
#pragma once

#include <vector>

namespace lq::net {

class RoundRobinRound {
 public:
  static constexpr unsigned kNone = ~0u;

  explicit RoundRobinRound(size_t arbiters)
      : winner_(arbiters, kNone), distance_(arbiters, 0) {}

  // The distance of `candidate` after `pointer` among `count` positions
  // (both below `count`).
  static unsigned Distance(unsigned candidate, unsigned pointer,
                           unsigned count) {
    return candidate - pointer + (candidate < pointer ? count : 0u);
  }
  // The position after `position` among `count`.
  static unsigned Next(unsigned position, unsigned count) {
    const unsigned next = position + 1;
    return next & (0u - static_cast<unsigned>(next != count));
  }

  void Offer(unsigned arbiter, unsigned candidate, unsigned distance) {
    if (winner_[arbiter] == kNone) {
      touched_.push_back(arbiter);
    } else if (distance >= distance_[arbiter]) {
      return;
    }
    winner_[arbiter] = candidate;
    distance_[arbiter] = distance;
  }
  // Arbiters that received an offer this round, in first-offer order.
  const std::vector<unsigned>& touched() const { return touched_; }
  unsigned winner(unsigned arbiter) const { return winner_[arbiter]; }
  bool empty() const { return touched_.empty(); }
  // Calls take(arbiter, winner) for each arbiter offered to this round,
  // in first-offer order, and starts the next round in the same walk.
  template <typename Take>
  void TakeWinners(Take take) {
    for (const unsigned arbiter : touched_) {
      const unsigned winner = winner_[arbiter];
      winner_[arbiter] = kNone;
      take(arbiter, winner);
    }
    touched_.clear();
  }
  // Starts the next round.
  void Clear() {
    TakeWinners([](unsigned, unsigned) {});
  }

 private:
  std::vector<unsigned> winner_;
  std::vector<unsigned> distance_;
  std::vector<unsigned> touched_;
};

}  // namespace lq::net
