// SPDX-License-Identifier: Apache-2.0
// A FIFO of values that each come out a fixed delay after they went in,
// driven by one sc_event armed for the head only. For pipelines and wires
// whose delay is constant it replaces sc_event_queue, whose per-item timed
// notifications cost a heap operation each.
#pragma once

#include <cassert>
#include <deque>
#include <systemc>
#include <utility>

namespace lq {

template <typename T>
class DelayLine {
 public:
  // Queues `value` to leave `delay` from now. Values must leave in the order
  // they enter: a delay may not make a value due before an earlier one.
  void Push(T value, const sc_core::sc_time& delay) {
    const sc_core::sc_time due = sc_core::sc_time_stamp() + delay;
    assert(items_.empty() || items_.back().due <= due);
    items_.push_back({due, std::move(value)});
    if (items_.size() == 1) {
      event_.notify(delay);
    }
  }

  // Takes the value that is due; call once per trigger of event(), from the
  // process sensitive to it. Re-arms the event for the next value.
  T Pop() {
    assert(!items_.empty() && items_.front().due <= sc_core::sc_time_stamp());
    T value = std::move(items_.front().value);
    items_.pop_front();
    if (!items_.empty()) {
      event_.notify(items_.front().due - sc_core::sc_time_stamp());
    }
    return value;
  }

  const sc_core::sc_event& event() const { return event_; }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }

 private:
  struct Item {
    sc_core::sc_time due;
    T value;
  };
  std::deque<Item> items_;
  sc_core::sc_event event_;
};

}  // namespace lq
