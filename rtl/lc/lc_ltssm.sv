// SPDX-License-Identifier: Apache-2.0
// Link training state machine of the link controller: lanes, width, training sets (DLL-6, DLL-7).
//
// The PHY hands over one flit content per beat. While training it reports every TRAINING flit
// with the lane it arrived on (PHY-4.7); how the copies map to beats is the PHY's business, so
// this block only counts, per lane, consecutive good training sets (DLL-6.5). Loss of lock
// arrives as a per-lane pulse (PHY-5.4) and receiver detection as a lane mask. Timeouts are in
// units of MsCycles clock cycles per millisecond, which tests shrink (DLL-6.2).
`include "prim_assert.svh"

module lc_ltssm #(
  parameter int MsCycles = 1000000  // Cycles per millisecond at 1 GHz, times LTSSM_TIME_SCALE.
) (
  input  logic clk_i,
  input  logic rst_ni,

  // Register block: CTRL and CREDIT_INIT as written now; profile, width and INIT are latched at
  // the next entry to Polling (DLL-8.7).
  input  logic enable_i,     // CTRL.ENABLE
  input  logic retrain_i,    // CTRL.RETRAIN pulse
  input  logic loopback_i,   // CTRL.LOOPBACK: train against ourselves on every lane (DLL-6.11).
  input  logic profile_i,    // CTRL.PROFILE (0 pcie6, 1 ib)
  input  logic [4:0] target_width_i,  // CTRL.TARGET_WIDTH
  input  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] credit_init_i,

  input  logic escalate_i,   // Replay escalation (DLL-4.7).
  input  logic bad_limit_i,  // RX_BAD_FLIT_LIMIT consecutive bad flits (DLL-3.2).

  // PHY lane status.
  input  logic [lc_pkg::MAX_LANES-1:0] receiver_i,   // Lanes that see a receiver (Detect.Active).
  input  logic [lc_pkg::MAX_LANES-1:0] lock_lost_i,  // Loss-of-lock pulses (PHY-5.4).

  // Received flits (lc_rx): every checked flit, good or bad, with the lane it came on.
  input  logic rx_flit_i,
  input  logic [lc_pkg::LANE_BITS-1:0] rx_lane_i,
  input  logic good_flit_i,
  input  logic [2:0] good_type_i,
  input  logic [lc_pkg::TS_BYTES*8-1:0] good_record_i,  // Slot head of a good flit.

  input  logic tx_sent_i,  // The transmitter chose a flit this cycle.

  output logic l0_o,
  output logic idle_o,
  output logic training_o,
  output logic [lc_pkg::TS_BYTES*8-1:0] ts_record_o,  // What TRAINING flits carry (DLL-6.3).
  output logic link_reset_o,  // Entry to Configuration.Idle: reset sequence and credit state.
  output logic link_down_o,   // Link down (DLL-7.2): empty the replay buffer (DLL-4.10).
  output logic replay_all_o,  // L0 re-entered from Recovery (DLL-4.9).
  output logic profile_o,     // Profile latched at Polling.
  output logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] own_init_o,      // Latched at Polling.
  output logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] partner_init_o,  // From its TS2.
  output logic [2:0] state_o,  // STATUS.LTSSM code (lc_reg_pkg::lc_ltssm_e).
  output logic [4:0] width_o,  // STATUS.WIDTH: negotiated lanes, 0 while the link is down.
  output logic link_up_o,
  output logic link_up_event_o,
  output logic link_down_event_o,
  output logic retrain_event_o
);
  typedef enum logic [3:0] {
    StDisabled,
    StDetectQuiet,
    StDetectActive,
    StPollingActive,
    StPollingConfig,
    StConfig,
    StConfigIdle,
    StL0,
    StRecoveryLock,
    StRecoveryCfg,
    StRecoveryIdle
  } state_e;

  localparam int Lanes = lc_pkg::MAX_LANES;
  localparam int TimerBits = 32;
  localparam int SentBits = $clog2(lc_pkg::TS_SENT_TO_EXIT + 1);
  localparam int RunBits = $clog2(lc_pkg::TS_RECEIVED_TO_EXIT + 1);
  localparam logic [RunBits-1:0] RunToExit = RunBits'(lc_pkg::TS_RECEIVED_TO_EXIT);

  state_e state_q, state_d;
  logic [TimerBits-1:0] timer_q, timer_d;
  logic [SentBits-1:0] sent_q, sent_d;
  logic [RunBits-1:0] run_q, run_d;  // Consecutive wanted flits received in this state.
  logic heard_q, heard_d;            // run reached TS_RECEIVED_TO_EXIT in this state (sticky).
  logic up_q, up_d;                  // Between a link up and the next link down (DLL-7.2).
  logic link_reset_q, link_reset_d, replay_all_q, replay_all_d, link_down_q;
  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] partner_init_q, partner_init_d;
  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] own_init_q;
  logic profile_q;
  logic [4:0] target_width_q, proposed_q, proposed_d, width_q, width_d;
  logic [4:0] partner_width_q, partner_width_d;  // Latest TS2 proposal in this Cfg state.
  logic [Lanes-1:0] lock_q, lock_d, partner_mask_q, partner_mask_d, in_use_q, in_use_d;
  logic [Lanes*RunBits-1:0] lane_run_q, lane_run_d;

  // ---------------------------------------------------------------------------------------------
  // Training-set records we accept (DLL-6.3): a known kind, our profile, 4 VCs, INIT < 4096,
  // a mask within the profile's lanes (zero until the sender locks a lane), a width the profile
  // allows in TS2 only.
  localparam int RecTop = lc_pkg::TS_BYTES * 8 - 1;  // Bit 7 of record byte 0.
  logic [7:0] rec_kind, rec_profile, rec_width;
  logic rec_in_recovery;
  logic [15:0] rec_mask;
  logic [Lanes-1:0] profile_lanes;
  logic [4:0] profile_max_width;
  logic is_ts, is_ts1, is_ts2, is_idle, is_link;
  assign rec_kind = good_record_i[RecTop -: 8];
  assign rec_profile = good_record_i[RecTop - 8 -: 8];
  assign rec_mask = good_record_i[RecTop - 16 -: 16];
  assign rec_width = good_record_i[RecTop - 32 -: 8];
  assign rec_in_recovery = good_record_i[RecTop - 119];  // Flags byte 14, bit 0.
  assign profile_lanes = profile_q ? lc_pkg::LANE_MASK_IB : lc_pkg::LANE_MASK_PCIE6;
  assign profile_max_width = profile_q ? 5'd4 : 5'd16;
  // lc_rx lets only valid records through (lc_ts_check); one of another profile is ignored.
  assign is_ts = good_flit_i && good_type_i == lc_pkg::FLIT_TRAINING &&
                 rec_profile == {7'd0, profile_q};
  assign is_ts1 = is_ts && rec_kind == lc_pkg::TS_KIND_TS1;
  assign is_ts2 = is_ts && rec_kind == lc_pkg::TS_KIND_TS2;
  assign is_idle = good_flit_i && good_type_i == lc_pkg::FLIT_IDLE;
  assign is_link = good_flit_i && (good_type_i == lc_pkg::FLIT_NOP ||
                                   good_type_i == lc_pkg::FLIT_PAYLOAD ||
                                   good_type_i == lc_pkg::FLIT_CONTROL);

  // ---------------------------------------------------------------------------------------------
  // Lanes (DLL-6.5): locked after 8 consecutive good training sets on the lane; unlocked by the
  // PHY's loss of lock or on entering Detect. In loopback every lane of the profile is usable.
  logic training_state, recovery_state, detect_entry, polling_entry, partner_restarted;
  logic [Lanes-1:0] locked, usable, usable_low;
  logic [4:0] usable_cap, width_now, taken, in_use_count;
  assign locked = loopback_i ? profile_lanes : lock_q;
  assign usable = locked & (loopback_i ? profile_lanes : partner_mask_q) & profile_lanes;

  always_comb begin
    lock_d = lock_q;
    lane_run_d = lane_run_q;
    if (training_state && rx_flit_i) begin
      for (int l = 0; l < Lanes; l++) begin
        if (rx_lane_i == lc_pkg::LANE_BITS'(l)) begin
          if (is_ts && lane_run_q[l*RunBits +: RunBits] < RunToExit) begin
            lane_run_d[l*RunBits +: RunBits] = lane_run_q[l*RunBits +: RunBits] + 1'b1;
          end else if (!is_ts) begin
            lane_run_d[l*RunBits +: RunBits] = '0;
          end
          if (lane_run_d[l*RunBits +: RunBits] == RunToExit) lock_d[l] = 1'b1;
        end
      end
    end
    for (int l = 0; l < Lanes; l++) begin
      if (lock_lost_i[l] && !loopback_i) begin
        lock_d[l] = 1'b0;
        lane_run_d[l*RunBits +: RunBits] = '0;
      end
    end
    lock_d = lock_d & profile_lanes;
    if (detect_entry) begin
      lock_d = '0;
      lane_run_d = '0;
    end
  end

  // Width W: the widest allowed width within the usable lanes, CTRL.TARGET_WIDTH and the
  // partner's proposal, so that two different targets settle on the narrower; the lanes in use
  // are the lowest-numbered usable ones (PHY-5.5).
  always_comb begin
    usable_cap = lc_pkg::lane_count(usable);
    if (target_width_q < usable_cap) usable_cap = target_width_q;
    if (profile_max_width < usable_cap) usable_cap = profile_max_width;
    if (partner_width_q != '0 && partner_width_q < usable_cap) usable_cap = partner_width_q;
    if (usable_cap >= 5'd16) width_now = 5'd16;
    else if (usable_cap >= 5'd8) width_now = 5'd8;
    else if (usable_cap >= 5'd4) width_now = 5'd4;
    else if (usable_cap >= 5'd2) width_now = 5'd2;
    else width_now = usable_cap;
    usable_low = '0;
    taken = '0;
    for (int l = 0; l < Lanes; l++) begin
      if (usable[l] && taken < width_now) begin
        usable_low[l] = 1'b1;
        taken = taken + 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The wanted flit and the timeout (dll.md §9) per state.
  logic wanted, restart_run, same_mask;
  logic [TimerBits-1:0] timeout;
  assign same_mask = is_ts && rec_mask != '0 && rec_mask[Lanes-1:0] == partner_mask_q;
  always_comb begin
    wanted = 1'b0;
    restart_run = 1'b0;  // The flit starts a new run: a TS with a new mask.
    timeout = '1;
    unique case (state_q)
      StDetectQuiet: timeout = TimerBits'(12 * MsCycles);
      StPollingActive: timeout = TimerBits'(24 * MsCycles);
      StPollingConfig, StRecoveryLock: begin
        wanted = same_mask;
        restart_run = is_ts && !same_mask;
        timeout = TimerBits'((state_q == StPollingConfig ? 48 : 24) * MsCycles);
      end
      StConfig, StRecoveryCfg: begin
        wanted = is_ts2 && rec_width == 8'(width_now) && width_now != '0;
        timeout = TimerBits'((state_q == StConfig ? 24 : 48) * MsCycles);
      end
      StConfigIdle, StRecoveryIdle: begin
        wanted = is_idle;
        timeout = TimerBits'(2 * MsCycles);
      end
      default: ;
    endcase
  end

  logic sent_enough, timed_out, exit_ready, leave_l0, lane_lost, any_lock, width_changed;
  assign sent_enough = sent_q >= SentBits'(lc_pkg::TS_SENT_TO_EXIT);
  assign exit_ready = heard_q && sent_enough;
  assign timed_out = timer_q >= timeout;
  assign any_lock = locked != '0;
  assign lane_lost = (lock_lost_i & in_use_q) != '0 && !loopback_i;
  assign leave_l0 = escalate_i || bad_limit_i || retrain_i || lane_lost || is_ts;
  // In the Cfg states 16 TS2 must be sent after the width last changed.
  assign width_changed = (state_q == StConfig || state_q == StRecoveryCfg) &&
                         width_now != proposed_q;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StDisabled: if (enable_i) state_d = StDetectQuiet;
      StDetectQuiet: if (timed_out || rx_flit_i) state_d = StDetectActive;
      StDetectActive: begin
        if ((receiver_i & profile_lanes) != '0 || loopback_i) state_d = StPollingActive;
        else state_d = StDetectQuiet;
      end
      StPollingActive: begin
        if (any_lock && sent_enough) state_d = StPollingConfig;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StPollingConfig: begin
        if (heard_q) state_d = StConfig;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StConfig: begin
        if (exit_ready && !width_changed) state_d = StConfigIdle;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StConfigIdle: begin
        if (exit_ready || is_link) state_d = StL0;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StL0: if (leave_l0) state_d = StRecoveryLock;
      StRecoveryLock: begin
        if (any_lock && exit_ready) state_d = StRecoveryCfg;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StRecoveryCfg: begin
        if (exit_ready && !width_changed) state_d = StRecoveryIdle;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StRecoveryIdle: begin
        if (exit_ready || is_link) state_d = StL0;
        else if (timed_out) state_d = StDetectQuiet;
        else if (is_ts1 || lane_lost) state_d = StRecoveryLock;
      end
      default: state_d = StDetectQuiet;
    endcase
    if (partner_restarted) state_d = StDetectQuiet;
    if (!enable_i) state_d = StDisabled;
  end

  logic entering;
  assign entering = state_d != state_q;
  assign detect_entry = entering && (state_d == StDetectQuiet || state_d == StDisabled);
  assign polling_entry = state_q == StDetectActive && state_d == StPollingActive;
  assign recovery_state = state_q == StRecoveryLock || state_q == StRecoveryCfg ||
                          state_q == StRecoveryIdle;
  // The partner went through Detect while we kept the link: restart from Detect (DLL-6.13).
  assign partner_restarted = recovery_state && is_ts && !rec_in_recovery;
  assign training_state = state_q == StPollingActive || state_q == StPollingConfig ||
                          state_q == StConfig || state_q == StRecoveryLock ||
                          state_q == StRecoveryCfg;

  always_comb begin
    timer_d = entering ? '0 : timer_q + 1'b1;
    if (timer_q == '1) timer_d = timer_q;
    sent_d = sent_q;
    if (tx_sent_i && !sent_enough) sent_d = sent_q + 1'b1;
    run_d = run_q;
    if (wanted) begin
      if (run_q < RunToExit) run_d = run_q + 1'b1;
    end else if (restart_run) begin
      run_d = RunBits'(1);
    end else if (rx_flit_i) begin
      run_d = '0;
    end
    heard_d = heard_q || run_d >= RunToExit;
    proposed_d = width_now;
    if (entering || width_changed) begin
      sent_d = '0;
      run_d = '0;
      heard_d = 1'b0;
    end

    partner_mask_d = partner_mask_q;
    if (is_ts) partner_mask_d = rec_mask[Lanes-1:0];
    partner_width_d = partner_width_q;
    if (is_ts2) partner_width_d = rec_width[4:0];
    if (entering) partner_width_d = '0;
    if (detect_entry) partner_mask_d = '0;
    // Credits come from TS2 of Configuration only; Recovery repeats but ignores them (DLL-5.7).
    partner_init_d = partner_init_q;
    if (state_q == StConfig && is_ts2) begin
      for (int v = 0; v < lc_pkg::NUM_VCS; v++) begin
        partner_init_d[v*lc_pkg::CREDIT_BITS +: lc_pkg::CREDIT_BITS] =
            good_record_i[RecTop - 52 - 16 * v -: 12];
      end
    end

    // The width and lanes agreed in a Cfg state hold from its Idle state on.
    width_d = width_q;
    in_use_d = in_use_q;
    if ((state_q == StConfig || state_q == StRecoveryCfg) && entering &&
        state_d != StDetectQuiet && state_d != StDisabled) begin
      width_d = width_now;
      in_use_d = usable_low;
    end
    if (detect_entry) begin
      width_d = '0;
      in_use_d = '0;
    end

    up_d = up_q;
    if (state_q == StConfigIdle && state_d == StL0) up_d = 1'b1;
    if (detect_entry) up_d = 1'b0;
  end

  // ---------------------------------------------------------------------------------------------
  // Training-set record (DLL-6.3): kind, profile, lane mask, width (TS2), VC count, INIT.
  logic send_ts2;
  assign send_ts2 = (state_q == StConfig || state_q == StRecoveryCfg) && width_now != '0;
  always_comb begin
    ts_record_o = '0;
    ts_record_o[RecTop -: 8] = send_ts2 ? lc_pkg::TS_KIND_TS2 : lc_pkg::TS_KIND_TS1;
    ts_record_o[RecTop - 15] = profile_q;
    ts_record_o[RecTop - 16 -: 16] = 16'(locked);
    ts_record_o[RecTop - 32 -: 8] = send_ts2 ? {3'd0, width_now} : 8'd0;
    ts_record_o[RecTop - 40 -: 8] = 8'(lc_pkg::NUM_VCS);
    for (int v = 0; v < lc_pkg::NUM_VCS; v++) begin
      ts_record_o[RecTop - 48 - 16 * v -: 16] =
          {4'd0, own_init_q[v*lc_pkg::CREDIT_BITS +: lc_pkg::CREDIT_BITS]};
    end
    ts_record_o[RecTop - 119] = recovery_state;  // Byte 14 bit 0: in_recovery (DLL-6.13).
  end

  assign l0_o = state_q == StL0;
  assign idle_o = state_q == StConfigIdle || state_q == StRecoveryIdle;
  assign training_o = training_state;
  // Registered, so that the datapath's events never loop back through state_d in one cycle:
  // the pulses come in the first cycle of the new state.
  assign link_reset_d = state_q == StConfig && state_d == StConfigIdle;
  assign replay_all_d = state_q == StRecoveryIdle && state_d == StL0;
  assign link_reset_o = link_reset_q;
  assign link_down_o = link_down_q;
  assign replay_all_o = replay_all_q;
  assign profile_o = profile_q;
  assign own_init_o = own_init_q;
  assign partner_init_o = partner_init_q;
  assign width_o = up_q ? width_q : 5'd0;
  assign link_up_o = up_q;
  assign link_up_event_o = !up_q && up_d;
  assign link_down_event_o = up_q && !up_d;
  assign retrain_event_o = state_q == StL0 && state_d == StRecoveryLock;

  always_comb begin
    unique case (state_q)
      StDisabled: state_o = 3'd5;
      StDetectQuiet, StDetectActive: state_o = 3'd0;
      StPollingActive, StPollingConfig: state_o = 3'd1;
      StConfig, StConfigIdle: state_o = 3'd2;
      StL0: state_o = 3'd3;
      default: state_o = 3'd4;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StDetectQuiet;
      timer_q <= '0;
      sent_q <= '0;
      run_q <= '0;
      heard_q <= 1'b0;
      up_q <= 1'b0;
      partner_init_q <= '0;
      link_reset_q <= 1'b0;
      link_down_q <= 1'b0;
      replay_all_q <= 1'b0;
      lock_q <= '0;
      lane_run_q <= '0;
      partner_mask_q <= '0;
      proposed_q <= '0;
      partner_width_q <= '0;
      width_q <= '0;
      in_use_q <= '0;
      // The registers' reset values, until the first Polling latches what they hold then.
      profile_q <= lc_reg_pkg::LC_CTRL_PROFILE_RESET;
      target_width_q <= lc_reg_pkg::LC_CTRL_TARGET_WIDTH_RESET;
      own_init_q <= {lc_pkg::NUM_VCS{lc_reg_pkg::LC_CREDIT_INIT_CREDITS_RESET}};
    end else begin
      link_reset_q <= link_reset_d;
      link_down_q <= link_down_event_o;
      replay_all_q <= replay_all_d;
      state_q <= state_d;
      timer_q <= timer_d;
      sent_q <= sent_d;
      run_q <= run_d;
      heard_q <= heard_d;
      up_q <= up_d;
      partner_init_q <= partner_init_d;
      lock_q <= lock_d;
      lane_run_q <= lane_run_d;
      partner_mask_q <= partner_mask_d;
      proposed_q <= proposed_d;
      partner_width_q <= partner_width_d;
      width_q <= width_d;
      in_use_q <= in_use_d;
      if (polling_entry) begin
        profile_q <= profile_i;
        target_width_q <= target_width_i;
        own_init_q <= credit_init_i;
      end
    end
  end

  `ASSERT(LtssmLegalState, state_q <= StRecoveryIdle)
  `ASSERT(LtssmL0OnlyWhenUp, !l0_o || up_q)
  `ASSERT(LtssmWidthAllowed, width_q == 5'd0 || width_q == 5'd1 || width_q == 5'd2 ||
                             width_q == 5'd4 || width_q == 5'd8 || width_q == 5'd16)
  assign in_use_count = lc_pkg::lane_count(in_use_q);
  `ASSERT(LtssmLanesInUseMatchWidth, in_use_count == width_q)

  // Functional coverage: every state, every transition the spec draws, and every cause of a
  // retrain (scripts/rtl-coverage).
  `COVER(CovDetectToPolling, state_q == StDetectActive && state_d == StPollingActive)
  `COVER(CovDetectNoReceiver, state_q == StDetectActive && state_d == StDetectQuiet)
  `COVER(CovPollingActiveTimeout, state_q == StPollingActive && state_d == StDetectQuiet)
  `COVER(CovPollingToConfig, state_q == StPollingConfig && state_d == StConfig)
  `COVER(CovPollingConfigTimeout, state_q == StPollingConfig && state_d == StDetectQuiet)
  `COVER(CovConfigToIdle, state_q == StConfig && state_d == StConfigIdle)
  `COVER(CovConfigTimeout, state_q == StConfig && state_d == StDetectQuiet)
  `COVER(CovConfigWidthChange, width_changed && state_q == StConfig)
  `COVER(CovLinkUp, link_up_event_o)
  `COVER(CovConfigIdleTimeout, state_q == StConfigIdle && state_d == StDetectQuiet)
  `COVER(CovIdleEarlyL0, idle_o && is_link)
  `COVER(CovRetrainEscalation, l0_o && escalate_i)
  `COVER(CovRetrainBadFlits, l0_o && bad_limit_i)
  `COVER(CovRetrainRegister, l0_o && retrain_i)
  `COVER(CovRetrainLaneLost, l0_o && lane_lost)
  `COVER(CovRetrainPartner, l0_o && is_ts)
  `COVER(CovRecoveryLockToCfg, state_q == StRecoveryLock && state_d == StRecoveryCfg)
  `COVER(CovRecoveryLockTimeout, state_q == StRecoveryLock && state_d == StDetectQuiet)
  `COVER(CovRecoveryCfgToIdle, state_q == StRecoveryCfg && state_d == StRecoveryIdle)
  `COVER(CovRecoveryCfgTimeout, state_q == StRecoveryCfg && state_d == StDetectQuiet)
  `COVER(CovRecoveryIdleToL0, replay_all_d)
  `COVER(CovRecoveryIdleTs1, state_q == StRecoveryIdle && is_ts1)
  `COVER(CovRecoveryIdleLaneLost, state_q == StRecoveryIdle && lane_lost)
  `COVER(CovRecoveryIdleTimeout, state_q == StRecoveryIdle && state_d == StDetectQuiet)
  `COVER(CovNarrowerAfterRecovery, state_q == StRecoveryCfg && state_d == StRecoveryIdle &&
                                   width_now < width_q)
  `COVER(CovPartnerRestarted, partner_restarted)
  `COVER(CovDisabled, state_q != StDisabled && state_d == StDisabled)
  `COVER(CovLinkDown, link_down_event_o)
endmodule
