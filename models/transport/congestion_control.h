// SPDX-License-Identifier: Apache-2.0
// A queue pair's congestion control, the reaction point of docs/spec/trn.md
// sections 10 (DCQCN) and 11 (LQCC), chosen per QP by name. The engine asks
// it when the next packet may start (pacing) and whether a request fits the
// window, and tells it what was sent, acknowledged, marked and notified. It
// keeps no clock: times are passed in, in picoseconds, and Advance() runs
// the timers due by then (at next_timer_ps()).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/result.h"

namespace lq::transport {

// TRN-10.5's parameters (scenario keys dcqcn.*); rates in bits per second,
// times in picoseconds.
struct DcqcnParams {
  double g = 1.0 / 256;
  uint64_t alpha_timer_ps = 55'000'000;     // K
  uint64_t increase_timer_ps = 55'000'000;  // T_inc
  uint64_t byte_counter = 10'000'000;       // B
  unsigned fast_recovery_steps = 5;         // F
  double ai_fraction = 1.0 / 1000;          // R_AI = R x this
  double hai_fraction = 1.0 / 100;          // R_HAI = R x this
  double min_rate_bps = 1e6;                // R_min
  double initial_alpha = 1;
  uint64_t cnp_interval_ps = 50'000'000;  // N (TRN-9.5), the NP's
};

// TRN-11.8's parameters (scenario keys lqcc.*).
struct LqccParams {
  uint64_t round_ps = 4'000'000;           // T_r, also the NP's CNP interval
  uint64_t max_window_bytes = 128 * 1024;  // W_max, also W at start
  uint64_t min_window_bytes = 256;         // W_min
  double g = 1.0 / 16;                     // gain of alpha
  uint64_t ramp_ps = 2'500'000;  // T_ramp: clean ACKs regain line rate in it
};

struct CongestionParams {
  double line_rate_bps = 944e9;  // R (TRN-10.1): the injection port's goodput
  DcqcnParams dcqcn;
  LqccParams lqcc;
};

// A request as the congestion control sees it: its first PSN, and whether
// an acknowledgement of it is on the way without asking (it carries AckReq
// by TRN-6.7, or it is a READ or atomic, whose response acknowledges it).
struct SentRequest {
  explicit SentRequest(uint32_t first_psn, bool asks_ack = true)
      : first_psn(first_psn), asks_ack(asks_ack) {}
  uint32_t first_psn;
  bool asks_ack;
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;

  // Its registry name: "none", "dcqcn" or "lqcc".
  virtual const char* name() const = 0;
  // The earliest time the QP's next request or read response may start
  // (DCQCN's pacing, TRN-10.1); 0 when it may start at once.
  virtual uint64_t next_send_ps() const = 0;
  // Whether a request of `frame_bytes` may be sent now (TRN-11.7's window;
  // always true without one).
  virtual bool WindowAllows(uint64_t frame_bytes) const = 0;
  // A request or a read response (no `request`) of `frame_bytes` wire
  // bytes started at `now_ps`. Returns whether the request must carry
  // AckReq for the window's sake (TRN-11.7); false for the others.
  virtual bool OnSent(uint64_t now_ps, uint64_t frame_bytes,
                      std::optional<SentRequest> request) = 0;
  // Every request whose first PSN lies before `unacked_psn` is now
  // acknowledged (an ACK, NAK or response moved the requester's oldest
  // unacknowledged PSN there); `becn`: the packet that did so carried BECN
  // (TRN-11.3).
  virtual void OnAcknowledged(uint64_t now_ps, uint32_t unacked_psn,
                              bool becn) = 0;
  // Go-back-N to `psn` (TRN-7.3): requests from it on are no longer in
  // flight until sent again.
  virtual void OnRewind(uint32_t psn) = 0;
  // A CNP for this QP arrived (TRN-9.6).
  virtual void OnCnp(uint64_t now_ps) = 0;
  // Runs every timer due by `now_ps`. The On*() calls run those due by
  // their time first, so an event never lands in a period already over.
  virtual void Advance(uint64_t now_ps) = 0;
  // When Advance() is next due; nothing while no timer runs.
  virtual std::optional<uint64_t> next_timer_ps() const = 0;
  // The notification point's side, on the QP that receives (TRN-9.5,
  // TRN-11.3, TRN-11.4): the least time between two CNPs to the peer for
  // CE-marked packets (nothing: it sends none), and whether marks on
  // requests return as BECN on the next reply instead of as CNPs.
  virtual std::optional<uint64_t> cnp_interval_ps() const = 0;
  virtual bool marks_return_as_becn() const = 0;
  // The rate it paces at, bits per second: RC for DCQCN, the line rate R
  // for the others.
  virtual double rate_bps() const = 0;
};

// The names CreateCongestionControl() takes.
std::vector<std::string> CongestionControlNames();

// The reaction point named `name` with `params`; fails on an unknown name
// or parameters out of range (a rate or time that is not positive, g
// outside (0, 1], W_min above W_max).
Result<std::unique_ptr<CongestionControl>> CreateCongestionControl(
    const std::string& name, const CongestionParams& params);

}  // namespace lq::transport
