// RunWithin: the simulation run until it ends by itself or a limit stops
// it: simulated time (--max-time-us), wall time (--max-wall-s), or SIGINT
// or SIGTERM, after which the caller still prints its summary and closes
// its files. The kernel runs in slices of simulated time between which
// the limits are checked; the slices change nothing the model does.
#pragma once

namespace lq::app {

struct RunLimits {
  double max_time_us = 0;  // simulated; 0: none
  double max_wall_s = 0;   // 0: none
};

struct RunEnd {
  enum class Reason {
    kStopped,    // the model stopped the kernel (sc_stop)
    kNoEvents,   // nothing left to happen
    kTimeLimit,  // limits.max_time_us reached
    kWallLimit,  // limits.max_wall_s passed
    kSignal,     // SIGINT or SIGTERM arrived
  };
  Reason reason = Reason::kStopped;
  int signal = 0;  // kSignal: which
};

// Runs the elaborated design within `limits`. SIGINT and SIGTERM are
// caught for the run's length only. A signal or the wall limit is noticed
// between slices: while the kernel waits inside a process (a CPU held by
// GDB) it is not.
RunEnd RunWithin(const RunLimits& limits);

}  // namespace lq::app
