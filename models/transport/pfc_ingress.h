// SPDX-License-Identifier: Apache-2.0
// The sending side of priority flow control at one router ingress port
// and VC class (docs/spec/trn.md TRN-8.4, TRN-8.5, TRN-8.11): from the
// bytes each priority holds there, when to send XOFF, refresh it and send
// XON. Clock-free: the caller passes the time and calls OnTimer() at
// next_timer_ps().
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "models/roce/pfc.h"

namespace lq::transport {

// pfc.* scenario keys (TRN-8.1, TRN-8.5, TRN-8.8, TRN-8.9).
struct PfcParams {
  uint8_t priorities = (1u << 3) | (1u << 6);  // bit i: priority i enabled
  uint64_t xoff_bytes = 65'536;
  uint64_t xon_bytes = 49'152;
  uint16_t pause_quanta = 0xFFFF;
  uint64_t refresh_ps = 20'000'000;
  uint64_t react_ps = 20'000;
  uint64_t headroom_max_bytes = 262'144;
};

class PfcIngress {
 public:
  // `src` is the sending router's MAC (TRN-8.2); every message names
  // `vc_class`.
  PfcIngress(const PfcParams& params, const roce::MacAddress& src,
             uint8_t vc_class = 0);

  // The bytes of `priority` held at this port are now `bytes` (TRN-8.4):
  // the message to send, if the count crossed XOFF upwards or XON
  // downwards (TRN-8.5).
  std::optional<roce::PfcFrame> OnCount(uint8_t priority, uint64_t bytes,
                                        uint64_t now_ps);
  // XOFF refreshes due by `now_ps`, in one message, if any are.
  std::optional<roce::PfcFrame> OnTimer(uint64_t now_ps);
  // When the next refresh falls due; nothing while no priority is in XOFF.
  std::optional<uint64_t> next_timer_ps() const;
  bool in_xoff(uint8_t priority) const { return xoff_[priority]; }

 private:
  roce::PfcFrame Message() const;

  PfcParams params_;
  roce::MacAddress src_;
  uint8_t vc_class_;
  std::array<bool, roce::kPfcPriorities> xoff_{};
  std::array<uint64_t, roce::kPfcPriorities> refresh_at_{};
};

}  // namespace lq::transport
