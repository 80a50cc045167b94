// SPDX-License-Identifier: Apache-2.0
// A progress line on the terminal during long runs: simulated time, share of
// the run done, and simulated time per wall-clock second.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <systemc>

namespace lq::app {

// Redraws the progress line: `sim_us` simulated in `wall_s`, `fraction`
// of the run done. ClearProgress() erases it.
void DrawProgress(std::FILE* out, double sim_us, double fraction,
                  double wall_s);
void ClearProgress(std::FILE* out);
// The share of `total` things that `done` is: 1 when there are none.
double DoneFraction(uint64_t done, uint64_t total);

// Draws the line from a SystemC simulation, polling every `poll`.
class ProgressMeter : public sc_core::sc_module {
 public:
  // `done_fraction` reports 0..1; the meter stops polling at 1, so it never
  // keeps a finished simulation alive. `poll` is the simulated interval.
  ProgressMeter(sc_core::sc_module_name name,
                std::function<double()> done_fraction, sc_core::sc_time poll,
                std::FILE* out);

 private:
  void Run();  // SC_THREAD.

  std::function<double()> done_fraction_;
  sc_core::sc_time poll_;
  std::FILE* out_;
};

}  // namespace lq::app
