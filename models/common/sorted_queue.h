// SPDX-License-Identifier: Apache-2.0
// SortedQueue<Key>: keys taken out smallest first, for a model whose keys
// mostly come in order (events due a few cycles on). A key is placed by a
// walk back from the largest and taken from the front by moving an index,
// a few steps each where a heap moves keys a logarithm's worth of times.
// Keys are ordered by operator<; equal keys leave in the order they came.
#pragma once

#include <cstddef>
#include <vector>

namespace lq {

template <typename Key>
class SortedQueue {
 public:
  bool empty() const { return first_ == keys_.size(); }
  size_t size() const { return keys_.size() - first_; }
  // Precondition: !empty().
  const Key& front() const { return keys_[first_]; }

  void push(const Key& key) {
    size_t at = keys_.size();
    while (at > first_ && key < keys_[at - 1]) {
      --at;
    }
    keys_.insert(keys_.begin() + static_cast<std::ptrdiff_t>(at), key);
  }
  // Precondition: !empty().
  Key pop() {
    const Key key = keys_[first_++];
    if (first_ == keys_.size()) {
      clear();
    } else if (first_ >= kCompactAfter && first_ * 2 >= keys_.size()) {
      // The keys taken out go, once they are half the vector.
      keys_.erase(keys_.begin(),
                  keys_.begin() + static_cast<std::ptrdiff_t>(first_));
      first_ = 0;
    }
    return key;
  }
  void clear() {
    keys_.clear();
    first_ = 0;
  }

 private:
  static constexpr size_t kCompactAfter = 64;
  std::vector<Key> keys_;  // sorted from first_; those before it taken out
  size_t first_ = 0;
};

}  // namespace lq
