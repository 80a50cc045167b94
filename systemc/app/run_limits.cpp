// SPDX-License-Identifier: Apache-2.0
// RunWithin: windows of simulated time, and the limits checked between them.
#include "systemc/app/run_limits.h"

#include <chrono>
#include <csignal>
#include <optional>
#include <systemc>

namespace lq::app {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void NoteSignal(int signal) { g_signal = signal; }

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

RunEnd RunWithin(const RunLimits& limits, parallel::WindowSync& sync,
                 const std::function<bool()>& done,
                 const std::function<void()>& at_window_end) {
  using Reason = RunEnd::Reason;
  const CaughtSignals caught;
  const auto start = std::chrono::steady_clock::now();
  const sc_core::sc_time limit =
      limits.max_time_us > 0
          ? sc_core::sc_time(limits.max_time_us, sc_core::SC_US)
          : sc_core::sc_max_time();
  std::optional<RunEnd> interrupted;  // rank 0's
  const auto window_end = [&] {
    at_window_end();
    if (sync.world().root() && !interrupted) {
      const double wall_s = std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count();
      if (g_signal != 0) {
        interrupted = RunEnd{Reason::kSignal, g_signal};
      } else if (limits.max_wall_s > 0 && wall_s >= limits.max_wall_s) {
        interrupted = RunEnd{Reason::kWallLimit, 0};
      }
      if (interrupted) {
        sc_core::sc_stop();  // every rank's run ends at this window's end
      }
    }
    return done();
  };
  if (sync.Run(limit, window_end)) {
    return interrupted.value_or(RunEnd{Reason::kStopped, 0});
  }
  return {limit != sc_core::sc_max_time() && sc_core::sc_time_stamp() >= limit
              ? Reason::kTimeLimit
              : Reason::kEnded,
          0};
}

}  // namespace lq::app
