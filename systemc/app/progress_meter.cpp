// SPDX-License-Identifier: Apache-2.0
// Progress line: redrawn at most a few times per wall-clock second.
#include "systemc/app/progress_meter.h"

#include <utility>

namespace lq::app {

using Clock = std::chrono::steady_clock;

ProgressMeter::ProgressMeter(sc_core::sc_module_name name,
                             std::function<double()> done_fraction,
                             sc_core::sc_time poll, std::FILE* out)
    : sc_module(name),
      done_fraction_(std::move(done_fraction)),
      poll_(poll),
      out_(out) {
  SC_HAS_PROCESS(ProgressMeter);
  SC_THREAD(Run);
}

void ProgressMeter::Run() {
  const auto start = Clock::now();
  auto last_draw = start;
  constexpr auto kRedraw = std::chrono::milliseconds(250);
  while (done_fraction_() < 1.0) {
    wait(poll_);
    const auto now = Clock::now();
    if (now - last_draw < kRedraw) {
      continue;
    }
    last_draw = now;
    DrawProgress(out_, sc_core::sc_time_stamp().to_seconds() * 1e6,
                 done_fraction_(),
                 std::chrono::duration<double>(now - start).count());
  }
  ClearProgress(out_);
}

void DrawProgress(std::FILE* out, double sim_us, double fraction,
                  double wall_s) {
  std::fprintf(out, "\r  simulated %.2f us | %5.1f%% | %.2f us/s   ", sim_us,
               100.0 * fraction, sim_us / wall_s);
  std::fflush(out);
}

void ClearProgress(std::FILE* out) {
  std::fprintf(out, "\r%60s\r", "");
  std::fflush(out);
}

double DoneFraction(uint64_t done, uint64_t total) {
  return total == 0 ? 1.0
                    : static_cast<double>(done) / static_cast<double>(total);
}

}  // namespace lq::app
