// SPDX-License-Identifier: Apache-2.0
// FifoVector<T>: a queue in one contiguous vector. Items go in at the back
// (or, for a sorted queue, anywhere among those waiting) and are taken
// from the front by moving an index, so that taking one moves nothing.
// The items taken go once they are at least kCompactAfter and half the
// vector: each waiting item then moves at most once per as many taken
// after it, and a queue that empties starts again at the vector's start.
#pragma once

#include <cstddef>
#include <vector>

namespace lq {

template <typename T>
class FifoVector {
 public:
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  bool empty() const { return first_ == items_.size(); }
  size_t size() const { return items_.size() - first_; }
  // The items waiting, oldest first.
  iterator begin() { return items_.begin() + Offset(first_); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin() + Offset(first_); }
  const_iterator end() const { return items_.end(); }
  // Precondition: !empty().
  const T& front() const { return items_[first_]; }

  void push_back(const T& item) { items_.push_back(item); }
  template <typename Iterator>
  void append(Iterator from, Iterator to) {
    items_.insert(items_.end(), from, to);
  }
  // Places `item` before `at`, one of the waiting items or end().
  void insert(const_iterator at, const T& item) { items_.insert(at, item); }

  // Takes the `count` oldest items out. Precondition: count <= size().
  void pop_front(size_t count = 1) {
    first_ += count;
    if (first_ == items_.size()) {
      clear();
    } else if (first_ >= kCompactAfter && first_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + Offset(first_));
      first_ = 0;
    }
  }
  void clear() {
    items_.clear();
    first_ = 0;
  }

 private:
  static constexpr size_t kCompactAfter = 64;
  static std::ptrdiff_t Offset(size_t at) {
    return static_cast<std::ptrdiff_t>(at);
  }
  std::vector<T> items_;  // waiting from first_; those before it taken
  size_t first_ = 0;
};

}  // namespace lq
