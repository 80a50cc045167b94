// RunWithin: slices of simulated time, and the limits checked between them.
#include "systemc/app/run_limits.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <systemc>

namespace lq::app {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void NoteSignal(int signal) { g_signal = signal; }

// How much simulated time runs between two looks at the limits: short
// enough that a slow model (RTL ports run ~30 k cycles a second) answers
// a signal within a second.
const sc_core::sc_time kSlice(10, sc_core::SC_US);

// SIGINT and SIGTERM set g_signal while it lives.
class CaughtSignals {
 public:
  CaughtSignals() {
    g_signal = 0;
    struct sigaction action {};
    action.sa_handler = NoteSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~CaughtSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  CaughtSignals(const CaughtSignals&) = delete;
  CaughtSignals& operator=(const CaughtSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace

RunEnd RunWithin(const RunLimits& limits) {
  using Reason = RunEnd::Reason;
  const CaughtSignals caught;
  const auto start = std::chrono::steady_clock::now();
  const sc_core::sc_time limit =
      limits.max_time_us > 0
          ? sc_core::sc_time(limits.max_time_us, sc_core::SC_US)
          : sc_core::sc_max_time();
  // The initialisation phase, and what happens at time 0: only then does
  // the kernel know its pending activity.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  while (true) {
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED) {
      return {Reason::kStopped, 0};
    }
    if (g_signal != 0) {
      return {Reason::kSignal, g_signal};
    }
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (limits.max_wall_s > 0 && wall_s >= limits.max_wall_s) {
      return {Reason::kWallLimit, 0};
    }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (now >= limit) {
      return {Reason::kTimeLimit, 0};
    }
    if (!sc_core::sc_pending_activity()) {
      return {Reason::kNoEvents, 0};
    }
    const sc_core::sc_time to_next = sc_core::sc_time_to_pending_activity();
    if (to_next >= limit - now || limit - now <= kSlice) {
      // The rest of the run: time stands at the limit afterwards, as an
      // unsliced sc_start(limit) leaves it.
      sc_core::sc_start(limit - now);
    } else {
      // Past the next event at least: a kernel that starves stops at its
      // last event's time, as an unsliced sc_start() would, and one that
      // does not starve reaches the slice's end.
      sc_core::sc_start(
          std::max(kSlice, to_next + sc_core::sc_get_time_resolution()),
          sc_core::SC_EXIT_ON_STARVATION);
    }
  }
}

}  // namespace lq::app
