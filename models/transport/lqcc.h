// SPDX-License-Identifier: Apache-2.0
// LQCC, lqemu's congestion control (docs/spec/trn.md section 11): a window W
// on a QP's in-flight request bytes, cut once per round T_r in proportion
// to the fraction of acknowledged bytes that came back marked (BECN) or
// fully when a CNP came, and grown by every unmarked acknowledgement so
// that the flow's rate regains the line rate in T_ramp whatever its RTT.
// Acknowledgements clock the window out; there is no pacing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

#include "models/transport/congestion_control.h"

namespace lq::transport {

class Lqcc : public CongestionControl {
 public:
  // `params` as checked by CreateCongestionControl(); `line_rate_bps` is R.
  Lqcc(double line_rate_bps, const LqccParams& params);

  const char* name() const override { return "lqcc"; }
  // TRN-11.7: acknowledgements clock the window out; no pacing.
  uint64_t next_send_ps() const override { return 0; }
  bool WindowAllows(uint64_t frame_bytes) const override;
  bool OnSent(uint64_t now_ps, uint64_t frame_bytes,
              std::optional<SentRequest> request) override;
  void OnAcknowledged(uint64_t now_ps, uint32_t unacked_psn,
                      bool becn) override;
  void OnRewind(uint32_t psn) override;
  void OnCnp(uint64_t now_ps) override;
  void Advance(uint64_t now_ps) override;
  std::optional<uint64_t> next_timer_ps() const override {
    return round_end_ps_;
  }
  std::optional<uint64_t> cnp_interval_ps() const override {
    return params_.round_ps;  // T_r, for read responses (TRN-11.4)
  }
  bool marks_return_as_becn() const override { return true; }  // TRN-11.3
  double rate_bps() const override { return line_rate_bps_; }

  double window_bytes() const { return window_bytes_; }
  uint64_t in_flight_bytes() const { return in_flight_bytes_; }
  double alpha() const { return alpha_; }
  // The least RTT sampled so far (TRN-11.5), none before the first ACK.
  std::optional<uint64_t> min_rtt_ps() const { return min_rtt_ps_; }
  // This round's A and M (TRN-11.5).
  uint64_t acknowledged_bytes() const { return acknowledged_bytes_; }
  uint64_t marked_bytes() const { return marked_bytes_; }

 private:
  struct Request {
    uint32_t first_psn;
    uint64_t frame_bytes;
    bool asks_ack;
    uint64_t sent_ps;
  };
  // Takes a request that leaves in-flight out of the counts.
  void Uncount(const Request& request);
  // TRN-11.9: an unmarked acknowledgement of `acked` bytes grows W.
  void Grow(uint64_t acked);
  // TRN-11.6's F for the round now ending.
  double RoundFeedback() const;
  // TRN-11.6: the round's feedback moves α and W.
  void EndRound();

  double line_rate_bps_;
  LqccParams params_;
  double max_window_bytes_;
  double window_bytes_;
  double alpha_ = 1;
  std::deque<Request> in_flight_;  // in PSN order, oldest first
  uint64_t in_flight_bytes_ = 0;
  size_t asking_in_flight_ = 0;  // requests in flight that asks_ack
  std::optional<uint64_t> min_rtt_ps_;
  uint64_t acknowledged_bytes_ = 0;  // A
  uint64_t marked_bytes_ = 0;        // M
  bool cnp_this_round_ = false;
  // The first round begins with the QP's first packet; the control has no
  // clock before that.
  std::optional<uint64_t> round_end_ps_;
};

}  // namespace lq::transport
