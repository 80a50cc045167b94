// SPDX-License-Identifier: Apache-2.0
// DCQCN's reaction point (docs/spec/trn.md section 10): a QP's packets paced
// at the current rate RC, cut on each CNP by α/2 and raised again by an
// increase timer and a byte counter through fast recovery, additive and
// hyper increase towards the target rate RT.
#pragma once

#include <cstdint>
#include <optional>

#include "models/transport/congestion_control.h"

namespace lq::transport {

class Dcqcn : public CongestionControl {
 public:
  // `params` as checked by CreateCongestionControl(); `line_rate_bps` is R.
  Dcqcn(double line_rate_bps, const DcqcnParams& params);

  const char* name() const override { return "dcqcn"; }
  uint64_t next_send_ps() const override;
  bool WindowAllows(uint64_t) const override { return true; }
  // Paces; never asks for an acknowledgement.
  bool OnSent(uint64_t now_ps, uint64_t frame_bytes,
              std::optional<SentRequest> request) override;
  // DCQCN reacts to CNPs only.
  void OnAcknowledged(uint64_t, uint32_t, bool) override {}
  void OnRewind(uint32_t) override {}
  void OnCnp(uint64_t now_ps) override;
  void Advance(uint64_t now_ps) override;
  std::optional<uint64_t> next_timer_ps() const override;
  std::optional<uint64_t> cnp_interval_ps() const override {
    return params_.cnp_interval_ps;  // N (TRN-9.5)
  }
  bool marks_return_as_becn() const override { return false; }
  double rate_bps() const override { return current_rate_bps_; }

  double target_rate_bps() const { return target_rate_bps_; }
  double alpha() const { return alpha_; }
  // T and BC: increase-timer and byte-counter events since the last cut.
  uint64_t timer_events() const { return timer_events_; }
  uint64_t byte_counter_events() const { return byte_counter_events_; }

 private:
  // One increase event, after T or BC moved on (TRN-10.4).
  void Increase();

  double line_rate_bps_;
  DcqcnParams params_;
  double current_rate_bps_;  // RC
  double target_rate_bps_;   // RT
  double alpha_;
  uint64_t timer_events_ = 0;         // T
  uint64_t byte_counter_events_ = 0;  // BC
  uint64_t bytes_since_event_ = 0;    // towards the next BC event
  // The α timer, the increase timer and the byte counter run from the
  // first CNP on: before it there is no cut to recover from, and α keeps
  // its value at start for the first cut (TRN-10.5's source, [S25]).
  bool reacting_ = false;
  uint64_t alpha_deadline_ps_ = 0;
  uint64_t increase_deadline_ps_ = 0;
  // The last packet paced: when it started and its size.
  uint64_t last_start_ps_ = 0;
  uint64_t last_frame_bytes_ = 0;
};

}  // namespace lq::transport
