// Link training state machine of the link controller (DLL-6, DLL-7), reduced: no lanes.
//
// The PHY in RTL is one abstract flit stream, so there is no per-lane lock and no width
// negotiation: every lane of the profile counts as locked and the width is CTRL.TARGET_WIDTH
// clipped to the profile. Polling.Active and Polling.Configuration are one state (Polling), and
// Detect.Active is passed at once (a receiver is always present). Timeouts are in units of
// MsCycles clock cycles per millisecond, which tests shrink (DLL-6.2).
`include "prim_assert.svh"

module lc_ltssm #(
  parameter int MsCycles = 1000000  // Cycles per millisecond at 1 GHz, times LTSSM_TIME_SCALE.
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic enable_i,   // CTRL.ENABLE
  input  logic retrain_i,  // CTRL.RETRAIN pulse
  input  logic escalate_i,  // Replay escalation (DLL-4.7).
  input  logic bad_limit_i,  // RX_BAD_FLIT_LIMIT consecutive bad flits (DLL-3.2).

  // Received flits (lc_rx): every checked flit, good or bad.
  input  logic rx_flit_i,
  input  logic good_flit_i,
  input  logic [2:0] good_type_i,
  input  logic [lc_pkg::TS_BYTES*8-1:0] good_record_i,  // Slot head of a good flit.
  input  logic own_profile_i,  // CTRL.PROFILE (0 pcie6, 1 ib).

  input  logic tx_sent_i,  // The transmitter chose a flit this cycle.

  output logic l0_o,
  output logic idle_o,
  output logic training_o,
  output logic [7:0] ts_kind_o,
  output logic link_reset_o,  // Entry to Configuration.Idle: reset sequence and credit state.
  output logic replay_all_o,  // L0 re-entered from Recovery (DLL-4.9).
  output logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] partner_init_o,
  output logic [2:0] state_o,  // STATUS.LTSSM code (lc_reg_pkg::lc_ltssm_e).
  output logic link_up_o,
  output logic link_up_event_o,
  output logic link_down_event_o,
  output logic retrain_event_o
);
  typedef enum logic [3:0] {
    StDisabled,
    StDetectQuiet,
    StPolling,
    StConfig,
    StConfigIdle,
    StL0,
    StRecoveryLock,
    StRecoveryCfg,
    StRecoveryIdle
  } state_e;

  localparam int TimerBits = 32;
  localparam int SentBits = $clog2(lc_pkg::TS_SENT_TO_EXIT + 1);
  localparam int RunBits = $clog2(lc_pkg::TS_RECEIVED_TO_EXIT + 1);

  state_e state_q, state_d;
  logic [TimerBits-1:0] timer_q, timer_d;
  logic [SentBits-1:0] sent_q, sent_d;
  logic [RunBits-1:0] run_q, run_d;  // Consecutive wanted flits received in this state.
  logic heard_q, heard_d;            // run reached TS_RECEIVED_TO_EXIT in this state (sticky).
  logic up_q, up_d;                  // Between a link up and the next link down (DLL-7.2).
  logic link_reset_q, link_reset_d, replay_all_q, replay_all_d;
  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] partner_init_q, partner_init_d;

  // A training-set record we accept (DLL-6.3): a known kind, our profile, 4 VCs.
  logic [7:0] rec_kind, rec_profile, rec_width, rec_vcs;
  logic [15:0] rec_mask;
  logic [lc_pkg::NUM_VCS-1:0] rec_init_ok;
  logic is_ts, is_ts1, is_ts2, is_idle, is_link;
  assign rec_kind = good_record_i[lc_pkg::TS_BYTES*8-1 -: 8];
  assign rec_profile = good_record_i[lc_pkg::TS_BYTES*8-9 -: 8];
  assign rec_mask = good_record_i[lc_pkg::TS_BYTES*8-17 -: 16];
  assign rec_width = good_record_i[lc_pkg::TS_BYTES*8-33 -: 8];
  assign rec_vcs = good_record_i[lc_pkg::TS_BYTES*8-41 -: 8];
  for (genvar v = 0; v < lc_pkg::NUM_VCS; v++) begin : gen_init_check
    // INIT is 0..4095 in a 16-bit field.
    assign rec_init_ok[v] = good_record_i[(lc_pkg::TS_BYTES - 6 - 2 * v) * 8 - 1 -: 4] == 4'd0;
  end
  // Rejecting a record here makes its flit count as "not a TS" for the exit rules.
  assign is_ts = good_flit_i && good_type_i == lc_pkg::FLIT_TRAINING && rec_mask != '0 &&
                 ((rec_kind == lc_pkg::TS_KIND_TS1 && rec_width == 8'd0) ||
                  (rec_kind == lc_pkg::TS_KIND_TS2 && rec_width != 8'd0)) &&
                 rec_profile == {7'd0, own_profile_i} && rec_vcs == 8'(lc_pkg::NUM_VCS) &&
                 rec_init_ok == '1;
  assign is_ts1 = is_ts && rec_kind == lc_pkg::TS_KIND_TS1;
  assign is_ts2 = is_ts && rec_kind == lc_pkg::TS_KIND_TS2;
  assign is_idle = good_flit_i && good_type_i == lc_pkg::FLIT_IDLE;
  assign is_link = good_flit_i && (good_type_i == lc_pkg::FLIT_NOP ||
                                   good_type_i == lc_pkg::FLIT_PAYLOAD);

  // The wanted flit per state and the timeout (dll.md §9) per state.
  logic wanted;
  logic [TimerBits-1:0] timeout;
  always_comb begin
    wanted = 1'b0;
    timeout = '1;
    unique case (state_q)
      StDetectQuiet: timeout = TimerBits'(12 * MsCycles);
      StPolling: begin
        wanted = is_ts;
        timeout = TimerBits'(24 * MsCycles);
      end
      StConfig: begin
        wanted = is_ts2;
        timeout = TimerBits'(24 * MsCycles);
      end
      StConfigIdle, StRecoveryIdle: begin
        wanted = is_idle;
        timeout = TimerBits'(2 * MsCycles);
      end
      StRecoveryLock: begin
        wanted = is_ts;
        timeout = TimerBits'(24 * MsCycles);
      end
      StRecoveryCfg: begin
        wanted = is_ts2;
        timeout = TimerBits'(48 * MsCycles);
      end
      default: ;
    endcase
  end

  logic sent_enough, timed_out, leave_l0;
  assign sent_enough = sent_q >= SentBits'(lc_pkg::TS_SENT_TO_EXIT);
  assign timed_out = timer_q >= timeout;
  assign leave_l0 = escalate_i || bad_limit_i || retrain_i ||
                    (good_flit_i && good_type_i == lc_pkg::FLIT_TRAINING);

  always_comb begin
    state_d = state_q;
    partner_init_d = partner_init_q;
    unique case (state_q)
      StDisabled: if (enable_i) state_d = StDetectQuiet;
      StDetectQuiet: if (timed_out || rx_flit_i) state_d = StPolling;
      StPolling: begin
        if (heard_q && sent_enough) state_d = StConfig;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StConfig: begin
        if (heard_q && sent_enough) state_d = StConfigIdle;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StConfigIdle: begin
        if ((heard_q && sent_enough) || is_link) state_d = StL0;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StL0: if (leave_l0) state_d = StRecoveryLock;
      StRecoveryLock: begin
        if (heard_q && sent_enough) state_d = StRecoveryCfg;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StRecoveryCfg: begin
        if (heard_q && sent_enough) state_d = StRecoveryIdle;
        else if (timed_out) state_d = StDetectQuiet;
      end
      StRecoveryIdle: begin
        if ((heard_q && sent_enough) || is_link) state_d = StL0;
        else if (timed_out) state_d = StDetectQuiet;
        else if (is_ts1) state_d = StRecoveryLock;
      end
      default: state_d = StDetectQuiet;
    endcase
    if (!enable_i) state_d = StDisabled;
    // Credits come from TS2 of Configuration only; Recovery repeats but ignores them (DLL-5.7).
    if (state_q == StConfig && is_ts2) begin
      for (int v = 0; v < lc_pkg::NUM_VCS; v++) begin
        partner_init_d[v*lc_pkg::CREDIT_BITS +: lc_pkg::CREDIT_BITS] =
            good_record_i[(lc_pkg::TS_BYTES - 6 - 2 * v) * 8 - 5 -: 12];
      end
    end
  end

  logic entering;
  assign entering = state_d != state_q;

  always_comb begin
    timer_d = entering ? '0 : timer_q + 1'b1;
    if (timer_q == '1) timer_d = timer_q;
    sent_d = sent_q;
    if (tx_sent_i && !sent_enough) sent_d = sent_q + 1'b1;
    run_d = run_q;
    if (wanted) begin
      if (run_q < RunBits'(lc_pkg::TS_RECEIVED_TO_EXIT)) run_d = run_q + 1'b1;
    end else if (rx_flit_i) begin
      run_d = '0;
    end
    heard_d = heard_q || run_d >= RunBits'(lc_pkg::TS_RECEIVED_TO_EXIT);
    if (entering) begin
      sent_d = '0;
      run_d = '0;
      heard_d = 1'b0;
    end
    up_d = up_q;
    if (state_q == StConfigIdle && state_d == StL0) up_d = 1'b1;
    if (state_d == StDetectQuiet || state_d == StDisabled) up_d = 1'b0;
  end

  assign l0_o = state_q == StL0;
  assign idle_o = state_q == StConfigIdle || state_q == StRecoveryIdle;
  assign training_o = state_q == StPolling || state_q == StConfig ||
                      state_q == StRecoveryLock || state_q == StRecoveryCfg;
  assign ts_kind_o = (state_q == StConfig || state_q == StRecoveryCfg) ? lc_pkg::TS_KIND_TS2
                                                                         : lc_pkg::TS_KIND_TS1;
  // Registered, so that the datapath's events never loop back through state_d in one cycle:
  // both pulses come in the first cycle of the new state.
  assign link_reset_d = state_q == StConfig && state_d == StConfigIdle;
  assign replay_all_d = state_q == StRecoveryIdle && state_d == StL0;
  assign link_reset_o = link_reset_q;
  assign replay_all_o = replay_all_q;
  assign partner_init_o = partner_init_q;
  assign link_up_o = up_q;
  assign link_up_event_o = !up_q && up_d;
  assign link_down_event_o = up_q && !up_d;
  assign retrain_event_o = state_q == StL0 && state_d == StRecoveryLock;

  always_comb begin
    unique case (state_q)
      StDisabled: state_o = 3'd5;
      StDetectQuiet: state_o = 3'd0;
      StPolling: state_o = 3'd1;
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
      replay_all_q <= 1'b0;
    end else begin
      link_reset_q <= link_reset_d;
      replay_all_q <= replay_all_d;
      state_q <= state_d;
      timer_q <= timer_d;
      sent_q <= sent_d;
      run_q <= run_d;
      heard_q <= heard_d;
      up_q <= up_d;
      partner_init_q <= partner_init_d;
    end
  end

  `ASSERT(LtssmLegalState, state_q <= StRecoveryIdle)
  `ASSERT(LtssmL0OnlyWhenUp, !l0_o || up_q)
endmodule
