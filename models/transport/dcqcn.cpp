// SPDX-License-Identifier: Apache-2.0
// Dcqcn: pacing, the cut on a CNP and the timer- and byte-driven increase.
#include "models/transport/dcqcn.h"

#include <algorithm>
#include <cmath>

namespace lq::transport {

namespace {

constexpr double kBitsPerByte = 8;
constexpr double kPsPerSecond = 1e12;

// The time a frame of `frame_bytes` takes at `rate_bps` (TRN-10.1).
uint64_t GapPs(uint64_t frame_bytes, double rate_bps) {
  return static_cast<uint64_t>(
      std::ceil(static_cast<double>(frame_bytes) * kBitsPerByte * kPsPerSecond /
                rate_bps));
}

}  // namespace

Dcqcn::Dcqcn(double line_rate_bps, const DcqcnParams& params)
    : line_rate_bps_(line_rate_bps),
      params_(params),
      current_rate_bps_(line_rate_bps),  // TRN-10.1
      target_rate_bps_(line_rate_bps),
      alpha_(params.initial_alpha) {}

bool Dcqcn::OnSent(uint64_t now_ps, uint64_t frame_bytes,
                   std::optional<SentRequest>) {
  Advance(now_ps);  // timers due before this packet act first
  // TRN-10.1: requests and read responses alike are paced at RC; one sent
  // early is taken as starting when pacing let it.
  last_start_ps_ = std::max(next_send_ps(), now_ps);
  last_frame_bytes_ = frame_bytes;
  if (!reacting_) {
    return false;
  }
  // TRN-10.4: the byte counter fires every B bytes sent.
  bytes_since_event_ += frame_bytes;
  while (bytes_since_event_ >= params_.byte_counter) {
    bytes_since_event_ -= params_.byte_counter;
    ++byte_counter_events_;
    Increase();
  }
  return false;
}

void Dcqcn::OnCnp(uint64_t now_ps) {
  Advance(now_ps);
  // TRN-10.2: the cut uses α from before this CNP.
  target_rate_bps_ = current_rate_bps_;
  current_rate_bps_ =
      std::max(params_.min_rate_bps, current_rate_bps_ * (1 - alpha_ / 2));
  alpha_ = (1 - params_.g) * alpha_ + params_.g;
  timer_events_ = 0;
  byte_counter_events_ = 0;
  bytes_since_event_ = 0;
  reacting_ = true;
  alpha_deadline_ps_ = now_ps + params_.alpha_timer_ps;
  increase_deadline_ps_ = now_ps + params_.increase_timer_ps;
}

void Dcqcn::Advance(uint64_t now_ps) {
  if (!reacting_) {
    return;
  }
  // The two timers touch disjoint state, so each catches up on its own.
  while (alpha_deadline_ps_ <= now_ps) {
    alpha_ *= 1 - params_.g;  // TRN-10.3
    alpha_deadline_ps_ += params_.alpha_timer_ps;
  }
  while (increase_deadline_ps_ <= now_ps) {
    ++timer_events_;  // TRN-10.4
    Increase();
    increase_deadline_ps_ += params_.increase_timer_ps;
  }
}

uint64_t Dcqcn::next_send_ps() const {
  // The gap after the last packet is taken at today's RC, not the RC it was
  // sent at: a rate limiter's gap shrinks as the rate recovers, so a packet
  // sent at R_min does not hold the next one back for 8 x s / R_min.
  if (last_frame_bytes_ == 0) {
    return last_start_ps_;
  }
  return last_start_ps_ + GapPs(last_frame_bytes_, current_rate_bps_);
}

std::optional<uint64_t> Dcqcn::next_timer_ps() const {
  if (!reacting_) {
    return std::nullopt;
  }
  return std::min(alpha_deadline_ps_, increase_deadline_ps_);
}

void Dcqcn::Increase() {
  // TRN-10.4: fast recovery while neither counter has passed F, additive
  // increase while one has, hyper increase once both have.
  const uint64_t steps = params_.fast_recovery_steps;
  const bool timer_past = timer_events_ > steps;
  const bool bytes_past = byte_counter_events_ > steps;
  if (timer_past && bytes_past) {
    const uint64_t hyper_steps =
        std::min(timer_events_, byte_counter_events_) - steps;
    target_rate_bps_ += static_cast<double>(hyper_steps) * line_rate_bps_ *
                        params_.hai_fraction;
  } else if (timer_past || bytes_past) {
    target_rate_bps_ += line_rate_bps_ * params_.ai_fraction;
  }
  // TRN-10.4: RT never exceeds R, so neither does RC, their mean.
  target_rate_bps_ = std::min(target_rate_bps_, line_rate_bps_);
  current_rate_bps_ = (target_rate_bps_ + current_rate_bps_) / 2;
}

}  // namespace lq::transport
