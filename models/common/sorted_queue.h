// SPDX-License-Identifier: Apache-2.0
// SortedQueue<Key>: keys taken out smallest first, for a model whose keys
// mostly come in order (events due a few cycles on). A key is placed by a
// walk back from the largest and taken from the front by moving an index,
// a few steps each where a heap moves keys a logarithm's worth of times.
// Keys are ordered by operator<; equal keys leave in the order they came.
#pragma once

#include <cstddef>

#include "models/common/fifo_vector.h"

namespace lq {

template <typename Key>
class SortedQueue {
 public:
  bool empty() const { return keys_.empty(); }
  size_t size() const { return keys_.size(); }
  // Precondition: !empty().
  const Key& front() const { return keys_.front(); }

  void push(const Key& key) {
    auto at = keys_.end();
    while (at != keys_.begin() && key < *(at - 1)) {
      --at;
    }
    keys_.insert(at, key);
  }
  // Precondition: !empty().
  Key pop() {
    const Key key = keys_.front();
    keys_.pop_front();
    return key;
  }
  void clear() { keys_.clear(); }

 private:
  FifoVector<Key> keys_;  // sorted
};

}  // namespace lq
