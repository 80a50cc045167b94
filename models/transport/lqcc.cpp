// SPDX-License-Identifier: Apache-2.0
// Lqcc: the window, in-flight accounting by PSN, and rounds.
#include "models/transport/lqcc.h"

#include <algorithm>

#include "models/roce/psn.h"

namespace lq::transport {

using roce::PsnBefore;

Lqcc::Lqcc(double line_rate_bps, const LqccParams& params)
    : line_rate_bps_(line_rate_bps),
      params_(params),
      max_window_bytes_(static_cast<double>(params.max_window_bytes)),
      window_bytes_(max_window_bytes_) {}  // TRN-11.1

bool Lqcc::WindowAllows(uint64_t frame_bytes) const {
  // TRN-11.7: a request larger than W still goes out alone; and when W
  // shrank below what is in flight while none of it asked for an
  // acknowledgement, one more goes, asking, rather than waiting for the
  // ACK timer.
  return in_flight_.empty() || asking_in_flight_ == 0 ||
         static_cast<double>(in_flight_bytes_ + frame_bytes) <= window_bytes_;
}

bool Lqcc::OnSent(uint64_t now_ps, uint64_t frame_bytes,
                  std::optional<SentRequest> request) {
  Advance(now_ps);
  if (!round_end_ps_) {
    round_end_ps_ = now_ps + params_.round_ps;  // TRN-11.1
  }
  if (!request) {
    return false;
  }
  // TRN-11.7: when another request of this size would not fit, this one
  // asks for the acknowledgement that opens the window again.
  const bool must_ask =
      static_cast<double>(in_flight_bytes_ + 2 * frame_bytes) > window_bytes_;
  // TRN-11.5: a request is accounted under its first PSN.
  in_flight_.push_back(
      {request->first_psn, frame_bytes, request->asks_ack || must_ask, now_ps});
  in_flight_bytes_ += frame_bytes;
  asking_in_flight_ += in_flight_.back().asks_ack ? 1 : 0;
  return must_ask && !request->asks_ack;  // no AckReq where one comes anyway
}

void Lqcc::Uncount(const Request& request) {
  in_flight_bytes_ -= request.frame_bytes;
  asking_in_flight_ -= request.asks_ack ? 1 : 0;
}

void Lqcc::OnAcknowledged(uint64_t now_ps, uint32_t unacked_psn, bool becn) {
  Advance(now_ps);  // a round that ended before this belongs to it no more
  uint64_t acked = 0;
  uint64_t newest_sent_ps = 0;
  while (!in_flight_.empty() &&
         PsnBefore(in_flight_.front().first_psn, unacked_psn)) {
    acked += in_flight_.front().frame_bytes;
    newest_sent_ps = in_flight_.front().sent_ps;
    Uncount(in_flight_.front());
    in_flight_.pop_front();
  }
  if (acked == 0) {
    return;
  }
  // TRN-11.5: acknowledged bytes count towards A, and towards M too when
  // the acknowledging packet carried BECN; the newest request acknowledged
  // gives the RTT sample.
  acknowledged_bytes_ += acked;
  marked_bytes_ += becn ? acked : 0;
  const uint64_t sample = now_ps - newest_sent_ps;
  min_rtt_ps_ = min_rtt_ps_ ? std::min(*min_rtt_ps_, sample) : sample;
  if (!becn) {
    Grow(acked);
  }
}

void Lqcc::Grow(uint64_t acked) {
  // TRN-11.9: dW = (R/8 x rtt) x (rtt / T_ramp) x acked / W. A window's
  // worth of ACKs comes back per RTT, so the rate W / rtt rises by
  // R x rtt / T_ramp per RTT, that is by R per T_ramp, for every flow alike.
  const double rtt_s = static_cast<double>(*min_rtt_ps_) * 1e-12;
  const double ramp_s = static_cast<double>(params_.ramp_ps) * 1e-12;
  const double base_bdp = line_rate_bps_ / 8 * rtt_s;
  window_bytes_ =
      std::min(max_window_bytes_,
               window_bytes_ + base_bdp * (rtt_s / ramp_s) *
                                   static_cast<double>(acked) / window_bytes_);
}

void Lqcc::OnRewind(uint32_t psn) {
  // TRN-11.7: requests from `psn` on count again only once resent.
  while (!in_flight_.empty() && !PsnBefore(in_flight_.back().first_psn, psn)) {
    Uncount(in_flight_.back());
    in_flight_.pop_back();
  }
}

void Lqcc::OnCnp(uint64_t now_ps) {
  Advance(now_ps);
  cnp_this_round_ = true;  // TRN-11.5
}

void Lqcc::Advance(uint64_t now_ps) {
  while (round_end_ps_ && *round_end_ps_ <= now_ps) {
    EndRound();
    *round_end_ps_ += params_.round_ps;  // TRN-11.6: every T_r
  }
}

double Lqcc::RoundFeedback() const {
  // TRN-11.6: 1 if a CNP came, else the marked fraction of the acknowledged
  // bytes, 0 when nothing was acknowledged.
  if (cnp_this_round_) {
    return 1;
  }
  if (acknowledged_bytes_ == 0) {
    return 0;
  }
  return static_cast<double>(marked_bytes_) /
         static_cast<double>(acknowledged_bytes_);
}

void Lqcc::EndRound() {
  const double feedback = RoundFeedback();  // TRN-11.6
  alpha_ = (1 - params_.g) * alpha_ + params_.g * feedback;
  if (feedback > 0) {
    window_bytes_ = std::max(static_cast<double>(params_.min_window_bytes),
                             window_bytes_ * (1 - alpha_ / 2));
  }
  acknowledged_bytes_ = 0;
  marked_bytes_ = 0;
  cnp_this_round_ = false;
}

}  // namespace lq::transport
