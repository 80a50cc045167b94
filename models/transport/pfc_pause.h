// SPDX-License-Identifier: Apache-2.0
// The receiving side of priority flow control at one egress (a router's
// output port or an endpoint's injection): which priorities are paused by
// the PFC messages that arrived, until when, and for how long in all
// (docs/spec/trn.md TRN-8.7, TRN-8.10). Clock-free: the caller passes the
// time and calls Advance() at next_expiry_ps().
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "models/roce/pfc.h"

namespace lq::transport {

class PfcPause {
 public:
  // `line_rate_bps`: the link's raw rate, which sets the quantum (TRN-8.6).
  explicit PfcPause(uint64_t line_rate_bps);

  // A PFC message arrived at `now_ps`: XOFF starts or restarts a pause,
  // XON ends it. Returns the priorities (bit i) whose state changed.
  uint8_t OnFrame(const roce::PfcFrame& frame, uint64_t now_ps);
  // Ends the pauses that have run out by `now_ps`; returns the priorities
  // that resumed.
  uint8_t Advance(uint64_t now_ps);
  // When the next pause runs out; nothing while none runs.
  std::optional<uint64_t> next_expiry_ps() const;
  bool paused(uint8_t priority) const { return paused_[priority]; }
  // Time `priority` has spent paused up to `now_ps` (TRN-8.10).
  uint64_t paused_ps(uint8_t priority, uint64_t now_ps) const;

 private:
  void Resume(unsigned priority, uint64_t at_ps);

  uint64_t line_rate_bps_;
  std::array<bool, roce::kPfcPriorities> paused_{};
  std::array<uint64_t, roce::kPfcPriorities> since_{};
  std::array<uint64_t, roce::kPfcPriorities> until_{};
  std::array<uint64_t, roce::kPfcPriorities> total_{};
};

}  // namespace lq::transport
