// SPDX-License-Identifier: Apache-2.0
// A clock counted in cycles against the SystemC kernel's time: cycle c
// starts at c * period. Models that keep their own cycle count (the link
// controllers) turn kernel times and annotated delays into cycles and back.
#pragma once

#include <cstdint>
#include <systemc>

namespace lq {

class CycleClock {
 public:
  explicit CycleClock(uint64_t period_ps) : period_ps_(period_ps) {}
  // A clock of `period_ns`, rounded to the kernel's picoseconds.
  static CycleClock FromNs(double period_ns) {
    return CycleClock(static_cast<uint64_t>(period_ns * 1000.0 + 0.5));
  }

  uint64_t period_ps() const { return period_ps_; }
  static uint64_t NowPs() {
    return static_cast<uint64_t>(sc_core::sc_time_stamp().value());
  }
  // The kernel's time plus `delay`, in picoseconds.
  static uint64_t PsAt(const sc_core::sc_time& delay) {
    return static_cast<uint64_t>((sc_core::sc_time_stamp() + delay).value());
  }
  // The cycle the kernel is in (rounded down), the first to start at or
  // after now, and the first at or after now + `delay`.
  uint64_t Current() const { return NowPs() / period_ps_; }
  uint64_t Next() const { return (NowPs() + period_ps_ - 1) / period_ps_; }
  uint64_t CycleAt(const sc_core::sc_time& delay) const {
    return (PsAt(delay) + period_ps_ - 1) / period_ps_;
  }
  // From now to the start of `cycle`, or to `ps`; zero if that has passed.
  sc_core::sc_time OffsetOf(uint64_t cycle) const {
    return OffsetOfPs(cycle * period_ps_);
  }
  // (The kernel's time unit is the picosecond, as NowPs reads it: the
  // offset is made from its value, without the unit conversion in double
  // that sc_time's constructor does, which the RTL wrapper paid every
  // cycle.)
  static sc_core::sc_time OffsetOfPs(uint64_t ps) {
    const uint64_t now_ps = NowPs();
    return sc_core::sc_time::from_value(ps > now_ps ? ps - now_ps : 0);
  }
  // Whole cycles that `time` spans, rounded up.
  uint64_t Cycles(const sc_core::sc_time& time) const {
    return (static_cast<uint64_t>(time.value()) + period_ps_ - 1) / period_ps_;
  }

 private:
  uint64_t period_ps_;
};

}  // namespace lq
