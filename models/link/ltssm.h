// SPDX-License-Identifier: Apache-2.0
// Link training as a plain state machine (docs/spec/dll.md §6, §7): the
// states of the DLL-6 diagram, per-lane lock, width negotiation, training-set
// records and the link events. It makes the RTL lc_ltssm's transitions, but
// is stepped by events (a flit received or sent, a lane report, a register
// write, a timeout) at a time in picoseconds instead of every clock cycle.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "models/flit/dlp.h"
#include "models/flit/training_set.h"
#include "models/link/link_params.h"
#include "models/link/link_transmitter.h"
#include "models/phy/link_profile.h"

namespace lq::link {

enum class LtssmState {
  kDisabled,
  kDetectQuiet,
  kDetectActive,
  kPollingActive,
  kPollingConfig,
  kConfig,
  kConfigIdle,
  kL0,
  kRecoveryLock,
  kRecoveryCfg,
  kRecoveryIdle,
};

const char* LtssmStateName(LtssmState state);

// Register fields the LTSSM reads (CTRL, CREDIT_INIT); profile, width and
// INIT are latched at the next entry to Polling (DLL-8.7).
struct LtssmControl {
  bool enable = true;
  bool loopback = false;
  uint8_t profile_id = 0;
  unsigned target_width = 16;
  VcCredits credit_init{64, 64, 64, 64};
};

// What happened in one step, besides the state.
struct LtssmInputs {
  bool rx_flit = false;  // A flit was checked, good or bad...
  unsigned rx_lane = 0;  // ...on this lane (TRAINING copies, PHY-4.7),
  bool good = false;
  flit::FlitType type = flit::FlitType::kIdle;
  const flit::TrainingSet* training_set = nullptr;  // Good TRAINING only.
  bool tx_sent = false;    // The transmitter sent a flit.
  uint32_t lock_lost = 0;  // Lanes that lost lock (PHY-5.4).
  bool escalate = false;   // Replay escalation (DLL-4.7).
  bool bad_limit = false;  // RX_BAD_FLIT_LIMIT bad flits (DLL-3.2).
  bool retrain = false;    // CTRL.RETRAIN
};

// The link events of DLL-7 and the datapath resets they cause.
struct LtssmEvents {
  bool link_reset = false;  // Entry to Configuration.Idle (DLL-2.2, DLL-5.9).
  bool link_up = false;     // DLL-7.1
  bool link_down = false;   // DLL-7.2 (also resets the datapath).
  bool retrain = false;     // DLL-7.3
  bool replay_all = false;  // L0 re-entered from Recovery (DLL-4.9).
  bool width_changed = false;  // STATUS.WIDTH changed while up (DLL-7.4).
};

class Ltssm {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  // `ms_ps`: picoseconds per specified millisecond, i.e. 1e9 times
  // LTSSM_TIME_SCALE (DLL-6.2).
  Ltssm(const phy::LinkProfile& profile, uint64_t ms_ps);

  void set_control(const LtssmControl& control) { control_ = control; }
  const LtssmControl& control() const { return control_; }
  void set_receivers(uint32_t lanes) { receivers_ = lanes; }

  // One evaluation at `now_ps` with `in`; settles states that leave at once.
  LtssmEvents Step(const LtssmInputs& in, uint64_t now_ps);
  // When the current state times out, or kNever.
  uint64_t Deadline() const;

  LtssmState state() const { return state_; }
  TxMode Mode() const;
  bool link_up() const { return up_; }
  unsigned width() const { return up_ ? width_ : 0; }  // STATUS.WIDTH
  uint32_t lanes_in_use() const { return in_use_; }
  uint8_t profile_id() const { return profile_id_; }  // STATUS.PROFILE
  unsigned StatusCode() const;                        // STATUS.LTSSM
  const VcCredits& own_init() const { return own_init_; }
  const VcCredits& partner_init() const { return partner_init_; }
  // The record TRAINING flits carry now (DLL-6.3).
  flit::TrainingSet Record() const;

  // DLL-6.12: as if Configuration.Idle had just completed at the widest
  // width allowed by TARGET_WIDTH on every lane, with INIT from `control`.
  LtssmEvents StartTrained(uint64_t now_ps);

 private:
  LtssmEvents StepOnce(const LtssmInputs& in, uint64_t now_ps);
  uint32_t Locked() const;
  uint32_t Usable() const;
  unsigned WidthNow() const;
  uint64_t TimeoutPs(LtssmState state) const;
  bool TrainingState() const;
  bool RecoveryState() const;

  phy::LinkProfile profile_;
  uint32_t profile_lanes_;
  uint64_t ms_ps_;
  LtssmControl control_;
  uint32_t receivers_ = 0;

  LtssmState state_ = LtssmState::kDetectQuiet;
  uint64_t entered_ps_ = 0;
  unsigned sent_ = 0;
  unsigned run_ = 0;
  bool heard_ = false;
  bool up_ = false;
  uint8_t profile_id_ = 0;
  unsigned target_width_ = 16;
  VcCredits own_init_{64, 64, 64, 64};
  VcCredits partner_init_{};
  unsigned proposed_ = 0;
  unsigned partner_width_ = 0;
  unsigned width_ = 0;
  uint32_t lock_ = 0;
  uint32_t partner_mask_ = 0;
  uint32_t in_use_ = 0;
  unsigned lane_run_[32] = {};
};

}  // namespace lq::link
