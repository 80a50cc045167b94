// SPDX-License-Identifier: Apache-2.0
// The LTSSM's transitions, transcribed from lc_ltssm's next-state logic.
#include "models/link/ltssm.h"

#include <algorithm>

namespace lq::link {

namespace {

using S = LtssmState;

unsigned LaneCount(uint32_t lanes) {
  unsigned count = 0;
  for (; lanes != 0; lanes &= lanes - 1) {
    ++count;
  }
  return count;
}

}  // namespace

const char* LtssmStateName(LtssmState state) {
  switch (state) {
    case S::kDisabled:
      return "Disabled";
    case S::kDetectQuiet:
      return "Detect.Quiet";
    case S::kDetectActive:
      return "Detect.Active";
    case S::kPollingActive:
      return "Polling.Active";
    case S::kPollingConfig:
      return "Polling.Configuration";
    case S::kConfig:
      return "Configuration";
    case S::kConfigIdle:
      return "Configuration.Idle";
    case S::kL0:
      return "L0";
    case S::kRecoveryLock:
      return "Recovery.RcvrLock";
    case S::kRecoveryCfg:
      return "Recovery.RcvrCfg";
    case S::kRecoveryIdle:
      return "Recovery.Idle";
  }
  return "?";
}

Ltssm::Ltssm(const phy::LinkProfile& profile, uint64_t ms_ps)
    : profile_(profile),
      profile_lanes_(
          static_cast<uint32_t>((uint64_t{1} << profile.max_lanes) - 1)),
      ms_ps_(ms_ps),
      profile_id_(profile.wire_id) {}

uint32_t Ltssm::Locked() const {
  return control_.loopback ? profile_lanes_ : lock_;
}

uint32_t Ltssm::Usable() const {
  return Locked() & (control_.loopback ? profile_lanes_ : partner_mask_) &
         profile_lanes_;
}

unsigned Ltssm::WidthNow() const {
  unsigned cap = LaneCount(Usable());
  cap = std::min({cap, target_width_, profile_.max_lanes});
  if (partner_width_ != 0) {
    cap = std::min(cap, partner_width_);
  }
  return phy::WidestWidth(profile_, cap);
}

uint64_t Ltssm::TimeoutPs(LtssmState state) const {
  switch (state) {
    case S::kDetectQuiet:
      return 12 * ms_ps_;
    case S::kPollingActive:
    case S::kConfig:
    case S::kRecoveryLock:
      return 24 * ms_ps_;
    case S::kPollingConfig:
    case S::kRecoveryCfg:
      return 48 * ms_ps_;
    case S::kConfigIdle:
    case S::kRecoveryIdle:
      return 2 * ms_ps_;
    default:
      return kNever;
  }
}

uint64_t Ltssm::Deadline() const {
  const uint64_t timeout = TimeoutPs(state_);
  return timeout == kNever ? kNever : entered_ps_ + timeout;
}

bool Ltssm::TrainingState() const {
  return state_ == S::kPollingActive || state_ == S::kPollingConfig ||
         state_ == S::kConfig || state_ == S::kRecoveryLock ||
         state_ == S::kRecoveryCfg;
}

bool Ltssm::RecoveryState() const {
  return state_ == S::kRecoveryLock || state_ == S::kRecoveryCfg ||
         state_ == S::kRecoveryIdle;
}

TxMode Ltssm::Mode() const {
  if (state_ == S::kL0) {
    return TxMode::kL0;
  }
  if (state_ == S::kConfigIdle || state_ == S::kRecoveryIdle) {
    return TxMode::kIdle;
  }
  return TrainingState() ? TxMode::kTraining : TxMode::kSilent;
}

unsigned Ltssm::StatusCode() const {
  switch (state_) {
    case S::kDisabled:
      return 5;
    case S::kDetectQuiet:
    case S::kDetectActive:
      return 0;
    case S::kPollingActive:
    case S::kPollingConfig:
      return 1;
    case S::kConfig:
    case S::kConfigIdle:
      return 2;
    case S::kL0:
      return 3;
    default:
      return 4;
  }
}

flit::TrainingSet Ltssm::Record() const {
  const bool cfg = state_ == S::kConfig || state_ == S::kRecoveryCfg;
  const unsigned width_now = WidthNow();
  const bool ts2 = cfg && width_now != 0;
  flit::TrainingSet ts;
  ts.kind = ts2 ? flit::TrainingSetKind::kTs2 : flit::TrainingSetKind::kTs1;
  ts.profile_id = profile_id_;
  ts.rx_lane_mask = static_cast<uint16_t>(Locked());
  ts.proposed_width = static_cast<uint8_t>(ts2 ? width_now : 0);
  ts.initial_credits = own_init_;
  ts.in_recovery = RecoveryState();
  return ts;
}

LtssmEvents Ltssm::StartTrained(uint64_t now_ps) {
  profile_id_ = control_.profile_id;
  target_width_ = control_.target_width;
  own_init_ = control_.credit_init;
  partner_init_ = control_.credit_init;
  lock_ = profile_lanes_;
  partner_mask_ = profile_lanes_;
  width_ =
      phy::WidestWidth(profile_, std::min(target_width_, profile_.max_lanes));
  in_use_ = static_cast<uint32_t>((uint64_t{1} << width_) - 1);
  state_ = S::kL0;
  entered_ps_ = now_ps;
  up_ = true;
  LtssmEvents events;
  events.link_reset = true;
  events.link_up = true;
  return events;
}

LtssmEvents Ltssm::Step(const LtssmInputs& in, uint64_t now_ps) {
  // The common case, a link flit sent or received in L0, changes nothing
  // that outlives L0: skip the full evaluation.
  if (state_ == S::kL0 && control_.enable && !in.escalate && !in.bad_limit &&
      !in.retrain && in.lock_lost == 0 &&
      !(in.good && in.type == flit::FlitType::kTraining)) {
    return {};
  }
  LtssmEvents events = StepOnce(in, now_ps);
  // States that leave without an input (Detect.Active, Disabled with
  // ENABLE set) take their next step at once.
  for (int settle = 0; settle < 4; ++settle) {
    const LtssmState before = state_;
    const LtssmEvents more = StepOnce(LtssmInputs{}, now_ps);
    events.link_reset |= more.link_reset;
    events.link_up |= more.link_up;
    events.link_down |= more.link_down;
    events.retrain |= more.retrain;
    events.replay_all |= more.replay_all;
    events.width_changed |= more.width_changed;
    if (state_ == before) {
      break;
    }
  }
  return events;
}

LtssmEvents Ltssm::StepOnce(const LtssmInputs& in, uint64_t now_ps) {
  const flit::TrainingSet* ts = in.training_set;
  const bool is_ts = in.good && in.type == flit::FlitType::kTraining &&
                     ts != nullptr && ts->profile_id == profile_id_;
  const bool is_ts1 = is_ts && ts->kind == flit::TrainingSetKind::kTs1;
  const bool is_ts2 = is_ts && ts->kind == flit::TrainingSetKind::kTs2;
  const bool is_idle = in.good && in.type == flit::FlitType::kIdle;
  const bool is_link = in.good && (in.type == flit::FlitType::kNop ||
                                   in.type == flit::FlitType::kPayload ||
                                   in.type == flit::FlitType::kControl);
  const uint32_t rec_mask = is_ts ? ts->rx_lane_mask : 0;

  const unsigned width_now = WidthNow();
  const bool same_mask = is_ts && rec_mask != 0 && rec_mask == partner_mask_;
  bool wanted = false;
  bool restart_run = false;
  switch (state_) {
    case S::kPollingConfig:
    case S::kRecoveryLock:
      wanted = same_mask;
      restart_run = is_ts && !same_mask;
      break;
    case S::kConfig:
    case S::kRecoveryCfg:
      wanted = is_ts2 && ts->proposed_width == width_now && width_now != 0;
      break;
    case S::kConfigIdle:
    case S::kRecoveryIdle:
      wanted = is_idle;
      break;
    default:
      break;
  }

  const bool sent_enough = sent_ >= kTsSentToExit;
  const bool exit_ready = heard_ && sent_enough;
  const bool timed_out = Deadline() != kNever && now_ps >= Deadline();
  const bool any_lock = Locked() != 0;
  const bool lane_lost = (in.lock_lost & in_use_) != 0 && !control_.loopback;
  const bool leave_l0 =
      in.escalate || in.bad_limit || in.retrain || lane_lost || is_ts;
  const bool cfg = state_ == S::kConfig || state_ == S::kRecoveryCfg;
  const bool width_changed = cfg && width_now != proposed_;

  LtssmState next = state_;
  switch (state_) {
    case S::kDisabled:
      if (control_.enable) next = S::kDetectQuiet;
      break;
    case S::kDetectQuiet:
      if (timed_out || in.rx_flit) next = S::kDetectActive;
      break;
    case S::kDetectActive:
      next = ((receivers_ & profile_lanes_) != 0 || control_.loopback)
                 ? S::kPollingActive
                 : S::kDetectQuiet;
      break;
    case S::kPollingActive:
      if (any_lock && sent_enough) {
        next = S::kPollingConfig;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      }
      break;
    case S::kPollingConfig:
      if (heard_) {
        next = S::kConfig;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      }
      break;
    case S::kConfig:
      if (exit_ready && !width_changed) {
        next = S::kConfigIdle;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      }
      break;
    case S::kConfigIdle:
      if (exit_ready || is_link) {
        next = S::kL0;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      }
      break;
    case S::kL0:
      if (leave_l0) next = S::kRecoveryLock;
      break;
    case S::kRecoveryLock:
      if (any_lock && exit_ready) {
        next = S::kRecoveryCfg;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      }
      break;
    case S::kRecoveryCfg:
      if (exit_ready && !width_changed) {
        next = S::kRecoveryIdle;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      }
      break;
    case S::kRecoveryIdle:
      if (exit_ready || is_link) {
        next = S::kL0;
      } else if (timed_out) {
        next = S::kDetectQuiet;
      } else if (is_ts1 || lane_lost) {
        next = S::kRecoveryLock;
      }
      break;
  }
  // The partner went through Detect while we kept the link (DLL-6.13).
  if (RecoveryState() && is_ts && !ts->in_recovery) {
    next = S::kDetectQuiet;
  }
  if (!control_.enable) {
    next = S::kDisabled;
  }

  const bool entering = next != state_;
  const bool detect_entry =
      entering && (next == S::kDetectQuiet || next == S::kDisabled);

  // Lanes: locked after 8 consecutive good training sets on the lane.
  if (TrainingState() && in.rx_flit && in.rx_lane < profile_.max_lanes) {
    unsigned& run = lane_run_[in.rx_lane];
    if (is_ts && run < kTsReceivedToExit) {
      ++run;
    } else if (!is_ts) {
      run = 0;
    }
    if (run == kTsReceivedToExit) {
      lock_ |= 1u << in.rx_lane;
    }
  }
  if (!control_.loopback) {
    for (unsigned lane = 0; lane < profile_.max_lanes; ++lane) {
      if ((in.lock_lost >> lane) & 1u) {
        lock_ &= ~(1u << lane);
        lane_run_[lane] = 0;
      }
    }
  }
  lock_ &= profile_lanes_;

  // Counters of the exit rules.
  if (in.tx_sent && !sent_enough) {
    ++sent_;
  }
  if (wanted) {
    run_ = std::min(run_ + 1, kTsReceivedToExit);
  } else if (restart_run) {
    run_ = 1;
  } else if (in.rx_flit) {
    run_ = 0;
  }
  heard_ = heard_ || run_ >= kTsReceivedToExit;
  proposed_ = width_now;
  if (entering || width_changed) {
    sent_ = 0;
    run_ = 0;
    heard_ = false;
  }

  if (is_ts) {
    partner_mask_ = rec_mask;
  }
  if (is_ts2) {
    partner_width_ = ts->proposed_width;
  }
  if (entering) {
    partner_width_ = 0;
  }
  // Credits come from TS2 of Configuration only (DLL-5.7).
  if (state_ == S::kConfig && is_ts2) {
    partner_init_ = ts->initial_credits;
  }

  LtssmEvents events;
  const unsigned old_width = width();
  if (cfg && entering && next != S::kDetectQuiet && next != S::kDisabled) {
    width_ = width_now;
    in_use_ = 0;
    for (unsigned lane = 0, taken = 0;
         lane < profile_.max_lanes && taken < width_now; ++lane) {
      if ((Usable() >> lane) & 1u) {
        in_use_ |= 1u << lane;
        ++taken;
      }
    }
  }
  if (state_ == S::kDetectActive && next == S::kPollingActive) {
    profile_id_ = control_.profile_id;
    target_width_ = control_.target_width;
    own_init_ = control_.credit_init;
  }
  events.link_reset = state_ == S::kConfig && next == S::kConfigIdle;
  events.replay_all = state_ == S::kRecoveryIdle && next == S::kL0;
  events.retrain = state_ == S::kL0 && next == S::kRecoveryLock;
  const bool was_up = up_;
  if (state_ == S::kConfigIdle && next == S::kL0) {
    up_ = true;
  }
  if (detect_entry) {
    lock_ = 0;
    std::fill(std::begin(lane_run_), std::end(lane_run_), 0u);
    partner_mask_ = 0;
    width_ = 0;
    in_use_ = 0;
    up_ = false;
  }
  events.link_up = !was_up && up_;
  events.link_down = was_up && !up_;
  events.width_changed = was_up && up_ && width() != old_width;
  if (entering) {
    state_ = next;
    entered_ps_ = now_ps;
  }
  return events;
}

}  // namespace lq::link
