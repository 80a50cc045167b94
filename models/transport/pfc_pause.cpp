// SPDX-License-Identifier: Apache-2.0
// PfcPause: TRN-8.7's pause timers and TRN-8.10's paused time.
#include "models/transport/pfc_pause.h"

#include <algorithm>

#include "models/common/earliest.h"

namespace lq::transport {

PfcPause::PfcPause(uint64_t line_rate_bps) : line_rate_bps_(line_rate_bps) {}

void PfcPause::Resume(unsigned priority, uint64_t at_ps) {
  paused_[priority] = false;
  total_[priority] += at_ps - since_[priority];
}

uint8_t PfcPause::OnFrame(const roce::PfcFrame& frame, uint64_t now_ps) {
  // A pause that runs out at this very time resumes first and is reported
  // as changed, even when the frame pauses it again at once.
  uint8_t changed = Advance(now_ps);
  for (unsigned p = 0; p < roce::kPfcPriorities; ++p) {
    if ((frame.class_enable & (1u << p)) == 0) {
      continue;  // TRN-8.2: time[p] is not valid
    }
    const uint16_t quanta = frame.pause_quanta[p];
    if (quanta == 0) {
      if (paused_[p]) {
        Resume(p, now_ps);  // XON
        changed |= static_cast<uint8_t>(1u << p);
      }
      continue;
    }
    if (!paused_[p]) {
      paused_[p] = true;
      since_[p] = now_ps;
      changed |= static_cast<uint8_t>(1u << p);
    }
    // A new XOFF restarts the pause time, counted from its arrival.
    until_[p] = now_ps + roce::PauseDurationPs(quanta, line_rate_bps_);
  }
  return changed;
}

uint8_t PfcPause::Advance(uint64_t now_ps) {
  uint8_t resumed = 0;
  for (unsigned p = 0; p < roce::kPfcPriorities; ++p) {
    if (paused_[p] && until_[p] <= now_ps) {
      Resume(p, until_[p]);
      resumed |= static_cast<uint8_t>(1u << p);
    }
  }
  return resumed;
}

std::optional<uint64_t> PfcPause::next_expiry_ps() const {
  std::optional<uint64_t> next;
  for (unsigned p = 0; p < roce::kPfcPriorities; ++p) {
    if (paused_[p]) {
      KeepEarliest(next, until_[p]);
    }
  }
  return next;
}

uint64_t PfcPause::paused_ps(uint8_t priority, uint64_t now_ps) const {
  const uint64_t running = paused_[priority]
                               ? std::min(now_ps, until_[priority]) -
                                     std::min(now_ps, since_[priority])
                               : 0;
  return total_[priority] + running;
}

}  // namespace lq::transport
