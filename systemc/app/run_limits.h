// SPDX-License-Identifier: Apache-2.0
// RunWithin: a run of boards in windows of simulated time (decision
// 0050), until its boards have ended or a limit stops it: simulated time
// (--max-time-us), wall time (--max-wall-s), or SIGINT or SIGTERM, after
// which the caller still prints its summary and closes its files. The
// limits are checked at each window's end; the windows change nothing the
// model does, and are the same in one process as over MPI ranks.
#pragma once

#include <functional>

#include "systemc/parallel/window_sync.h"

namespace lq::app {

struct RunLimits {
  double max_time_us = 0;  // simulated; 0: none
  double max_wall_s = 0;   // 0: none
};

struct RunEnd {
  enum class Reason {
    kStopped,    // the model stopped the kernel (sc_stop)
    kEnded,      // every rank's `done`, or nothing left to happen
    kTimeLimit,  // limits.max_time_us reached
    kWallLimit,  // limits.max_wall_s passed
    kSignal,     // SIGINT or SIGTERM arrived
  };
  Reason reason = Reason::kStopped;
  int signal = 0;  // kSignal: which
};

// Runs the elaborated design within `limits` in `sync`'s windows until
// `done()` (this rank's boards have ended) holds on every rank at a
// window's end (WindowSync::Run), calling `at_window_end()` at each.
// SIGINT and SIGTERM are caught for the run's length only. Rank 0 notices
// a signal or the wall limit at a window's end (while the kernel waits
// inside a process, a CPU held by GDB, it does not) and stops every rank;
// the other ranks' reason is then kStopped.
RunEnd RunWithin(const RunLimits& limits, parallel::WindowSync& sync,
                 const std::function<bool()>& done,
                 const std::function<void()>& at_window_end);

}  // namespace lq::app
