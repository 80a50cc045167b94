// SPDX-License-Identifier: Apache-2.0
// ReusePool<T>: items addressed by a stable index, where an index given
// back is handed out again before the pool grows. Models keep buffers in
// one when something outside (a DMA engine, a work request ID) names them
// by number.
#pragma once

#include <cstddef>
#include <vector>

namespace lq {

template <typename T>
class ReusePool {
 public:
  // An index not in use: the most recently freed one, else a new item's.
  // A reused item keeps what it held; the caller sets it up.
  size_t Take() {
    if (free_.empty()) {
      items_.emplace_back();
      return items_.size() - 1;
    }
    const size_t index = free_.back();
    free_.pop_back();
    return index;
  }
  // Gives `index` back (taken, and not given back since).
  void Free(size_t index) { free_.push_back(index); }

  T& operator[](size_t index) { return items_[index]; }
  const T& operator[](size_t index) const { return items_[index]; }
  // Items ever made: indices below it are valid, taken or free.
  size_t size() const { return items_.size(); }

 private:
  std::vector<T> items_;
  std::vector<size_t> free_;
};

}  // namespace lq
